/**
 * A deleted incident's search data goes with it, on PostgreSQL: after `DELETE
 * /api/incidents/:id` no postings table, index, word-count or word table of its bundles is left, and no row of
 * any table holds its words; a search still reading a postings table delays that table's drop
 * (lock timeout, retried) without waiting on it, and the sweep after the builds drops it once the
 * reader is done.
 */
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { dropSearchData } from "./search-drop";
import { afterSearchBuilds, buildSearchIndex, wordCountsTableName } from "./search-index";
import { postingsTableName } from "./postings";
import { appTestDb } from "../testing/app-db";

vi.mock("../ingest/worker", () => ({ startIngestWorker: async () => ({ enqueue: async () => {} }) }));

const app = appTestDb("search-drop");

/**
 * Uploads and ingests a log whose lines hold `word`, with its search postings (postings.ts) or,
 * `postings: false`, without them and then builds its search index and word counts (as bundles
 * stored before postings have); returns the ids.
 */
async function incidentWith(word: string, postings = true): Promise<{ incidentId: string; bundleId: string }> {
  const { POST } = await import("../../app/api/uploads/route");
  const log = Array.from(
    { length: 20 },
    (_, i) =>
      `Mar 14 02:10:${String(i).padStart(2, "0")} node-d kubelet[1234]: I0314 02:10:${String(i).padStart(2, "0")}.1 1234 kubelet.go:1] "volume ${word} ready ${i}"\n`,
  ).join("");
  const boundary = "----drop";
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="year"\r\n\r\n2026\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="kubelet-${word}.log"\r\n\r\n${log}\r\n--${boundary}--\r\n`;
  const res = await POST(
    new Request("http://127.0.0.1/api/uploads", { method: "POST", body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } }),
  );
  const ids = (await res.json()) as { incidentId: string; bundleId: string };
  const { processBundle } = await import("../ingest/pipeline");
  if (!postings) process.env.BOOTLINE_SEARCH_POSTINGS = "0";
  try {
    expect(await processBundle(app.db, ids.bundleId)).toMatchObject({ status: "ready", events: 20 });
  } finally {
    delete process.env.BOOTLINE_SEARCH_POSTINGS;
  }
  expect(await buildSearchIndex(app.db.sql, ids.bundleId)).toBe(true);
  return ids;
}

/** The relations (tables, indexes) whose name holds `bundleId`. */
const relationsOf = async (bundleId: string) =>
  (await app.db.sql.query<{ relname: string }>(`SELECT relname FROM pg_class WHERE strpos(relname, $1) > 0 ORDER BY 1`, [bundleId])).map((r) => r.relname);

/** Tables any of whose rows, read as text, hold `word`. */
async function tablesHolding(word: string): Promise<string[]> {
  const tables = await app.db.sql.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'`);
  const out: string[] = [];
  for (const { t: table } of tables)
    if ((await app.db.sql.query(`SELECT 1 FROM "${table}" x WHERE strpos(x::text, $1) > 0 LIMIT 1`, [word])).length) out.push(table);
  return out;
}

describe("deleting an incident", () => {
  it("drops its postings: its words are gone from the database", async () => {
    const { incidentId, bundleId } = await incidentWith("xylophonequill");
    expect(await relationsOf(bundleId)).toEqual([postingsTableName(bundleId), `${postingsTableName(bundleId)}_word_idx`]);
    expect(await tablesHolding("xylophonequill")).toEqual(expect.arrayContaining(["Event", postingsTableName(bundleId)]));
    const { DELETE } = await import("../../app/api/incidents/[incidentId]/route");
    const res = await DELETE(new Request("http://127.0.0.1/x", { method: "DELETE" }), { params: Promise.resolve({ incidentId }) });
    expect(res.status).toBe(200);
    // gone before the answer
    expect(await relationsOf(bundleId)).toEqual([]);
    expect(await tablesHolding("xylophonequill")).toEqual([]);
  });

  it("drops its search index, word counts and word tables (a bundle stored without postings): its words are gone from the database", async () => {
    const { incidentId, bundleId } = await incidentWith("zanzibarquux", false);
    expect(await relationsOf(bundleId)).toEqual(expect.arrayContaining([`Event_search_${bundleId}`, wordCountsTableName(bundleId)]));
    expect(await tablesHolding("zanzibarquux")).toEqual(expect.arrayContaining(["Event", wordCountsTableName(bundleId)]));
    const { DELETE } = await import("../../app/api/incidents/[incidentId]/route");
    const res = await DELETE(new Request("http://127.0.0.1/x", { method: "DELETE" }), { params: Promise.resolve({ incidentId }) });
    expect(res.status).toBe(200);
    // the word tables went before the answer; the index goes on the build chain
    expect(await relationsOf(bundleId)).not.toContain(wordCountsTableName(bundleId));
    await afterSearchBuilds(async () => {});
    expect(await relationsOf(bundleId)).toEqual([]);
    expect(await tablesHolding("zanzibarquux")).toEqual([]);
  });

  it("does not wait on a search still reading a postings table: the sweep drops it after", async () => {
    const { incidentId, bundleId } = await incidentWith("quokkamarble");
    const reader = new pg.Client({ connectionString: app.t.url });
    await reader.connect();
    try {
      await reader.query("BEGIN");
      await reader.query(`SELECT count(*) FROM "${postingsTableName(bundleId)}"`);
      await app.db.sql.query(`DELETE FROM "Event" WHERE "incidentId" = $1`, [incidentId]);
      await app.db.sql.query(`DELETE FROM "Incident" WHERE id = $1`, [incidentId]);
      const r = await dropSearchData(app.db.sql, [bundleId], { tries: 2, lockTimeoutMs: 50 });
      expect(r.left).toEqual([postingsTableName(bundleId)]);
      // other reads go on meanwhile, the table's own included
      expect(await app.db.sql.query(`SELECT count(*)::int AS n FROM "${postingsTableName(bundleId)}"`)).toEqual([{ n: expect.any(Number) }]);
      await reader.query("COMMIT");
      await r.done;
      expect(await relationsOf(bundleId)).toEqual([]);
    } finally {
      await reader.end();
    }
  });
});
