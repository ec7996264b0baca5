/** tests/ingest-progress.suite.ts on PGlite: the bundle stored once its nodes are parsed (unpack, ingest, detect, finish). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, openDb, type DbHandles } from "../lib/db/connection";
import { expectSteadyProgress, LINES, recordProgress } from "./ingest-progress.suite";

let db: DbHandles;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bootline-progress-pglite-"));
  process.env.BOOTLINE_DATA_DIR = dir;
  db = await openDb(null);
});
afterAll(async () => {
  if (db) await closeDb(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("ingest progress on PGlite", () => {
  it(`a bundle of ${LINES.toLocaleString("en")} lines reports every phase as it goes`, { timeout: 300_000 }, async () => {
    const run = await recordProgress(db);
    expect([run.status, run.events]).toEqual(["ready", LINES]);
    const { reports } = expectSteadyProgress(run.seen, ["unpack", "ingest", "detect", "finish"]);
    expect(reports).toBeGreaterThan(30);
  });
});
