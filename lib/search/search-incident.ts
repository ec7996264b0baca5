/**
 * Incident-wide search: one query over every node and boot of an incident, the matching events
 * counted exactly per node boot, with each boot's first hits (in time order) and a link into
 * that boot's timeline at each of them.
 *
 * Two ways to match:
 * - `words` (default): the query's words, whole and in order, in the event's pod, sandbox id,
 *   message or parsed fields (search-sql.ts says exactly what matches). A bundle stored with
 *   its postings (postings.ts, made by the ingest threads: every bundle stored since they exist)
 *   answers from them the moment it is ready; a bundle stored before them answers from its
 *   search index once built (search-index.ts), and until then is scanned with the same condition,
 *   so counts do not depend on which is there. A one-word query is counted from the postings'
 *   or the word counts' per-boot numbers, without reading the matching events. A query with no
 *   letter or digit is searched as a substring.
 * - `substring`: the text anywhere in the message, pod, sandbox id or parsed fields,
 *   case-insensitive (a part of a word or an id); a scan of the incident's events.
 *
 * Events no boot claims are counted in a group of their node (or of no node) without a boot,
 * and link nowhere. Counts are exact: every matching event is counted, never sampled or capped.
 */
import { getDb } from "../db/connection";
import type { SqlConn, SqlDb, SqlParam } from "../db/sql";
import { ApiError } from "../http/errors";
import { bootPath } from "../view/view-state";
import { countedBundles, indexedBundles, indexedWordsCond, scheduleSearchIndex, searchIndexPending, wordCountsSql } from "./search-index";
import { type PostingTerm, postedBundles, postedCountsSql, postingPlans, postingsCond, termsOf } from "./postings";
import { BUNDLE_ID_RE, containsPattern, matchRegexSql, QUERY_WORDS_SQL } from "./search-sql";

export type TSearchMode = "words" | "substring";

/** Longest query text searched, characters. */
export const MAX_QUERY = 200;
/** Most hits listed per node boot. */
export const MAX_HITS_PER_BOOT = 50;
/** Groups (node boots) given hits; every group gets its count. */
export const MAX_HIT_GROUPS = 100;
/** Characters of a hit's message returned. */
export const HIT_MESSAGE_MAX = 500;
/**
 * A boot with at least this many matches finds its first hits by walking its events in time
 * order (a few rows per hit); one with fewer takes them from the matches themselves.
 */
const WALK_MIN_MATCHES = 2000;
/**
 * The boots whose first hits come from the matches are read through their own index as well as
 * the search index when they hold under 1/FEW_SHARE of the matches.
 */
const FEW_SHARE = 4;
/**
 * Memory for one search query's sorts and bitmaps: enough that the bitmap of a common word's
 * matches stays exact (a lossy one would make every row of its pages be checked again).
 */
const SEARCH_WORK_MEM = "64MB";
/**
 * Events read by the first slice when walking a boot for its first hits (each next slice reads
 * four times as many, up to WALK_SLICE_MAX), and events read at most.
 */
const WALK_SLICE = 200;
const WALK_SLICE_MAX = 20_000;
const WALK_MAX_ROWS = 200_000;
/** Milliseconds of timeline shown on each side of a hit its link opens. */
const HIT_CONTEXT_MS = 10_000;

export interface TSearchOptions {
  incidentId: string;
  q: string;
  mode?: TSearchMode;
  /** hits listed per node boot (default 5, at most MAX_HITS_PER_BOOT) */
  hitsPerBoot?: number;
  /** how the first hits are found (tests reach both ways with small numbers): matches from which a boot is walked (default WALK_MIN_MATCHES), events in the first slice of a walk (default WALK_SLICE) */
  tuning?: { walkFrom?: number; walkSlice?: number };
}

export interface TSearchHit {
  /** BIGINT id as text */
  id: string;
  /** UTC ms, null when the record has no time */
  ts: number | null;
  lane: string;
  /** 0 debug … 4 fatal */
  severity: number;
  kind: string;
  pod: string | null;
  /** at most HIT_MESSAGE_MAX characters */
  message: string;
  /** the boot's timeline around this event with it selected; null for an event of no boot */
  href: string | null;
}

