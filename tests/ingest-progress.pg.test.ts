/** tests/ingest-progress.suite.ts on PostgreSQL: each node stored as parsed (unpack, ingest, detect, finish). */
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { expectSteadyProgress, LINES, recordProgress } from "./ingest-progress.suite";

let db: TestDb;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(process.cwd(), ".tmp-progress-pg-"));
  process.env.BOOTLINE_DATA_DIR = dataDir;
  db = await createTestDb();
});
afterAll(async () => {
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("ingest progress on PostgreSQL", () => {
  it(`a bundle of ${LINES.toLocaleString("en")} lines reports every phase as it goes`, { timeout: 240_000 }, async () => {
    const run = await recordProgress(db);
    expect([run.status, run.events]).toEqual(["ready", LINES]);
    const { reports } = expectSteadyProgress(run.seen, ["unpack", "ingest", "detect", "finish"]);
    expect(reports).toBeGreaterThan(30);
  });
});
