/**
 * Test helper: a fresh PostgreSQL database per test file on the server at
 * `BOOTLINE_TEST_PG` (default postgresql://postgres@127.0.0.1:5432/test), dropped after.
 * Refuses non-local servers: a guard against running tests on a real database.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { closeDb, openDb, type DbHandles } from "./connection";

export const TEST_PG = process.env.BOOTLINE_TEST_PG ?? "postgresql://postgres@127.0.0.1:5432/test";

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

export interface TestDb extends DbHandles {
  url: string;
  drop(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: TEST_PG });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Creates an empty `bootline_test_<random>` on the local server; returns its URL and a drop. */
async function createEmptyDb(): Promise<{ url: string; dropDatabase(): Promise<void> }> {
  const host = new URL(TEST_PG).hostname;
  if (!["127.0.0.1", "localhost", "::1"].includes(host)) throw new Error(`refusing to run tests against non-local database ${host}`);
  const name = `bootline_test_${randomBytes(6).toString("hex")}`;
  await admin(`CREATE DATABASE ${name}`);
  return { url: withDatabase(TEST_PG, name), dropDatabase: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Creates `bootline_test_<random>`, applies migrations, returns handles and a `drop`. */
export async function createTestDb(): Promise<TestDb> {
  const { url, dropDatabase } = await createEmptyDb();
  const h = await openDb(url);
  return {
    ...h,
    url,
    async drop() {
      await closeDb(h);
      await dropDatabase();
    },
  };
}

/**
 * For code that reads the process-wide handles (`getDb()`): creates a test database and
 * points `DATABASE_URL` at it (migrations run when getDb first opens it). `drop` closes
 * getDb's handles and drops the database.
 */
export async function useTestDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  const { url, dropDatabase } = await createEmptyDb();
  process.env.DATABASE_URL = url;
  return {
    url,
    async drop() {
      const { closeDb: close, getDb } = await import("./connection");
      await close(await getDb());
      await dropDatabase();
    },
  };
}
