/**
 * Counts for the events table header ("1,204 of 1,677"): events of the boot in the range
 * and lanes, and of those the ones that pass the severity, pod, kind and search filters.
 * Built to stay short on a boot with millions of events (on PGlite one connection serves
 * every request, so one long count would hold all the others):
 * - the total reads the per-second rollup (EventDensity) for the whole seconds of the
 *   range and counts events only in the partial seconds at its two ends;
 * - a pod filter that names few pods (lib/queries/resolve-pods.ts) is counted exactly on
 *   the pod index, in one request, and so is a search in whole words (`match` `words`) when
 *   every bundle of the incident has a complete search index (event-filter.ts); on PGlite only
 *   when the range holds at most SCAN_ROWS_PGLITE (`scanRows`) matches (else in slices, as below);
 * - one word too common for the search postings (lib/search/postings.ts) is counted from their
 *   numbers per boot when the range and lanes hold the whole boot (exact, one request);
 * - any other filter is counted over at most SCAN_ROWS (PGlite: SCAN_ROWS_PGLITE) rows of the range from `fromMs` (no
 *   index serves it; see get-events-page.ts): when the range holds more, the answer is the
 *   exact count of [fromMs, scannedToMs) with `capped` set, and the caller continues from
 *   `scannedToMs` and adds the slices up (components/data/use-events-count-query.ts), so the
 *   count is exact once the last slice is in.
 */
import { getDb } from "@/lib/db/connection";
import type { SqlDb, SqlParam } from "@/lib/db/sql";
import { filterWhere, hasFilters, resolveTextMatch, scopeWhere, type TEventFilter, textIndexed } from "./event-filter";
import { BOUND_SQL, scanRowsOf } from "./get-events-page";
import { withSearchWorkMem } from "../search/search-incident";
import { postedBootCountSql } from "../search/words-filter";
import { resolvePods } from "./resolve-pods";

export interface TEventCounts {
  /** events in range and lanes */
  total: number;
  /** of which pass the filters: exact for [fromMs, scannedToMs ?? toMs) (at most `cap` when one is given) */
  matching: number;
  /** true when more events may match than `matching` says: only [fromMs, scannedToMs) was counted, or `cap` was reached */
  capped: boolean;
  /** with filters: the range was counted up to here (UTC ms, exclusive) when it holds more than SCAN_ROWS events */
  scannedToMs?: number;
}

