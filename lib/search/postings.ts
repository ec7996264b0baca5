/**
 * A bundle's search postings, made by the ingest threads with its rows (thread-words.ts) and
 * COPYed in the bundle's own transaction, so a bundle is searchable, on both databases, the
 * moment it turns `ready`: no index is built after it.
 *
 * Table `"Search_post_<bundleId>" (word text COLLATE "C", "nodeId" int, "bootId" int, n bigint,
 * ids bigint[])`, btree on `word` (the C collation lets a `LIKE 'prefix%'` read it as a range):
 * per word and node boot, `n` events hold the word, `ids` are their ids, or null when `n` passed
 * thread-words.ts POSTING_MAX; `ids` is compressed with lz4 where the server has it (PostgreSQL
 * built with lz4; PGlite is not): about a quarter of pglz's CPU for a fifth more bytes, measured on
 * arrays of ascending ids (docs/benchmarks.md). Several rows of one (word, boot) add up (the threads format node by
 * node). It replaces, for the bundles stored with it, the GIN index and the word counts
 * search-index.ts builds after the ingest (bundles stored before keep those).
 *
 * Reading: a query's words are looked up once per bundle (`postingTerms`); a bundle where some
 * word is absent holds no match; otherwise the word whose postings are complete (no null `ids`)
 * with the fewest events picks the candidates, `e.id IN (SELECT unnest(ids) …)`, and the regex
 * of the whole query checks them (search-incident.ts, words-filter.ts), or, for one word, they are
 * the matches. A bundle where every word of the query is too common for postings is scanned. A
 * one-word query is counted from `n` (`postedCountsSql`).
 */
import type { SqlConn, SqlDb } from "../db/sql";
import { BUNDLE_ID_RE } from "./search-sql";
import type { WordsMode } from "./thread-words";

export const POSTINGS_PREFIX = "Search_post_";
export const POSTINGS_COLUMNS = ["word", "nodeId", "bootId", "n", "ids"];

/** `BOOTLINE_SEARCH_POSTINGS=0` stores bundles without postings (their index is then built after the ingest, as before it). */
const enabled = () => process.env.BOOTLINE_SEARCH_POSTINGS !== "0";

const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** Name of bundle `bundleId`'s postings table (the id must match BUNDLE_ID_RE). */
export function postingsTableName(bundleId: string): string {
  return `${POSTINGS_PREFIX}${bundleId}`;
}

/**
 * Inside the bundle's ingest transaction, before its rows: creates the (empty) postings table and
 * says how the database splits words (thread-words.ts `WordsMode`); null when postings are off or
 * the id is not one (the bundle is then indexed after the ingest).
 */
export async function createPostings(tx: SqlConn, bundleId: string): Promise<WordsMode | null> {
  if (!enabled() || !BUNDLE_ID_RE.test(bundleId)) return null;
  const [m] = await tx.query<{ u: boolean; lz4: boolean }>(
    `SELECT ('é' ~ '^[[:alnum:]]$' AND lower('É') = 'é') AS u,
       EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) AS lz4`,
  );
  await tx.exec(`DROP TABLE IF EXISTS ${ident(postingsTableName(bundleId))}`);
  await tx.exec(
    `CREATE TABLE ${ident(postingsTableName(bundleId))} (word text COLLATE "C" NOT NULL, "nodeId" integer, "bootId" integer, n bigint NOT NULL, ids bigint[]${m?.lz4 ? " COMPRESSION lz4" : ""})`,
  );
  return m?.u ? "unicode" : "ascii";
}

/** COPYs one node's postings rows (thread-words.ts `NodeWords.rows`). */
export async function copyPostings(tx: SqlConn, bundleId: string, pieces: readonly string[] | Iterable<string>): Promise<void> {
  if (!Array.isArray(pieces) || pieces.length) await tx.copyFrom(postingsTableName(bundleId), POSTINGS_COLUMNS, pieces);
}

/** After the last node's rows, in the same transaction: the index on `word` and the table's statistics. */
export async function finishPostings(tx: SqlConn, bundleId: string): Promise<void> {
  await tx.exec(`CREATE INDEX ON ${ident(postingsTableName(bundleId))} (word)`);
  await tx.exec(`ANALYZE ${ident(postingsTableName(bundleId))}`);
}

