/**
 * The ingest queue: uploads return at once and bundles are parsed outside the request.
 *
 * - PostgreSQL (`DATABASE_URL` set): pg-boss (v10, a job queue kept in PostgreSQL, schema
 *   `pgboss`). Uploads are jobs of queue `ingest`; any app process on the database works
 *   them one at a time each, and one bundle in one process at a time (`runOne`); a job whose
 *   process died expires (`expireInMinutes`) and is retried (`retryLimit`), so queued and
 *   interrupted uploads survive a restart.
 * - Embedded PGlite: one process owns the database, so the same process polls the
 *   `Bundle` table for `queued` rows (claimed with `FOR UPDATE SKIP LOCKED`) every
 *   `POLL_MS`; bundles left `parsing` by a process that died are queued again at start.
 *
 * Either way the bundle's rows are written in one transaction (process-bundle.ts), so an
 * interrupted ingest leaves nothing half-stored, and progress lives in the `Bundle` row.
 */
import { getDb } from "../db/connection";
import { ingestExecutors } from "./ingest-pool";
import { processBundle, sweepIncoming } from "./process-bundle";

export const QUEUE = "ingest";
const POLL_MS = 1000;

interface Worker {
  /** queue bundle `bundleId` (its row exists with status `queued`) */
  enqueue(bundleId: string): Promise<void>;
}

const g = globalThis as unknown as { __bootlineWorker?: Promise<Worker>; __bootlineSweeping?: boolean };

/**
 * Claims a bundle and processes it; returns false when there was none to claim. With `bundleId`
 * (a pg-boss job, PostgreSQL) the bundle is claimed while it is `queued`, or `parsing` (a process
 * that died left it so), under a per-bundle advisory lock held for the whole run: a second job
 * for the same bundle (sent again at a worker's start, or retried while the first run goes on in
 * another process) finds the lock taken and leaves the bundle alone. Two runs at once removed
 * each other's working files, and the one left without its files failed inside a COPY. A dead
 * process's connection drops its lock, so a retry can claim the bundle. Without `bundleId`
 * (PGlite's poller, one process, one bundle at a time) the oldest queued bundle is taken.
 */
export async function runOne(bundleId?: string): Promise<boolean> {
  const db = await getDb();
  const claim = async () => {
    const rows = await db.sql.query<{ id: string }>(
      bundleId
        ? `UPDATE "Bundle" SET status = 'parsing', phase = 'unpack', progress = 0 WHERE id = $1 AND status IN ('queued', 'parsing') RETURNING id`
        : `UPDATE "Bundle" SET status = 'parsing', phase = 'unpack', progress = 0
           WHERE id = (SELECT id FROM "Bundle" WHERE status = 'queued' ORDER BY "createdAt", id LIMIT 1 FOR UPDATE SKIP LOCKED)
           RETURNING id`,
      bundleId ? [bundleId] : [],
    );
    if (!rows[0]) return false;
    await processBundle(db, rows[0].id);
    return true;
  };
  if (!bundleId || db.sql.backend !== "postgres") return claim();
  // the lock's transaction holds nothing else (the run writes through other connections)
  return db.sql.transaction(async (tx) => {
    const [lock] = await tx.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(72707372, hashtext($1)) AS ok`, [bundleId]);
    return lock.ok ? claim() : false;
  });
}

async function startPgBoss(url: string): Promise<Worker> {
  const { default: PgBoss } = await import("pg-boss");
  const boss = new PgBoss({ connectionString: url, max: 3 });
  boss.on("error", (e: Error) => console.error(`ingest queue: ${e.message}`));
  await boss.start();
  await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 2, retryDelay: 5, expireInMinutes: 60 });
  await boss.work<{ bundleId: string }>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
    await runOne(job.data.bundleId);
  });
  // bundles queued while no worker ran on this database (or before the queue existed)
  const db = await getDb();
  const waiting = await db.sql.query<{ id: string }>(`SELECT id FROM "Bundle" WHERE status IN ('queued', 'parsing') ORDER BY "createdAt"`);
  for (const w of waiting) await boss.send(QUEUE, { bundleId: w.id }, { singletonKey: w.id });
  return { enqueue: async (bundleId) => void (await boss.send(QUEUE, { bundleId }, { singletonKey: bundleId })) };
}

async function startPolling(): Promise<Worker> {
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      while (await runOne());
    } catch (e) {
      console.error(`ingest worker: ${(e as Error).message}`);
    } finally {
      running = false;
      timer = setTimeout(tick, POLL_MS);
    }
  };
  const db = await getDb();
  await db.sql.query(`UPDATE "Bundle" SET status = 'queued', phase = 'queued', progress = 0 WHERE status = 'parsing'`);
  timer = setTimeout(tick, 0);
  return {
    enqueue: async () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(tick, 0);
    },
  };
}

/**
 * Starts this process's ingest worker once (pg-boss on PostgreSQL, polling on PGlite), first
 * removing files that unfinished uploads left behind (`sweepIncoming`, then hourly) and starting
 * the parsing threads in the background.
 */
export function startIngestWorker(): Promise<Worker> {
  if (!g.__bootlineSweeping) {
    g.__bootlineSweeping = true;
    const sweep = () => {
      try {
        sweepIncoming();
      } catch (e) {
        console.error(`ingest worker: could not sweep unfinished uploads: ${(e as Error).message}`);
      }
    };
    // at start, then hourly: what a crash left is young at the restart and goes a day later
    sweep();
    setInterval(sweep, 3600_000).unref();
    // start the parsing threads now, so the first upload does not wait for them (ingest-pool.ts)
    void ingestExecutors().catch(() => {});
  }
  g.__bootlineWorker ??= (process.env.DATABASE_URL ? startPgBoss(process.env.DATABASE_URL) : startPolling()).catch((e) => {
    g.__bootlineWorker = undefined;
    throw e;
  });
  return g.__bootlineWorker;
}
