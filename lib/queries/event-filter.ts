/**
 * The WHERE clause shared by the events table's reads (page and count): one node boot,
 * a time range, lanes, and optionally a minimum severity, a pod, a kind and a search
 * text. Builds parameter placeholders from `$1`; no SQL is built from user text.
 *
 * Indexes (prisma/migrations): the range reads `Event_bootId_ts_idx`; a search
 * (`ILIKE '%text%'` on message or pod) can read the trigram GIN indexes
 * `Event_message_trgm_idx` and `Event_pod_trgm_idx` instead of every row of a large range;
 * a kind other than `log` repeats the partial index's condition so the planner can use
 * `Event_signal_idx` (incidentId, kind, ts) WHERE kind <> 'log'; a pod filter resolved to its
 * pods (`podIn`) reads `Event_bootId_pod_ts_idx` (bootId, pod, ts) WHERE pod IS NOT NULL.
 */
import type { SqlParam } from "@/lib/db/sql";
import type { TLane } from "../view/lanes";

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
  /** case-insensitive substring of the pod (`namespace/name`) */
  pod?: string;
  /** exact normalised kind (`sandbox.create.failed`, `log`, …) */
  kind?: string;
  /**
   * the pods `pod` names, resolved on the pod index (lib/queries/resolve-pods.ts): when set,
   * the pod condition is `pod = ANY(podIn)`, read on `Event_bootId_pod_ts_idx`
   */
  podIn?: readonly string[];
}

/** `%`, `_` and `\` taken literally in ILIKE. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** True when the filter narrows the scope (severity, search, pod or kind). */
export function hasFilters(f: TEventFilter): boolean {
  return !!((f.minSeverity && f.minSeverity > 0) || f.q?.trim() || f.pod?.trim() || f.kind);
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

/** Conditions for severity, search, pod and kind (empty string when none is set). */
export function filterWhere(f: TEventFilter, params: SqlParam[]): string {
  const p = (v: SqlParam) => {
    params.push(v);
    return `$${params.length}`;
  };
  const out: string[] = [];
  if (f.minSeverity && f.minSeverity > 0) out.push(`e.severity >= ${p(f.minSeverity)}`);
  if (f.kind) {
    out.push(`e.kind = ${p(f.kind)}`);
    // lets the planner read the partial signal index for a rare kind in a large range
    if (f.kind !== "log") out.push(`e.kind <> 'log' AND e."incidentId" = ${p(f.incidentId)}`);
  }
  if (f.podIn) out.push(`e.pod = ANY(${p([...f.podIn])}::text[])`);
  else if (f.pod && f.pod.trim()) out.push(`e.pod ILIKE ${p(likePattern(f.pod.trim()))} ESCAPE '\\'`);
  if (f.q && f.q.trim()) {
    const q = p(likePattern(f.q.trim()));
    out.push(`(e.message ILIKE ${q} ESCAPE '\\' OR e.pod ILIKE ${q} ESCAPE '\\')`);
  }
  return out.join(" AND ");
}
