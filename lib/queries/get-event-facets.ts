/**
 * Choices for the events table's pod and kind filters: the kinds and pods of the signal
 * events (kind <> 'log': sandbox attempts, CNI, runtime, Kubernetes events) of one boot's
 * visible range and lanes, with their counts. The range is read in slices of at most
 * SCAN_ROWS (PGlite: SCAN_ROWS_PGLITE) events (their bounds found on the (bootId, ts) index), one short statement each,
 * and the slices' counts added up: a boot of half a million signal events costs several
 * short statements instead of one long one, so on PGlite (one connection for every request)
 * the timeline's other requests run between them.
 */
import { getDb } from "@/lib/db/connection";
import { BOUND_SQL, scanRowsOf } from "./get-events-page";
import type { TLane } from "../view/lanes";

/** Pods listed at most (the most frequent first). */
export const MAX_FACET_PODS = 500;

export interface TEventFacets {
  /** signal kinds in the range, most frequent first; `log` (plain lines) is not counted */
  kinds: Array<{ kind: string; n: number }>;
  /** pods named by signal events in the range, most frequent first (ties by name) */
  pods: Array<{ pod: string; n: number }>;
}

const SQL = `
SELECT e.kind, e.pod, count(*)::int AS n
FROM "Event" e
WHERE e."incidentId" = $1
  AND e.kind <> 'log'
  AND e."bootId" = (SELECT b.id FROM "Boot" b WHERE b.id = $2 AND b."incidentId" = $1)
  AND e.ts >= $3::timestamptz
  AND e.ts < $4::timestamptz
  AND e.lane = ANY($5::text[])
GROUP BY e.kind, e.pod`;

export async function getEventFacets(opts: {
  incidentId: string;
  bootId: number;
  fromMs: number;
  toMs: number;
  lanes: readonly TLane[];
}): Promise<TEventFacets> {
  const { sql } = await getDb();
  const kinds = new Map<string, number>();
  const pods = new Map<string, number>();
  let from = opts.fromMs;
  while (from < opts.toMs) {
    const [b] = await sql.query<{ ms: number }>(BOUND_SQL, [
      opts.incidentId,
      opts.bootId,
      new Date(from).toISOString(),
      new Date(opts.toMs).toISOString(),
      scanRowsOf(sql.backend),
    ]);
    // the slice ends that many events in (never at its own start: one instant can hold more)
    const to = b && Number(b.ms) > from ? Number(b.ms) : opts.toMs;
    const rows = await sql.query<{ kind: string; pod: string | null; n: number }>(SQL, [
      opts.incidentId,
      opts.bootId,
      new Date(from).toISOString(),
      new Date(to).toISOString(),
      [...opts.lanes],
    ]);
    for (const r of rows) {
      const n = Number(r.n);
      kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + n);
      if (r.pod !== null) pods.set(r.pod, (pods.get(r.pod) ?? 0) + n);
    }
    from = to;
  }
  const byCount =
    <T extends { n: number }>(key: (x: T) => string) =>
    (a: T, b: T) =>
      b.n - a.n || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);
  return {
    kinds: [...kinds].map(([kind, n]) => ({ kind, n })).sort(byCount((x) => x.kind)),
    pods: [...pods]
      .map(([pod, n]) => ({ pod, n }))
      .sort(byCount((x) => x.pod))
      .slice(0, MAX_FACET_PODS),
  };
}
