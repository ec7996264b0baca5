/**
 * The WHERE clause shared by the events table's reads (page and count): one node boot,
 * a time range, lanes, and optionally a minimum severity, a pod, a kind and a search
 * text. Builds parameter placeholders from `$1`; no SQL is built from user text.
 *
 * The search text matches one of two ways (`match`):
 * - `substring` (default): the text anywhere in the message or the pod, case-insensitive
 *   (`ILIKE '%text%'`). No index serves it: the reads scan the rows of the range, a bounded
 *   number per request (get-events-page.ts, count-events.ts).
 * - `words`: the text's words, whole and in order, in the pod, sandbox id, message or parsed
 *   fields, as incident search matches them (lib/search/words-filter.ts). Resolved per request
 *   into `wordsMatch` by `resolveTextMatch`: when every bundle of the incident answers through
 *   its search postings or index (lib/search/postings.ts, search-index.ts) the condition reads
 *   the matches through them (exact, unbounded); a word too common for postings is not;
 *   otherwise it is checked on every row of the range, bounded like a substring. A text with no
 *   letter or digit is matched as a substring.
 *
 * Indexes (prisma/migrations): the range reads `Event_bootId_ts_idx`; a kind other than `log`
 * repeats the partial index's condition so the planner can use `Event_signal_idx`
 * (incidentId, kind, ts) WHERE kind <> 'log'; a pod filter resolved to its pods (`podIn`) reads
 * `Event_bootId_pod_ts_idx` (bootId, pod, ts) WHERE pod IS NOT NULL; whole words read the
 * per-bundle search indexes (lib/search/search-index.ts), built after a bundle is stored.
 */
import type { SqlDb, SqlParam } from "@/lib/db/sql";
import { type TTextMatch, type TWordsMatch, wordsCondSql, wordsMatchOf } from "../search/words-filter";
import type { TLane } from "../view/lanes";

export type { TTextMatch } from "../search/words-filter";

export interface TEventFilter {
  incidentId: string;
  bootId: number;
  /** [fromMs, toMs), UTC ms */
  fromMs: number;
  toMs: number;
  lanes: readonly TLane[];
  /** minimum severity (0 debug … 4 fatal) */
  minSeverity?: number;
  /** the search text: matched as `match` says */
  q?: string;
  /** how `q` matches (default `substring`; see the module comment) */
  match?: TTextMatch;
  /**
   * `q`'s words, resolved by `resolveTextMatch` when `match` is `words` (unset: `q` matches as a
   * substring); `backend` is the database the condition is built for
   */
  wordsMatch?: TWordsMatch & { backend: SqlDb["backend"] };
  /** case-insensitive substring of the pod (`namespace/name`) */
  pod?: string;
  /** exact normalised kind (`sandbox.create.failed`, `log`, …) */
  kind?: string;
  /**
   * the pods `pod` names, resolved on the pod index (lib/queries/resolve-pods.ts): when set,
   * the pod condition is `pod = ANY(podIn)`, read on `Event_bootId_pod_ts_idx`
   */
  podIn?: readonly string[];
  /**
   * message templates (lib/patterns), resolved from their keys by lib/queries/pattern-filter.ts:
   * `show` the `LIKE` patterns of the one template shown (null: any), `hide` those of each
   * template hidden. Scans the range, bounded like a substring.
   */
  patterns?: { show: readonly string[] | null; hide: ReadonlyArray<readonly string[]> };
}

/** `%`, `_` and `\` taken literally in ILIKE. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** True when the filter narrows the scope (severity, search, pod or kind). */
export function hasFilters(f: TEventFilter): boolean {
  return !!((f.minSeverity && f.minSeverity > 0) || f.q?.trim() || f.pod?.trim() || f.kind || f.patterns);
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
  if (f.q?.trim() && f.wordsMatch) out.push(wordsCondSql(f.wordsMatch.backend, f.wordsMatch, params));
  else if (f.q?.trim()) {
    const q = p(likePattern(f.q.trim()));
    out.push(`(e.message ILIKE ${q} ESCAPE '\\' OR e.pod ILIKE ${q} ESCAPE '\\')`);
  }
  if (f.patterns) {
    const any = (likes: readonly string[]) => `(${likes.map((l) => `e.message LIKE ${p(l)} ESCAPE '\\'`).join(" OR ")})`;
    if (f.patterns.show) out.push(any(f.patterns.show));
    for (const h of f.patterns.hide) out.push(`NOT ${any(h)}`);
  }
  return out.join(" AND ");
}

/**
 * `f` with `wordsMatch` resolved when `match` is `words` and `q` has a letter or digit; `f` as it
 * is otherwise (its `q` then matches as a substring).
 */
export async function resolveTextMatch<F extends TEventFilter>(sql: SqlDb, f: F): Promise<F> {
  const q = f.q?.trim();
  if (f.match !== "words" || !q) return f;
  const m = await wordsMatchOf(sql, f.incidentId, q, f.bootId);
  return m ? { ...f, wordsMatch: { ...m, backend: sql.backend } } : f;
}

/** True when `q` is answered through the search indexes (so it bounds the rows read by itself). */
export function textIndexed(f: TEventFilter): boolean {
  return !!(f.q?.trim() && f.wordsMatch?.indexed);
}

/** How `q` was matched after `resolveTextMatch`: null without a search text. */
export function textMatchOf(f: TEventFilter): TTextMatch | null {
  if (!f.q?.trim()) return null;
  return f.wordsMatch ? "words" : "substring";
}
