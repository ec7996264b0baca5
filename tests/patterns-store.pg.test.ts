import { afterAll, beforeAll, describe } from "vitest";
import { useTestDatabaseUrl } from "../lib/db/test-db";
import { patternsStoreSuite } from "./patterns-store.suite";

let db: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
beforeAll(async () => {
  db = await useTestDatabaseUrl();
});
afterAll(async () => {
  await db?.drop();
});

describe("patterns through the ingest on PostgreSQL", () => patternsStoreSuite());
