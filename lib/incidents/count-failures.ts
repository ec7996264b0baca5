/**
 * Failure lines of an incident per node boot, kind and error class: how many, and the first and
 * last (UTC). One query. It answers "what failed, when" for what no detector turns into a
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
    first: Date | null;
    last: Date | null;
  }>(
    `SELECT "nodeId", "bootId", kind, "errorClass", count(*)::text AS lines, min(ts) AS first, max(ts) AS last
     FROM "Event"
     WHERE "incidentId" = $1 AND "bootId" IS NOT NULL AND kind = ANY($2::text[])
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
    first: iso(r.first),
    last: iso(r.last),
  }));
}
