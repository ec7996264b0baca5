/**
 * `npm start`: builds the app when the build is missing or older than the sources,
 * applies migrations, loads the sample incident on first start (Calico nodename race from
 * the scenario generator) and serves on http://localhost:$PORT (default 3000).
 *
 * Database: `DATABASE_URL` when set, else the embedded PGlite in ./.data/pglite.
 * The embedded database allows one process, so this script closes it before `next start`.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { constants as osConstants } from "node:os";
import path from "node:path";
import { closeDb, openDb } from "../lib/db/connection";
import { loadSampleIncident } from "../lib/sample/load-sample";

const root = path.resolve(import.meta.dirname, "..");
const port = process.env.PORT ?? "3000";

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

function needsBuild(): boolean {
  const id = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(id)) return true;
  const built = statSync(id).mtimeMs;
  const sources = ["app", "components", "lib", "public", "package.json", "next.config.ts", "instrumentation.ts"].map((p) => newestMtime(path.join(root, p)));
  return Math.max(...sources) > built;
}

async function main() {
  if (needsBuild()) {
    console.log("bootline: building the app (first start or sources changed)…");
    const r = spawnSync("npx", ["next", "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  const db = await openDb(process.env.DATABASE_URL);
  console.log(`bootline: database ${db.backend === "pglite" ? `embedded (PGlite) at ${db.location}` : db.location}, migrations applied`);
  try {
    const count = await db.prisma.incident.count();
    if (count === 0 && process.env.BOOTLINE_NO_SAMPLE !== "1") {
      console.log("bootline: loading the sample incident (Calico nodename race after a reboot)…");
      const id = await loadSampleIncident(db);
      console.log(`bootline: sample incident at http://localhost:${port}/i/${id}`);
    }
  } finally {
    await closeDb(db);
  }
  console.log(`bootline: serving on http://localhost:${port}`);
  // Next.js's own entry, not through npx (which does not pass signals on: stopping this process
  // left the server running, holding the port and the embedded database); PORT in its environment
  // goes into the embedded database's owner file, where the CLI finds the app
  const next = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const child = spawn(process.execPath, [next, "start", "-p", port], { cwd: root, stdio: "inherit", env: { ...process.env, PORT: port, NEXT_TELEMETRY_DISABLED: "1" } });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(sig, () => child.kill(sig));
  // a server killed by a signal it does not handle (SIGKILL, out of memory) is no clean exit: 128 + signal, as shells report it
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0)));
}

main().catch((e) => {
  console.error(`bootline: ${(e as Error).stack ?? e}`);
  process.exit(1);
});
