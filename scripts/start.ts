/**
 * `npm start`: builds the app when the build is missing or older than the sources,
 * applies migrations, loads the sample incident on first start (Calico nodename race from
 * the scenario generator) and serves on http://localhost:$PORT (default 3000). Prints one
 * line per phase as it starts and how long it took, so a first start (a build of a few
 * minutes) says what it is doing; a build newer than every source is reused and said so.
 *
 * Database: `DATABASE_URL` when set, else the embedded PGlite in ./.data/pglite.
 * The embedded database allows one process, so this script closes it before starting the server
 * (scripts/serve.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { constants as osConstants } from "node:os";
import path from "node:path";
import { closeDb, openDb } from "../lib/db/connection";
import { tokenProblem } from "../lib/auth/auth";
import { parseTrustedProxies, TRUSTED_PROXIES_ENV } from "../lib/http/client-address";
import { loadRuleDir, rulesDir } from "../lib/ingest/rule-files";
import { loadSampleIncident } from "../lib/sample/load-sample";

const root = path.resolve(import.meta.dirname, "..");
const port = process.env.PORT ?? "3000";
// loopback only unless HOST says otherwise (HOST=0.0.0.0 serves every interface)
const host = process.env.HOST || "127.0.0.1";

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let best = st.mtimeMs;
  for (const e of readdirSync(p)) {
    if (e === "node_modules" || e === "generated" || e.startsWith(".")) continue;
    best = Math.max(best, newestMtime(path.join(p, e)));
  }
  return best;
}

/** Why the app needs a build (`null`: the build is newer than every source and is reused), and when it was built. */
function buildState(): { why: string | null; builtMs: number | null } {
  const id = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  if (!existsSync(id)) return { why: "no build yet (first start)", builtMs: null };
  const built = statSync(id).mtimeMs;
  const sources = ["app", "components", "lib", "public", "package.json", "next.config.ts", "instrumentation.ts", "proxy.ts", "tsconfig.json"].map((p) =>
    newestMtime(path.join(root, p)),
  );
  return { why: Math.max(...sources) > built ? "sources changed since the last build" : null, builtMs: built };
}

/** Seconds since `t0` (ms, performance.now()) as `12.3 s`. */
const took = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

async function main() {
  try {
    parseTrustedProxies(process.env[TRUSTED_PROXIES_ENV]);
  } catch (e) {
    console.error(`bootline: not starting: ${(e as Error).message}`);
    process.exit(1);
  }
  const tokenIssue = tokenProblem();
  if (tokenIssue) {
    console.error(`bootline: not starting: ${tokenIssue}`);
    process.exit(1);
  }
  const build = buildState();
  if (build.why) {
    console.log(`bootline: [1/4] building the app: ${build.why}; this compiles and type-checks everything and takes a few minutes…`);
    const t0 = performance.now();
    const r = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (r.status !== 0) {
      console.error(`bootline: the build failed after ${took(t0)} (its errors are above)`);
      process.exit(r.status ?? 1);
    }
    console.log(`bootline: [1/4] built in ${took(t0)}`);
  } else console.log(`bootline: [1/4] build of ${new Date(build.builtMs!).toISOString().slice(0, 19).replace("T", " ")} UTC is newer than the sources: reused`);
  console.log(`bootline: [2/4] opening the database and applying migrations…`);
  let t0 = performance.now();
  const db = await openDb(process.env.DATABASE_URL);
  console.log(`bootline: [2/4] database ${db.backend === "pglite" ? `embedded (PGlite) at ${db.location}` : db.location}, migrations applied (${took(t0)})`);
  // the rule files are read at run time (no build): checked here so a bad one shows at start
  const rules = loadRuleDir(rulesDir());
  console.log(`bootline: [2/4] ${rules.book.rules.length} rules from ${rules.files.length} files in ${rulesDir()}`);
  for (const p of rules.problems) console.error(`bootline: rule set left out: ${p}`);
  try {
    const count = await db.prisma.incident.count();
    if (count === 0 && process.env.BOOTLINE_NO_SAMPLE !== "1") {
      console.log("bootline: [3/4] loading the sample incident (Calico nodename race after a reboot)…");
      t0 = performance.now();
      const id = await loadSampleIncident(db);
      console.log(`bootline: [3/4] sample incident loaded (${took(t0)}): http://localhost:${port}/i/${id}`);
    } else
      console.log(
        `bootline: [3/4] ${count === 0 ? "no sample incident (BOOTLINE_NO_SAMPLE=1)" : `${count} incident${count === 1 ? "" : "s"} in the database: no sample loaded`}`,
      );
  } finally {
    await closeDb(db);
  }
  console.log(`bootline: [4/4] starting the server…`);
  console.log(`bootline: serving on http://localhost:${port}`);
  // bootline's server (scripts/serve.ts: Next.js behind the listener that takes each client's
  // address from the socket), run by node itself, not through npx (which does not pass signals
  // on: stopping this process left the server running, holding the port and the embedded
  // database); PORT in its environment goes into the embedded database's owner file, where the CLI
  // finds the app
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "serve.ts")], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PORT: port, HOST: host, NEXT_TELEMETRY_DISABLED: "1" },
  });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(sig, () => child.kill(sig));
  // a server killed by a signal it does not handle (SIGKILL, out of memory) is no clean exit: 128 + signal, as shells report it
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0)));
}

main().catch((e) => {
  console.error(`bootline: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
