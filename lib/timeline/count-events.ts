/**
 * Counts for the events table header ("1,204 of 1,677"): events of the boot in the range
 * and lanes, and of those the ones that pass the severity, pod, kind and search filters.
 * One query, built to stay fast on a boot with millions of events:
 * - the total reads the per-second rollup (EventDensity) for the whole seconds of the
 *   range and counts events only in the partial seconds at its two ends;
 * - the matching count stops at COUNT_CAP (shown as "10,000+"), and reads at most
 *   SCAN_ROWS rows of the range (there is no text index; see get-events-page.ts): past
 *   that it is a lower bound (`capped`, with `scannedToMs`), so the request stays under
 *   300 ms on a boot of millions of events.
 */
import { getDb } from "@/lib/db/connection";
import type { SqlParam } from "@/lib/db/sql";
import { filterWhere, hasFilters, scopeWhere, type TEventFilter } from "./event-filter";
import { BOUND_SQL, SCAN_ROWS } from "./get-events-page";

/** The matching count stops here. */
export const COUNT_CAP = 10_000;

export interface TEventCounts {
  /** events in range and lanes */
  total: number;
  /** of which pass the filters (at most COUNT_CAP when `capped`) */
  matching: number;
  /** true when more events may match than `matching` says (COUNT_CAP reached, or only part of the range searched) */
  capped: boolean;
  /** with filters: the range was searched up to here (UTC ms) when it holds more than SCAN_ROWS events */
  scannedToMs?: number;
}

/** Counts events in [fromMs, toMs) (UTC ms) of one boot; `cap` defaults to COUNT_CAP. */
export async function countEvents(opts: TEventFilter & { cap?: number }): Promise<TEventCounts> {
  const cap = Math.max(1, opts.cap ?? COUNT_CAP);
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
  if (hasFilters(opts)) {
    // a kind alone reads its (partial) index: exact and fast; other filters read rows
    const scans = !!(opts.q?.trim() || opts.pod?.trim() || (opts.minSeverity ?? 0) > 0);
    const [b] = !scans ? [] : await sql.query<{ ms: number }>(BOUND_SQL, [
      opts.incidentId,
      opts.bootId,
      new Date(opts.fromMs).toISOString(),
      new Date(opts.toMs).toISOString(),
      SCAN_ROWS,
    ]);
    if (b && Number(b.ms) > opts.fromMs) boundMs = Number(b.ms);
    const scope = scopeWhere({ ...opts, toMs: boundMs ?? opts.toMs }, params);
    const extra = filterWhere(opts, params);
    matching = `(SELECT count(*) FROM (SELECT 1 FROM "Event" e WHERE ${scope} AND ${extra} LIMIT ${p(cap + 1)}) m)`;
  }
  const [r] = await sql.query<{ total: string | number; matching: string | number | null }>(
    `SELECT (${total})::bigint AS total, ${matching}::int AS matching`,
    params,
  );
  const t = Number(r?.total ?? 0);
  if (r?.matching == null) return { total: t, matching: t, capped: false };
  const m = Number(r.matching);
  if (boundMs !== null) return { total: t, matching: Math.min(m, cap), capped: true, scannedToMs: boundMs };
  return { total: t, matching: Math.min(m, cap), capped: m > cap };
}
