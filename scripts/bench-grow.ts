/**
 * Grows the bench's store (scripts/bench.ts) by replicating the ingested bundle's events
 * server-side: same bundle, incident and boots, new ids. A bundle stored with search postings
 * (lib/search/postings.ts) gets its postings replicated with the rows (ids moved by the same
 * offset), as the ingest threads would have made them for a bundle that size: whole copies of the
 * ingested rows, so the store ends at the first whole copy past the target; then a (word, boot)
 * whose events passed POSTING_MAX keeps only its count, as the threads would have left it.
 * Without postings, rows are copied in order up to the target (their search index is built after).
 */
import type { SqlDb } from "../lib/db/sql";
import { postedBundles, postingsTableName } from "../lib/search/postings";
import { POSTING_MAX } from "../lib/search/thread-words";

const ORIG = "bench_post_orig";

/** Grows the store to at least `target` events; returns the count after. `cols`: the Event columns copied (every one but the id). */
export async function growStore(sql: SqlDb, bundleId: string, target: number, cols: string, log: (s: string) => void): Promise<number> {
  const countAll = async () => Number((await sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM "Event"`))[0].n);
  let stored = await countAll();
  if (stored < target) log(`growing the store to ${target.toLocaleString()} events (now ${stored.toLocaleString()})`);
  else log(`the store already holds ${stored.toLocaleString()} events (asked for ${target.toLocaleString()}): querying it as it is`);
  if (stored >= target) return stored;
  const posted = (await postedBundles(sql, [bundleId])).has(bundleId);
  if (!posted) {
    const [b] = await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "Event" WHERE "bundleId" = $1`, [bundleId]);
    while (stored < target) {
      const [ins] = await sql.query<{ n: string | number }>(
        `WITH ins AS (INSERT INTO "Event" (${cols}) SELECT ${cols} FROM "Event" WHERE "bundleId" = $1 ORDER BY id LIMIT $2 RETURNING 1) SELECT count(*) AS n FROM ins`,
        [bundleId, Math.min(target - stored, Number(b.n))],
      );
      if (!Number(ins.n)) throw new Error("the ingested bundle has no events to replicate");
      stored += Number(ins.n);
    }
    return countAll();
  }
  const post = `"${postingsTableName(bundleId)}"`;
  // the ingested rows and postings: the first grow keeps them aside (a later grow copies the same)
  await sql.exec(`CREATE TABLE IF NOT EXISTS ${ORIG} AS SELECT * FROM ${post}`);
  await sql.exec(`CREATE TABLE IF NOT EXISTS bench_orig_range AS SELECT min(id) AS lo, max(id) AS hi FROM "Event" WHERE "bundleId" = '${bundleId}'`);
  const [r] = await sql.query<{ lo: string; hi: string }>(`SELECT lo::text, hi::text FROM bench_orig_range`);
  while (stored < target) {
    const [m] = await sql.query<{ top: string }>(`SELECT max(id)::text AS top FROM "Event"`);
    const delta = BigInt(m.top) + 1n - BigInt(r.lo);
    await sql.transaction(async (tx) => {
      const [ins] = await tx.query<{ n: string | number }>(
        `WITH ins AS (INSERT INTO "Event" (id, ${cols}) SELECT id + $2::bigint, ${cols} FROM "Event" WHERE "bundleId" = $1 AND id BETWEEN $3::bigint AND $4::bigint RETURNING 1) SELECT count(*) AS n FROM ins`,
        [bundleId, delta.toString(), r.lo, r.hi],
      );
      if (!Number(ins.n)) throw new Error("the ingested bundle has no events to replicate");
      stored += Number(ins.n);
      await tx.query(
        `INSERT INTO ${post} SELECT word, "nodeId", "bootId", n, CASE WHEN ids IS NULL THEN NULL ELSE ARRAY(SELECT i + $1::bigint FROM unnest(ids) i ORDER BY 1) END FROM ${ORIG}`,
        [delta.toString()],
      );
    });
  }
  await sql.query(`SELECT setval(pg_get_serial_sequence('"Event"', 'id'), (SELECT max(id) FROM "Event"))`);
  await sql.query(
    `UPDATE ${post} p SET ids = NULL FROM (SELECT word, "nodeId", "bootId" FROM ${post} GROUP BY 1, 2, 3 HAVING sum(n) > ${POSTING_MAX}) c
     WHERE p.ids IS NOT NULL AND p.word = c.word AND p."nodeId" IS NOT DISTINCT FROM c."nodeId" AND p."bootId" IS NOT DISTINCT FROM c."bootId"`,
  );
  await sql.exec(`VACUUM ANALYZE ${post}`);
  return countAll();
}
