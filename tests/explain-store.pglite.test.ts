import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { closeDb, getDb } from "../lib/db/connection";
import { explainStoreSuite } from "./explain-store.suite";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "bootline-explain-"));
  delete process.env.DATABASE_URL;
  process.env.BOOTLINE_DATA_DIR = dir;
});
afterAll(async () => {
  await closeDb(await getDb());
  rmSync(dir, { recursive: true, force: true });
});

describe("explain a range on PGlite", () => explainStoreSuite());