/** Of `bundleIds`, those stored with postings. */
export async function postedBundles(sql: SqlDb | SqlConn, bundleIds: readonly string[]): Promise<Set<string>> {
  const ok = bundleIds.filter((b) => BUNDLE_ID_RE.test(b));
  if (!ok.length) return new Set();
  const rows = await sql.query<{ relname: string }>(`SELECT relname FROM pg_class WHERE relkind = 'r' AND relname = ANY($1::text[])`, [
    ok.map(postingsTableName),
  ]);
  const have = new Set(rows.map((r) => r.relname));
  return new Set(ok.filter((b) => have.has(postingsTableName(b))));
}

/** One word of a query as the postings are looked up: exact, or (a short id) the start of words. */
export interface PostingTerm {
  word: string;
  prefix: boolean;
}

/** How one posted bundle answers a query: `none` (a word is absent: no match), `scan`, or the term whose postings pick the candidates. */
export type PostingPlan = { kind: "none" } | { kind: "scan" } | { kind: "term"; term: PostingTerm; n: number };

const PREFIX_RE = /^[0-9a-f]{12,63}$/;

/** The terms of query words `words` (lower-cased; see search-sql.ts PREFIX_WORD_RE for the short ids). */
export function termsOf(words: readonly string[]): PostingTerm[] {
  const seen = new Set<string>();
  const out: PostingTerm[] = [];
  for (const w of words) {
    if (seen.has(w)) continue;
    seen.add(w);
    out.push({ word: w, prefix: PREFIX_RE.test(w) });
  }
  return out;
}

/** The condition on postings alias `p` for `term` (a prefix inlined: hex digits only). */
function termCond(term: PostingTerm, push: (v: string) => string): string {
  if (term.prefix) {
    if (!PREFIX_RE.test(term.word)) throw new Error(`not a short id: ${term.word}`);
    return `p.word LIKE '${term.word}%'`;
  }
  return `p.word = ${push(term.word)}`;
}

/**
 * Per bundle of `bundleIds` (each posted), how it answers the query of `terms` (see the module
 * comment); with `bootId`, for that node boot's events alone (its postings rows only).
 */
export async function postingPlans(
  sql: SqlDb | SqlConn,
  bundleIds: readonly string[],
  terms: readonly PostingTerm[],
  bootId?: number,
): Promise<Map<string, PostingPlan>> {
  const plans = new Map<string, PostingPlan>();
  for (const b of bundleIds) {
    if (!BUNDLE_ID_RE.test(b)) throw new Error(`not a bundle id: ${b}`);
    let best: PostingPlan = { kind: "scan" };
    let none = false;
    for (const t of terms) {
      const params: Array<string | number> = [];
      const push = (v: string | number) => {
        params.push(v);
        return `$${params.length}`;
      };
      const boot = bootId === undefined ? "" : ` AND p."bootId" = ${push(bootId)}::int`;
      const [r] = await sql.query<{ n: string | number | null; complete: boolean | null }>(
        `SELECT sum(p.n) AS n, bool_and(p.ids IS NOT NULL) AS complete FROM ${ident(postingsTableName(b))} p WHERE ${termCond(t, push)}${boot}`,
        params,
      );
      const n = Number(r?.n ?? 0);
      if (!n) {
        none = true;
        break;
      }
      if (r.complete && (best.kind !== "term" || n < best.n)) best = { kind: "term", term: t, n };
    }
    plans.set(b, none ? { kind: "none" } : best);
  }
  return plans;
}

/** The condition on event alias `e` that it is one of bundle `bundleId`'s candidates for `term` (with `bootId`, of that node boot's postings). */
export function postingsCond(bundleId: string, term: PostingTerm, push: (v: string) => string, bootId?: number): string {
  if (!BUNDLE_ID_RE.test(bundleId)) throw new Error(`not a bundle id: ${bundleId}`);
  const boot = bootId === undefined ? "" : ` AND p."bootId" = ${push(String(bootId))}::int`;
  return `e."bundleId" = '${bundleId}' AND e.id IN (SELECT unnest(p.ids) FROM ${ident(postingsTableName(bundleId))} p WHERE ${termCond(term, push)}${boot})`;
}

/** A SELECT of `("nodeId", "bootId", n)` rows (`n` to be summed) of word parameter `word` over the postings of `bundleIds` (at least one). */
export function postedCountsSql(bundleIds: readonly string[], word: string): string {
  if (!bundleIds.length) throw new Error("no bundles");
  for (const b of bundleIds) if (!BUNDLE_ID_RE.test(b)) throw new Error(`not a bundle id: ${b}`);
  return bundleIds.map((b) => `SELECT p."nodeId", p."bootId", p.n FROM ${ident(postingsTableName(b))} p WHERE p.word = ${word}`).join(" UNION ALL ");
}
