/**
 * Search figures for `npm run bench` (scripts/bench.ts), on whichever backend
 * `getDb()` opens (PostgreSQL or PGlite), over the store the bench has ingested and grown:
 *
 * - `benchSearch`: builds the bundle's search index and then its word counts (lib/search/search-index.ts,
 *   each timed; word counts made before the store grew are dropped first), then
 *   times incident search (lib/search/search-incident.ts, the function the search route calls):
 *   rare tokens (sandbox ids with the fewest events in the ingested bundle, a different one each
 *   run), a common word (`commonWord`: in about a tenth of the bundle's events) and the word
 *   `failed` (in most events of a failure storm), each with its exact count (the common word's checked per boot against a count through the
 *   index on "Event", timed once, and against a count by a scan of the events
 *   with the match's own condition and no index, when the store is at most `verifyMaxEvents`), a substring (part of a
 *   sandbox id), and the boot timeline's filtered first page for a rare token in whole words
 *   (lib/queries/get-events-page.ts with `match: "words"`, the events route's function: read
 *   through the bundle's search index) over the largest boot, with its rows, whether it stopped
 *   at the scan bound, and its count (lib/queries/count-events.ts) against incident search's
 *   count for that boot; the first page and count of the word `failed` there (a word in most
 *   events: the page read in time order, the count from the postings' numbers per boot, checked
 *   against incident search's count for the boot); the rare token's page as a substring
 *   (a bounded scan) for comparison. The big boot's figures are bench-big-boot.ts.
 *
 * Times are ms (`…Ms`: `{ median, p95, runs }`), over the runs (the first run, cold, included).
 */
import { getDb } from "../lib/db/connection";
import { quantile, time } from "./bench-timing";

/** Median and p95 of `xs` (ms, two decimals) and how many runs. */
export function stats(xs: number[]) {
  return { median: +quantile(xs, 0.5).toFixed(2), p95: +quantile(xs, 0.95).toFixed(2), runs: xs.length };
}

/** Sandbox ids with the fewest events in bundle `bundleId` (before the store is grown: cheap). */
export async function rareSandboxIds(bundleId: string, n: number): Promise<string[]> {
  const { sql } = await getDb();
  const rows = await sql.query<{ id: string }>(
    `SELECT "sandboxId" AS id FROM "Event" WHERE "bundleId" = $1 AND "sandboxId" ~ '^[0-9a-f]{64}$' GROUP BY 1 ORDER BY count(*), 1 LIMIT $2`,
    [bundleId, n],
  );
  return rows.map((r) => r.id);
}

/**
 * A word (letters only, 4 or more) held by about `share` of bundle `bundleId`'s events: the
 * closest in a sample of its first `sample` events (before the store is grown).
 */
export async function commonWord(bundleId: string, share = 0.1, sample = 20_000): Promise<{ word: string; share: number }> {
  const { sql } = await getDb();
  const { docWordsSql } = await import("../lib/search/search-sql");
  const [w] = await sql.query<{ word: string; share: number }>(
    `SELECT word, (ndoc::float8 / $2) AS share
     FROM ts_stat($$SELECT ${docWordsSql("e.")} FROM "Event" e WHERE e."bundleId" = '${bundleId.replace(/[^A-Za-z0-9_-]/g, "")}' ORDER BY e.id LIMIT ${sample}$$)
     WHERE word ~ '^[a-z]{4,}$' ORDER BY abs(ndoc::float8 / $2 - $1), word LIMIT 1`,
    [share, sample],
  );
  if (!w) throw new Error("no word to search for");
  return { word: w.word, share: +Number(w.share).toFixed(3) };
}

export interface BootRow {
  id: number;
  start: Date | string;
  end: Date | string | null;
  n: number | string;
}

/** The incident's boot with the most events, with its count. */
export async function largestBoot(incidentId: string): Promise<BootRow> {
  const { sql } = await getDb();
  const [b] = await sql.query<BootRow>(
    `SELECT b.id, b.start, b."end", (SELECT count(*) FROM "Event" e WHERE e."bootId" = b.id) AS n FROM "Boot" b WHERE b."incidentId" = $1 ORDER BY n DESC, b.id LIMIT 1`,
    [incidentId],
  );
  if (!b) throw new Error("the incident has no boots");
  return b;
}

