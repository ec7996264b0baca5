/**
 * The search index of a bundle: the words of its events (search-sql.ts), built after the bundle
 * is stored, so the ingest's COPY never maintains it (a GIN index kept up row by row is far
 * costlier than one built once over the stored rows). Until a bundle's index is complete, search reads that
 * bundle by a scan (search-incident.ts): the same matches, only slower.
 *
 * On PostgreSQL it is one GIN index per bundle on `"Event"`,
 * `CREATE INDEX CONCURRENTLY "Event_search_<bundleId>" ON "Event" USING gin (<words>) WHERE "bundleId" = '<id>'`
 * (other bundles keep being stored and read meanwhile); a build that died leaves an invalid
 * index, which search ignores and the next build replaces. When `"Event"` is a partitioned
 * table, the index goes on the partition that holds the bundle's rows.
 *
 * On PGlite (one connection for the whole app, so one long statement holds every request) it
 * is a table per bundle, `"Search_words_<bundleId>" (id bigint, words tsvector)` with a GIN
 * index on `words`, filled in slices of event ids, one statement each (sized to take about
 * PGLITE_SLICE_MS: the next slice is scaled by the last one's time), under the name
 * `"Search_partial_<bundleId>"` and renamed when every slice is in: requests run between the
 * slices, and a table under the final name is complete. A partial table left by a process that
 * ended is dropped and built again.
 *
 * With the index, each build makes the bundle's word counts, `"Search_counts_<bundleId>"
 * (word text, "nodeId" int, "bootId" int, n bigint)` with a btree index on `word` (named by the database): for each word
 * of the index (the same `bootline_search_words` of the same text) and each node boot, how many
 * of the bundle's events hold it (a word and boot may have several rows: their `n` add up). A
 * one-word query's exact count per boot is the sum of its rows (`wordCountsSql`), read without
 * touching `"Event"`. On PostgreSQL the table is made in one transaction after the index (one
 * `INSERT … GROUP BY` over the bundle's events), so it exists complete or not at all; on PGlite it
 * is filled in slices of event ids like the word table, as `"Search_cpartial_<bundleId>"`, and
 * renamed when complete. The counts hold because a stored bundle's events never change (they are
 * only deleted with their incident, which drops the table); a bundle without the table (built
 * before it existed, or its build failed) is counted from its index.
 *
 * Bundles stored with their postings (postings.ts, made by the ingest threads) need none of this:
 * `buildSearchIndex` returns true for them at once.
 *
 * `scheduleSearchIndex` runs builds in the background, one at a time per process; the ingest
 * worker calls it when a bundle is ready, and incident search for bundles it finds without one.
 * A deleted incident's indexes, word tables and word counts are dropped with it
 * (search-drop.ts); any of bundles that no longer exist are dropped before each build too.
 */
import type { SqlDb } from "../db/sql";
import { postedBundles } from "./postings";
import { BUNDLE_ID_RE, bundleOfIndexName, docWordsSql, searchIndexName } from "./search-sql";

const g = globalThis as unknown as {
  __bootlineSearchIndex?: { chain: Promise<void>; pending: Set<string> };
  /** PGlite word-table builds running in this process, by bundle id */
  __bootlineWordsBuilds?: Map<string, Promise<boolean>>;
};

/** A quoted identifier. */
const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

interface IndexRow {
  relname: string;
  valid: boolean;
}

/** The search indexes on `"Event"` (and its partitions) by name, with whether they are valid. */
async function searchIndexes(sql: SqlDb, names?: string[]): Promise<IndexRow[]> {
  return sql.query<IndexRow>(
    `SELECT c.relname, (i.indisvalid AND i.indisready) AS valid
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname LIKE 'Event\\_search\\_%'${names ? " AND c.relname = ANY($1::text[])" : ""}`,
    names ? [names] : [],
  );
}

