/** tests/folded-findings.suite.ts on PGlite. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { closeDb, openDb, type DbHandles } from "../lib/db/connection";
import { foldedFindingsSuite } from "./folded-findings.suite";

let db: DbHandles;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bootline-folded-pglite-"));
  process.env.BOOTLINE_DATA_DIR = dir;
  db = await openDb(null);
});
afterAll(async () => {
  if (db) await closeDb(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("findings folded per cause, on PGlite", { timeout: 300_000 }, () => foldedFindingsSuite(() => db));
