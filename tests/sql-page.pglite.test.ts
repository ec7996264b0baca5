import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { closeDb, getDb } from "../lib/db/connection";
import { sqlPageSuite } from "./sql-page.suite";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "bootline-sql-page-"));
  delete process.env.DATABASE_URL;
  process.env.BOOTLINE_DATA_DIR = dir;
});
afterAll(async () => {
  await closeDb(await getDb());
  rmSync(dir, { recursive: true, force: true });
});

describe("the SQL page on PGlite", () => sqlPageSuite());
