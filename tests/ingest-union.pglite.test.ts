/** tests/ingest-union.suite.ts on PGlite: every bundle stored once its nodes are parsed. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { closeDb, openDb, type DbHandles } from "../lib/db/connection";
import { ingestUnionSuite } from "./ingest-union.suite";

let db: DbHandles;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bootline-union-pglite-"));
  process.env.BOOTLINE_DATA_DIR = dir;
  db = await openDb(null);
});
afterAll(async () => {
  if (db) await closeDb(db);
  rmSync(dir, { recursive: true, force: true });
});

describe("cases uploaded together store what each stores alone, on PGlite", () => ingestUnionSuite(() => db, "pglite", 20));
