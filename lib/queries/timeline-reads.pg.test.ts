import { afterAll, beforeAll, describe } from "vitest";
import { useTestDatabaseUrl } from "@/lib/db/test-db";
import { timelineReadsSuite } from "./timeline-reads.suite";

// The read functions use the process-wide handles (getDb): point DATABASE_URL at a fresh
// local database, and drop it after.
let db: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
beforeAll(async () => {
  db = await useTestDatabaseUrl();
});
afterAll(async () => {
  await db?.drop();
});

describe("timeline reads on PostgreSQL", () => timelineReadsSuite());