export interface TSearchGroup {
  nodeId: number | null;
  node: string | null;
  bootId: number | null;
  bootKey: string | null;
  /** the boot's T+0, UTC ms */
  bootStartMs: number | null;
  /** matching events in this node boot: exact */
  count: number;
  /** the first hits in time order (none past MAX_HIT_GROUPS groups) */
  hits: TSearchHit[];
  /** the boot's timeline filtered by the query text; null for events of no boot */
  href: string | null;
}

export interface TSearchResult {
  q: string;
  /** the way the query was matched (`words` falls to `substring` for a query with no word) */
  mode: TSearchMode;
  /** matching events in the incident: exact */
  total: number;
  /** by node name, then boot start; events of no boot after their node's boots */
  groups: TSearchGroup[];
  /** bundles answered from their search index, and bundles scanned (index not built yet) */
  bundles: { indexed: number; scanned: number };
}

type Matcher =
  /**
   * `single`: one word, which the index answers exactly (its rows need no regex check);
   * `words`: the query's words, lower-cased; `prefix`: a word is a short id (search-sql.ts), which
   * the word counts cannot answer; `counted`: bundles whose word counts are complete
   */
  | {
      mode: "words";
      tsq: string;
      re: string;
      single: boolean;
      words: string[];
      prefix: boolean;
      indexed: string[];
      scanned: string[];
      counted: string[];
      /** bundles stored with postings (postings.ts), every one, and those whose postings pick the candidates, with the term that does */
      postedAll: string[];
      posted: Map<string, PostingTerm>;
      backend: SqlDb["backend"];
    }
  | { mode: "substring"; pattern: string };

type Push = (v: SqlParam) => string;
const pusher =
  (params: SqlParam[]): Push =>
  (v) => {
    params.push(v);
    return `$${params.length}`;
  };

/** `UNION ALL` of SELECTs of `cols` over every matching event of the incident, each with `extra` (`AND …`). */
function matchSql(m: Matcher, incidentId: string, p: Push, cols: string, extra: string): string {
  if (m.mode === "substring") {
    const pat = p(m.pattern);
    return `SELECT ${cols} FROM "Event" e WHERE e."incidentId" = ${p(incidentId)} AND ${substringCond(pat)}${extra}`;
  }
  // parameters are pushed only when used: PostgreSQL refuses one it cannot type
  let reParam: string | null = null;
  const re = () => (reParam ??= p(m.re));
  const tsq = m.indexed.length ? `${p(m.tsq)}::tsquery` : "";
  const check = m.single ? "" : ` AND ${matchRegexSql("e.", re())}`;
  // one branch per indexed bundle: the literal bundle id lets the planner read its partial index
  const parts = m.indexed.map((b) => `SELECT ${cols} FROM "Event" e WHERE ${indexedWordsCond(m.backend, b, tsq)}${check}${extra}`);
  for (const [b, term] of m.posted) parts.push(`SELECT ${cols} FROM "Event" e WHERE ${postingsCond(b, term, p)}${check}${extra}`);
  if (m.scanned.length) {
    parts.push(
      `SELECT ${cols} FROM "Event" e WHERE e."incidentId" = ${p(incidentId)} AND e."bundleId" = ANY(${p(m.scanned)}::text[]) AND ${matchRegexSql("e.", re())}${extra}`,
    );
  }
  // every bundle without a match (a word absent from its postings): no rows
  return parts.length ? parts.join("\nUNION ALL\n") : `SELECT ${cols} FROM "Event" e WHERE false${check}`;
}

/**
 * The query of the exact match counts per node boot, rows `("nodeId", "bootId", n)`: a one-word
 * query reads the word counts of the bundles that have them (search-index.ts) and counts the
 * matching events of the others; any other query counts the matching events.
 */
