/**
 * For tests of the app's routes and reads: a fresh test database as the app's own
 * (`DATABASE_URL`, lib/db/test-db.ts `useTestDatabaseUrl`), the app's handles on it (`getDb`) and
 * a data folder of its own under the working directory (`BOOTLINE_DATA_DIR`, `.tmp-<tag>-*`),
 * made before the file's tests and dropped after them. Call at a test file's top level; the
 * fields are set once `beforeAll` ran.
 */
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type DbHandles, getDb } from "../db/connection";
import { useTestDatabaseUrl } from "../db/test-db";

export interface AppTestDb {
  /** the test database (its `sql` for direct queries, `drop`) */
  t: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
  /** the app's handles on it */
  db: DbHandles;
  dataDir: string;
}

export function appTestDb(tag: string): AppTestDb {
  const app = {} as AppTestDb;
  beforeAll(async () => {
    app.t = await useTestDatabaseUrl();
    app.db = await getDb();
    app.dataDir = mkdtempSync(path.join(process.cwd(), `.tmp-${tag}-`));
    process.env.BOOTLINE_DATA_DIR = app.dataDir;
  });
  afterAll(async () => {
    await app.t?.drop();
    if (app.dataDir) rmSync(app.dataDir, { recursive: true, force: true });
  });
  return app;
}
