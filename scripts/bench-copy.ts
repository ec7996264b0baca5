/**
 * The physical baseline of `npm run bench` (scripts/bench.ts): plain COPY of an ingested bundle's
 * `Event` rows into the same table, `COPY_RUNS` times, on PostgreSQL (`pgCopyRuns`, the
 * connection in DATABASE_URL) or on the embedded PGlite (`pgliteCopyRuns`). Seconds per run.
 */
import { createReadStream, createWriteStream, rmSync } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";

/** Runs of the plain COPY; the bench keeps their median. */
export const COPY_RUNS = 3;

/** `Event` columns of the plain COPY baseline (every column the ingest writes but the id). */
export const COPY_COLS = `"incidentId","bundleId","fileId","nodeId","bootId",line,span,ts,precision,flags,component,lane,severity,kind,pod,"sandboxId","errorClass",message,fields,"fieldsAt"`;

/**
 * Plain COPY of a bundle's `Event` rows on PostgreSQL: exported to a file in `work` with COPY TO,
 * then `COPY_RUNS` times streamed into `COPY "Event" FROM STDIN` in a transaction rolled back.
 * Seconds per run (only the COPY FROM is timed).
 */
export async function pgCopyRuns(bundleId: string, work: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const { to, from } = await import("pg-copy-streams");
  const rowsFile = path.join(work, "events.copy");
  const runs: number[] = [];
  try {
    await pipeline(client.query(to(`COPY (SELECT ${COPY_COLS} FROM "Event" WHERE "bundleId" = '${bundleId}') TO STDOUT`)), createWriteStream(rowsFile));
    for (let i = 0; i < COPY_RUNS; i++) {
      await client.query("BEGIN");
      try {
        const tc = performance.now();
        await pipeline(createReadStream(rowsFile, { highWaterMark: 1 << 20 }), client.query(from(`COPY "Event" (${COPY_COLS}) FROM STDIN`)));
        runs.push((performance.now() - tc) / 1000);
      } finally {
        await client.query("ROLLBACK");
      }
    }
  } finally {
    rmSync(rowsFile, { force: true });
    await client.end();
  }
  return runs;
}

/**
 * The same on the embedded PGlite (in BOOTLINE_DATA_DIR; nothing else may have it open): the rows
 * exported with COPY TO '/dev/blob', then `COPY_RUNS` times one `COPY "Event" FROM '/dev/blob'`
 * of all of them (PGlite's COPY input is a Blob) in a transaction rolled back. Seconds per run.
 */
export async function pgliteCopyRuns(bundleId: string): Promise<number[]> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { pgliteDir } = await import("../lib/db/connection");
  const lite = await PGlite.create(pgliteDir());
  const runs: number[] = [];
  try {
    const { blob } = await lite.query(`COPY (SELECT ${COPY_COLS} FROM "Event" WHERE "bundleId" = '${bundleId}') TO '/dev/blob'`);
    if (!blob) throw new Error("PGlite returned no rows blob");
    for (let i = 0; i < COPY_RUNS; i++) {
      await lite.exec("BEGIN");
      try {
        const tc = performance.now();
        await lite.query(`COPY "Event" (${COPY_COLS}) FROM '/dev/blob'`, [], { blob });
        runs.push((performance.now() - tc) / 1000);
      } finally {
        await lite.exec("ROLLBACK");
      }
    }
  } finally {
    await lite.close();
  }
  return runs;
}
