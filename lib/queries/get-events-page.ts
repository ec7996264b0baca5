/**
 * One page of the events table for a node boot's visible range, in stored order
 * (ts, file, line, id), with keyset paging: `cursor` is the position after the last row
 * of the previous page.
 *
 * With a search, pod or severity filter a page reads at most SCAN_ROWS rows of the range
 * (no index serves a substring: one on every row would slow the ingest's COPY many times
 * over, see prisma/schema.prisma). A rare search term in a boot of millions of events then
 * comes back page by page, each bounded, instead of in one scan of the whole range: a page
 * can hold fewer rows than asked (even none) with a `nextCursor`, and `scannedToMs` says how
 * far the range has been searched. The bound is found first on the (bootId, ts) index.
 * Two filters read an index instead, with no bound: a pod filter that names few pods
 * (lib/queries/resolve-pods.ts) reads the pod index, and a search in whole words (`match`
 * `words`) reads the incident's search indexes when every bundle has a complete one
 * (event-filter.ts); their events come at once.
 */
import { getDb } from "@/lib/db/connection";
import type { SqlDb, SqlParam } from "@/lib/db/sql";
import { filterWhere, resolveTextMatch, scopeWhere, type TEventFilter, type TTextMatch, textIndexed, textMatchOf } from "./event-filter";
import { withSearchWorkMem } from "../search/search-incident";
import { resolvePods } from "./resolve-pods";
import { fieldsText } from "../model/message-fields";

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
  /**
   * the parsed fields the message does not print (a logrus line's `error`, an event's reason),
   * as `key=value` text of at most ROW_MESSAGE_MAX characters; null when none
   */
  fieldsText: string | null;
  /** bit 1 year inferred, 2 zone assumed, 4 out of order, 8 truncated */
  flags: number;
}

/**
 * Rows of the range read at most per page when a filter other than kind is set: 40,000
 * keeps one request under the 300 ms the timeline's data requests are held to (the ILIKE scan
 * rate on the project's 2-core machines is in docs/scaling.md); the table
 * asks for the next slice while it shows how far the search got.
 */
export const SCAN_ROWS = 40_000;
/**
 * The same bound on the embedded database: PGlite runs every statement of the app on one
 * connection, in turn, and reads rows more slowly, so its slices are smaller to keep
 * each statement short and let the other requests in between.
 */
export const SCAN_ROWS_PGLITE = 10_000;

/** Rows of the range one statement reads at most on this backend. */
export function scanRowsOf(backend: "postgres" | "pglite"): number {
  return backend === "pglite" ? SCAN_ROWS_PGLITE : SCAN_ROWS;
}

export interface TEventsPage {
  events: TEventRow[];
  /** pass as `cursor` for the next page; null at the end */
  nextCursor: string | null;
  /** the page stopped at the scan bound: the range is searched up to here (UTC ms, exclusive) */
  scannedToMs: number | null;
  /** how the search text matched (`words` falls to `substring` for a text with no letter or digit); null without one */
  match: TTextMatch | null;
}

/** Cursor text: `<tsMs>.<fileId>.<line>.<id>`. */
export const CURSOR_RE = /^(-?\d{1,16})\.(\d{1,10})\.(\d{1,10})\.(\d{1,19})$/;

export function encodeCursor(r: Pick<TEventRow, "ts" | "fileId" | "line" | "id">): string {
  return `${r.ts}.${r.fileId}.${r.line}.${r.id}`;
}

interface Row extends Omit<TEventRow, "ts" | "fieldsText"> {
  ts: number | string;
  /** Event.fields, JSON text */
  fields: string | null;
}

/**
 * True when a read with these filters reads the rows of the range (bounded by SCAN_ROWS per
 * request): not when a resolved pod filter or a search through the search indexes
 * (`resolveTextMatch`) picks the rows.
 */
export function scansRange(f: TEventFilter): boolean {
  if (f.podIn || textIndexed(f)) return false;
  return !!(f.q?.trim() || f.pod?.trim() || (f.minSeverity ?? 0) > 0 || f.patterns);
}

// the time SCAN_ROWS rows into the range (all lanes: an index-only scan of (bootId, ts))
export const BOUND_SQL = `
SELECT (extract(epoch FROM e.ts) * 1000)::float8 AS ms
FROM "Event" e
WHERE e."bootId" = (SELECT b.id FROM "Boot" b WHERE b.id = $2 AND b."incidentId" = $1)
  AND e.ts >= $3::timestamptz
  AND e.ts < $4::timestamptz
ORDER BY e.ts
OFFSET $5 LIMIT 1`;

/**
 * Rows of the range a page of whole words reads in time order, checking each, before it reads the
 * search index: a word in many events fills its page within a few rows, where the index would
 * read every match of the bundle to sort out the first ones.
 */
export const WORDS_WALK_ROWS = 1000;