export interface SearchBench {
  storedEvents: number;
  incidentEvents: number;
  /** index work after `ready`, s: the index and word counts built after the ingest; 0 for a bundle stored with its postings (lib/search/postings.ts) */
  indexBuildS: number;
  /** the bundle was stored with its postings (the word counts' figures are then those of its postings table) */
  posted: boolean;
  /** the search index's build (PostgreSQL: the GIN index on "Event"; PGlite: the word table), s */
  indexSeconds: number;
  /** the word counts' build after it (lib/search/search-index.ts), s, its rows and its size on disk with its index, bytes */
  wordCountsSeconds: number;
  wordCountsRows: number;
  wordCountsBytes: number;
  /** the common word's count per boot from the index on "Event" instead (one run, ms; equal per boot to the word counts', checked), and its boots */
  commonViaIndexMs: number;
  commonGroups: number;
  /** a word in 5-20% of the events and in the most boots (beside large boots, small ones with few of its matches): its exact count, boots, search times, and its count through the index on "Event" (one run, ms; equal per boot, checked) */
  spreadToken: { word: string; count: number; groups: number; ms: ReturnType<typeof stats>; viaIndexMs: number } | null;
  rareTokenMs: ReturnType<typeof stats>;
  rareTokenHits: number[];
  commonToken: string;
  /** the share of the sampled events that hold the common word */
  commonTokenShare: number;
  commonTokenMs: ReturnType<typeof stats>;
  frequentToken: string;
  frequentTokenMs: ReturnType<typeof stats>;
  frequentCount: number;
  frequentScanCount: number | null;
  /** the common word's count (exact: every matching event of the incident) */
  exactCount: number;
  /** the same count by a scan without any index (null: store larger than verifyMaxEvents) */
  scanCount: number | null;
  /** a rare token's count by that scan, and by search */
  rareScanCount: number;
  rareSearchCount: number;
  substringMs: number;
  substringCount: number;
  /** the boot timeline's first page for a rare token in whole words (`match: "words"`) */
  timelineFilteredPageMs: ReturnType<typeof stats>;
  /** `scannedToMs` null: the page was not bounded (read through the index); `match`: how the text matched */
  timelineFilteredPage: { bootEvents: number; rows: number; scannedToMs: number | null; match: string | null };
  /** that boot's count for the first rare token in whole words, its time, and incident search's count for the boot */
  timelineFilteredCount: { matching: number; capped: boolean; ms: number; searchCount: number };
  /**
   * the boot timeline's words filter for the word `failed` (`frequentToken`) over the same boot:
   * first page and count; `bounded`: the page or the count stopped at the scan bound (PGlite counts
   * a word in more events than one slice reads in slices: `matching` is then the first slice's);
   * `searchCount`: incident search's count of the word in that boot
   */
  timelineFrequentWord: { pageMs: ReturnType<typeof stats>; countMs: ReturnType<typeof stats>; matching: number; bounded: boolean; searchCount: number };
  /** the same first page as a substring (`match: "substring"`, a bounded scan of message and pod) */
  timelineSubstringPageMs: ReturnType<typeof stats>;
  timelineSubstringPage: { rows: number; scannedToMs: number | null };
}

