import { afterAll, beforeAll, describe } from "vitest";
import { closeDb, getDb } from "@/lib/db/connection";
import { createTestDb, type TestDb } from "@/lib/db/test-db";
import { timelineReadsSuite } from "./timeline-reads.suite";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  process.env.DATABASE_URL = t.url;
});
afterAll(async () => {
  await closeDb(await getDb());
  await t.drop();
});

describe("timeline reads on PostgreSQL", () => timelineReadsSuite());
