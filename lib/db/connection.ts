/**
 * The process-wide database handles: raw SQL (`getSql`) and Prisma Client (`getPrisma`),
 * both on the same backend. `DATABASE_URL` set: PostgreSQL (pg Pool + @prisma/adapter-pg).
 * Unset: embedded PGlite in `BOOTLINE_DATA_DIR` (default `./.data/pglite`), shared by both
 * handles because PGlite allows one process per data folder (DESIGN.md "Storage backends").
 * Migrations are applied once per process before the first handle is returned.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { uptime } from "node:os";
import path from "node:path";
import type { PrismaClient } from "./generated/client";
import { applyMigrations } from "./migrate";
import { pgSql, pgliteSql, type SqlDb } from "./sql";

export interface DbHandles {
  sql: SqlDb;
  prisma: PrismaClient;
  backend: "postgres" | "pglite";
  /** where the data lives: the URL without password, or the PGlite folder */
  location: string;
}

/** Folder of the embedded database. */
export function pgliteDir(): string {
  return path.resolve(process.env.BOOTLINE_DATA_DIR ?? path.join(process.cwd(), ".data"), "pglite");
}

/**
 * Opens handles for `url` (PostgreSQL) or, when `url` is null/undefined, the embedded
 * database. Applies pending migrations. Callers own the handles and must `closeDb` them.
 */
export async function openDb(url: string | null | undefined): Promise<DbHandles> {
  const { PrismaClient } = await import("./generated/client");
  if (url) {
    const pg = await import("pg");
    // timestamptz -> JS Date is fine; BIGINT ids come back as strings: keep them so.
    // one pool for raw SQL and Prisma, so closing it closes every connection
    const pool = new pg.default.Pool({ connectionString: url, max: 10 });
    // an idle connection closed by the server (restart, DROP DATABASE) must not crash the process
    pool.on("error", (e) => console.error(`bootline: database connection lost: ${e.message}`));
    const sql = pgSql(pool);
    await applyMigrations(sql);
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return { sql, prisma, backend: "postgres", location: url.replace(/:[^:@/]*@/, ":***@") };
  }
  const dir = pgliteDir();
  mkdirSync(dir, { recursive: true });
  claimPgliteDir(dir);
  const { PGlite } = await import("@electric-sql/pglite");
  const lite = await PGlite.create(dir);
  const sql = pgliteSql(lite);
  await applyMigrations(sql);
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  return { sql, prisma, backend: "pglite", location: dir };
}

/** Closes both handles; for the embedded database, also gives up its folder (`bootline.owner`). */
export async function closeDb(h: DbHandles): Promise<void> {
  await h.prisma.$disconnect();
  await h.sql.close();
  if (h.backend === "pglite") releasePgliteDir(h.location);
}

/** Who holds an embedded database folder: `<folder>/bootline.owner` (JSON). */
export interface PgliteOwner {
  /** the holder's process id */
  pid: number;
  /** the process's start time where /proc tells it (proc(5) `stat` field 22, clock ticks since boot), so a pid reused after a restart is not taken for the holder */
  started?: string | null;
  /** the app's port when the holder is the app's server (Next.js, its `PORT`), else null */
  port: string | null;
  /** UTC ms */
  since: number;
}

const ownerFile = (dir: string) => path.join(dir, "bootline.owner");

/** The live process holding the embedded database folder `dir` (another than this one), or null. */
export function pgliteOwner(dir = pgliteDir()): PgliteOwner | null {
  let o: PgliteOwner;
  try {
    o = JSON.parse(readFileSync(ownerFile(dir), "utf8")) as PgliteOwner;
  } catch {
    return null;
  }
  if (!o || typeof o !== "object" || !Number.isInteger(o.pid) || o.pid === process.pid) return null;
  // written before this machine last booted: whatever process has that pid now is not the holder
  if (typeof o.since === "number" && o.since < Date.now() - uptime() * 1000) return null;
  try {
    process.kill(o.pid, 0);
  } catch (e) {
    // EPERM: alive, another user's; ESRCH: gone (a crash left the file)
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return null;
  }
  // alive, but perhaps another process with the holder's pid (a container restarted)
  const started = processStart(o.pid);
  return o.started && started && started !== o.started ? null : o;
}

/** A process's start time from /proc/<pid>/stat (field 22), or null where /proc does not tell. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // fields after the command (in parentheses, which may hold blanks): state is field 3
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * Claims the embedded database folder for this process, or throws when another live process holds
 * it: PGlite allows one process per folder, and two writing it at once lose one side's writes (an
 * upload to the app vanished when the CLI wrote the folder while the app held it).
 */
function claimPgliteDir(dir: string): void {
  const file = ownerFile(dir);
  const me: PgliteOwner = { pid: process.pid, started: processStart(process.pid), port: process.env.NEXT_RUNTIME ? (process.env.PORT ?? null) : null, since: Date.now() };
  try {
    writeFileSync(file, JSON.stringify(me), { flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    const o = pgliteOwner(dir);
    if (o) {
      const since = Number.isFinite(o.since) ? `, since ${new Date(o.since).toISOString()}` : "";
      throw new Error(
        `the embedded database in ${dir} is open in ${o.port ? `the app on port ${o.port}` : "another bootline process"} (pid ${o.pid}${since}); it allows one process ` +
          `at a time (the CLI sends uploads to a running app by itself): stop that process, or set DATABASE_URL. If pid ${o.pid} is no bootline process, delete ${file}`,
      );
    }
    // a holder gone (or this process): take over, in one step for readers
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, JSON.stringify(me));
    renameSync(tmp, file);
  }
  // a process that ends without closeDb (the app's server is stopped by a signal) gives it up too
  if (!exitHook) {
    exitHook = true;
    process.once("exit", () => claimed.forEach(releasePgliteDir));
  }
  claimed.add(dir);
}

/** Folders this process claimed (released at exit), and whether the exit hook is in place. */
const claimed = new Set<string>();
let exitHook = false;

/** Removes the folder's owner file when this process wrote it. */
function releasePgliteDir(dir: string): void {
  try {
    const o = JSON.parse(readFileSync(ownerFile(dir), "utf8")) as PgliteOwner;
    if (o.pid === process.pid) rmSync(ownerFile(dir), { force: true });
    claimed.delete(dir);
  } catch {
    // not ours, or gone
  }
}

const g = globalThis as unknown as { __bootlineDb?: Promise<DbHandles> };

/** The process-wide handles for the configured database (`DATABASE_URL`), opened once. */
export function getDb(): Promise<DbHandles> {
  g.__bootlineDb ??= openDb(process.env.DATABASE_URL).catch((e) => {
    g.__bootlineDb = undefined;
    throw e;
  });
  return g.__bootlineDb;
}
