/**
 * The process-wide database handles: raw SQL (`getSql`) and Prisma Client (`getPrisma`),
 * both on the same backend. `DATABASE_URL` set: PostgreSQL (pg Pool + @prisma/adapter-pg).
 * Unset: embedded PGlite in `BOOTLINE_DATA_DIR` (default `./.data/pglite`), shared by both
 * handles because PGlite allows one process per data folder (DESIGN.md "Storage backends").
 * Migrations are applied once per process before the first handle is returned.
 */
import { mkdirSync } from "node:fs";
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
  const { PGlite } = await import("@electric-sql/pglite");
  const lite = await PGlite.create(dir);
  const sql = pgliteSql(lite);
  await applyMigrations(sql);
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  return { sql, prisma, backend: "pglite", location: dir };
}

export async function closeDb(h: DbHandles): Promise<void> {
  await h.prisma.$disconnect();
  await h.sql.close();
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
