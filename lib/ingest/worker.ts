/**
 * The ingest queue: uploads return at once and bundles are parsed outside the request.
 *
 * - PostgreSQL (`DATABASE_URL` set): pg-boss (v10, a job queue kept in PostgreSQL, schema
 *   `pgboss`). Uploads are jobs of queue `ingest`; any app process on the database works
 *   them one at a time each, and one bundle in one process at a time (`runOne`); a job whose
 *   process died expires and is retried (`JOB_SETTINGS`), so queued and interrupted uploads
 *   survive a restart.
 * - Embedded PGlite: one process owns the database, so the same process polls the
 *   `Bundle` table for `queued` rows (claimed with `FOR UPDATE SKIP LOCKED`) every
 *   `POLL_MS`; bundles left `parsing` by a process that died are queued again at start.
 *
 * Either way the bundle's rows are written in one transaction (pipeline.ts), so an
 * interrupted ingest leaves nothing half-stored, and progress lives in the `Bundle` row.
 */
import { getDb } from "../db/connection";
import { claimBundle, claimOldestQueued, requeueParsing } from "./bundle-status";
import { ingestExecutors } from "./ingest-pool";
import { processBundle } from "./pipeline";
import { sweepIncoming } from "./uploads";
import { scheduleSearchIndex } from "../search/search-index";

export const QUEUE = "ingest";
const POLL_MS = 1000;

/**
 * The ingest jobs' expiry and retries, in pg-boss 10's own option names (pg-boss 10.4 reads
 * `expireInSeconds` when it creates a queue: an `expireInMinutes` there is checked and then
 * dropped, leaving its default of 15 minutes). A job still active after `expireInSeconds` is
 * failed and retried `retryLimit` times, `retryDelay` seconds apart: an hour covers the longest
 * bundle measured (docs/scaling.md); a retry of a bundle whose first run still goes on leaves it
 * alone (`runOne`: the per-bundle lock). Set on the queue (created, or updated when it existed
 * with other settings) and on every job sent, so both read the same (tests/ingest-faults-queue.test.ts
 * reads them back from pg-boss's tables).
 */
export const JOB_SETTINGS = { retryLimit: 2, retryDelay: 5, expireInSeconds: 60 * 60 } as const;

interface Worker {
  /** queue bundle `bundleId` (its row exists with status `queued`) */
  enqueue(bundleId: string): Promise<void>;
  /** stops taking bundles; resolves once the bundle in hand (if any) has ended */
  stop(): Promise<void>;
}

const g = globalThis as unknown as { __bootlineWorker?: Promise<Worker>; __bootlineSweeping?: boolean };

/**
 * Claims a bundle and processes it; returns false when there was none to claim. With `bundleId`
 * (a pg-boss job, PostgreSQL) the bundle is claimed while it is `queued`, or `parsing` (a process
 * that died left it so), under a per-bundle advisory lock held for the whole run (`withBundleLock`): a second job
 * for the same bundle (sent again at a worker's start, or retried while the first run goes on in
 * another process) finds the lock taken and leaves the bundle alone: one run per bundle, as runs
 * share the bundle's work folder. A dead
 * process's connection drops its lock, so a retry can claim the bundle. Without `bundleId`
 * (PGlite's poller, one process, one bundle at a time) the oldest queued bundle is taken.
 */
export async function runOne(bundleId?: string): Promise<boolean> {
  const db = await getDb();
  const claim = async () => {
    const id = bundleId ? ((await claimBundle(db.sql, bundleId)) ? bundleId : null) : await claimOldestQueued(db.sql);
    if (!id) return false;
    const r = await processBundle(db, id);
    // the search index is built after the rows are in, in the background (lib/search/search-index.ts)
    if (r.status === "ready" && r.events > 0) void scheduleSearchIndex(db.sql, id);
    return true;
  };
  if (!bundleId || db.sql.backend !== "postgres" || !process.env.DATABASE_URL) return claim();
  return withBundleLock(process.env.DATABASE_URL, bundleId, claim);
}

/**
 * Runs `fn` holding the per-bundle advisory lock, or returns false when another run holds it. The
 * lock is a session lock on a connection of its own with no transaction open: an idle open
 * transaction would hold back every `CREATE INDEX CONCURRENTLY` on the database (it waits for all
 * older transactions) and, with it, every statement that waits for that index build. The lock
 * goes when `fn` ends either way, or with the connection when the process or the connection dies
 * (a lost lock connection is logged, never thrown).
 */
async function withBundleLock(url: string, bundleId: string, fn: () => Promise<boolean>): Promise<boolean> {
  const { default: pg } = await import("pg");
  const c = new pg.Client({ connectionString: url });
  c.on("error", (e) => console.error(`ingest worker: lock connection of bundle ${bundleId} lost: ${e.message}`));
  await c.connect();
  try {
    const { rows } = await c.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(72707372, hashtext($1)) AS ok`, [bundleId]);
    if (!rows[0].ok) return false;
    try {
      return await fn();
    } finally {
      await c.query(`SELECT pg_advisory_unlock(72707372, hashtext($1))`, [bundleId]).catch(() => {});
    }
  } finally {
    await c.end().catch(() => {});
  }
}

async function startPgBoss(url: string): Promise<Worker> {
  const { default: PgBoss } = await import("pg-boss");
  const boss = new PgBoss({ connectionString: url, max: 3 });
  boss.on("error", (e: Error) => console.error(`ingest queue: ${e.message}`));
  await boss.start();
  await boss.createQueue(QUEUE, { name: QUEUE, ...JOB_SETTINGS });
  // a queue made by an earlier version keeps the settings it was made with: set them again
  await boss.updateQueue(QUEUE, { name: QUEUE, ...JOB_SETTINGS });
  await boss.work<{ bundleId: string }>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
    await runOne(job.data.bundleId);
  });
  // bundles queued while no worker ran on this database (or before the queue existed)
  const db = await getDb();
  const waiting = await db.sql.query<{ id: string }>(`SELECT id FROM "Bundle" WHERE status IN ('queued', 'parsing') ORDER BY "createdAt"`);
  const send = (bundleId: string) => boss.send(QUEUE, { bundleId }, { singletonKey: bundleId, ...JOB_SETTINGS });
  for (const w of waiting) await send(w.id);
  return {
    enqueue: async (bundleId) => void (await send(bundleId)),
    stop: () => boss.stop({ graceful: true, wait: true }),
  };
}

async function startPolling(): Promise<Worker> {
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      while (await runOne());
    } catch (e) {
      console.error(`ingest worker: ${(e as Error).message}`);
    } finally {
      running = false;
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    }
  };
  const db = await getDb();
  await requeueParsing(db.sql);
  timer = setTimeout(tick, 0);
  return {
    enqueue: async () => {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(tick, 0);
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      while (running) await new Promise((r) => setTimeout(r, 50));
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

/** Stops this process's ingest worker when one runs (waits for the bundle in hand); a later `startIngestWorker` starts a new one. */
export async function stopIngestWorker(): Promise<void> {
  const w = g.__bootlineWorker;
  g.__bootlineWorker = undefined;
  if (w) await (await w.catch(() => null))?.stop();
}
