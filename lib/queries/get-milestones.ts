/**
 * Milestones of one node boot: the first event of each milestone kind (lib/model/event-kinds.ts MILESTONES;
 * the first `sandbox.created` at or after T+0). One query: one probe per kind on the
 * partial index `Event_signal_idx` (incidentId, kind, ts) WHERE kind <> 'log' (the query
 * repeats that condition so the planner can use it).
 */
import { getDb } from "@/lib/db/connection";
import { type EventKind, MILESTONES } from "../model/event-kinds";

export interface TMilestone {
  kind: EventKind;
  label: string;
  /** event id (BIGINT as text) */
  eventId: string;
  /** UTC ms */
  ts: number;
  component: string;
  message: string;
}

interface Row {
  kind: string;
  id: string;
  ts: number;
  component: string;
  message: string;
}

const SQL = `
SELECT k.kind, m.id, m.ts, m.component, m.message
FROM unnest($3::text[]) AS k(kind)
CROSS JOIN LATERAL (
  SELECT e.id::text AS id,
         (extract(epoch FROM e.ts) * 1000)::float8 AS ts,
         e.component,
         left(e.message, 300) AS message
  FROM "Event" e
  WHERE e."incidentId" = $1
    AND e.kind = k.kind
    AND e.kind <> 'log'
    AND e."bootId" = $2
    AND e.ts >= CASE WHEN k.kind = 'sandbox.created' THEN $4::timestamptz ELSE '-infinity'::timestamptz END
  ORDER BY e.ts, e."fileId", e.line, e.id
  LIMIT 1
) m
ORDER BY m.ts, k.kind`;

/** First event of each milestone kind in the boot, in time order (UTC ms). */
export async function getMilestones(opts: { incidentId: string; bootId: number; bootStartMs: number }): Promise<TMilestone[]> {
  const { sql } = await getDb();
  const rows = await sql.query<Row>(SQL, [opts.incidentId, opts.bootId, MILESTONES.map((m) => m.kind), new Date(opts.bootStartMs).toISOString()]);
  return rows.map((r) => {
    const def = MILESTONES.find((m) => m.kind === r.kind)!;
    return { kind: def.kind, label: def.label, eventId: r.id, ts: Number(r.ts), component: r.component, message: r.message };
  });
}