/**
 * Loads up to `limit` (default 200, max 1000) events after `cursor`; with filters, reads
 * at most `scanRows` (default SCAN_ROWS) rows of the range. Whole words with a complete search
 * index (`resolveTextMatch`) are read without a bound, exactly: first by walking the range
 * (WORDS_WALK_ROWS rows, then once more as many rows as the matches seen so far say the page
 * needs, at most the scan bound of the backend), and for what is still missing through the index;
 * `walkRows` sets the first walk's rows (0: the index at once). A word too common for the search
 * postings (`wordsMatch.common`) is read by bounded slices whose rows are checked in time order
 * until the page is full: a word in most events fills a page of 200 within about as many rows.
 */
export async function getEventsPage(
  opts: TEventFilter & { cursor?: string | null; limit?: number; scanRows?: number; walkRows?: number },
): Promise<TEventsPage> {
  const limit = Math.min(Math.max(opts.limit ?? 200, 1), EVENTS_PAGE_MAX);
  const { sql } = await getDb();
  // a pod filter reads the pod index when the text names few enough pods
  const podIn = opts.pod?.trim() ? await resolvePods(sql, { incidentId: opts.incidentId, bootId: opts.bootId, text: opts.pod }) : null;
  if (podIn) opts = { ...opts, podIn };
  opts = await resolveTextMatch(sql, opts);
  const match = textMatchOf(opts);
  const indexed = textIndexed(opts);
  // a word too common for the search postings: read by bounded slices in time order (below) instead of an index
  if (!opts.wordsMatch || (!indexed && !opts.wordsMatch.common)) return { ...(await readPage(sql, opts, limit)), match };

  // whole words: walk the range, then the index (each step continues at the cursor the last one ended at);
  // each walk, and a common word's slices, check the rows in time order and stop once the page is full
  const scan: typeof opts & { inOrder: true } = { ...opts, wordsMatch: { ...opts.wordsMatch, indexed: null }, inOrder: true };
  const events: TEventRow[] = [];
  let cursor = opts.cursor ?? null;
  // a common word's slice stops once the page is full: no walk before it
  let walk = indexed ? Math.max(0, opts.walkRows ?? WORDS_WALK_ROWS) : 0;
  for (let step = 0; ; step++) {
    const viaIndex = walk <= 0;
    if (viaIndex && !indexed) {
      const r = await readPage(sql, { ...scan, cursor }, limit - events.length);
      return { events: [...events, ...r.events], nextCursor: r.nextCursor, scannedToMs: r.scannedToMs, match };
    }
    const r = await readPage(sql, viaIndex ? { ...opts, cursor } : { ...scan, cursor, scanRows: walk }, limit - events.length);
    events.push(...r.events);
    // a full page, or the end of the range: exact either way
    if (r.scannedToMs === null) return { events, nextCursor: r.nextCursor, scannedToMs: null, match };
    // the walk stopped at its bound with the page just full: the next page starts after its last row
    const last = events[events.length - 1];
    if (events.length >= limit && last) return { events, nextCursor: encodeCursor(last), scannedToMs: null, match };
    cursor = r.nextCursor;
    // walk once more when the matches so far say the rest of the page is near enough, else read the index
    const need = limit - events.length + 1;
    const rows = step === 0 && events.length > 0 ? Math.ceil((1.5 * need * walk) / events.length) : Number.POSITIVE_INFINITY;
    walk = rows <= scanRowsOf(sql.backend) ? rows : 0;
  }
}

const PAGE_COLUMNS = `e.id::text AS id,
       (extract(epoch FROM e.ts) * 1000)::float8 AS ts,
       e."fileId", e.line, e.lane, e.component, e.severity, e.kind, e.pod, e."sandboxId", e."errorClass",
       left(e.message, ${ROW_MESSAGE_MAX}) AS message, e.fields, e.flags`;
const PAGE_ORDER = `e.ts, e."fileId", e.line, e.id`;

/** The page's SELECT: rows of alias `e` passing every condition of `where`, in the page's order, at most `limit`. */
function pageSql(where: string[], limit: number, params: SqlParam[]): string {
  params.push(limit);
  return `
SELECT ${PAGE_COLUMNS}
FROM "Event" e
WHERE ${where.join(" AND ")}
ORDER BY ${PAGE_ORDER}
LIMIT $${params.length}`;
}

/**
 * Of the first `boundRows` rows passing `where` in the page's order (an index scan of
 * (bootId, ts) with an incremental sort, in a subquery whose LIMIT keeps the filter out of it),
 * those passing `filter`, checked on each as it comes, up to `limit`. The outer query has no
 * ORDER BY of its own, so the planner reads the subquery for its first rows only, and the scan
 * keeps its order. Where every row passes, a page of 200 reads about 200 rows; where none does,
 * all of the bound's rows (more slowly than `pageSql`'s bitmap scan, which is why only a filter
 * expected to pass most rows asks for it).
 */
function inOrderSql(where: string[], filter: string, boundRows: number, limit: number, params: SqlParam[]): string {
  params.push(boundRows, limit);
  const n = params.length;
  return `
SELECT ${PAGE_COLUMNS}
FROM (SELECT * FROM "Event" e WHERE ${where.join(" AND ")} ORDER BY ${PAGE_ORDER} LIMIT $${n - 1}) e
WHERE ${filter}
LIMIT $${n}`;
}

