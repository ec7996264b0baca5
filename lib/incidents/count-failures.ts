/**
 * Failure lines of an incident per node boot, kind and error class: how many lines, how many
 * occurrences (a Kubernetes event row of `count` N stands for N), and the first and last
 * occurrence (UTC; an event row's first is its `firstTimestamp`, its stored time its last). One query. It answers "what failed, when" for what no detector turns into a
 * finding: failed sandbox stops, "network not ready" reports, the runtime's health, CNI `ADD`/`DEL`
 * failures, beside the failed creations the sandbox failure window counts.
 */
import type { DbHandles } from "../db/connection";
import { FAILURE_KINDS } from "../model/event-kinds";

export interface FailureCount {
  nodeId: number;
  bootId: number;
  kind: string;
  /** null when no line of that kind stated a cause */
  errorClass: string | null;
  lines: number;
  /** occurrences: a line counts once, a Kubernetes event row its `count` */
  occurrences: number;
  /** ISO 8601 UTC; null when none of the lines has a time */
  first: string | null;
  last: string | null;
}

/** Failure lines of incident `incidentId` on its node boots, by boot, kind, then most lines. */
export async function countFailures(db: DbHandles, incidentId: string): Promise<FailureCount[]> {
  const rows = await db.sql.query<{
    nodeId: number;
    bootId: number;
    kind: string;
    errorClass: string | null;
    lines: string;
    occurrences: string;
    first: Date | null;
    last: Date | null;
  }>(
    `SELECT "nodeId", "bootId", kind, "errorClass", count(*)::text AS lines, sum(GREATEST(1, coalesce((k8s->>'count')::int, 1)))::text AS occurrences,
            min(LEAST(ts, to_timestamp((k8s->>'firstMs')::double precision / 1000))) AS first, max(ts) AS last
     FROM (SELECT *, CASE WHEN fields LIKE '{%"k8s"%' THEN fields::jsonb -> 'k8s' END AS k8s
           FROM "Event"
           WHERE "incidentId" = $1 AND "bootId" IS NOT NULL AND kind = ANY($2::text[])) e
     GROUP BY "nodeId", "bootId", kind, "errorClass"
     ORDER BY "bootId", kind, count(*) DESC, min(ts), "errorClass"`,
    [incidentId, [...FAILURE_KINDS]],
  );
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return rows.map((r) => ({
    nodeId: r.nodeId,
    bootId: r.bootId,
    kind: r.kind,
    errorClass: r.errorClass,
    lines: Number(r.lines),
    occurrences: Number(r.occurrences),
    first: iso(r.first),
    last: iso(r.last),
  }));
}