/**
 * Time one statement filling a word table on PGlite is sized to take, ms: a request waits at most
 * about this long for the connection during a build. Slices start at PGLITE_SLICE_FIRST event ids
 * and are scaled by each slice's time, within PGLITE_SLICE_MIN..PGLITE_SLICE_MAX.
 */
export const PGLITE_SLICE_MS = 100;
const PGLITE_SLICE_FIRST = 200;
const PGLITE_SLICE_MIN = 20;
const PGLITE_SLICE_MAX = 20_000;
/** The word table's GIN pending list, kB: new entries wait there and are merged in batches of this size. */
const PGLITE_PENDING_KB = 256;

const WORDS_PREFIX = "Search_words_";
const PARTIAL_PREFIX = "Search_partial_";
const COUNTS_PREFIX = "Search_counts_";
const COUNTS_PARTIAL_PREFIX = "Search_cpartial_";
const WORDS_TABLE_RE = /^Search_(?:words|partial|counts|cpartial|post)_([A-Za-z0-9_-]{1,48})$/;
/** Memory for the sort or hash of one PostgreSQL word-count build (one statement over the bundle's events). */
const COUNTS_BUILD_WORK_MEM = "256MB";

/** Name of bundle `bundleId`'s complete word-count table (the id must match BUNDLE_ID_RE). */
export function wordCountsTableName(bundleId: string): string {
  return `${COUNTS_PREFIX}${bundleId}`;
}

/**
 * A SELECT of `("nodeId", "bootId", n)` rows, one or more per node boot (`n` to be summed), for
 * word parameter `word` (lower-cased, one word: QUERY_WORDS_SQL's `words[0]`) over the word
 * counts of `bundleIds` (each one `countedBundles` reported; at least one): the events of those
 * bundles whose index holds the word. Throws on an id outside BUNDLE_ID_RE or an empty list.
 */
export function wordCountsSql(bundleIds: readonly string[], word: string): string {
  if (!bundleIds.length) throw new Error("no bundles");
  for (const b of bundleIds) if (!BUNDLE_ID_RE.test(b)) throw new Error(`not a bundle id: ${b}`);
  return bundleIds.map((b) => `SELECT c."nodeId", c."bootId", c.n FROM ${ident(wordCountsTableName(b))} c WHERE c.word = ${word}`).join(" UNION ALL ");
}

/** Of `bundleIds`, those whose word-count table is complete. */
export async function countedBundles(sql: SqlDb, bundleIds: readonly string[]): Promise<Set<string>> {
  const ok = bundleIds.filter((b) => BUNDLE_ID_RE.test(b));
  if (!ok.length) return new Set();
  const have = new Set(await wordsTables(sql, ok.map(wordCountsTableName)));
  return new Set(ok.filter((b) => have.has(wordCountsTableName(b))));
}

/**
 * The SELECT of word-count rows `(word, "nodeId", "bootId", n)` of the events of bundle `bundle`
 * (parameter text such as `$1`), those with ids in `[$2, $3)` when `sliced`, else all of them.
 */
function countRowsSql(bundle: string, sliced: boolean): string {
  return `SELECT w.word, e."nodeId", e."bootId", count(*) AS n
     FROM "Event" e CROSS JOIN LATERAL unnest(tsvector_to_array(${docWordsSql("e.")})) AS w(word)
     WHERE e."bundleId" = ${bundle}${sliced ? " AND e.id >= $2::bigint AND e.id < $3::bigint" : ""}
     GROUP BY 1, 2, 3`;
}

const COUNTS_COLUMNS = `(word text NOT NULL, "nodeId" integer, "bootId" integer, n bigint NOT NULL)`;

/** Name of bundle `bundleId`'s complete word table on PGlite (the id must match BUNDLE_ID_RE). */
export function wordsTableName(bundleId: string): string {
  return `${WORDS_PREFIX}${bundleId}`;
}

/**
 * The condition (on event alias `e`) that bundle `bundleId`'s index holds every word of tsquery
 * expression `tsq`, for a bundle `indexedBundles` reported: on PostgreSQL the indexed expression
 * itself (so the planner reads the bundle's partial index), on PGlite a lookup in its word table.
 */
