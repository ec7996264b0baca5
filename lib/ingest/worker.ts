/**
 * The ingest worker: a queue on the `Bundle` table. Claims `queued` bundles one at a
 * time (`FOR UPDATE SKIP LOCKED`, so several app processes on one PostgreSQL share the
 * queue), runs them through processBundle, and polls every `pollMs` (1000 ms) or when
 * woken by an upload. At start, bundles left `parsing` by a process that died are queued
 * again: their rows were never committed, so nothing partial remains.
 */
import { getDb } from "../db/connection";
import { processBundle } from "./process-bundle";

const g = globalThis as unknown as { __bootlineWorker?: { wake: () => void } };

async function claimNext(): Promise<string | null> {
  const db = await getDb();
  const rows = await db.sql.query<{ id: string }>(
    `UPDATE "Bundle" SET status = 'parsing', phase = 'unpack', progress = 0
     WHERE id = (SELECT id FROM "Bundle" WHERE status = 'queued' ORDER BY "createdAt", id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id`,
  );
  return rows[0]?.id ?? null;
}

/** Starts the worker once per process; returns its `wake` function. */
export function startIngestWorker(pollMs = 1000): { wake: () => void } {
  if (g.__bootlineWorker) return g.__bootlineWorker;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (;;) {
        const id = await claimNext();
        if (!id) break;
        await processBundle(await getDb(), id);
      }
    } catch (e) {
      console.error("ingest worker:", (e as Error).message);
    } finally {
      running = false;
      timer = setTimeout(tick, pollMs);
    }
  };
  const wake = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, 0);
  };
  g.__bootlineWorker = { wake };
  void (async () => {
    try {
      const db = await getDb();
      await db.sql.query(`UPDATE "Bundle" SET status = 'queued', phase = 'queued', progress = 0 WHERE status = 'parsing'`);
    } catch (e) {
      console.error("ingest worker: cannot reach the database:", (e as Error).message);
    }
    wake();
  })();
  return g.__bootlineWorker;
}