function countSql(m: Matcher, incidentId: string, p: Push): string {
  const byCount = m.mode === "words" && m.single && !m.prefix;
  const fromCounts = byCount ? m.counted : [];
  const fromPosted = byCount ? m.postedAll : [];
  if (m.mode === "substring" || (!fromCounts.length && !fromPosted.length)) {
    return `SELECT m."nodeId", m."bootId", count(*)::float8 AS n FROM (${matchSql(m, incidentId, p, `e."nodeId", e."bootId"`, "")}) m GROUP BY 1, 2`;
  }
  const counted = new Set([...fromCounts, ...fromPosted]);
  const rest: Matcher = {
    ...m,
    indexed: m.indexed.filter((b) => !counted.has(b)),
    scanned: m.scanned.filter((b) => !counted.has(b)),
    posted: new Map([...m.posted].filter(([b]) => !counted.has(b))),
  };
  const word = p(m.words[0]);
  const parts: string[] = [];
  if (fromCounts.length) parts.push(wordCountsSql(fromCounts, word));
  if (fromPosted.length) parts.push(postedCountsSql(fromPosted, word));
  if (rest.indexed.length || rest.scanned.length || rest.posted.size) parts.push(matchSql(rest, incidentId, p, `e."nodeId", e."bootId", 1::bigint AS n`, ""));
  return `SELECT m."nodeId", m."bootId", sum(m.n)::float8 AS n FROM (${parts.join("\nUNION ALL\n")}) m GROUP BY 1, 2`;
}

/** The substring condition for pattern parameter `pat` on alias `e`. */
const substringCond = (pat: string) => `(e.message ILIKE ${pat} OR e.pod ILIKE ${pat} OR e."sandboxId" ILIKE ${pat} OR e.fields ILIKE ${pat})`;

/** The condition on one event row of alias `e` (no bundle literal: for walks over a boot). */
function rowCond(m: Matcher, p: Push): string {
  if (m.mode === "substring") {
    return substringCond(p(m.pattern));
  }
  return matchRegexSql("e.", p(m.re));
}

/**
 * Runs `fn` in a transaction with `work_mem` at SEARCH_WORK_MEM and no JIT compilation (which
 * costs more than these short queries take once a store is large enough for the planner to ask
 * for it). Also used by the boot timeline's reads through the search indexes (lib/queries).
 */
export function withSearchWorkMem<T>(sql: SqlDb, fn: (tx: SqlConn) => Promise<T>): Promise<T> {
  return sql.transaction(async (tx) => {
    await tx.exec(`SET LOCAL work_mem = '${SEARCH_WORK_MEM}'; SET LOCAL jit = off`);
    return fn(tx);
  });
}