/**
 * One read of a page (the filter resolved): up to `limit` events after `opts.cursor`, at most
 * `opts.scanRows` (default: the backend's scan bound) rows of the range when the filters scan it.
 * `inOrder` (for a filter most rows pass, such as a common word): the bound's rows are read in
 * the page's order and the filter checked on each until the page is full (`inOrderSql`), instead
 * of checking every row of the bound and sorting the matches; the bound's time is then looked up
 * only when the page did not fill.
 */
async function readPage(
  sql: SqlDb,
  opts: TEventFilter & { cursor?: string | null; scanRows?: number; inOrder?: boolean },
  limit: number,
): Promise<Omit<TEventsPage, "match">> {
  const m = opts.cursor ? CURSOR_RE.exec(opts.cursor) : null;
  const startMs = Math.max(opts.fromMs, m ? Number(m[1]) : opts.fromMs);
  const scanRows = Math.max(1, opts.scanRows ?? scanRowsOf(sql.backend));
  /** the read's conditions into `params`: scope and cursor (`where`), the filters (`extra`), and `e.ts < beforeMs` when given */
  const conditions = (params: SqlParam[], beforeMs: number | null) => {
    const where = [scopeWhere(opts, params)];
    const extra = filterWhere(opts, params);
    if (m) {
      params.push(new Date(Number(m[1])).toISOString(), Number(m[2]), Number(m[3]), m[4]);
      const n = params.length;
      // `ts >=` repeats the row comparison's first column so the (bootId, ts) index starts at
      // the cursor: without it every page re-reads the range from its start (page k costs k pages)
      where.push(`e.ts >= $${n - 3}::timestamptz`);
      where.push(`(e.ts, e."fileId", e.line, e.id) > ($${n - 3}::timestamptz, $${n - 2}::int, $${n - 1}::int, $${n}::bigint)`);
    }
    if (beforeMs !== null) {
      params.push(new Date(beforeMs).toISOString());
      where.push(`e.ts < $${params.length}::timestamptz`);
    }
    return { where, extra };
  };
  const read = async (text: string, params: SqlParam[]): Promise<TEventRow[]> => {
    // read through the search indexes: with incident search's memory, so a common word's bitmap stays exact
    const rows = textIndexed(opts) ? await withSearchWorkMem(sql, (tx) => tx.query<Row>(text, params)) : await sql.query<Row>(text, params);
    return rows.map(({ fields, ...r }) => ({ ...r, ts: Number(r.ts), fieldsText: fieldsText(fields, ROW_MESSAGE_MAX) }));
  };
  const page = (rows: TEventRow[], boundMs: number | null): Omit<TEventsPage, "match"> => {
    const events = rows.slice(0, limit);
    const last = events[events.length - 1];
    if (rows.length > limit && last) return { events, nextCursor: encodeCursor(last), scannedToMs: null };
    // the scan bound was reached first: continue at the bound (no row sorts before file 0)
    if (boundMs !== null) return { events, nextCursor: `${boundMs}.0.0.0`, scannedToMs: boundMs };
    return { events, nextCursor: null, scannedToMs: null };
  };
  // a kind alone, or a pod resolved on its index, reads an index; a search, another pod filter
  // or a severity filter reads the rows of the range, at most `scanRows` of them
  if (!scansRange(opts)) {
    const params: SqlParam[] = [];
    const { where, extra } = conditions(params, null);
    return page(await read(pageSql(extra ? [...where, extra] : where, limit + 1, params), params), null);
  }
  // the time `scanRows` rows into the range from `startMs`; null when the range holds no more
  const boundOf = async () => {
    const [b] = await sql.query<{ ms: number }>(BOUND_SQL, [
      opts.incidentId,
      opts.bootId,
      new Date(startMs).toISOString(),
      new Date(opts.toMs).toISOString(),
      scanRows,
    ]);
    return b ? Number(b.ms) : null;
  };
  let bound: number | null | undefined;
  if (opts.inOrder) {
    const params: SqlParam[] = [];
    const { where, extra } = conditions(params, null);
    const rows = await read(inOrderSql(where, extra, scanRows, limit + 1, params), params);
    if (rows.length > limit) return page(rows, null);
    bound = await boundOf();
    // the range ends within the bound: every row of it was checked
    if (bound === null) return page(rows, null);
    // the matches before the bound's time (the bound's first `scanRows` rows hold all of them)
    if (bound > startMs)
      return page(
        rows.filter((r) => r.ts < (bound as number)),
        bound,
      );
  }
  bound ??= await boundOf();
  // more rows than one instant holds: bound the page there (never at its own start)
  const boundMs = bound !== null && bound > startMs ? bound : null;
  const params: SqlParam[] = [];
  const { where, extra } = conditions(params, boundMs);
  return page(await read(pageSql(extra ? [...where, extra] : where, limit + 1, params), params), boundMs);
}
