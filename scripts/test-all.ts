/**
 * `npm test`: every test, in order: unit and integration (Vitest, on a real PostgreSQL:
 * each test file creates and drops its own database), then the formatter and linter (Biome,
 * `npm run lint`: one check, passed when every file is formatted and no rule reports an
 * error), then end-to-end (Playwright in Debian's Chromium against the built app on a fresh
 * database). Ends with one plain line `N passed, M failed` totalling every runner (CI reads
 * only that line).
 *
 * Env: BOOTLINE_TEST_PG (server for test databases, default
 * postgresql://postgres@127.0.0.1:5432/test), SKIP_E2E=1 to skip the end-to-end tests.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const tmp = path.join(root, ".tmp");
mkdirSync(tmp, { recursive: true });
const TEST_PG = process.env.BOOTLINE_TEST_PG ?? "postgresql://postgres@127.0.0.1:5432/test";

let passed = 0;
let failed = 0;

function run(cmd: string, args: string[], env: Record<string, string> = {}): number {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

// 1. Vitest
const vitestJson = path.join(tmp, "vitest.json");
rmSync(vitestJson, { force: true });
const vitestCode = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);
if (existsSync(vitestJson)) {
  const r = JSON.parse(readFileSync(vitestJson, "utf8")) as {
    numPassedTests?: number;
    numFailedTests?: number;
    testResults?: Array<{ status: string; name: string; assertionResults?: Array<{ status: string }> }>;
  };
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  // a test file that failed with no failing test (import error, failing hook) counts once
  for (const f of r.testResults ?? []) {
    if (f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed")) {
      console.error(`test file failed outside its tests: ${f.name}`);
      failed += 1;
    }
  }
} else {
  console.error("vitest produced no report");
  failed += 1;
}
if (vitestCode !== 0 && failed === 0) failed += 1; // a crash that reported no failing test still fails

// 2. Biome: formatting and lint rules (biome.json), one check
if (run("npx", ["biome", "ci", "--colors=off"]) === 0) passed += 1;
else {
  console.error("biome ci failed: run `npm run format`, then `npm run lint` for what remains");
  failed += 1;
}

// 3. Playwright
if (!process.env.SKIP_E2E) {
  const dbName = `bootline_e2e_${process.pid}`;
  const u = new URL(TEST_PG);
  const admin = new pg.Client({ connectionString: TEST_PG });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  u.pathname = `/${dbName}`;
  const env = { DATABASE_URL: u.toString(), NEXT_TELEMETRY_DISABLED: "1", CI: "1" };
  try {
    const buildCode = run("npm", ["run", "build"], env);
    if (buildCode !== 0) {
      console.error("next build failed: end-to-end tests not run");
      failed += 1;
    } else {
      const pwJson = path.join(tmp, "playwright.json");
      rmSync(pwJson, { force: true });
      const code = run("npx", ["playwright", "test", "--reporter=list,json"], { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson });
      if (existsSync(pwJson)) {
        const r = JSON.parse(readFileSync(pwJson, "utf8"));
        const s = r.stats ?? {};
        passed += (s.expected ?? 0) + (s.flaky ?? 0);
        failed += (s.unexpected ?? 0) + ((r.errors ?? []).length > 0 && (s.unexpected ?? 0) === 0 ? 1 : 0);
      } else {
        failed += 1;
      }
      if (code !== 0 && failed === 0) failed += 1;
    }
  } finally {
    const a = new pg.Client({ connectionString: TEST_PG });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await a.end();
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
