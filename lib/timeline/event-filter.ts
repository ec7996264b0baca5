/**
 * The WHERE clause shared by the events table's reads (page and count): one node boot,
 * a time range, lanes, and optionally a minimum severity and a search text. Builds
 * parameter placeholders from `$1`; no SQL is built from user text.
 */
import type { SqlParam } from "@/lib/db/sql";
import type { TLane } from "./lanes";

export interface TEventFilter {
  incidentId: string;
  bootId: number;
  /** [fromMs, toMs), UTC ms */
  fromMs: number;
  toMs: number;
  lanes: readonly TLane[];
  /** minimum severity (0 debug … 4 fatal) */
  minSeverity?: number;
  /** case-insensitive substring of the message or the pod */
  q?: string;
}

/** `%`, `_` and `\` taken literally in ILIKE. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Conditions on alias `e` for the range and lanes; `params` gets the values. */
export function scopeWhere(f: TEventFilter, params: SqlParam[]): string {
  const p = (v: SqlParam) => {
    params.push(v);
    return `$${params.length}`;
  };
  const inc = p(f.incidentId);
  const boot = p(f.bootId);
  // the boot must belong to the incident (ids are sequential; incident ids are not);
  // the scalar subquery runs once and the scan uses the (bootId, ts) index
  return [
    `e."bootId" = (SELECT b.id FROM "Boot" b WHERE b.id = ${boot} AND b."incidentId" = ${inc})`,
    `e.ts >= ${p(new Date(f.fromMs).toISOString())}::timestamptz`,
    `e.ts < ${p(new Date(f.toMs).toISOString())}::timestamptz`,
    `e.lane = ANY(${p([...f.lanes])}::text[])`,
  ].join(" AND ");
}

/** Conditions for severity and search (empty string when neither is set). */
export function filterWhere(f: TEventFilter, params: SqlParam[]): string {
  const out: string[] = [];
  if (f.minSeverity && f.minSeverity > 0) {
    params.push(f.minSeverity);
    out.push(`e.severity >= $${params.length}`);
  }
  if (f.q && f.q.trim()) {
    params.push(likePattern(f.q.trim()));
    out.push(`(e.message ILIKE $${params.length} ESCAPE '\\' OR e.pod ILIKE $${params.length} ESCAPE '\\')`);
  }
  return out.join(" AND ");
}
