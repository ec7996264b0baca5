import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { closeDb, getDb } from "@/lib/db/connection";
import { TEST_PG } from "@/lib/db/test-db";
import { reviewReadsSuite } from "./review-reads.suite";

// The read functions use the process-wide handles (getDb), so point DATABASE_URL at a
// fresh local database, and drop it after.
const name = `bootline_test_${randomBytes(6).toString("hex")}`;
async function admin(sql: string) {
  const c = new pg.Client({ connectionString: TEST_PG });
  await c.connect();
  await c.query(sql);
  await c.end();
}

beforeAll(async () => {
  const u = new URL(TEST_PG);
  if (!["127.0.0.1", "localhost", "::1"].includes(u.hostname)) throw new Error(`refusing to run tests against non-local database ${u.hostname}`);
  await admin(`CREATE DATABASE ${name}`);
  u.pathname = `/${name}`;
  process.env.DATABASE_URL = u.toString();
});
afterAll(async () => {
  await closeDb(await getDb());
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe("review reads on PostgreSQL", () => reviewReadsSuite());
