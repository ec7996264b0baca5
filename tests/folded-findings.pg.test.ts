/** tests/folded-findings.suite.ts on PostgreSQL. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { foldedFindingsSuite } from "./folded-findings.suite";

let db: TestDb;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bootline-folded-pg-"));
  process.env.BOOTLINE_DATA_DIR = dir;
  db = await createTestDb();
});
afterAll(async () => {
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("findings folded per cause, on PostgreSQL", { timeout: 180_000 }, () => foldedFindingsSuite(() => db));
