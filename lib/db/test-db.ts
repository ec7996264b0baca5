/**
 * Test helper: a fresh PostgreSQL database per test file on the server at
 * `BOOTLINE_TEST_PG` (default postgresql://postgres@127.0.0.1:5432/test), dropped after.
 * Refuses non-local servers (STYLE.md "Playwright like cal.com and dub": a guard against
 * running tests on a real database).
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

/** Creates `bootline_test_<random>`, applies migrations, returns handles and a `drop`. */
export async function createTestDb(): Promise<TestDb> {
  const host = new URL(TEST_PG).hostname;
  if (!["127.0.0.1", "localhost", "::1"].includes(host)) throw new Error(`refusing to run tests against non-local database ${host}`);
  const name = `bootline_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_PG });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(TEST_PG, name);
  const h = await openDb(url);
  return {
    ...h,
    url,
    async drop() {
      await closeDb(h);
      const a = new pg.Client({ connectionString: TEST_PG });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}
