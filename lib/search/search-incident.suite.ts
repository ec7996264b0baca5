/**
 * Incident-wide search over journals of three nodes (the first with two boots) stored by the
 * real ingest: exact counts per node boot, a rare sandbox id, a common word, a substring, and
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
import { BOOTS, FAILURES_PER_BOOT, NODES, RARE_POD, RARE_SANDBOX, searchFixtureFiles } from "./search-fixture";
import { buildSearchIndex, dropStaleSearchIndexes, indexedBundles, indexedWordsCond, wordsTableName } from "./search-index";
import { searchIncident, type TSearchResult } from "./search-incident";
import { searchIndexName } from "./search-sql";

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
    const r = await processBundle(h, e.bundleId);
    expect(r.status).toBe("ready");
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

        it("part of an id: no whole word matches it; as a substring it finds the same events as the id", async () => {
          const part = RARE_SANDBOX.slice(0, 13);
          const words = await searchIncident({ incidentId, q: part });
          expect(words.mode).toBe("words");
          expect(words.total).toBe(0);
          expect(words.groups).toEqual([]);
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

    it("an unknown incident is a 404; an index of a deleted bundle is dropped", async () => {
      await expect(searchIncident({ incidentId: "no-such-incident", q: "x" })).rejects.toMatchObject({ code: "not_found" });
      const { sql } = await getDb();
      expect(await dropStaleSearchIndexes(sql)).toBe(0);
      await sql.query(`DELETE FROM "Incident" WHERE id = $1`, [incidentId]);
      expect(await dropStaleSearchIndexes(sql)).toBe(1);
      expect((await indexedBundles(sql, [bundleId])).size).toBe(0);
    });
  });
}
