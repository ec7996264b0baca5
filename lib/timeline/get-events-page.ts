/**
 * One page of the events table for a node boot's visible range, in stored order
 * (ts, file, line, id), with keyset paging: `cursor` is the position after the last row
 * of the previous page. One query.
 */
import { getDb } from "@/lib/db/connection";
import type { SqlParam } from "@/lib/db/sql";
import { filterWhere, scopeWhere, type TEventFilter } from "./event-filter";

export const EVENTS_PAGE_MAX = 1000;
/** Messages longer than this are cut in table rows (the full text is in the event detail). */
export const ROW_MESSAGE_MAX = 2000;

export interface TEventRow {
  /** BIGINT id as text */
  id: string;
  /** UTC ms */
  ts: number;
  fileId: number;
  line: number;
  lane: string;
  component: string;
  /** 0 debug … 4 fatal */
  severity: number;
  kind: string;
  pod: string | null;
  sandboxId: string | null;
  errorClass: string | null;
  /** at most ROW_MESSAGE_MAX characters */
  message: string;
  /** bit 1 year inferred, 2 zone assumed, 4 out of order, 8 truncated */
  flags: number;
}

export interface TEventsPage {
  events: TEventRow[];
  /** pass as `cursor` for the next page; null at the end */
  nextCursor: string | null;
}

/** Cursor text: `<tsMs>.<fileId>.<line>.<id>`. */
export const CURSOR_RE = /^(-?\d{1,16})\.(\d{1,10})\.(\d{1,10})\.(\d{1,19})$/;

export function encodeCursor(r: Pick<TEventRow, "ts" | "fileId" | "line" | "id">): string {
  return `${r.ts}.${r.fileId}.${r.line}.${r.id}`;
}

interface Row extends Omit<TEventRow, "ts"> {
  ts: number | string;
}

/** Loads up to `limit` (default 200, max 1000) events after `cursor`. */
export async function getEventsPage(opts: TEventFilter & { cursor?: string | null; limit?: number }): Promise<TEventsPage> {
  const limit = Math.min(Math.max(opts.limit ?? 200, 1), EVENTS_PAGE_MAX);
  const params: SqlParam[] = [];
  const where = [scopeWhere(opts, params)];
  const extra = filterWhere(opts, params);
  if (extra) where.push(extra);
  const m = opts.cursor ? CURSOR_RE.exec(opts.cursor) : null;
  if (m) {
    params.push(new Date(Number(m[1])).toISOString(), Number(m[2]), Number(m[3]), m[4]);
    const n = params.length;
    where.push(`(e.ts, e."fileId", e.line, e.id) > ($${n - 3}::timestamptz, $${n - 2}::int, $${n - 1}::int, $${n}::bigint)`);
  }
  params.push(limit + 1);
  const text = `
SELECT e.id::text AS id,
       (extract(epoch FROM e.ts) * 1000)::float8 AS ts,
       e."fileId", e.line, e.lane, e.component, e.severity, e.kind, e.pod, e."sandboxId", e."errorClass",
       left(e.message, ${ROW_MESSAGE_MAX}) AS message, e.flags
FROM "Event" e
WHERE ${where.join(" AND ")}
ORDER BY e.ts, e."fileId", e.line, e.id
LIMIT $${params.length}`;
  const { sql } = await getDb();
  const rows = await sql.query<Row>(text, params);
  const events = rows.slice(0, limit).map((r) => ({ ...r, ts: Number(r.ts) }));
  const last = events[events.length - 1];
  return { events, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
