/**
 * Incident search over a bundle stored with its search postings (postings.ts, made by the ingest
 * threads): searchable the moment the ingest returns `ready`, with nothing built after it, and
 * every answer the same as the search over a bundle indexed after its ingest
 * (search-incident.suite.ts, same journals). Run on PostgreSQL and on PGlite
 * (search-postings.pg.test.ts, search-postings.pglite.test.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../db/connection";
import { enqueueBundle } from "../ingest/enqueue-bundle";
import { processBundle } from "../ingest/pipeline";
import { countEvents } from "../queries/count-events";
import { getEventsPage } from "../queries/get-events-page";
import { LANES } from "../view/lanes";
import { BOOTS, FAILURES_PER_BOOT, NODES, RARE_POD, RARE_SANDBOX, searchFixtureFiles } from "./search-fixture";
import { buildSearchIndex, countedBundles, dropStaleSearchIndexes, indexedBundles } from "./search-index";
import { searchIncident, type TSearchResult } from "./search-incident";
import { postedBundles, postingsTableName } from "./postings";
import { docTextSql, matchRegexSql, QUERY_WORDS_SQL } from "./search-sql";

const table = (r: TSearchResult) => r.groups.map((g) => [g.node, g.bootKey, g.count]);
const [n1, n3] = [NODES[0], NODES[2]];

export function postingsSuite(dataDir: () => string): void {
  let incidentId = "";
  let bundleId = "";

  beforeAll(async () => {
    const h = await getDb();
    const dir = path.join(dataDir(), "in");
    mkdirSync(dir, { recursive: true });
    const files = searchFixtureFiles().map((f) => {
      writeFileSync(path.join(dir, f.name), f.content);
      return { name: f.name, path: path.join(dir, f.name) };
    });
    const e = await enqueueBundle(h, { title: "postings", files, options: { year: 2026 } });
    const r = await processBundle(h, e.bundleId);
    expect(r.status).toBe("ready");
    incidentId = e.incidentId;
    bundleId = e.bundleId;
  }, 120_000);

  it("the ids are compressed with lz4 where the server has it (PostgreSQL here), else with its default (PGlite: pglz)", async () => {
    const { sql } = await getDb();
    const [c] = await sql.query<{ method: string; offered: string[] }>(
      `SELECT a.attcompression::text AS method, (SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression') AS offered
       FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attname = 'ids'`,
      [`"${postingsTableName(bundleId)}"`],
    );
    // attcompression: 'l' lz4, '' the server's default (pglz)
    expect(c.method).toBe(sql.backend === "postgres" ? "l" : "");
    expect(c.offered.includes("lz4")).toBe(sql.backend === "postgres");
  });

  it("ready means searchable: postings stored with the rows, no index or word counts built after", async () => {
    const { sql } = await getDb();
    expect((await postedBundles(sql, [bundleId])).has(bundleId)).toBe(true);
    expect((await indexedBundles(sql, [bundleId])).size).toBe(0);
    expect((await countedBundles(sql, [bundleId])).size).toBe(0);
    const r = await searchIncident({ incidentId, q: RARE_SANDBOX });
    expect(r.bundles).toEqual({ indexed: 1, scanned: 0 });
    expect(table(r)).toEqual([
      [n1, BOOTS[n1][1], 2],
      [n3, BOOTS[n3][0], 1],
    ]);
    expect(r.groups[0].hits.map((h) => [new Date(h.ts!).toISOString(), h.lane])).toEqual([
      ["2026-03-14T03:00:17.100Z", "runtime"],
      ["2026-03-14T03:00:17.200Z", "kubelet"],
    ]);
    // nothing to build: the builder returns at once and makes nothing
    expect(await buildSearchIndex(sql, bundleId)).toBe(true);
    expect((await indexedBundles(sql, [bundleId])).size).toBe(0);
    // the other queries of the suite over an indexed bundle, the same answers
    const per = 2 * FAILURES_PER_BOOT;
    expect((await searchIncident({ incidentId, q: "nodename" })).groups.map((g) => g.count)).toEqual([per, per, per, per - 1]);
    expect(table(await searchIncident({ incidentId, q: RARE_POD }))).toEqual([[n1, BOOTS[n1][1], 2]]);
    expect((await searchIncident({ incidentId, q: "CALICO-NODE-X7K2P" })).total).toBe(2);
    expect(table(await searchIncident({ incidentId, q: "failed to destroy network" }))).toEqual([[n3, BOOTS[n3][0], 1]]);
    expect((await searchIncident({ incidentId, q: "calico-node-x7k2" })).total).toBe(0);
    expect((await searchIncident({ incidentId, q: "network destroy" })).total).toBe(0);
    expect((await searchIncident({ incidentId, q: "nosuchwordanywhere" })).groups).toEqual([]);
    // a short id (13 hex digits) finds the id's events; the middle of the id, none
    const part = await searchIncident({ incidentId, q: RARE_SANDBOX.slice(0, 13) });
    expect(part.groups.flatMap((g) => g.hits.map((h) => h.id))).toEqual(r.groups.flatMap((g) => g.hits.map((h) => h.id)));
    expect((await searchIncident({ incidentId, q: RARE_SANDBOX.slice(5, 18) })).total).toBe(0);
  });

  it("the postings hold every word of every event: counts and ids equal to a scan with the search's own regex", async () => {
    const { sql } = await getDb();
    const post = `"${postingsTableName(bundleId)}"`;
    type Row = { word: string; nodeId: number | null; bootId: number | null; n: number; ids: string };
    const key = (r: Row) => `${r.word} ${r.nodeId} ${r.bootId}`;
    const fast = await sql.query<Row>(
      `SELECT p.word, p."nodeId", p."bootId", sum(p.n)::int AS n,
              (SELECT string_agg(i::text, ',' ORDER BY i) FROM ${post} q, unnest(q.ids) i
               WHERE q.word = p.word AND q."nodeId" IS NOT DISTINCT FROM p."nodeId" AND q."bootId" IS NOT DISTINCT FROM p."bootId") AS ids
       FROM ${post} p GROUP BY 1, 2, 3`,
    );
    const scan = await sql.query<Row>(
      `SELECT w.word, e."nodeId", e."bootId", count(*)::int AS n, string_agg(e.id::text, ',' ORDER BY e.id) AS ids
       FROM (SELECT DISTINCT word FROM ${post}) w
       JOIN "Event" e ON e."bundleId" = $1 AND ${matchRegexSql("e.", `('(^|[^[:alnum:]])' || w.word || '($|[^[:alnum:]])')`)}
       GROUP BY 1, 2, 3`,
      [bundleId],
    );
    const sorted = (rows: Row[]) => rows.map((r) => `${key(r)} ${Number(r.n)} ${r.ids}`).sort();
    expect(fast.length).toBeGreaterThan(200);
    expect(sorted(fast)).toEqual(sorted(scan));
    // and no word is missing: the words the database splits from the same text
    const [all] = await sql.query<{ n: number }>(
      `SELECT count(DISTINCT w)::int AS n FROM "Event" e, regexp_split_to_table(lower(${docTextSql("e.")}), '[^[:alnum:]]+') w WHERE e."bundleId" = $1 AND w <> ''`,
      [bundleId],
    );
    expect(new Set(fast.map((r) => r.word)).size).toBe(all.n);
  });

  it("a word too common for postings: counted from them, its events found by a scan, the same answers", async () => {
    const { sql } = await getDb();
    const post = `"${postingsTableName(bundleId)}"`;
    const before = await searchIncident({ incidentId, q: "nodename", hitsPerBoot: 3 });
    const phrase = await searchIncident({ incidentId, q: "calico nodename" });
    const [b] = await sql.query<{ id: number; lo: number; hi: number }>(
      `SELECT b.id, (extract(epoch FROM min(e.ts)) * 1000)::float8 AS lo, (extract(epoch FROM max(e.ts)) * 1000)::float8 AS hi
       FROM "Boot" b JOIN "Event" e ON e."bootId" = b.id WHERE b."incidentId" = $1 AND b."bootKey" = $2 GROUP BY b.id`,
      [incidentId, BOOTS[n1][1]],
    );
    const boot = { incidentId, bootId: b.id, fromMs: Number(b.lo), toMs: Number(b.hi) + 1, lanes: [...LANES], q: "nodename", match: "words" as const };
    const pageBefore = await getEventsPage({ ...boot, limit: 5 });
    expect(pageBefore.events).toHaveLength(5);
    const allBefore = (await getEventsPage({ ...boot, limit: 1000 })).events.map((e) => e.id);
    const countBefore = await countEvents(boot);
    expect(countBefore).toMatchObject({ matching: allBefore.length, capped: false });
    // a part of the boot: its first half, or one lane left out
    const half = { ...boot, toMs: Math.floor((boot.fromMs + boot.toMs) / 2) };
    const lanes = { ...boot, lanes: LANES.filter((l) => l !== "kubelet") };
    const partsBefore = [(await countEvents(half)).matching, (await countEvents(lanes)).matching];
    expect(partsBefore[0]).toBeLessThan(allBefore.length);
    expect(partsBefore[1]).toBeLessThan(allBefore.length);
    await sql.exec(`ALTER TABLE ${post} ADD COLUMN kept bigint[]`);
    await sql.exec(`UPDATE ${post} SET kept = ids, ids = NULL WHERE word IN ('nodename', 'calico')`);
    try {
      const after = await searchIncident({ incidentId, q: "nodename", hitsPerBoot: 3 });
      expect(after.bundles).toEqual({ indexed: 0, scanned: 1 });
      expect(table(after)).toEqual(table(before));
      expect(after.groups.map((g) => g.hits.map((h) => h.id))).toEqual(before.groups.map((g) => g.hits.map((h) => h.id)));
      expect(table(await searchIncident({ incidentId, q: "calico nodename" }))).toEqual(table(phrase));
      // the timeline walks the boot for such a word: the same first page, whole, in one request
      const walked = await getEventsPage({ ...boot, limit: 5 });
      expect(walked).toMatchObject({ scannedToMs: null, match: "words" });
      expect(walked.events.map((e) => e.id)).toEqual(pageBefore.events.map((e) => e.id));
      // a short first walk, then the rest walked or read by bounded slices: the same events in the same order
      const sliced = await getEventsPage({ ...boot, limit: 500, walkRows: 3, scanRows: 10 });
      expect(sliced.events.length).toBeGreaterThan(0);
      expect(sliced.events.map((e) => e.id)).toEqual((await getEventsPage({ ...boot, limit: 500 })).events.slice(0, sliced.events.length).map((e) => e.id));
      // page after page of small slices, each read in time order: every match once, in order
      const paged: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 500; i++) {
        const p = await getEventsPage({ ...boot, cursor, limit: 3, scanRows: 7 });
        paged.push(...p.events.map((e) => e.id));
        cursor = p.nextCursor;
        if (!cursor) break;
      }
      expect(cursor).toBeNull();
      expect(paged).toEqual(allBefore);
      // the whole boot counted from the postings' numbers in one request, exact; a part of it in slices, as before
      expect(await countEvents({ ...boot, scanRows: 5 })).toEqual(countBefore);
      const sum = async (f: typeof boot) => {
        let n = 0;
        let from = f.fromMs;
        for (;;) {
          const c = await countEvents({ ...f, fromMs: from, scanRows: 5 });
          n += c.matching;
          if (c.scannedToMs === undefined) return n;
          from = c.scannedToMs;
        }
      };
      expect([await sum(half), await sum(lanes)]).toEqual(partsBefore);
      expect((await countEvents({ ...half, scanRows: 5 })).capped).toBe(true);
      // a copy of the boot's rows, at the same times: slices that end inside an instant still give every match once
      const [{ top }] = await sql.query<{ top: string }>(`SELECT max(id)::text AS top FROM "Event"`);
      await sql.transaction(async (tx) => {
        await tx.query(`CREATE TEMP TABLE copied ON COMMIT DROP AS SELECT * FROM "Event" WHERE "bootId" = $1`, [b.id]);
        await tx.query(`UPDATE copied SET id = id + $1::bigint`, [top]);
        await tx.exec(`INSERT INTO "Event" SELECT * FROM copied`);
      });
      try {
        const [w] = await sql.query<{ re: string }>(QUERY_WORDS_SQL, ["nodename"]);
        const expected = await sql.query<{ id: string }>(
          `SELECT e.id::text AS id FROM "Event" e WHERE e."bootId" = $1 AND ${matchRegexSql("e.", "$2")} ORDER BY e.ts, e."fileId", e.line, e.id`,
          [b.id, w.re],
        );
        expect(expected.length).toBe(2 * allBefore.length);
        for (const [limit, scanRows] of [
          [3, 7],
          [5, 3],
          [40, 9],
        ]) {
          const ids: string[] = [];
          let at: string | null = null;
          for (let i = 0; i < 500; i++) {
            const p = await getEventsPage({ ...boot, cursor: at, limit, scanRows });
            ids.push(...p.events.map((e) => e.id));
            at = p.nextCursor;
            if (!at) break;
          }
          expect(ids).toEqual(expected.map((r) => r.id));
        }
      } finally {
        await sql.query(`DELETE FROM "Event" WHERE id > $1::bigint`, [top]);
      }
      // one rare word with them: its postings pick the events
      expect((await searchIncident({ incidentId, q: `nodename ${RARE_SANDBOX}` })).bundles).toEqual({ indexed: 1, scanned: 0 });
    } finally {
      await sql.exec(`UPDATE ${post} SET ids = kept WHERE kept IS NOT NULL`);
      await sql.exec(`ALTER TABLE ${post} DROP COLUMN kept`);
    }
  });

  it("a word too common for postings in one boot is read through them in another", async () => {
    const { sql } = await getDb();
    const post = `"${postingsTableName(bundleId)}"`;
    const boots = await sql.query<{ id: number; key: string; lo: number; hi: number }>(
      `SELECT b.id, b."bootKey" AS key, (extract(epoch FROM min(e.ts)) * 1000)::float8 AS lo, (extract(epoch FROM max(e.ts)) * 1000)::float8 AS hi
       FROM "Boot" b JOIN "Event" e ON e."bootId" = b.id WHERE b."incidentId" = $1 AND b."bootKey" = ANY($2::text[]) GROUP BY b.id`,
      [incidentId, BOOTS[n1]],
    );
    const filter = (key: string) => {
      const b = boots.find((x) => x.key === key);
      if (!b) throw new Error(`no boot ${key}`);
      return { incidentId, bootId: b.id, fromMs: Number(b.lo), toMs: Number(b.hi) + 1, lanes: [...LANES], q: "nodename", match: "words" as const, limit: 500 };
    };
    const [common, rare] = [filter(BOOTS[n1][1]), filter(BOOTS[n1][0])];
    await sql.exec(`ALTER TABLE ${post} ADD COLUMN kept bigint[]`);
    await sql.query(`UPDATE ${post} SET kept = ids, ids = NULL WHERE word = 'nodename' AND "bootId" = $1`, [common.bootId]);
    try {
      // the other boot: its postings, in one request, whatever the scan bound
      const page = await getEventsPage({ ...rare, scanRows: 1 });
      expect(page).toMatchObject({ nextCursor: null, scannedToMs: null, match: "words" });
      expect(page.events).toHaveLength(2 * FAILURES_PER_BOOT);
      expect(await countEvents(rare)).toMatchObject({ matching: 2 * FAILURES_PER_BOOT, capped: false });
      // the boot where it is too common: read by slices
      expect((await getEventsPage({ ...common, scanRows: 1 })).scannedToMs).not.toBeNull();
    } finally {
      await sql.exec(`UPDATE ${post} SET ids = kept WHERE kept IS NOT NULL`);
      await sql.exec(`ALTER TABLE ${post} DROP COLUMN kept`);
    }
  });

  it("the boot timeline's whole-word filter reads the postings: one request, every match", async () => {
    const { sql } = await getDb();
    const [b] = await sql.query<{ id: number; lo: number; hi: number }>(
      `SELECT b.id, (extract(epoch FROM min(e.ts)) * 1000)::float8 AS lo, (extract(epoch FROM max(e.ts)) * 1000)::float8 AS hi
       FROM "Boot" b JOIN "Event" e ON e."bootId" = b.id WHERE b."incidentId" = $1 AND b."bootKey" = $2 GROUP BY b.id`,
      [incidentId, BOOTS[n1][1]],
    );
    const f = {
      incidentId,
      bootId: b.id,
      fromMs: Number(b.lo),
      toMs: Number(b.hi) + 1,
      lanes: [...LANES],
      q: RARE_SANDBOX,
      match: "words" as const,
      scanRows: 1,
    };
    const page = await getEventsPage(f);
    expect(page).toMatchObject({ nextCursor: null, scannedToMs: null, match: "words" });
    expect(page.events.map((e) => e.pod)).toEqual([RARE_POD, RARE_POD]);
    expect(await countEvents({ ...f, scanRows: 2 })).toEqual({ total: 2 + 2 * FAILURES_PER_BOOT, matching: 2, capped: false });
    expect((await getEventsPage({ ...f, q: "nosuchwordanywhere" })).events).toEqual([]);
    expect((await getEventsPage({ ...f, q: "nodename", limit: 500 })).events).toHaveLength(2 * FAILURES_PER_BOOT);
  });

  describe("deleted", () => {
    it("a deleted bundle's postings are dropped", async () => {
      const { sql } = await getDb();
      await sql.query(`DELETE FROM "Incident" WHERE id = $1`, [incidentId]);
      expect(await dropStaleSearchIndexes(sql)).toBe(1);
      expect((await postedBundles(sql, [bundleId])).size).toBe(0);
    });
  });
}