export function indexedWordsCond(backend: SqlDb["backend"], bundleId: string, tsq: string): string {
  if (!BUNDLE_ID_RE.test(bundleId)) throw new Error(`not a bundle id: ${bundleId}`);
  if (backend === "postgres") return `e."bundleId" = '${bundleId}' AND ${docWordsSql("e.")} @@ ${tsq}`;
  return `e."bundleId" = '${bundleId}' AND e.id IN (SELECT w.id FROM ${ident(wordsTableName(bundleId))} w WHERE w.words @@ ${tsq})`;
}

/**
 * One condition (on event alias `e`) that the event belongs to one of `bundleIds` (each one
 * `indexedBundles` reported; at least one) and its bundle's index holds every word of tsquery
 * expression `tsq`. On PostgreSQL the OR of `indexedWordsCond` per bundle (the planner reads each
 * bundle's partial index, or-ing their bitmaps); on PGlite one semi-join on the union of the
 * bundles' word tables (an OR of IN subqueries would be checked row by row). Throws on an id
 * outside BUNDLE_ID_RE or an empty list.
 */
export function indexedWordsAnyCond(backend: SqlDb["backend"], bundleIds: readonly string[], tsq: string): string {
  if (!bundleIds.length) throw new Error("no bundles");
  for (const b of bundleIds) if (!BUNDLE_ID_RE.test(b)) throw new Error(`not a bundle id: ${b}`);
  if (backend === "postgres") return `(${bundleIds.map((b) => `(${indexedWordsCond(backend, b, tsq)})`).join(" OR ")})`;
  const union = bundleIds.map((b) => `SELECT w.id FROM ${ident(wordsTableName(b))} w WHERE w.words @@ ${tsq}`).join(" UNION ALL ");
  return `e.id IN (${union})`;
}

/** The word tables, word-count tables (complete and partial) and postings tables (postings.ts) by name. */
async function wordsTables(sql: SqlDb, names?: string[]): Promise<string[]> {
  const rows = await sql.query<{ relname: string }>(
    `SELECT relname FROM pg_class WHERE relkind = 'r' AND relname ~ '^Search_(words|partial|counts|cpartial|post)_'${names ? " AND relname = ANY($1::text[])" : ""}`,
    names ? [names] : [],
  );
  return rows.map((r) => r.relname);
}

/** Of `bundleIds`, those whose search index is built and valid (on PGlite: whose word table is complete). */
export async function indexedBundles(sql: SqlDb, bundleIds: string[]): Promise<Set<string>> {
  const ok = bundleIds.filter((b) => BUNDLE_ID_RE.test(b));
  if (!ok.length) return new Set();
  if (sql.backend === "pglite") {
    const have = new Set(await wordsTables(sql, ok.map(wordsTableName)));
    return new Set(ok.filter((b) => have.has(wordsTableName(b))));
  }
  const rows = await searchIndexes(sql, ok.map(searchIndexName));
  return new Set(
    rows
      .filter((r) => r.valid)
      .map((r) => bundleOfIndexName(r.relname))
      .filter((b): b is string => !!b),
  );
}

/** The table the bundle's index goes on: `"Event"`, or the partition holding its rows. */
async function indexTarget(sql: SqlDb, bundleId: string): Promise<string | null> {
  const [t] = await sql.query<{ relkind: string }>(`SELECT relkind FROM pg_class WHERE oid = '"Event"'::regclass`);
  if (t?.relkind !== "p") return `"Event"`;
  const [p] = await sql.query<{ rel: string }>(`SELECT tableoid::regclass::text AS rel FROM "Event" WHERE "bundleId" = $1 LIMIT 1`, [bundleId]);
  return p?.rel ?? null;
}