/** See the module comment. `rare`: tokens from rareSandboxIds; `runs`: rare-token runs (default 20). */
export async function benchSearch(opts: {
  incidentId: string;
  bundleId: string;
  rare: string[];
  common: { word: string; share: number };
  runs?: number;
  commonRuns?: number;
  verifyMaxEvents?: number;
  log: (s: string) => void;
}): Promise<SearchBench> {
  const { incidentId, bundleId, rare, common } = opts;
  if (!rare.length) throw new Error("no sandbox ids to search for");
  const frequent = "failed";
  const { sql } = await getDb();
  const { buildSearchIndex, indexedWordsCond, scheduleSearchIndex, searchIndexPending, wordCountsTableName } = await import("../lib/search/search-index");
  const { searchIncident, withSearchWorkMem } = await import("../lib/search/search-incident");
  const { postedBundles, postingsTableName } = await import("../lib/search/postings");
  const { matchRegexSql, QUERY_WORDS_SQL } = await import("../lib/search/search-sql");
  const { getEventsPage } = await import("../lib/queries/get-events-page");
  const { countEvents } = await import("../lib/queries/count-events");
  const { LANES } = await import("../lib/view/lanes");
  const count = async (text: string, params: unknown[] = []) => Number((await sql.query<{ n: string | number }>(text, params as never))[0].n);
  const storedEvents = await count(`SELECT count(*) AS n FROM "Event"`);
  const incidentEvents = await count(`SELECT count(*) AS n FROM "Event" WHERE "incidentId" = $1`, [incidentId]);

  // a build queued while the store was smaller ends first; its word counts, made before the store
  // grew by copying rows into the stored bundle (which nothing but this bench does), are dropped
  if (searchIndexPending(bundleId)) await scheduleSearchIndex(sql, bundleId);
  // a bundle stored with its postings (lib/search/postings.ts) has nothing to build: its index work after `ready` is 0 s
  const posted = (await postedBundles(sql, [bundleId])).has(bundleId);
  let indexMs = 0;
  let countsMs = 0;
  if (!posted) {
    await sql.exec(`DROP TABLE IF EXISTS "${wordCountsTableName(bundleId)}"`);
    opts.log(`search: building the bundle's search index over ${incidentEvents.toLocaleString()} events`);
    const [ok, ims] = await time(() => buildSearchIndex(sql, bundleId, { wordCounts: false }));
    if (!ok) throw new Error("the search index was not built");
    opts.log(`search: index built in ${(ims / 1000).toFixed(1)} s; counting words per boot`);
    const [counted, cms] = await time(() => buildSearchIndex(sql, bundleId));
    if (!counted) throw new Error("the word counts were not built");
    [indexMs, countsMs] = [ims, cms];
  } else opts.log(`search: the bundle's postings were stored with it: no index to build`);
  const countsTable = posted ? postingsTableName(bundleId) : wordCountsTableName(bundleId);
  const [countRows] = await sql.query<{ rows: string; bytes: string }>(
    `SELECT count(*)::text AS rows, pg_total_relation_size('"${countsTable}"')::text AS bytes FROM "${countsTable}"`,
  );
  opts.log(`search: word counts built in ${(countsMs / 1000).toFixed(1)} s (${Number(countRows.rows).toLocaleString()} rows, ${countsTable})`);
  await sql.exec(`VACUUM ANALYZE "Event"`);

  const rareMs: number[] = [];
  const rareHits: number[] = [];
  for (let i = 0; i < (opts.runs ?? 20); i++) {
    const [r, ms] = await time(() => searchIncident({ incidentId, q: rare[i % rare.length] }));
    if (r.bundles.scanned) throw new Error("search scanned a bundle: the index is not in use");
    rareMs.push(ms);
    rareHits.push(r.total);
  }
  const repeat = async (q: string) => {
    const ms: number[] = [];
    let total = 0;
    for (let i = 0; i < (opts.commonRuns ?? 5); i++) {
      const [r, t] = await time(() => searchIncident({ incidentId, q }));
      ms.push(t);
      total = r.total;
    }
    return { ms, total };
  };
  const { ms: commonMs, total: exactCount } = await repeat(common.word);
  // a word counted from the index on "Event" (each hit's row read for its boot), per group, against the word counts' answer
  type GroupRow = { nodeId: number | null; bootId: number | null; n: string | number };
  const groupsOf = (rows: GroupRow[]) => rows.map((g) => `${g.nodeId}:${g.bootId}:${Number(g.n)}`).sort();
  const checkViaIndex = async (word: string) => {
    // posted: against a scan of the bundle's events with the words' own regex (no index)
    const [rows, ms] = await time(() =>
      withSearchWorkMem(sql, async (tx) => {
        if (!posted) {
          return tx.query<GroupRow>(
            `SELECT e."nodeId", e."bootId", count(*) AS n FROM "Event" e WHERE ${indexedWordsCond(sql.backend, bundleId, "$1::tsquery")} GROUP BY 1, 2`,
            [`'${word}'`],
          );
        }
        const [w] = await tx.query<{ re: string }>(QUERY_WORDS_SQL, [word]);
        return tx.query<GroupRow>(
          `SELECT e."nodeId", e."bootId", count(*) AS n FROM "Event" e WHERE e."bundleId" = $1 AND ${matchRegexSql("e.", "$2")} GROUP BY 1, 2`,
          [bundleId, w.re],
        );
      }),
    );
    const searched = (await searchIncident({ incidentId, q: word })).groups.map((g) => ({ nodeId: g.nodeId, bootId: g.bootId, n: g.count }));
    if (JSON.stringify(groupsOf(searched)) !== JSON.stringify(groupsOf(rows)))
      throw new Error(`the word counts of "${word}" differ from the index's count per boot`);
    return { ms, groups: rows.length };
  };
  const commonViaIndex = await checkViaIndex(common.word);
  // a word in about 5-20% of the events and in as many boots as any such word, so that boots with few of its matches (read from the matches, not walked) sit beside boots with many
  const counts = `"${countsTable}"`;
  const [spreadWord] = await sql.query<{ word: string }>(
    `SELECT word FROM ${counts} GROUP BY word HAVING sum(n) BETWEEN $1::float8 * 0.05 AND $1::float8 * 0.2 ORDER BY count(*) DESC, sum(n) DESC, word LIMIT 1`,
    [incidentEvents],
  );
  let spread: { word: string; ms: number[]; total: number; viaIndexMs: number; groups: number } | null = null;
  if (spreadWord) {
    const r = await repeat(spreadWord.word);
    const v = await checkViaIndex(spreadWord.word);
    spread = { word: spreadWord.word, ms: r.ms, total: r.total, viaIndexMs: v.ms, groups: v.groups };
  }
  if (spread) opts.log(`search: "${spread.word}" (${spread.total.toLocaleString()} events, ${spread.groups} boots) median ${stats(spread.ms).median} ms`);
  const { ms: frequentMs, total: frequentCount } = await repeat(frequent);
  opts.log(
    `search: rare token median ${stats(rareMs).median} ms, common "${common.word}" (${exactCount.toLocaleString()} events) median ${stats(commonMs).median} ms, "${frequent}" (${frequentCount.toLocaleString()}) ${stats(frequentMs).median} ms`,
  );

  // the same counts by reading every event of the incident, no index (the words' condition itself)
  const scanCount = async (q: string) =>
    sql.transaction(async (tx) => {
      await tx.exec(`SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexscan = off; SET LOCAL enable_indexonlyscan = off`);
      const [w] = await tx.query<{ re: string }>(QUERY_WORDS_SQL, [q]);
      const [c] = await tx.query<{ n: string | number }>(`SELECT count(*) AS n FROM "Event" e WHERE e."incidentId" = $1 AND ${matchRegexSql("e.", "$2")}`, [
        incidentId,
        w.re,
      ]);
      return Number(c.n);
    });
  const rareSearchCount = (await searchIncident({ incidentId, q: rare[0] })).total;
  const rareScanCount = await scanCount(rare[0]);
  const verifyMax = opts.verifyMaxEvents ?? 3_000_000;
  const commonScan = incidentEvents <= verifyMax ? await scanCount(common.word) : null;
  const frequentScan = incidentEvents <= verifyMax ? await scanCount(frequent) : null;

  const part = rare[0].slice(0, 13);
  const [sub, subMs] = await time(() => searchIncident({ incidentId, q: part, mode: "substring" }));

  const boot = await largestBoot(incidentId);
  const fromMs = new Date(boot.start).getTime();
  const toMs = new Date(boot.end ?? boot.start).getTime() + 1;
  const firstPages = async (match: "words" | "substring") => {
    const ms: number[] = [];
    let first = { rows: 0, scannedToMs: null as number | null, match: null as string | null };
    for (let i = 0; i < (opts.runs ?? 20); i++) {
      const [p, t] = await time(() => getEventsPage({ incidentId, bootId: boot.id, fromMs, toMs, lanes: LANES, q: rare[i % rare.length], match, limit: 200 }));
      ms.push(t);
      if (i === 0) first = { rows: p.events.length, scannedToMs: p.scannedToMs, match: p.match };
    }
    return { ms, first };
  };
  const { ms: pageMs, first: page } = await firstPages("words");
  if (page.match !== "words" || page.scannedToMs !== null) throw new Error("the timeline's words filter did not read the search index");
  const [bootCount, bootCountMs] = await time(() => countEvents({ incidentId, bootId: boot.id, fromMs, toMs, lanes: LANES, q: rare[0], match: "words" }));
  const bootSearch = (await searchIncident({ incidentId, q: rare[0] })).groups.find((g) => g.bootId === boot.id)?.count ?? 0;
  const bootFilter = { incidentId, bootId: boot.id, fromMs, toMs, lanes: LANES, q: frequent, match: "words" as const };
  const freqPageMs: number[] = [];
  const freqCountMs: number[] = [];
  let freqMatching = 0;
  let freqBounded = false;
  for (let i = 0; i < (opts.commonRuns ?? 5); i++) {
    const [p, pt] = await time(() => getEventsPage({ ...bootFilter, limit: 200 }));
    const [c, ct] = await time(() => countEvents(bootFilter));
    freqPageMs.push(pt);
    freqCountMs.push(ct);
    freqMatching = c.matching;
    freqBounded = p.scannedToMs !== null || c.scannedToMs !== undefined;
  }
  const freqSearch = (await searchIncident({ incidentId, q: frequent })).groups.find((g) => g.bootId === boot.id)?.count ?? 0;
  const { ms: subPageMs, first: subPage } = await firstPages("substring");
  opts.log(
    `search: timeline words page median ${stats(pageMs).median} ms (${page.rows} rows), count ${bootCount.matching} in ${bootCountMs.toFixed(1)} ms (search: ${bootSearch}); "${frequent}" page median ${stats(freqPageMs).median} ms, count ${freqMatching.toLocaleString()} (search: ${freqSearch.toLocaleString()}) median ${stats(freqCountMs).median} ms; substring page median ${stats(subPageMs).median} ms`,
  );
  return {
    storedEvents,
    incidentEvents,
    indexBuildS: +((indexMs + countsMs) / 1000).toFixed(2),
    posted,
    indexSeconds: +(indexMs / 1000).toFixed(2),
    wordCountsSeconds: +(countsMs / 1000).toFixed(2),
    wordCountsRows: Number(countRows.rows),
    wordCountsBytes: Number(countRows.bytes),
    commonViaIndexMs: +commonViaIndex.ms.toFixed(2),
    commonGroups: commonViaIndex.groups,
    spreadToken: spread
      ? { word: spread.word, count: spread.total, groups: spread.groups, ms: stats(spread.ms), viaIndexMs: +spread.viaIndexMs.toFixed(2) }
      : null,
    rareTokenMs: stats(rareMs),
    rareTokenHits: rareHits.slice(0, rare.length),
    commonToken: common.word,
    commonTokenShare: common.share,
    commonTokenMs: stats(commonMs),
    frequentToken: frequent,
    frequentTokenMs: stats(frequentMs),
    frequentCount,
    frequentScanCount: frequentScan,
    exactCount,
    scanCount: commonScan,
    rareScanCount,
    rareSearchCount,
    substringMs: +subMs.toFixed(2),
    substringCount: sub.total,
    timelineFilteredPageMs: stats(pageMs),
    timelineFilteredPage: { bootEvents: Number(boot.n), ...page },
    timelineFilteredCount: { matching: bootCount.matching, capped: bootCount.capped, ms: +bootCountMs.toFixed(2), searchCount: bootSearch },
    timelineFrequentWord: { pageMs: stats(freqPageMs), countMs: stats(freqCountMs), matching: freqMatching, bounded: freqBounded, searchCount: freqSearch },
    timelineSubstringPageMs: stats(subPageMs),
    timelineSubstringPage: { rows: subPage.rows, scannedToMs: subPage.scannedToMs },
  };
}
