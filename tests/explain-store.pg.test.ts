import { afterAll, beforeAll, describe } from "vitest";
import { useTestDatabaseUrl } from "../lib/db/test-db";
import { explainStoreSuite } from "./explain-store.suite";

let db: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
beforeAll(async () => {
  db = await useTestDatabaseUrl();
});
afterAll(async () => {
  await db?.drop();
});

describe("explain a range on PostgreSQL", () => explainStoreSuite());