/** True when at most `n` events of the range pass filter `f` (read through its indexes, stopping after `n + 1`). */
async function fewMatches(sql: SqlDb, f: TEventFilter, n: number): Promise<boolean> {
  const params: SqlParam[] = [];
  const where = `${scopeWhere(f, params)} AND ${filterWhere(f, params)}`;
  params.push(n + 1);
  const [r] = await withSearchWorkMem(sql, (tx) =>
    tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM "Event" e WHERE ${where} LIMIT $${params.length}) m`, params),
  );
  return Number(r?.n ?? 0) <= n;
}

/**
 * The events of the boot holding the one word of `f.wordsMatch`, from the search postings' numbers
 * per boot (words-filter.ts `postedBootCountSql`), when `[fromMs, toMs)` and `lanes` hold every
 * event of the boot (its first and last times inside the range, none without a time, no lane of
 * its rollup left out); null otherwise, or when the postings cannot say.
 */
async function wholeBootWordCount(sql: SqlDb, f: TEventFilter): Promise<number | null> {
  if (!f.wordsMatch) return null;
  const params: SqlParam[] = [f.bootId, f.incidentId, new Date(f.fromMs).toISOString(), new Date(f.toMs).toISOString(), [...f.lanes]];
  const boot = `(SELECT b.id FROM "Boot" b WHERE b.id = $1 AND b."incidentId" = $2)`;
  const n = postedBootCountSql(f.wordsMatch, boot, params);
  if (!n) return null;
  const [r] = await sql.query<{ n: string | number | null }>(
    `SELECT CASE WHEN (SELECT min(e.ts) FROM "Event" e WHERE e."bootId" = ${boot}) >= $3::timestamptz
        AND (SELECT max(e.ts) FROM "Event" e WHERE e."bootId" = ${boot}) < $4::timestamptz
        AND NOT EXISTS (SELECT 1 FROM "Event" e WHERE e."bootId" = ${boot} AND e.ts IS NULL)
        AND NOT EXISTS (SELECT 1 FROM "EventDensity" d WHERE d."bootId" = ${boot} AND NOT (d.lane = ANY($5::text[])))
      THEN ${n} END AS n`,
    params,
  );
  return r?.n == null ? null : Number(r.n);
}

/**
 * Counts events in [fromMs, toMs) (UTC ms) of one boot; `cap` (none by default) stops the matching
 * count there; `scanRows` (default SCAN_ROWS, SCAN_ROWS_PGLITE on PGlite) is the most rows of the range one call counts.
 */
export async function countEvents(opts: TEventFilter & { cap?: number; scanRows?: number }): Promise<TEventCounts> {
  const cap = opts.cap === undefined ? null : Math.max(1, opts.cap);
  const params: SqlParam[] = [];
  const p = (v: SqlParam) => {
    params.push(v);
    return `$${params.length}`;
  };
  const countIn = (fromMs: number, toMs: number) => `(SELECT count(*) FROM "Event" e WHERE ${scopeWhere({ ...opts, fromMs, toMs }, params)})`;

  // whole seconds [s0, s1) from the rollup, the partial seconds at the ends counted
  const s0 = Math.ceil(opts.fromMs / 1000);
  const s1 = Math.floor(opts.toMs / 1000);
  let total: string;
  if (s0 < s1) {
    const rollup = `(SELECT coalesce(sum(d.n), 0) FROM "EventDensity" d
      WHERE d."bootId" = (SELECT b.id FROM "Boot" b WHERE b.id = ${p(opts.bootId)} AND b."incidentId" = ${p(opts.incidentId)})
        AND d.sec >= ${p(s0)}::bigint AND d.sec < ${p(s1)}::bigint AND d.lane = ANY(${p([...opts.lanes])}::text[]))`;
    const head = s0 * 1000 > opts.fromMs ? ` + ${countIn(opts.fromMs, s0 * 1000)}` : "";
    const tail = opts.toMs > s1 * 1000 ? ` + ${countIn(s1 * 1000, opts.toMs)}` : "";
    total = `${rollup}${head}${tail}`;
  } else {
    total = countIn(opts.fromMs, opts.toMs);
  }

  const { sql } = await getDb();
  let matching = "NULL";
  let boundMs: number | null = null;
  let indexed = false;
  if (hasFilters(opts)) {
    let f: TEventFilter = opts;
    if (opts.pod?.trim()) {
      const podIn = await resolvePods(sql, { incidentId: opts.incidentId, bootId: opts.bootId, text: opts.pod });
      if (podIn) f = { ...opts, podIn };
    }
    f = await resolveTextMatch(sql, f);
    if (textIndexed(f) && f.wordsMatch && sql.backend === "pglite" && !(await fewMatches(sql, f, Math.max(1, opts.scanRows ?? scanRowsOf(sql.backend))))) {
      // PGlite's one connection: a word in more events than one slice reads is counted in slices, as a scan
      f = { ...f, wordsMatch: { ...f.wordsMatch, indexed: null } };
    }
    indexed = textIndexed(f);
    // one word too common for the search postings, over the whole boot: their numbers per boot answer at once
    const whole = !indexed && f.wordsMatch?.common && !f.minSeverity && !f.pod?.trim() && !f.kind && !f.patterns ? await wholeBootWordCount(sql, f) : null;
    if (whole !== null) matching = p(whole);
    // a resolved pod filter, or whole words the search indexes answer, are counted on the index in one request; anything else in slices
    else if (!f.podIn && !textIndexed(f)) {
      const [b] = await sql.query<{ ms: number }>(BOUND_SQL, [
        opts.incidentId,
        opts.bootId,
        new Date(opts.fromMs).toISOString(),
        new Date(opts.toMs).toISOString(),
        Math.max(1, opts.scanRows ?? scanRowsOf(sql.backend)),
      ]);
      if (b && Number(b.ms) > opts.fromMs) boundMs = Number(b.ms);
    }
    if (whole === null) {
      const scope = scopeWhere({ ...f, toMs: boundMs ?? opts.toMs }, params);
      const extra = filterWhere(f, params);
      matching =
        cap === null
          ? `(SELECT count(*) FROM "Event" e WHERE ${scope} AND ${extra})`
          : `(SELECT count(*) FROM (SELECT 1 FROM "Event" e WHERE ${scope} AND ${extra} LIMIT ${p(cap + 1)}) m)`;
    }
  }
  const text = `SELECT (${total})::bigint AS total, ${matching}::int AS matching`;
  type R = { total: string | number; matching: string | number | null };
  // counted through the search indexes: with incident search's memory, so a common word's bitmap stays exact
  const [r] = indexed ? await withSearchWorkMem(sql, (tx) => tx.query<R>(text, params)) : await sql.query<R>(text, params);
  const t = Number(r?.total ?? 0);
  if (r?.matching == null) return { total: t, matching: t, capped: false };
  const m = Number(r.matching);
  const over = cap !== null && m > cap;
  const matched = over ? cap : m;
  if (boundMs !== null) return { total: t, matching: matched, capped: true, scannedToMs: boundMs };
  return { total: t, matching: matched, capped: over };
}
