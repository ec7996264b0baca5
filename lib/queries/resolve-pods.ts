/**
 * The pod filter through the pod index: the pods of one node boot whose name holds the filter
 * text (case-insensitive), read as a loose index scan of `Event_bootId_pod_ts_idx` (bootId, pod,
 * ts) WHERE pod IS NOT NULL, one probe per distinct pod, so the cost follows the boot's number
 * of pods, not its events. The events of those pods are then read by `pod = ANY(...)` on the
 * same index (lib/queries/event-filter.ts `podIn`).
 *
 * Returns null when the text names too many pods to list (more than MAX_RESOLVED_PODS match,
 * or the boot has more than MAX_POD_PROBES distinct pods): the caller then falls back to the
 * substring scan of the range.
 */
import type { SqlConn } from "@/lib/db/sql";
import { likePattern } from "./event-filter";

/** Distinct pods read at most per resolution. */
export const MAX_POD_PROBES = 20_000;
/** Matching pods listed at most (a filter matching more reads the range instead). */
export const MAX_RESOLVED_PODS = 200;

const SQL = `
WITH RECURSIVE p(pod, n) AS (
  SELECT (SELECT min(e.pod) FROM "Event" e WHERE e."bootId" = b.id AND e.pod IS NOT NULL), 1
  FROM "Boot" b WHERE b.id = $2 AND b."incidentId" = $1
  UNION ALL
  SELECT (SELECT min(e.pod) FROM "Event" e WHERE e."bootId" = $2 AND e.pod IS NOT NULL AND e.pod > p.pod), p.n + 1
  FROM p WHERE p.pod IS NOT NULL AND p.n <= $4
)
SELECT (array_agg(pod ORDER BY pod) FILTER (WHERE pod ILIKE $3 ESCAPE '\\'))[1:$5] AS pods,
       (count(*) FILTER (WHERE pod ILIKE $3 ESCAPE '\\'))::int AS matched,
       count(*)::int AS probes
FROM p WHERE pod IS NOT NULL`;

/** Pods of the boot whose name contains `text` (case-insensitive), sorted; null when too many (see above). */
export async function resolvePods(sql: SqlConn, opts: { incidentId: string; bootId: number; text: string }): Promise<string[] | null> {
  const [r] = await sql.query<{ pods: string[] | null; matched: number; probes: number }>(SQL, [
    opts.incidentId,
    opts.bootId,
    likePattern(opts.text.trim()),
    MAX_POD_PROBES,
    MAX_RESOLVED_PODS,
  ]);
  if (!r || Number(r.probes) > MAX_POD_PROBES || Number(r.matched) > MAX_RESOLVED_PODS) return null;
  return r.pods ?? [];
}
