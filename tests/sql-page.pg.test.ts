import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askUrl, closeAskPools } from "../lib/ask/ask-pool";
import { useTestDatabaseUrl } from "../lib/db/test-db";
import { sqlPageSuite } from "./sql-page.suite";

let db: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
beforeAll(async () => {
  db = await useTestDatabaseUrl();
});
afterAll(async () => {
  await closeAskPools();
  await db?.drop();
});

describe("the SQL page on PostgreSQL", () => {
  sqlPageSuite();

  it("connects as a role that cannot take the app's privileges back, whatever it runs", async () => {
    const c = new pg.Client({ connectionString: askUrl(db.url) });
    await c.connect();
    const err = (sql: string) =>
      c.query(sql).then(
        () => "ran",
        (e: Error) => e.message,
      );
    try {
      expect((await c.query("SELECT current_user AS u, session_user AS s")).rows).toEqual([{ u: "bootline_ask", s: "bootline_ask" }]);
      expect(await err("SET ROLE postgres")).toBe('permission denied to set role "postgres"');
      expect(await err("RESET ROLE")).toBe("ran");
      expect((await c.query("SELECT current_user AS u")).rows).toEqual([{ u: "bootline_ask" }]);
      expect(await err('SELECT * FROM public."Event"')).toBe("permission denied for table Event");
      expect(await err(`INSERT INTO public."AskBinding" (pid, "incidentId") VALUES (pg_backend_pid(), 'x')`)).toBe("permission denied for table AskBinding");
      expect(await err("CREATE TABLE public.t (a int)")).toBe("permission denied for schema public");
      expect(await err("CREATE SCHEMA x")).toMatch(/^permission denied for database/);
      // unbound, the views are empty
      expect((await c.query("SELECT count(*)::int AS n FROM ask.events")).rows).toEqual([{ n: 0 }]);
    } finally {
      await c.end();
    }
  });
});