/** Drops the search indexes, word tables and word-count tables of bundles that are gone (their incident was deleted). Returns how many. */
export async function dropStaleSearchIndexes(sql: SqlDb): Promise<number> {
  const rows = await searchIndexes(sql);
  const tables = await wordsTables(sql);
  if (!rows.length && !tables.length) return 0;
  const tableBundle = (t: string) => WORDS_TABLE_RE.exec(t)?.[1] ?? null;
  const ids = [...rows.map((r) => bundleOfIndexName(r.relname)), ...tables.map(tableBundle)].filter((b): b is string => !!b);
  const live = new Set((await sql.query<{ id: string }>(`SELECT id FROM "Bundle" WHERE id = ANY($1::text[])`, [ids])).map((r) => r.id));
  let n = 0;
  for (const r of rows) {
    const b = bundleOfIndexName(r.relname);
    if (!b || live.has(b)) continue;
    await sql.exec(`DROP INDEX ${sql.backend === "postgres" ? "CONCURRENTLY " : ""}IF EXISTS ${ident(r.relname)}`);
    n++;
  }
  for (const t of tables) {
    const b = tableBundle(t);
    if (!b || live.has(b)) continue;
    await sql.exec(`DROP TABLE IF EXISTS ${ident(t)}`);
    n++;
  }
  return n;
}

/**
 * PGlite: runs `fill(lo, hi)` over bundle `bundleId`'s event ids in slices `[lo, hi)` (see the
 * module comment), giving waiting requests a turn before each slice.
 */
async function eachSlice(sql: SqlDb, bundleId: string, fixedSlice: number | null, fill: (lo: string, hi: string) => Promise<unknown>): Promise<void> {
  const [span] = await sql.query<{ lo: string | null; hi: string | null }>(
    `SELECT min(id)::text AS lo, max(id)::text AS hi FROM "Event" WHERE "bundleId" = $1`,
    [bundleId],
  );
  if (!span?.lo || !span.hi) return;
  const hi = BigInt(span.hi);
  let size = fixedSlice ?? PGLITE_SLICE_FIRST;
  for (let lo = BigInt(span.lo); lo <= hi; ) {
    await new Promise((r) => setImmediate(r));
    const t = performance.now();
    await fill(lo.toString(), (lo + BigInt(size)).toString());
    lo += BigInt(size);
    if (fixedSlice === null) {
      // the next slice scaled by this one's time (at most doubled or quartered at a step)
      const ms = Math.max(1, performance.now() - t);
      size = Math.min(PGLITE_SLICE_MAX, Math.max(PGLITE_SLICE_MIN, Math.round(size * Math.min(2, Math.max(0.25, PGLITE_SLICE_MS / ms)))));
    }
  }
}

/**
 * PGlite: fills bundle `bundleId`'s word table slice by slice (see the module comment), giving
 * waiting requests a turn between slices. Returns true when the complete table is there.
 */
async function buildWordsTable(sql: SqlDb, bundleId: string, fixedSlice: number | null): Promise<boolean> {
  const done = wordsTableName(bundleId);
  if ((await wordsTables(sql, [done])).length) return true;
  const part = `${PARTIAL_PREFIX}${bundleId}`;
  await sql.exec(`DROP TABLE IF EXISTS ${ident(part)}`);
  await sql.exec(`CREATE TABLE ${ident(part)} (id bigint NOT NULL, words tsvector NOT NULL)`);
  // a small pending list: entries are merged in batches, and no merge is large enough to hold one slice long
  const gin = `Search_gin_${bundleId}`;
  await sql.exec(`CREATE INDEX ${ident(gin)} ON ${ident(part)} USING gin (words) WITH (fastupdate = on, gin_pending_list_limit = ${PGLITE_PENDING_KB})`);
  await eachSlice(sql, bundleId, fixedSlice, (lo, hi) =>
    sql.query(
      `INSERT INTO ${ident(part)} (id, words)
       SELECT e.id, ${docWordsSql("e.")} FROM "Event" e WHERE e.id >= $1::bigint AND e.id < $2::bigint AND e."bundleId" = $3`,
      [lo, hi, bundleId],
    ),
  );
  await new Promise((r) => setImmediate(r));
  await sql.query(`SELECT gin_clean_pending_list($1::regclass)`, [ident(gin)]);
  await new Promise((r) => setImmediate(r));
  await sql.exec(`ANALYZE ${ident(part)}`);
  await sql.exec(`ALTER TABLE ${ident(part)} RENAME TO ${ident(done)}`);
  // an index on "Event" left by an earlier build of this bundle is not read on PGlite
  await sql.exec(`DROP INDEX IF EXISTS ${ident(searchIndexName(bundleId))}`);
  return true;
}

