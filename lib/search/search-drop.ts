/**
 * Drops the search data of deleted bundles (their incident was deleted): the word-count tables
 * (`Search_counts_<id>`, which hold the words in plain text), the PGlite word tables
 * (`Search_words_<id>`), the postings made at ingest (`Search_post_<id>`, postings.ts, which hold the
 * words too) and the partial tables of builds under way, and the bundle's GIN index on
 * `"Event"` (search-index.ts names them all).
 *
 * Without blocking reads: a table is dropped in its own transaction under `lock_timeout`
 * (DROP_LOCK_TIMEOUT_MS), retried with a doubling wait up to DROP_TRIES times, so a search still
 * reading the table (only the deleted incident's searches read it) delays the drop and never
 * queues other statements behind its lock; on PostgreSQL the index goes by
 * `DROP INDEX CONCURRENTLY`, which never locks out reads or writes of `"Event"` but waits for
 * other index builds, so it runs on the build chain (search-index.ts `afterSearchBuilds`), after
 * the builds under way, followed by a sweep of the bundles' tables still there (left by the
 * first pass, or made by a build under way), under the same lock timeout with more tries. What
 * is still left then goes with the next build's `dropStaleSearchIndexes`.
 */
import type { SqlDb } from "../db/sql";
import { afterSearchBuilds } from "./search-index";
import { BUNDLE_ID_RE, searchIndexName } from "./search-sql";

/** How long one DROP TABLE waits for its lock, ms. */
export const DROP_LOCK_TIMEOUT_MS = 500;
/** Tries per table (waits of 50, 100, 200 … ms between them). */
export const DROP_TRIES = 5;
/** Tries per table of the sweep on the build chain (waits up to about 26 s in all). */
const SWEEP_TRIES = 10;

const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** The tables of bundle `id`'s search data, complete and partial. */
const tablesOf = (id: string) => ["words", "partial", "counts", "cpartial", "post"].map((k) => `Search_${k}_${id}`);

export interface DroppedSearchData {
  /** tables dropped now */
  tables: number;
  /** tables left to the sweep on the build chain (their lock was not had in time) */
  left: string[];
  /** resolves when the index drops and the sweep on the build chain have run */
  done: Promise<void>;
}

/** Drops the search data of `bundleIds` (bundles already deleted), as the module comment says. */
export async function dropSearchData(
  sql: SqlDb,
  bundleIds: readonly string[],
  opts: { tries?: number; lockTimeoutMs?: number } = {},
): Promise<DroppedSearchData> {
  const ids = bundleIds.filter((b) => BUNDLE_ID_RE.test(b));
  const lockTimeoutMs = opts.lockTimeoutMs ?? DROP_LOCK_TIMEOUT_MS;
  let tables = 0;
  const left: string[] = [];
  for (const t of await presentTables(sql, ids)) {
    if (await dropTable(sql, t, opts.tries ?? DROP_TRIES, lockTimeoutMs)) tables++;
    else left.push(t);
  }
  const done = afterSearchBuilds(async () => {
    for (const id of ids) await sql.exec(`DROP INDEX ${sql.backend === "postgres" ? "CONCURRENTLY " : ""}IF EXISTS ${ident(searchIndexName(id))}`);
    // what is left, and what a build under way made meanwhile, under the same lock timeout
    for (const t of await presentTables(sql, ids)) await dropTable(sql, t, SWEEP_TRIES, lockTimeoutMs);
  });
  return { tables, left, done };
}

/** Which of the search tables of bundles `ids` exist. */
async function presentTables(sql: SqlDb, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await sql.query<{ relname: string }>(`SELECT relname FROM pg_class WHERE relkind IN ('r', 'p') AND relname = ANY($1::text[])`, [
    ids.flatMap(tablesOf),
  ]);
  return rows.map((r) => r.relname);
}

/** Drops table `name` under a lock timeout, retried; false when its lock was never had. */
async function dropTable(sql: SqlDb, name: string, tries: number, lockTimeoutMs: number): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    try {
      await sql.transaction(async (tx) => {
        if (sql.backend === "postgres") await tx.exec(`SET LOCAL lock_timeout = ${Math.round(lockTimeoutMs)}`);
        await tx.exec(`DROP TABLE IF EXISTS ${ident(name)}`);
      });
      return true;
    } catch (e) {
      // 55P03: lock_not_available (the lock timeout); anything else is no wait to retry
      if ((e as { code?: string }).code !== "55P03") throw e;
      if (i + 1 < tries) await new Promise((r) => setTimeout(r, 50 * 2 ** i));
    }
  }
  return false;
}
