/**
 * The process-wide database handles: raw SQL (`getSql`) and Prisma Client (`getPrisma`),
 * both on the same backend. `DATABASE_URL` set: PostgreSQL (pg Pool + @prisma/adapter-pg), on
 * two pools so page reads and an ingest do not wait for each other (`splitSql`): statements and
 * Prisma on one (`BOOTLINE_DB_POOL`, default 10 connections), transactions on the other
 * (`BOOTLINE_DB_WRITE_POOL`, default 10), whose server processes run at nice
 * `BOOTLINE_DB_WRITE_NICE` (default 10) when the server is on this machine and may be reniced.
 * Unset: embedded PGlite in `BOOTLINE_DATA_DIR` (default `./.data/pglite`), shared by both
 * handles because PGlite allows one process per data folder.
 * Migrations are applied once per process before the first handle is returned.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, uptime } from "node:os";
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
    // two pools (see `splitSql`): statements and Prisma on one, transactions on the other
    const pool = new pg.default.Pool({ connectionString: url, max: poolSize("BOOTLINE_DB_POOL", 10), application_name: "bootline" });
    const writes = new pg.default.Pool({ connectionString: url, max: poolSize("BOOTLINE_DB_WRITE_POOL", 10), application_name: "bootline-write" });
    const nice = writeNice();
    if (nice > 0 && isLoopback(url)) writes.on("connect", (client) => void lowerBackendPriority(client, nice));
    // an idle connection closed by the server (restart, DROP DATABASE) must not crash the process
    for (const p of [pool, writes]) p.on("error", (e) => console.error(`bootline: database connection lost: ${e.message}`));
    const sql = splitSql(pgSql(pool), pgSql(writes));
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

/** A pool's size from `name` (a positive integer), else `dflt`. */
function poolSize(name: string, dflt: number): number {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : dflt;
}

/** Nice value for the database backends of the transaction pool (`BOOTLINE_DB_WRITE_NICE`, 0 to 19, default 10; 0 leaves them alone). */
function writeNice(): number {
  const raw = process.env.BOOTLINE_DB_WRITE_NICE;
  const n = raw === undefined || raw.trim() === "" ? 10 : Number(raw);
  return Number.isInteger(n) ? Math.min(19, Math.max(0, n)) : 10;
}

/** Whether the database server of `url` runs on this machine (its backends are this machine's processes). */
function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === "" || host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host === "::1";
  } catch {
    return false;
  }
}

/**
 * Lowers the CPU priority (nice, setpriority(2)) of the server process behind a new connection of
 * the transaction pool, so an ingest's COPY yields the CPU to the backends answering page reads.
 * Best effort: only where the process may change the backend's priority (same user, or root).
 */
async function lowerBackendPriority(client: { query(text: string): Promise<{ rows: Array<{ pid: number }> }> }, nice: number): Promise<void> {
  try {
    const { rows } = await client.query("SELECT pg_backend_pid() AS pid");
    setPriority(rows[0].pid, nice);
  } catch {
    // not allowed (another user's process) or gone: the backend keeps its priority
  }
}

/**
 * One `SqlDb` over two pools, so the app's reads and an ingest do not wait for each other's
 * connections: statements outside a transaction (every page's reads, progress writes) run on
 * `reads`; transactions (an ingest holds one for its whole store, COPY included) on `writes`,
 * whose backends run at a lower CPU priority where that can be set (`lowerBackendPriority`).
 */
function splitSql(reads: SqlDb, writes: SqlDb): SqlDb {
  return {
    backend: reads.backend,
    query: (text, params) => reads.query(text, params),
    exec: (text) => reads.exec(text),
    queryText: (text) => reads.queryText(text),
    copyFrom: (table, columns, chunks) => writes.copyFrom(table, columns, chunks),
    transaction: (fn) => writes.transaction(fn),
    close: async () => {
      await Promise.all([reads.close(), writes.close()]);
    },
  };
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
  const me: PgliteOwner = {
    pid: process.pid,
    started: processStart(process.pid),
    port: process.env.NEXT_RUNTIME ? (process.env.PORT ?? null) : null,
    since: Date.now(),
  };
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
