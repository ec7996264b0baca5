import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { useTestDatabaseUrl } from "../db/test-db";
import { postingsSuite } from "./search-postings.suite";

let db: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
let dir = "";
beforeAll(async () => {
  db = await useTestDatabaseUrl();
  dir = mkdtempSync(path.join(process.cwd(), ".tmp", "postings-pg-"));
  process.env.BOOTLINE_DATA_DIR = dir;
});
afterAll(async () => {
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("search postings on PostgreSQL", () => postingsSuite(() => dir));
