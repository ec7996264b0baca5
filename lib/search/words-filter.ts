/**
 * Whole-word matching for the boot timeline's events filter: the same words, the same searchable
 * text and the same index as incident search's `words` mode (search-sql.ts), so a boot's count in
 * incident search and its timeline filtered by the same text agree.
 *
 * `wordsMatchOf` resolves the text once per request: its words (none: the caller matches a
 * substring instead) and whether the incident's search indexes can answer. `wordsCondSql` is the
 * condition on event alias `e`: through the indexes (exact, no scan of the boot's range) when every
 * bundle of the incident has a complete one, else the words' own condition on every row, which the
 * caller reads in bounded slices as it does a substring. Both give the same rows.
 */
import type { SqlDb, SqlParam } from "../db/sql";
import type { TTextMatchMode } from "../view/view-state";
import { indexedBundles, indexedWordsAnyCond, scheduleSearchIndex, searchIndexPending } from "./search-index";
import { type PostingTerm, postedBundles, postedCountsSql, postingPlans, postingsCond, termsOf } from "./postings";
import { BUNDLE_ID_RE, matchRegexSql, QUERY_WORDS_SQL } from "./search-sql";

/** How the events filter's text matches: whole words (this module), or a part of a word anywhere in the message or pod (lib/view/view-state.ts `TEXT_MATCHES`). */
export type TTextMatch = TTextMatchMode;

export interface TWordsMatch {
  /** the text's words in order, lower-cased */
  words: string[];
  /** the AND of the text's distinct words, as tsquery text (`'a' & 'b'`) */
  tsq: string;
  /** the regex of the words in order, for the lower-cased searchable text */
  re: string;
  /** one word: the index alone decides (no regex check of its rows) */
  single: boolean;
  /**
   * the incident's bundles whose search index built after the ingest answers (search-index.ts),
   * when every bundle is answered without a scan (by that index or by its postings); null: match by a scan
   */
  indexed: string[] | null;
  /** bundles whose postings (postings.ts) pick the candidates, with the term that does (bundles whose postings lack a word hold no match) */
  posted?: Map<string, PostingTerm>;
  /**
   * no index answers (`indexed` null) only because a word is too common for postings
   * (postings.ts): the page is read in time order (the word fills it within a few rows)
   */
  common?: boolean;
  /** every bundle of the incident, when each is stored with postings (else null) */
  postedAll?: string[] | null;
  /** the node boot `posted` and `common` were decided for (its postings rows alone); unset: the whole incident */
  bootId?: number;
}

/**
 * The words of `q` for incident `incidentId`, or null when `q` has no letter or digit; with
 * `bootId`, the postings are read for that node boot alone (a word too common for postings in
 * one boot is still read through them in a boot where it is not). Bundles of the incident stored
 * but not yet indexed are queued for an index build (search-index.ts), as incident search does.
 */
export async function wordsMatchOf(sql: SqlDb, incidentId: string, q: string, bootId?: number): Promise<TWordsMatch | null> {
  const [w] = await sql.query<{ words: string[] | null; tsq: string | null; re: string | null }>(QUERY_WORDS_SQL, [q]);
  if (!w?.words?.length || !w.tsq || !w.re) return null;
  const bundles = await sql.query<{ id: string; ready: boolean }>(
    `SELECT id, status = 'ready' AS ready FROM "Bundle" WHERE "incidentId" = $1 AND "duplicateOf" IS NULL`,
    [incidentId],
  );
  const ids = bundles.map((b) => b.id);
  const postedSet = await postedBundles(sql, ids);
  const plans = await postingPlans(sql, [...postedSet], termsOf(w.words), bootId);
  const posted = new Map<string, PostingTerm>();
  for (const [b, plan] of plans) if (plan.kind === "term") posted.set(b, plan.term);
  const others = ids.filter((b) => !postedSet.has(b));
  const have = await indexedBundles(sql, others);
  for (const b of bundles) {
    if (b.ready && !postedSet.has(b.id) && !have.has(b.id) && BUNDLE_ID_RE.test(b.id) && !searchIndexPending(b.id)) void scheduleSearchIndex(sql, b.id);
  }
  const answered = ids.every((b) => (postedSet.has(b) ? plans.get(b)?.kind !== "scan" : have.has(b)));
  const indexed = ids.length > 0 && answered ? others : null;
  const common = !indexed && ids.length > 0 && ids.every((b) => postedSet.has(b) || have.has(b));
  const postedAll = ids.length > 0 && !others.length ? ids : null;
  return { words: w.words, tsq: w.tsq, re: w.re, single: w.words.length === 1, indexed, posted, common, postedAll, bootId };
}

/**
 * A SELECT of one value: how many events of the boot whose id is the SQL `boot` hold the one word
 * of `m`, from the postings' numbers per boot (exact; every event of the boot, whatever its time
 * or lane); null when they cannot say: more than one word, a short id (it matches several
 * words), or a bundle of the incident without postings.
 */
export function postedBootCountSql(m: TWordsMatch, boot: string, params: SqlParam[]): string | null {
  const [term] = termsOf(m.words);
  if (!m.single || !m.postedAll?.length || !term || term.prefix) return null;
  params.push(term.word);
  return `(SELECT coalesce(sum(c.n), 0) FROM (${postedCountsSql(m.postedAll, `$${params.length}`)}) c WHERE c."bootId" = ${boot})`;
}

/** The condition on alias `e` that the event holds the words of `m`; `params` gets the values. */
export function wordsCondSql(backend: SqlDb["backend"], m: TWordsMatch, params: SqlParam[]): string {
  const p = (v: SqlParam) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (!m.indexed) return matchRegexSql("e.", p(m.re));
  const conds: string[] = [];
  if (m.indexed.length) conds.push(indexedWordsAnyCond(backend, m.indexed, `${p(m.tsq)}::tsquery`));
  for (const [b, term] of m.posted ?? []) conds.push(`(${postingsCond(b, term, p, m.bootId)})`);
  // no bundle holds every word: no row matches
  const cond = conds.length ? (conds.length === 1 ? conds[0] : `(${conds.join(" OR ")})`) : "false";
  return m.single ? cond : `${cond} AND ${matchRegexSql("e.", p(m.re))}`;
}
