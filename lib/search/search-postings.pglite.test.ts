import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { closeDb, getDb } from "../db/connection";
import { postingsSuite } from "./search-postings.suite";

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "bootline-postings-"));
  delete process.env.DATABASE_URL;
  process.env.BOOTLINE_DATA_DIR = dir;
});
afterAll(async () => {
  await closeDb(await getDb());
  rmSync(dir, { recursive: true, force: true });
});

describe("search postings on PGlite", () => postingsSuite(() => dir));