/**
 * Makes bundle `bundleId`'s word-count table unless it is complete (see the module comment).
 * PostgreSQL: one transaction holding an advisory lock on the bundle, so a second process's
 * build of the same bundle returns false at once instead of counting twice. PGlite: slices,
 * under the partial name, renamed at the end. Returns true when the complete table is there.
 */
async function buildWordCounts(sql: SqlDb, bundleId: string, fixedSlice: number | null): Promise<boolean> {
  const done = wordCountsTableName(bundleId);
  if ((await wordsTables(sql, [done])).length) return true;
  if (sql.backend === "pglite") {
    const part = `${COUNTS_PARTIAL_PREFIX}${bundleId}`;
    await sql.exec(`DROP TABLE IF EXISTS ${ident(part)}`);
    await sql.exec(`CREATE TABLE ${ident(part)} ${COUNTS_COLUMNS}`);
    await eachSlice(sql, bundleId, fixedSlice, (lo, hi) => sql.query(`INSERT INTO ${ident(part)} ${countRowsSql("$1", true)}`, [bundleId, lo, hi]));
    await new Promise((r) => setImmediate(r));
    await sql.exec(`CREATE INDEX ON ${ident(part)} (word)`);
    await sql.exec(`ANALYZE ${ident(part)}`);
    await sql.exec(`ALTER TABLE ${ident(part)} RENAME TO ${ident(done)}`);
    return true;
  }
  return sql.transaction(async (tx) => {
    const [lock] = await tx.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(hashtext('bootline_search_counts'), hashtext($1)) AS ok`, [bundleId]);
    if (!lock?.ok) return false;
    const [have] = await tx.query(`SELECT 1 FROM pg_class WHERE relkind = 'r' AND relname = $1`, [done]);
    if (have) return true;
    await tx.exec(`SET LOCAL work_mem = '${COUNTS_BUILD_WORK_MEM}'; SET LOCAL jit = off`);
    // one process: an INSERT … SELECT reads serially (a parallel CREATE TABLE … AS measured about
    // three times slower on two busy cores)
    await tx.exec(`CREATE TABLE ${ident(done)} ${COUNTS_COLUMNS}`);
    await tx.query(`INSERT INTO ${ident(done)} ${countRowsSql("$1", false)}`, [bundleId]);
    await tx.exec(`CREATE INDEX ON ${ident(done)} (word)`);
    await tx.exec(`ANALYZE ${ident(done)}`);
    return true;
  });
}

/**
 * Builds bundle `bundleId`'s search index (on PGlite its word table) unless a valid one exists,
 * then its word counts unless complete. Returns true when both are there afterwards; false for
 * an id outside BUNDLE_ID_RE, a bundle with no rows in a partitioned table, or a build of either
 * running in another process. Errors (a build cancelled, the database gone)
 * are thrown. `sliceIds`: event ids per statement on PGlite, fixed (default: sized by time);
 * `wordCounts: false`: the index alone (the word counts are left as they are).
 */
export async function buildSearchIndex(sql: SqlDb, bundleId: string, opts: { sliceIds?: number; wordCounts?: boolean } = {}): Promise<boolean> {
  const counts = opts.wordCounts ?? true;
  if (!BUNDLE_ID_RE.test(bundleId)) return false;
  // stored with its postings (postings.ts): searchable as it is, nothing to build
  if ((await postedBundles(sql, [bundleId])).size) return true;
  if (sql.backend === "pglite") {
    // one build of a bundle at a time (the one connection is this process's: no other process builds)
    const running = g.__bootlineWordsBuilds?.get(bundleId);
    if (running) return running;
    const builds = (g.__bootlineWordsBuilds ??= new Map());
    const fixed = opts.sliceIds === undefined ? null : Math.max(1, Math.floor(opts.sliceIds));
    const p = (async () => (await buildWordsTable(sql, bundleId, fixed)) && (!counts || (await buildWordCounts(sql, bundleId, fixed))))().finally(() =>
      builds.delete(bundleId),
    );
    builds.set(bundleId, p);
    return p;
  }
  return (await buildGinIndex(sql, bundleId)) && (!counts || (await buildWordCounts(sql, bundleId, null)));
}

/** PostgreSQL: builds bundle `bundleId`'s partial GIN index on `"Event"` unless a valid one exists; true when one is valid afterwards. */
async function buildGinIndex(sql: SqlDb, bundleId: string): Promise<boolean> {
  const name = searchIndexName(bundleId);
  const [have] = await searchIndexes(sql, [name]);
  if (have?.valid) return true;
  const pg = sql.backend === "postgres";
  if (have) {
    // an invalid index: a build that died, or one running now in another process
    if (pg) {
      const [busy] = await sql.query(`SELECT 1 FROM pg_stat_progress_create_index p JOIN pg_class c ON c.oid = p.index_relid WHERE c.relname = $1`, [name]);
      if (busy) return false;
    }
    await sql.exec(`DROP INDEX ${pg ? "CONCURRENTLY " : ""}IF EXISTS ${ident(name)}`);
  }
  const target = await indexTarget(sql, bundleId);
  if (!target) return false;
  await sql.exec(
    `CREATE INDEX ${pg ? "CONCURRENTLY " : ""}IF NOT EXISTS ${ident(name)} ON ${target} USING gin ((${docWordsSql("")})) WHERE "bundleId" = '${bundleId}'`,
  );
  const [now] = await searchIndexes(sql, [name]);
  return !!now?.valid;
}

/**
 * Queues a background build of `bundleId`'s search index (after the builds queued before it;
 * a bundle already queued is not queued twice). Never throws: a failed build is logged, and
 * search keeps scanning that bundle. Resolves when this build has ended either way.
 */
export function scheduleSearchIndex(sql: SqlDb, bundleId: string): Promise<void> {
  const s = (g.__bootlineSearchIndex ??= {
    chain: Promise.resolve(),
    pending: new Set(),
  });
  if (s.pending.has(bundleId)) return s.chain;
  s.pending.add(bundleId);
  s.chain = s.chain.then(async () => {
    try {
      await dropStaleSearchIndexes(sql);
      await buildSearchIndex(sql, bundleId);
    } catch (e) {
      console.error(`bootline: search index of bundle ${bundleId} not built: ${(e as Error).message}`);
    } finally {
      s.pending.delete(bundleId);
    }
  });
  return s.chain;
}

/** True while a build of `bundleId` is queued or running in this process. */
export function searchIndexPending(bundleId: string): boolean {
  return !!g.__bootlineSearchIndex?.pending.has(bundleId);
}

/**
 * Runs `fn` on the build chain once the builds queued or running in this process have ended
 * (one at a time with them, never throwing: a failure is logged). Used to drop a deleted
 * incident's search data after a build of one of its bundles that was under way.
 */
export function afterSearchBuilds(fn: () => Promise<unknown>): Promise<void> {
  const s = (g.__bootlineSearchIndex ??= { chain: Promise.resolve(), pending: new Set() });
  s.chain = s.chain.then(async () => {
    try {
      await fn();
    } catch (e) {
      console.error(`bootline: search data not dropped: ${(e as Error).message}`);
    }
  });
  return s.chain;
}
