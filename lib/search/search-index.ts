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
 * `scheduleSearchIndex` runs builds in the background, one at a time per process; the ingest
 * worker calls it when a bundle is ready, and incident search for bundles it finds without one.
 * Indexes (and word tables) of bundles that no longer exist are dropped before each build.
 */
import type { SqlDb } from "../db/sql";
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
const WORDS_TABLE_RE = /^Search_(?:words|partial)_([A-Za-z0-9_-]{1,48})$/;

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

/** The word tables (complete and partial) by name. */
async function wordsTables(sql: SqlDb, names?: string[]): Promise<string[]> {
  const rows = await sql.query<{ relname: string }>(
    `SELECT relname FROM pg_class WHERE relkind = 'r' AND (relname LIKE 'Search\\_words\\_%' OR relname LIKE 'Search\\_partial\\_%')${names ? " AND relname = ANY($1::text[])" : ""}`,
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

/** Drops the search indexes and word tables of bundles that are gone (their incident was deleted). Returns how many. */
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
  const [span] = await sql.query<{ lo: string | null; hi: string | null }>(
    `SELECT min(id)::text AS lo, max(id)::text AS hi FROM "Event" WHERE "bundleId" = $1`,
    [bundleId],
  );
  if (span?.lo && span.hi) {
    const hi = BigInt(span.hi);
    let size = fixedSlice ?? PGLITE_SLICE_FIRST;
    for (let lo = BigInt(span.lo); lo <= hi; ) {
      await new Promise((r) => setImmediate(r));
      const t = performance.now();
      await sql.query(
        `INSERT INTO ${ident(part)} (id, words)
         SELECT e.id, ${docWordsSql("e.")} FROM "Event" e WHERE e.id >= $1::bigint AND e.id < $2::bigint AND e."bundleId" = $3`,
        [lo.toString(), (lo + BigInt(size)).toString(), bundleId],
      );
      lo += BigInt(size);
      if (fixedSlice === null) {
        // the next slice scaled by this one's time (at most doubled or quartered at a step)
        const ms = Math.max(1, performance.now() - t);
        size = Math.min(PGLITE_SLICE_MAX, Math.max(PGLITE_SLICE_MIN, Math.round(size * Math.min(2, Math.max(0.25, PGLITE_SLICE_MS / ms)))));
      }
    }
  }
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
 * Builds bundle `bundleId`'s search index (on PGlite its word table) unless a valid one exists.
 * Returns true when a valid index is there afterwards; false for an id outside BUNDLE_ID_RE or
 * a bundle with no rows in a partitioned table. Errors (a build cancelled, the database gone)
 * are thrown. `sliceIds`: event ids per statement on PGlite, fixed (default: sized by time).
 */
export async function buildSearchIndex(sql: SqlDb, bundleId: string, opts: { sliceIds?: number } = {}): Promise<boolean> {
  if (!BUNDLE_ID_RE.test(bundleId)) return false;
  if (sql.backend === "pglite") {
    // one build of a bundle at a time (the one connection is this process's: no other process builds)
    const running = g.__bootlineWordsBuilds?.get(bundleId);
    if (running) return running;
    const builds = (g.__bootlineWordsBuilds ??= new Map());
    const fixed = opts.sliceIds === undefined ? null : Math.max(1, Math.floor(opts.sliceIds));
    const p = buildWordsTable(sql, bundleId, fixed).finally(() => builds.delete(bundleId));
    builds.set(bundleId, p);
    return p;
  }
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
