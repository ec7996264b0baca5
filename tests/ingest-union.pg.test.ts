/** tests/ingest-union.suite.ts on PostgreSQL: plain uploads and collector archives. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { ingestUnionSuite } from "./ingest-union.suite";

let db: TestDb;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bootline-union-pg-"));
  process.env.BOOTLINE_DATA_DIR = dir;
  db = await createTestDb();
});
afterAll(async () => {
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("cases uploaded together store what each stores alone, on PostgreSQL", () => ingestUnionSuite(() => db, "postgres", 30));
