/**
 * Choices for the events table's pod and kind filters: the kinds and pods of the signal
 * events (kind <> 'log': sandbox attempts, CNI, runtime, Kubernetes events) of one boot's
 * visible range and lanes, with their counts. One query; it reads the partial index
 * `Event_signal_idx` (incidentId, kind, ts) WHERE kind <> 'log', so it costs the number of
 * signal events, not the millions of plain log lines a large boot can hold.
 */
import { getDb } from "@/lib/db/connection";
import type { TLane } from "./lanes";

/** Pods listed at most (the most frequent first). */
export const MAX_FACET_PODS = 500;

export interface TEventFacets {
  /** signal kinds in the range, most frequent first; `log` (plain lines) is not counted */
  kinds: Array<{ kind: string; n: number }>;
  /** pods named by signal events in the range, most frequent first (ties by name) */
  pods: Array<{ pod: string; n: number }>;
}

const SQL = `
WITH s AS (
  SELECT e.kind, e.pod
  FROM "Event" e
  WHERE e."incidentId" = $1
    AND e.kind <> 'log'
    AND e."bootId" = (SELECT b.id FROM "Boot" b WHERE b.id = $2 AND b."incidentId" = $1)
    AND e.ts >= $3::timestamptz
    AND e.ts < $4::timestamptz
    AND e.lane = ANY($5::text[])
)
(SELECT 'kind' AS facet, kind AS value, count(*)::int AS n FROM s GROUP BY kind)
UNION ALL
(SELECT 'pod' AS facet, pod AS value, count(*)::int AS n FROM s WHERE pod IS NOT NULL GROUP BY pod ORDER BY 3 DESC, 2 LIMIT $6)`;

export async function getEventFacets(opts: { incidentId: string; bootId: number; fromMs: number; toMs: number; lanes: readonly TLane[] }): Promise<TEventFacets> {
  const { sql } = await getDb();
  const rows = await sql.query<{ facet: "kind" | "pod"; value: string; n: number }>(SQL, [
    opts.incidentId,
    opts.bootId,
    new Date(opts.fromMs).toISOString(),
    new Date(opts.toMs).toISOString(),
    [...opts.lanes],
    MAX_FACET_PODS,
  ]);
  const byCount = <T extends { n: number }>(key: (x: T) => string) => (a: T, b: T) => b.n - a.n || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  return {
    kinds: rows
      .filter((r) => r.facet === "kind")
      .map((r) => ({ kind: r.value, n: Number(r.n) }))
      .sort(byCount((x) => x.kind)),
    pods: rows
      .filter((r) => r.facet === "pod")
      .map((r) => ({ pod: r.value, n: Number(r.n) }))
      .sort(byCount((x) => x.pod)),
  };
}
