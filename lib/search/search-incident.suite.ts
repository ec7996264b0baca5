/**
 * Incident-wide search over journals of three nodes (the first with two boots) stored by the
 * real ingest without search postings (as bundles stored before them are): exact counts per node boot, a rare sandbox id, a common word, a substring, and
 * the same answers before the bundle's search index is built (a scan) and after (the index,
 * which the planner can use for the query's expression). Run on PostgreSQL and on PGlite
 * (search-incident.pg.test.ts, search-incident.pglite.test.ts), which point the process-wide
 * handles (`getDb`) at a fresh database first.
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
import {
  buildSearchIndex,
  countedBundles,
  dropStaleSearchIndexes,
  indexedBundles,
  indexedWordsCond,
  scheduleSearchIndex,
  searchIndexPending,
  wordCountsTableName,
  wordsTableName,
} from "./search-index";
import { searchIncident, type TSearchResult } from "./search-incident";
import { docTextSql, matchRegexSql, searchIndexName } from "./search-sql";

/** `[node, bootKey, count]` per group, in the result's order. */
const table = (r: TSearchResult) => r.groups.map((g) => [g.node, g.bootKey, g.count]);
const [n1, n2, n3] = NODES;

/** The suite; `dataDir` is a folder of the test's own for the uploads. */
export function searchSuite(dataDir: () => string): void {
  let incidentId = "";
  let bundleId = "";

  beforeAll(async () => {
    const h = await getDb();
    // the uploads as files on disk, as the upload route hands them over
    const dir = path.join(dataDir(), "in");
    mkdirSync(dir, { recursive: true });
    const files = searchFixtureFiles().map((f) => {
      writeFileSync(path.join(dir, f.name), f.content);
      return { name: f.name, path: path.join(dir, f.name) };
    });
    const e = await enqueueBundle(h, {
      title: "search",
      files,
      options: { year: 2026 },
    });
    // stored as before postings (lib/search/postings.ts; search-postings.suite.ts covers those): indexed after the ingest
    process.env.BOOTLINE_SEARCH_POSTINGS = "0";
    try {
      const r = await processBundle(h, e.bundleId);
      expect(r.status).toBe("ready");
    } finally {
      delete process.env.BOOTLINE_SEARCH_POSTINGS;
    }
    incidentId = e.incidentId;
    bundleId = e.bundleId;
  }, 120_000);

  describe("incident search", () => {
    for (const indexed of [false, true]) {
      describe(indexed ? "from the bundle's search index" : "before the index is built (scan)", () => {
        beforeAll(async () => {
          // in slices of 7 event ids on PGlite, so the bundle's events span many of them
          if (indexed) expect(await buildSearchIndex((await getDb()).sql, bundleId, { sliceIds: 7 })).toBe(true);
          expect((await indexedBundles((await getDb()).sql, [bundleId])).has(bundleId)).toBe(indexed);
        });

        it("a rare sandbox id: the boots that name it, with exact counts and links to its events", async () => {
          const r = await searchIncident({ incidentId, q: RARE_SANDBOX });
          expect(r.mode).toBe("words");
          expect(r.bundles).toEqual(indexed ? { indexed: 1, scanned: 0 } : { indexed: 0, scanned: 1 });
          expect(table(r)).toEqual([
            [n1, BOOTS[n1][1], 2],
            [n3, BOOTS[n3][0], 1],
          ]);
          expect(r.total).toBe(3);
          for (const g of r.groups) {
            expect(g.hits).toHaveLength(g.count);
            for (const h of g.hits) {
              expect(h.href).toBe(
                `/i/${incidentId}/n/${g.node}/b/${g.bootKey}?from=${new Date(h.ts! - 10_000).toISOString()}&to=${new Date(h.ts! + 10_000).toISOString()}&ev=${h.id}`,
              );
              const [row] = await (await getDb()).sql.query<{
                text: string;
                boot: string;
              }>(
                `SELECT concat_ws(' ', e."sandboxId", e.message) AS text, b."bootKey" AS boot FROM "Event" e JOIN "Boot" b ON b.id = e."bootId" WHERE e.id = $1`,
                [h.id],
              );
              expect(row.text).toContain(RARE_SANDBOX);
              expect(row.boot).toBe(g.bootKey);
            }
          }
          // the first node's hits are containerd's line, then kubelet's, at 02+1:00:17
          expect(r.groups[0].hits.map((h) => [new Date(h.ts!).toISOString(), h.lane])).toEqual([
            ["2026-03-14T03:00:17.100Z", "runtime"],
            ["2026-03-14T03:00:17.200Z", "kubelet"],
          ]);
        });

        it("a common word: every boot, counted exactly, hits limited per boot", async () => {
          const r = await searchIncident({
            incidentId,
            q: "nodename",
            hitsPerBoot: 3,
          });
          // each failure's two lines name /var/lib/calico/nodename, but the third node's stop line
          const per = 2 * FAILURES_PER_BOOT;
          expect(table(r)).toEqual([
            [n1, BOOTS[n1][0], per],
            [n1, BOOTS[n1][1], per],
            [n2, BOOTS[n2][0], per],
            [n3, BOOTS[n3][0], per - 1],
          ]);
          expect(r.total).toBe(4 * per - 1);
          expect(r.groups.map((g) => g.hits.length)).toEqual([3, 3, 3, 3]);
          // the same first hits when each boot is walked in time order, in slices of 5 events
          for (const mode of ["words", "substring"] as const) {
            const hits = (x: TSearchResult) => x.groups.map((g) => g.hits.map((h) => h.id));
            const fromMatches = await searchIncident({ incidentId, q: "nodename", mode, hitsPerBoot: 3 });
            const walked = await searchIncident({ incidentId, q: "nodename", mode, hitsPerBoot: 3, tuning: { walkFrom: 1, walkSlice: 5 } });
            expect(hits(walked)).toEqual(hits(fromMatches));
            expect(table(walked)).toEqual(table(fromMatches));
            // the third node's boot (23 of 95 matches) from the matches, read through the boots' index too; the others walked
            const split = await searchIncident({ incidentId, q: "nodename", mode, hitsPerBoot: 3, tuning: { walkFrom: per, walkSlice: 5 } });
            expect(hits(split)).toEqual(hits(fromMatches));
          }
          const rareWalked = await searchIncident({ incidentId, q: RARE_SANDBOX, tuning: { walkFrom: 1, walkSlice: 5 } });
          expect(rareWalked.groups.map((g) => g.hits.length)).toEqual([2, 1]);
          expect(r.groups.map((g) => g.href)).toEqual(r.groups.map((g) => `/i/${incidentId}/n/${g.node}/b/${g.bootKey}?q=nodename`));
        });

        it("a pod name as a run of words, a word inside a path, case ignored", async () => {
          const pod = await searchIncident({ incidentId, q: RARE_POD });
          expect(table(pod)).toEqual([[n1, BOOTS[n1][1], 2]]);
          const upper = await searchIncident({
            incidentId,
            q: "CALICO-NODE-X7K2P",
          });
          expect(upper.total).toBe(2);
          // "destroy network" is in the third node's stop line only
          expect(
            table(
              await searchIncident({
                incidentId,
                q: "failed to destroy network",
              }),
            ),
          ).toEqual([[n3, BOOTS[n3][0], 1]]);
          // whole words only: the start of one is no match
          expect((await searchIncident({ incidentId, q: "calico-node-x7k2" })).total).toBe(0);
          // words next to each other and in order only
          expect((await searchIncident({ incidentId, q: "network destroy" })).total).toBe(0);
        });

        it("part of an id: a short id (its first 13 hex digits, as crictl prints it) finds the id's events, a part from its middle no word; as a substring the same events as the id", async () => {
          const part = RARE_SANDBOX.slice(0, 13);
          const words = await searchIncident({ incidentId, q: part });
          const whole = await searchIncident({ incidentId, q: RARE_SANDBOX });
          expect(words.mode).toBe("words");
          expect(table(words)).toEqual(table(whole));
          expect(words.groups.flatMap((g) => g.hits.map((h) => h.id))).toEqual(whole.groups.flatMap((g) => g.hits.map((h) => h.id)));
          expect(words.total).toBeGreaterThan(0);
          // a short id with the words around it, and one from the middle of the id (not its start)
          expect((await searchIncident({ incidentId, q: `sandbox ${part}` })).total).toBeGreaterThan(0);
          const middle = await searchIncident({ incidentId, q: RARE_SANDBOX.slice(5, 18) });
          expect(middle.total).toBe(0);
          expect(middle.groups).toEqual([]);
          const sub = await searchIncident({
            incidentId,
            q: part,
            mode: "substring",
          });
          expect(sub.mode).toBe("substring");
          expect(table(sub)).toEqual([
            [n1, BOOTS[n1][1], 2],
            [n3, BOOTS[n3][0], 1],
          ]);
          expect(sub.groups.flatMap((g) => g.hits.map((h) => h.id))).toEqual(
            (await searchIncident({ incidentId, q: RARE_SANDBOX })).groups.flatMap((g) => g.hits.map((h) => h.id)),
          );
          // `%` and `_` are literal in a substring; a query of no word is searched as one
          expect((await searchIncident({ incidentId, q: "%", mode: "substring" })).total).toBe(0);
          const colon = await searchIncident({
            incidentId,
            q: '\\": plugin',
          });
          expect(colon.mode).toBe("words");
          expect((await searchIncident({ incidentId, q: "::" })).mode).toBe("substring");
        });
      });
    }

    it("the planner can answer the rare id from the bundle's index", async () => {
      const { sql } = await getDb();
      const plan = await sql.transaction(async (tx) => {
        await tx.exec(`SET LOCAL enable_seqscan = off`);
        return tx.query<{ "QUERY PLAN": string }>(`EXPLAIN SELECT count(*) FROM "Event" e WHERE ${indexedWordsCond(sql.backend, bundleId, "$1::tsquery")}`, [
          `'${RARE_SANDBOX}'`,
        ]);
      });
      // PostgreSQL: the partial index on "Event"; PGlite: the GIN index of the bundle's word table
      expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toContain(sql.backend === "postgres" ? searchIndexName(bundleId) : `Search_gin_${bundleId}`);
      if (sql.backend === "pglite") {
        // filled in slices of 7 event ids (the build above): one row per event of the bundle, none twice
        const [n] = await sql.query<{ events: number; rows: number; ids: number; slices: number }>(
          `SELECT (SELECT count(*) FROM "Event" WHERE "bundleId" = $1)::int AS events,
                  (SELECT count(*) FROM "${wordsTableName(bundleId)}")::int AS rows,
                  (SELECT count(DISTINCT id) FROM "${wordsTableName(bundleId)}")::int AS ids,
                  (SELECT ceil((max(id) - min(id) + 1) / 7.0)::int FROM "Event" WHERE "bundleId" = $1) AS slices`,
          [bundleId],
        );
        expect(n.events).toBeGreaterThan(100);
        expect(n.slices).toBeGreaterThan(10);
        expect([n.rows, n.ids]).toEqual([n.events, n.events]);
      }
    });

    it("one-word counts come from the bundle's word counts: every word and boot equal to a scan's", async () => {
      const { sql } = await getDb();
      // a build the searches above queued in the background may still be writing the counts: wait for it
      await scheduleSearchIndex(sql, bundleId);
      expect((await countedBundles(sql, [bundleId])).has(bundleId)).toBe(true);
      const counts = `"${wordCountsTableName(bundleId)}"`;
      type Row = { word: string; nodeId: number | null; bootId: number | null; n: number };
      const key = (r: Row) => `${r.word} ${r.nodeId} ${r.bootId}`;
      const fast = await sql.query<Row>(`SELECT word, "nodeId", "bootId", sum(n)::int AS n FROM ${counts} GROUP BY 1, 2, 3`);
      // the scan: each word of the bundle against every event's text with the search's own regex (no index, no tsvector)
      const scan = await sql.query<Row>(
        `SELECT w.word, e."nodeId", e."bootId", count(*)::int AS n
         FROM (SELECT DISTINCT word FROM ${counts}) w
         JOIN "Event" e ON e."bundleId" = $1 AND ${matchRegexSql("e.", `('(^|[^[:alnum:]])' || w.word || '($|[^[:alnum:]])')`)}
         GROUP BY 1, 2, 3`,
        [bundleId],
      );
      const sorted = (rows: Row[]) => rows.map((r) => [key(r), Number(r.n)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      expect(fast.length).toBeGreaterThan(200);
      expect(sorted(fast)).toEqual(sorted(scan));
      // every word of the scan is in the table: no word of the bundle is missing from it
      const [all] = await sql.query<{ n: number }>(
        `SELECT count(DISTINCT w)::int AS n FROM "Event" e, regexp_split_to_table(lower(${docTextSql("e.")}), '[^[:alnum:]]+') w WHERE e."bundleId" = $1 AND w <> ''`,
        [bundleId],
      );
      expect(new Set(fast.map((r) => r.word)).size).toBe(all.n);
      // incident search's groups for one word are the table's, and the table is what it reads
      for (const q of ["nodename", "Kubelet", RARE_SANDBOX, "failed"]) {
        const r = await searchIncident({ incidentId, q });
        const want = scan.filter((x) => x.word === q.toLowerCase()).map((x) => [x.nodeId, x.bootId, Number(x.n)]);
        expect(r.groups.map((g) => [g.nodeId, g.bootId, g.count]).sort()).toEqual(want.sort());
        expect(r.total).toBeGreaterThan(0);
      }
      const before = await searchIncident({ incidentId, q: "nodename" });
      // the table is what it reads: a changed row changes the answer
      const rows = Number((await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${counts} WHERE word = 'nodename'`))[0].n);
      expect(rows).toBeGreaterThan(0);
      await sql.query(`UPDATE ${counts} SET n = n + 1000 WHERE word = 'nodename'`);
      try {
        expect((await searchIncident({ incidentId, q: "nodename" })).total).toBe(before.total + 1000 * rows);
      } finally {
        await sql.query(`UPDATE ${counts} SET n = n - 1000 WHERE word = 'nodename'`);
      }
      const aside = `"Search_aside_${bundleId}"`;
      await sql.exec(`ALTER TABLE ${counts} RENAME TO ${aside}`);
      try {
        // without the table the same counts come from the index, and the search queues its build again
        expect((await countedBundles(sql, [bundleId])).size).toBe(0);
        const fromIndex = await searchIncident({ incidentId, q: "nodename" });
        expect(table(fromIndex)).toEqual(table(before));
        expect(searchIndexPending(bundleId)).toBe(true);
        await scheduleSearchIndex(sql, bundleId);
        const again = await sql.query<Row>(`SELECT word, "nodeId", "bootId", sum(n)::int AS n FROM ${counts} GROUP BY 1, 2, 3`);
        expect(sorted(again)).toEqual(sorted(fast));
      } finally {
        await sql.exec(`DROP TABLE ${aside}`);
      }
      // a second bundle of the incident with no index: its events are counted by a scan, added to the table's
      await sql.query(`INSERT INTO "Bundle" (id, "incidentId", "fileName", sha256, "byteSize", status) VALUES ($1, $2, 'more.tar.gz', '1', 1, 'queued')`, [
        `${bundleId}y`,
        incidentId,
      ]);
      try {
        const mixed = await searchIncident({ incidentId, q: "nodename" });
        expect(mixed.bundles).toEqual({ indexed: 1, scanned: 1 });
        expect(table(mixed)).toEqual(table(before));
      } finally {
        await sql.query(`DELETE FROM "Bundle" WHERE id = $1`, [`${bundleId}y`]);
      }
    });

    it("the boot timeline's whole-word filter: exact rows and count from the index, the same by a bounded scan without it", async () => {
      const { sql } = await getDb();
      /** A boot's id and a range holding all its events. */
      const bootOf = async (bootKey: string) => {
        const [b] = await sql.query<{ id: number; lo: number; hi: number }>(
          `SELECT b.id, (extract(epoch FROM min(e.ts)) * 1000)::float8 AS lo, (extract(epoch FROM max(e.ts)) * 1000)::float8 AS hi
           FROM "Boot" b JOIN "Event" e ON e."bootId" = b.id WHERE b."incidentId" = $1 AND b."bootKey" = $2 GROUP BY b.id`,
          [incidentId, bootKey],
        );
        return { incidentId, bootId: b.id, fromMs: Number(b.lo), toMs: Number(b.hi) + 1, lanes: [...LANES] };
      };
      const boot = await bootOf(BOOTS[n1][1]);
      /** Every page of a filter (`limit` rows each), as [ids, pages that stopped at the scan bound]. */
      const allPages = async (f: Parameters<typeof getEventsPage>[0]) => {
        const ids: string[] = [];
        let cursor: string | null = null;
        let bounded = 0;
        for (let i = 0; i < 200; i++) {
          const pg: Awaited<ReturnType<typeof getEventsPage>> = await getEventsPage({ ...f, cursor });
          ids.push(...pg.events.map((e) => e.id));
          if (pg.scannedToMs !== null) bounded++;
          cursor = pg.nextCursor;
          if (!cursor) break;
        }
        return { ids, bounded };
      };
      /** The matching count as the client adds up its slices. */
      const countAll = async (f: Parameters<typeof countEvents>[0]) => {
        let matching = 0;
        let fromMs = f.fromMs;
        for (let i = 0; i < 200; i++) {
          const c = await countEvents({ ...f, fromMs });
          matching += c.matching;
          if (c.scannedToMs === undefined) return { matching, capped: c.capped, slices: i + 1 };
          fromMs = c.scannedToMs;
        }
        throw new Error("the count did not end");
      };

      // the index of the bundle (built above): one request, every match, though a scan would read 1 row per request
      expect((await indexedBundles(sql, [bundleId])).has(bundleId)).toBe(true);
      const f = { ...boot, q: RARE_SANDBOX, match: "words" as const, scanRows: 1 };
      const page = await getEventsPage(f);
      expect(page).toMatchObject({ nextCursor: null, scannedToMs: null, match: "words" });
      expect(page.events.map((e) => [new Date(e.ts).toISOString(), e.lane, e.pod])).toEqual([
        ["2026-03-14T03:00:17.100Z", "runtime", RARE_POD],
        ["2026-03-14T03:00:17.200Z", "kubelet", RARE_POD],
      ]);
      for (const e of page.events) expect(`${e.sandboxId ?? ""} ${e.message}`).toContain(RARE_SANDBOX);
      // the same events incident search lists for this boot
      const hits = (await searchIncident({ incidentId, q: RARE_SANDBOX })).groups.find((g) => g.bootKey === BOOTS[n1][1]);
      expect(page.events.map((e) => e.id)).toEqual(hits?.hits.map((h) => h.id));
      // counted in one request though a scan would read 2 rows per request (PGlite: as its 2 matches fit in one slice)
      expect(await countEvents({ ...f, scanRows: 2 })).toEqual({ total: 2 + 2 * FAILURES_PER_BOOT, matching: 2, capped: false });
      // whole words in order (the index finds the words, the order is checked), case ignored; a part of an id is no word
      const n3boot = await bootOf(BOOTS[n3][0]);
      expect((await getEventsPage({ ...n3boot, q: "Failed to DESTROY network", match: "words" })).events.map((e) => e.lane)).toEqual(["kubelet"]);
      expect((await getEventsPage({ ...n3boot, q: "network destroy", match: "words" })).events).toEqual([]);
      // a short id (the id's first 13 hex digits) finds the id's events; a part from the middle, none
      const part = RARE_SANDBOX.slice(0, 13);
      expect((await getEventsPage({ ...boot, q: part, match: "words" })).events.map((e) => e.id)).toEqual(page.events.map((e) => e.id));
      expect((await getEventsPage({ ...boot, q: RARE_SANDBOX.slice(5, 18), match: "words" })).events).toEqual([]);
      // substring, the default, is as before: a bounded scan of message and pod, so containerd's line
      // (the id in its parsed `error` field) is not found, kubelet's (the id in its message) is
      const sub = await allPages({ ...boot, q: part, scanRows: 5, limit: 1 });
      expect(sub.ids).toEqual([page.events[1].id]);
      expect(sub.bounded).toBeGreaterThan(0);
      expect((await getEventsPage({ ...boot, q: part })).match).toBe("substring");
      // a query of no word matches as a substring
      expect((await getEventsPage({ ...boot, q: "::", match: "words" })).match).toBe("substring");

      // a word in every failure: the page is walked in time order first, then read from the index where
      // the walk ends; the same pages however far the walk goes (0: the index alone)
      const common = { ...boot, q: "nodename", match: "words" as const, limit: 5 };
      const viaIndex = await allPages({ ...common, walkRows: 0 });
      expect(viaIndex.ids).toHaveLength(2 * FAILURES_PER_BOOT);
      expect(viaIndex.bounded).toBe(0);
      for (const walkRows of [1, 3, 5, 7, 1000]) expect(await allPages({ ...common, walkRows })).toEqual(viaIndex);
      expect(await countEvents(common)).toMatchObject({ matching: 2 * FAILURES_PER_BOOT, capped: false });
      // more matches than one slice reads: one request on PostgreSQL, slices on PGlite (its one connection)
      const sliced = await countAll({ ...common, scanRows: 5 });
      expect(sliced.matching).toBe(2 * FAILURES_PER_BOOT);
      if (sql.backend === "postgres") expect(sliced.slices).toBe(1);
      else expect(sliced.slices).toBeGreaterThan(1);

      // a second bundle of the incident with no index yet: the words are checked on every row, in bounded slices, with the same answer
      await sql.query(`INSERT INTO "Bundle" (id, "incidentId", "fileName", sha256, "byteSize", status) VALUES ($1, $2, 'more.tar.gz', '1', 1, 'queued')`, [
        `${bundleId}x`,
        incidentId,
      ]);
      try {
        const scan = await allPages({ ...f, scanRows: 5, limit: 1 });
        expect(scan.ids).toEqual(page.events.map((e) => e.id));
        expect(scan.bounded).toBeGreaterThan(1);
        expect(await countAll({ ...f, scanRows: 5 })).toMatchObject({ matching: 2, capped: false });
        expect((await countAll({ ...f, scanRows: 5 })).slices).toBeGreaterThan(1);
        expect((await allPages({ ...n3boot, q: "failed to destroy network", match: "words", scanRows: 4, limit: 1 })).ids).toHaveLength(1);
      } finally {
        await sql.query(`DELETE FROM "Bundle" WHERE id = $1`, [`${bundleId}x`]);
      }
    });

    it("an unknown incident is a 404; an index of a deleted bundle is dropped", async () => {
      await expect(searchIncident({ incidentId: "no-such-incident", q: "x" })).rejects.toMatchObject({ code: "not_found" });
      const { sql } = await getDb();
      expect(await dropStaleSearchIndexes(sql)).toBe(0);
      await sql.query(`DELETE FROM "Incident" WHERE id = $1`, [incidentId]);
      // the index (PGlite: the word table) and the word counts
      expect(await dropStaleSearchIndexes(sql)).toBe(2);
      expect((await indexedBundles(sql, [bundleId])).size).toBe(0);
      expect((await countedBundles(sql, [bundleId])).size).toBe(0);
    });
  });
}
