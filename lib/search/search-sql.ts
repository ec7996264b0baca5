/**
 * The SQL text of incident search, shared by the index builder (search-index.ts) and the query
 * (search-incident.ts), so that the expression a per-bundle index is built on and the one a query
 * names are the same text (PostgreSQL uses an expression index only for an identical expression).
 *
 * An event's searchable text is its pod, its sandbox id, its message and its parsed fields (the
 * JSON text kept for events that carry a signal: logrus' `error="…"` is there, not in the
 * message), joined by spaces. A word is a maximal run of letters and digits, case ignored.
 *
 * What matches: the query's words, whole, in its order, with nothing but other characters
 * between them: `calico-node-x7k2p` finds `calico-node-x7k2p` and `calico/node x7k2p`, not
 * `calico-node-x7k2pq`; `nodename` finds `/var/lib/calico/nodename:`. That is `matchRegexSql`
 * on the lower-cased text, which alone decides. The index (`bootline_search_words`, the
 * migration `search_words`) holds each event's words; an event that matches holds every word of
 * the query, so the index finds a superset, and for a one-word query exactly the matches
 * (runs of more than 500 characters are not in the index; a query is at most 200 characters).
 */

/** The searchable text of event alias `a` (`"e."`, or `""` in an index definition). */
export function docTextSql(a: string): string {
  return `(coalesce(${a}pod, '') || ' ' || coalesce(${a}"sandboxId", '') || ' ' || ${a}message || ' ' || coalesce(${a}fields, ''))`;
}

/** The words of event alias `a` as a tsvector: the indexed expression. */
export function docWordsSql(a: string): string {
  return `bootline_search_words(${docTextSql(a)})`;
}

/** The exact condition: the lower-cased text of alias `a` matches regex parameter `re` (QUERY_WORDS_SQL's `re`). */
export function matchRegexSql(a: string, re: string): string {
  return `lower(${docTextSql(a)}) ~ ${re}`;
}

/**
 * A query word of 12 to 63 hex digits is the start of a longer id (crictl and docker print
 * sandbox and container ids cut to 12 or 13 characters): it matches any word it begins.
 */
const PREFIX_WORD_RE = "^[0-9a-f]{12,63}$";

/**
 * One row for query text `$1`: `words`, its words in order (lower-cased; none when it has no
 * letter or digit); `tsq`, the AND of its distinct words as tsquery text (`'a' & 'b'`, a short id
 * `'4cff53b86489':*`) for the index; `re`, the regex of the words in order with only other
 * characters between them (a short id followed by any letters or digits); `prefix`, whether a
 * word is a short id (PREFIX_WORD_RE).
 */
export const QUERY_WORDS_SQL = `
WITH r AS (
  SELECT array_agg(s.w ORDER BY s.n) AS words
  FROM regexp_split_to_table(lower($1::text), '[^[:alnum:]]+') WITH ORDINALITY AS s(w, n)
  WHERE s.w <> ''
)
SELECT r.words,
       (SELECT string_agg(DISTINCT quote_literal(w) || CASE WHEN w ~ '${PREFIX_WORD_RE}' THEN ':*' ELSE '' END, ' & ') FROM unnest(r.words) AS w) AS tsq,
       '(^|[^[:alnum:]])' ||
         array_to_string(ARRAY(SELECT CASE WHEN u.w ~ '${PREFIX_WORD_RE}' THEN u.w || '[[:alnum:]]*' ELSE u.w END
                               FROM unnest(r.words) WITH ORDINALITY AS u(w, n) ORDER BY u.n), '[^[:alnum:]]+') ||
         '($|[^[:alnum:]])' AS re,
       EXISTS (SELECT 1 FROM unnest(r.words) AS w WHERE w ~ '${PREFIX_WORD_RE}') AS prefix
FROM r`;

/** Bundle ids are inlined into index predicates and queries: only these are accepted. */
export const BUNDLE_ID_RE = /^[A-Za-z0-9_-]{1,48}$/;

/** Name of bundle `bundleId`'s search index (the id must match BUNDLE_ID_RE). */
export function searchIndexName(bundleId: string): string {
  return `Event_search_${bundleId}`;
}

/** The bundle id of a search index name, or null when it is not one. */
export function bundleOfIndexName(name: string): string | null {
  const m = /^Event_search_([A-Za-z0-9_-]{1,48})$/.exec(name);
  return m ? m[1] : null;
}

/** `%`, `_` and `\` taken literally in (I)LIKE (backslash is its default escape); `%` around. */
export function containsPattern(s: string): string {
  return `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
