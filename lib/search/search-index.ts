/**
 * The search index: one GIN index per bundle on the words of its events (search-sql.ts),
 * `CREATE INDEX "Event_search_<bundleId>" ON "Event" USING gin (<words>) WHERE "bundleId" = '<id>'`,
 * built after the bundle is stored, so the ingest's COPY never maintains it (a GIN index on the
 * message kept up during the COPY made it many times slower). Until a bundle's index is valid,
 * search reads that bundle by a scan (search-incident.ts): the same matches, only slower.
 *
 * On PostgreSQL the index is built `CONCURRENTLY` (other bundles keep being stored and read
 * meanwhile); a build that died leaves an invalid index, which search ignores and the next build
 * replaces. On PGlite (one connection) it is a plain `CREATE INDEX`. When `"Event"` is a
 * partitioned table, the index goes on the partition that holds the bundle's rows.
 *
 * `scheduleSearchIndex` runs builds in the background, one at a time per process; the ingest
 * worker calls it when a bundle is ready, and incident search for bundles it finds without one.
 * Indexes of bundles that no longer exist are dropped before each build.
 */
import type { SqlDb } from "../db/sql";
import { BUNDLE_ID_RE, bundleOfIndexName, docWordsSql, searchIndexName } from "./search-sql";

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

/** Of `bundleIds`, those whose search index is built and valid. */
export async function indexedBundles(sql: SqlDb, bundleIds: string[]): Promise<Set<string>> {
  const ok = bundleIds.filter((b) => BUNDLE_ID_RE.test(b));
  if (!ok.length) return new Set();
  const rows = await searchIndexes(sql, ok.map(searchIndexName));
  return new Set(
    rows
      .filter((r) => r.valid)
      .map((r) => bundleOfIndexName(r.relname))
      .filter((b): b is string => !!b),
  );
}

/** A quoted identifier. */
const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** The table the bundle's index goes on: `"Event"`, or the partition holding its rows. */
async function indexTarget(sql: SqlDb, bundleId: string): Promise<string | null> {
  const [t] = await sql.query<{ relkind: string }>(`SELECT relkind FROM pg_class WHERE oid = '"Event"'::regclass`);
  if (t?.relkind !== "p") return `"Event"`;
  const [p] = await sql.query<{ rel: string }>(`SELECT tableoid::regclass::text AS rel FROM "Event" WHERE "bundleId" = $1 LIMIT 1`, [bundleId]);
  return p?.rel ?? null;
}

/** Drops the search indexes of bundles that are gone (their incident was deleted). Returns how many. */
export async function dropStaleSearchIndexes(sql: SqlDb): Promise<number> {
  const rows = await searchIndexes(sql);
  if (!rows.length) return 0;
  const ids = rows.map((r) => bundleOfIndexName(r.relname)).filter((b): b is string => !!b);
  const live = new Set((await sql.query<{ id: string }>(`SELECT id FROM "Bundle" WHERE id = ANY($1::text[])`, [ids])).map((r) => r.id));
  let n = 0;
  for (const r of rows) {
    const b = bundleOfIndexName(r.relname);
    if (!b || live.has(b)) continue;
    await sql.exec(`DROP INDEX ${sql.backend === "postgres" ? "CONCURRENTLY " : ""}IF EXISTS ${ident(r.relname)}`);
    n++;
  }
  return n;
}

/**
 * Builds bundle `bundleId`'s search index unless a valid one exists. Returns true when a valid
 * index is there afterwards; false for an id outside BUNDLE_ID_RE or a bundle with no rows in a
 * partitioned table. Errors (a build cancelled, the database gone) are thrown.
 */
export async function buildSearchIndex(sql: SqlDb, bundleId: string): Promise<boolean> {
  if (!BUNDLE_ID_RE.test(bundleId)) return false;
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

const g = globalThis as unknown as {
  __bootlineSearchIndex?: { chain: Promise<void>; pending: Set<string> };
};

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