const groupKey = (nodeId: number | null, bootId: number | null) => `${nodeId ?? ""}:${bootId ?? ""}`;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The first `perBoot` matches of group `g` (a node boot, or a node's events of no boot) in time
 * order, by reading its timed events in growing slices along the (bootId, ts) index and checking
 * each slice (a slice's LIMIT keeps the planner on that index; one query with the match in its
 * WHERE would be planned as a scan of the whole boot and a sort, the planner taking the match
 * for rare). Stops after WALK_MAX_ROWS events: hits are examples, the count is exact.
 */
async function walkHits(sql: SqlDb, m: Matcher, incidentId: string, g: TSearchGroup, perBoot: number, sliceRows = WALK_SLICE): Promise<string[]> {
  const out: string[] = [];
  let after: { ts: Date | string; id: string } | null = null;
  let slice = sliceRows;
  for (let read = 0; read < WALK_MAX_ROWS && out.length < perBoot; read += slice, slice = Math.min(slice * 4, WALK_SLICE_MAX)) {
    const wp: SqlParam[] = [];
    const p = pusher(wp);
    const where =
      g.bootId !== null
        ? `e."bootId" = ${p(g.bootId)}`
        : `e."bootId" IS NULL AND e."incidentId" = ${p(incidentId)} AND ${g.nodeId === null ? `e."nodeId" IS NULL` : `e."nodeId" = ${p(g.nodeId)}`}`;
    const from = after ? ` AND e.ts >= ${p(after.ts as Date)} AND (e.ts, e.id) > (${p(after.ts as Date)}::timestamptz, ${p(after.id)}::bigint)` : "";
    const rows: Array<{ id: string; ts: Date | string; hit: boolean }> = await sql.query(
      `SELECT e.id::text AS id, e.ts, ${rowCond(m, p)} AS hit FROM "Event" e
       WHERE ${where} AND e.ts IS NOT NULL${from} ORDER BY e.ts, e.id LIMIT ${p(slice)}`,
      wp,
    );
    for (const r of rows) if (r.hit && out.length < perBoot) out.push(r.id);
    if (rows.length < slice) break;
    after = rows[rows.length - 1];
  }
  return out;
}

/** Searches incident `incidentId` (404 ApiError when there is none). */
export async function searchIncident(opts: TSearchOptions): Promise<TSearchResult> {
  const { sql } = await getDb();
  const { incidentId } = opts;
  const q = opts.q.trim().slice(0, MAX_QUERY);
  const perBoot = Math.min(Math.max(Math.floor(opts.hitsPerBoot ?? 5), 1), MAX_HITS_PER_BOOT);
  const [inc] = await sql.query(`SELECT 1 FROM "Incident" WHERE id = $1`, [incidentId]);
  if (!inc) throw new ApiError("not_found", `no incident ${incidentId}`);
  const bundleIds = (await sql.query<{ id: string }>(`SELECT id FROM "Bundle" WHERE "incidentId" = $1 AND "duplicateOf" IS NULL`, [incidentId])).map(
    (r) => r.id,
  );

  let mode: TSearchMode = opts.mode ?? "words";
  let m: Matcher = { mode: "substring", pattern: containsPattern(q) };
  let bundles = { indexed: 0, scanned: 0 };
  if (mode === "words") {
    const [w] = await sql.query<{ words: string[] | null; tsq: string | null; re: string | null; prefix: boolean }>(QUERY_WORDS_SQL, [q]);
    if (w?.words?.length && w.tsq && w.re) {
      const ready = new Set(
        (await sql.query<{ id: string }>(`SELECT id FROM "Bundle" WHERE id = ANY($1::text[]) AND status = 'ready'`, [bundleIds])).map((r) => r.id),
      );
      // bundles stored with postings answer from them (postings.ts); the others from the index built after their ingest
      const postedSet = await postedBundles(sql, bundleIds);
      const plans = await postingPlans(sql, [...postedSet], termsOf(w.words));
      const posted = new Map<string, PostingTerm>();
      for (const [b, plan] of plans) if (plan.kind === "term") posted.set(b, plan.term);
      const others = bundleIds.filter((b) => !postedSet.has(b));
      const indexed = await indexedBundles(sql, others);
      const counted = await countedBundles(sql, others);
      const scanned = bundleIds.filter((b) => (postedSet.has(b) ? plans.get(b)?.kind === "scan" : !indexed.has(b)));
      // a stored bundle with no index or word counts (stored by a process that ended before building them): build them now
      for (const b of others) {
        if ((!indexed.has(b) || !counted.has(b)) && ready.has(b) && BUNDLE_ID_RE.test(b) && !searchIndexPending(b)) void scheduleSearchIndex(sql, b);
      }
      m = {
        mode: "words",
        tsq: w.tsq,
        re: w.re,
        single: w.words.length === 1,
        words: w.words,
        prefix: w.prefix,
        indexed: [...indexed],
        scanned,
        counted: [...counted],
        postedAll: [...postedSet],
        posted,
        backend: sql.backend,
      };
      bundles = { indexed: bundleIds.length - scanned.length, scanned: scanned.length };
    } else mode = "substring";
  }
  if (mode === "substring") bundles = { indexed: 0, scanned: bundleIds.length };
  const empty: TSearchResult = { q, mode, total: 0, groups: [], bundles };
  if (!q || !bundleIds.length) return empty;

  // exact counts per node boot
  const cp: SqlParam[] = [];
  const counts = await withSearchWorkMem(sql, (tx) =>
    tx.query<{ nodeId: number | null; bootId: number | null; n: number | string }>(countSql(m, incidentId, pusher(cp)), cp),
  );
  if (!counts.length) return empty;

  const places = await sql.query<{
    nodeId: number;
    node: string;
    bootId: number | null;
    bootKey: string | null;
    start: number | string | null;
  }>(
    `SELECT n.id AS "nodeId", n.name AS node, b.id AS "bootId", b."bootKey", (extract(epoch FROM b.start) * 1000)::float8 AS start
     FROM "Node" n LEFT JOIN "Boot" b ON b."nodeId" = n.id WHERE n."incidentId" = $1`,
    [incidentId],
  );
  const nodeName = new Map(places.map((r) => [r.nodeId, r.node]));
  const boot = new Map(places.filter((r) => r.bootId !== null).map((r) => [r.bootId as number, r]));

  const groups: TSearchGroup[] = counts.map((c) => {
    const nodeId = num(c.nodeId);
    const bootId = num(c.bootId);
    const b = bootId !== null ? boot.get(bootId) : undefined;
    const node = nodeId !== null ? (nodeName.get(nodeId) ?? null) : null;
    return {
      nodeId,
      node,
      bootId,
      bootKey: b?.bootKey ?? null,
      bootStartMs: num(b?.start),
      count: Number(c.n),
      hits: [],
      href: b?.bootKey && node ? bootPath(incidentId, node, b.bootKey, { q, match: mode }) : null,
    };
  });
  groups.sort(
    (a, b) =>
      (a.node === null ? 1 : 0) - (b.node === null ? 1 : 0) ||
      (a.node ?? "").localeCompare(b.node ?? "") ||
      (a.bootStartMs === null ? 1 : 0) - (b.bootStartMs === null ? 1 : 0) ||
      (a.bootStartMs ?? 0) - (b.bootStartMs ?? 0),
  );

  // first hits: few matches from the matches themselves, many by walking the boot in time order
  const withHits = groups.slice(0, MAX_HIT_GROUPS);
  const walkFrom = opts.tuning?.walkFrom ?? WALK_MIN_MATCHES;
  const few = withHits.filter((g) => g.count < walkFrom);
  const many = withHits.filter((g) => g.count >= walkFrom);
  const hitIds: string[] = [];
  if (few.length) {
    const hp: SqlParam[] = [];
    const p = pusher(hp);
    const boots = few.filter((g) => g.bootId !== null).map((g) => g.bootId as number);
    const orNull = few.some((g) => g.bootId === null) ? ` OR e."bootId" IS NULL` : "";
    // the boots narrow the matches (`+ 0`: the search index alone is read, every match of the
    // incident visited and checked) unless these boots hold under a quarter of the matches: then
    // the boots' index is read too (a bitmap AND with the search index), and only their matches are visited
    const fewMatches = few.reduce((s, g) => s + g.count, 0);
    const allMatches = groups.reduce((s, g) => s + g.count, 0);
    const bootCol = fewMatches * FEW_SHARE < allMatches ? `e."bootId"` : `e."bootId" + 0`;
    const extra = ` AND (${bootCol} = ANY(${p(boots)}::int[])${orNull})`;
    const rows = await withSearchWorkMem(sql, (tx) =>
      tx.query<{ id: string }>(
        `SELECT r.id::text AS id FROM (
           SELECT m.id, row_number() OVER (PARTITION BY m."nodeId", m."bootId" ORDER BY m.ts, m.id) AS rn
           FROM (${matchSql(m, incidentId, p, `e.id, e."nodeId", e."bootId", e.ts`, extra)}) m
         ) r WHERE r.rn <= ${p(perBoot)}`,
        hp,
      ),
    );
    hitIds.push(...rows.map((r) => r.id));
  }
  for (const g of many) hitIds.push(...(await walkHits(sql, m, incidentId, g, perBoot, opts.tuning?.walkSlice)));
  if (hitIds.length) {
    const rows = await sql.query<{
      id: string;
      nodeId: number | null;
      bootId: number | null;
      ts: number | string | null;
      lane: string;
      severity: number;
      kind: string;
      pod: string | null;
      message: string;
    }>(
      `SELECT e.id::text AS id, e."nodeId", e."bootId", (extract(epoch FROM e.ts) * 1000)::float8 AS ts, e.lane, e.severity, e.kind, e.pod,
              left(e.message, ${HIT_MESSAGE_MAX}) AS message
       FROM "Event" e WHERE e.id = ANY($1::bigint[])
       ORDER BY e.ts, e.id`,
      [hitIds],
    );
    const byKey = new Map(withHits.map((g) => [groupKey(g.nodeId, g.bootId), g]));
    for (const r of rows) {
      const g = byKey.get(groupKey(num(r.nodeId), num(r.bootId)));
      if (!g) continue;
      const ts = num(r.ts);
      const href =
        g.node && g.bootKey
          ? bootPath(
              incidentId,
              g.node,
              g.bootKey,
              ts === null
                ? { ev: r.id }
                : {
                    from: ts - HIT_CONTEXT_MS,
                    to: ts + HIT_CONTEXT_MS,
                    ev: r.id,
                  },
            )
          : null;
      g.hits.push({
        id: r.id,
        ts,
        lane: r.lane,
        severity: Number(r.severity),
        kind: r.kind,
        pod: r.pod,
        message: r.message,
        href,
      });
    }
  }
  return {
    q,
    mode,
    total: groups.reduce((s, g) => s + g.count, 0),
    groups,
    bundles,
  };
}
