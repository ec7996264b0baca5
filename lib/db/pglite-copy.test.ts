/**
 * COPY on the embedded PGlite (lib/db/sql.ts `PgliteConn.copyFrom`): the input goes in slices of
 * about 4 MB, and the event loop gets a turn after each, so an app on PGlite answers requests
 * while a bundle is stored (PGlite's statements run on the app's own thread and its promises
 * settle as microtasks). Checked: every row arrives, over several slices, and a callback queued
 * on the event loop before the COPY runs before its last slice is read.
 */
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteSql, type SqlDb } from "./sql";

let lite: PGlite;
let db: SqlDb;
beforeAll(async () => {
  lite = new PGlite();
  db = pgliteSql(lite);
  await db.exec(`CREATE TABLE copy_slices (n int, t text)`);
});
afterAll(async () => {
  await db?.close();
});

describe("PGlite COPY", () => {
  it("copies in slices and lets the event loop run between them", async () => {
    const order: string[] = [];
    setImmediate(() => order.push("event loop"));
    const filler = "x".repeat(1000);
    // 12 chunks of 1,000 rows of about 1 kB: about 12 MB, so three 4 MB slices
    function* chunks(): Generator<string> {
      for (let c = 0; c < 12; c++) {
        order.push(`chunk ${c}`);
        let s = "";
        for (let i = 0; i < 1000; i++) s += `${c * 1000 + i}\t${filler}\n`;
        yield s;
      }
    }
    expect(await db.copyFrom("copy_slices", ["n", "t"], chunks())).toBe(12_000);
    const [r] = await db.query<{ n: number; s: number }>(`SELECT count(*)::int AS n, sum(n)::int AS s FROM copy_slices`);
    expect(r).toEqual({ n: 12_000, s: (11_999 * 12_000) / 2 });
    // the first slice (chunks 0 to 3) goes when chunk 4 would pass 4 MiB; the loop ran before the rest was read
    const tick = order.indexOf("event loop");
    expect(tick).toBeGreaterThan(0);
    expect(tick).toBeLessThan(order.indexOf("chunk 11"));
  });
});
