/**
 * Counts for the events table header ("1,204 of 1,677"): events of the boot in the range
 * and lanes, and of those the ones that pass the severity and search filters. One query.
 */
import { getDb } from "@/lib/db/connection";
import type { SqlParam } from "@/lib/db/sql";
import { filterWhere, scopeWhere, type TEventFilter } from "./event-filter";

export interface TEventCounts {
  /** events in range and lanes */
  total: number;
  /** of which pass severity and search */
  matching: number;
}

/** Counts events in [fromMs, toMs) (UTC ms) of one boot. */
export async function countEvents(opts: TEventFilter): Promise<TEventCounts> {
  const params: SqlParam[] = [];
  const scope = scopeWhere(opts, params);
  const extra = filterWhere(opts, params);
  const text = `
SELECT count(*)::int AS total,
       ${extra ? `(count(*) FILTER (WHERE ${extra}))::int` : "count(*)::int"} AS matching
FROM "Event" e
WHERE ${scope}`;
  const { sql } = await getDb();
  const [r] = await sql.query<{ total: number; matching: number }>(text, params);
  return { total: Number(r?.total ?? 0), matching: Number(r?.matching ?? 0) };
}
