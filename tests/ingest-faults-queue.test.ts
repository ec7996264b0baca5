/**
 * The ingest queue as configured, against the pg-boss installed (lib/ingest/worker.ts
 * `JOB_SETTINGS`), read back from pg-boss's own tables: the queue and every job sent carry the
 * expiry and retries set (pg-boss 10.4 drops an `expireInMinutes` given to `createQueue`, so a queue
 * made so keeps its 15-minute default: the worker sets its settings again at start); and a bundle
 * never runs twice at once: a second job for a bundle whose run goes on (as a retry after expiry
 * would be, worked by another process) leaves it alone, and the bundle is stored once.
 */
import path from "node:path";
import { rmSync } from "node:fs";
import pg from "pg";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { DbHandles } from "../lib/db/connection";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { caseBytes } from "./cases/cases";

const KIND_LOG = caseBytes("056-kind-journald-containerd-kubelet-cilium-cni-retry.log");

let db: TestDb;
let app: DbHandles;
let dataDir: string;
beforeAll(async () => {
  db = await createTestDb();
  process.env.DATABASE_URL = db.url;
  dataDir = path.join(process.cwd(), ".tmp", `faults-queue-${process.pid}`);
  process.env.BOOTLINE_DATA_DIR = dataDir;
  app = await (await import("../lib/db/connection")).getDb();
});
afterAll(async () => {
  const { stopIngestWorker } = await import("../lib/ingest/worker");
  await stopIngestWorker();
  await db?.drop();
  const { closeDb } = await import("../lib/db/connection");
  if (app) await closeDb(app).catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
});

interface Settings {
  retryLimit: number;
  retryDelay: number;
  expireSeconds: number | null;
}

async function queueSettings(): Promise<Settings> {
  const [q] = await db.sql.query<Settings>(
    `SELECT retry_limit AS "retryLimit", retry_delay AS "retryDelay", expire_seconds AS "expireSeconds" FROM pgboss.queue WHERE name = 'ingest'`,
  );
  return q;
}

async function jobSettings(bundleId: string): Promise<Settings[]> {
  return db.sql.query<Settings>(
    `SELECT retry_limit AS "retryLimit", retry_delay AS "retryDelay", EXTRACT(epoch FROM expire_in)::int AS "expireSeconds"
     FROM pgboss.job WHERE name = 'ingest' AND data->>'bundleId' = $1`,
    [bundleId],
  );
}

async function upload(title: string): Promise<string> {
  const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
  const { startIngestWorker } = await import("../lib/ingest/worker");
  const r = await enqueueBundle(app, { title, files: [{ name: "kind.log", data: KIND_LOG }] });
  await (await startIngestWorker()).enqueue(r.bundleId);
  return r.bundleId;
}

async function status(id: string): Promise<{ status: string; error: string | null; events: number | null }> {
  const [b] = await db.sql.query<{ status: string; error: string | null; events: number | null }>(
    `SELECT status, error, (counts->>'events')::int AS events FROM "Bundle" WHERE id = $1`,
    [id],
  );
  return b;
}

describe("the ingest queue's settings (pg-boss)", () => {
  it("a queue made with expireInMinutes keeps pg-boss's default; the worker sets the expiry and retries on the queue and on each job", async () => {
    const { JOB_SETTINGS } = await import("../lib/ingest/worker");
    // the queue as an earlier version made it
    const old = new PgBoss({ connectionString: db.url, max: 2 });
    old.on("error", () => {});
    await old.start();
    await old.createQueue("ingest", { name: "ingest", retryLimit: 2, retryDelay: 5, expireInMinutes: 60 } as PgBoss.Queue);
    expect((await queueSettings()).expireSeconds).toBeNull();
    await old.stop({ graceful: false, wait: true });

    const expected: Settings = { retryLimit: JOB_SETTINGS.retryLimit, retryDelay: JOB_SETTINGS.retryDelay, expireSeconds: JOB_SETTINGS.expireInSeconds };
    expect(expected).toEqual({ retryLimit: 2, retryDelay: 5, expireSeconds: 3600 });
    const id = await upload("settings");
    expect(await queueSettings()).toEqual(expected);
    // every job of the bundle (the worker's start sends one for each bundle waiting, the upload another)
    const jobs = await jobSettings(id);
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs).toEqual(jobs.map(() => expected));
    await vi.waitFor(async () => expect((await status(id)).status).toBe("ready"), { timeout: 60_000, interval: 100 });
    // its search index is built in the background (CREATE INDEX CONCURRENTLY), scheduled before
    // its job ends: both done before the next test locks "Event"
    const { searchIndexPending } = await import("../lib/search/search-index");
    await vi.waitFor(
      async () => {
        const [open] = await db.sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'bundleId' = $1 AND state IN ('created', 'retry', 'active')`,
          [id],
        );
        expect(open.n).toBe(0);
        expect(searchIndexPending(id)).toBe(false);
      },
      { timeout: 60_000, interval: 100 },
    );
  });
});

describe("one run per bundle", () => {
  it("a second job for a bundle whose run goes on (another process's, as a retry after expiry) leaves it alone; the bundle is stored once", async () => {
    const { runOne } = await import("../lib/ingest/worker");
    // the first run is held inside its COPY by a lock of this test
    const blocker = new pg.Client({ connectionString: db.url });
    await blocker.connect();
    const other = new PgBoss({ connectionString: db.url, max: 2 });
    const otherErrors: string[] = [];
    other.on("error", (e: Error) => otherErrors.push(e.message));
    // what runOne returned for each job the other process took, by job id
    const secondRan = new Map<string, boolean>();
    try {
      await blocker.query(`BEGIN`);
      await blocker.query(`LOCK TABLE "Event" IN SHARE MODE`);
      const id = await upload("twice at once");
      await vi.waitFor(
        async () => {
          const rows = await db.sql.query(`SELECT pid FROM pg_stat_activity WHERE query LIKE 'COPY "Event"%' AND wait_event_type = 'Lock'`);
          expect(rows.length).toBe(1);
        },
        { timeout: 60_000, interval: 20 },
      );
      // another process works the queue: it gets the second job (this process's worker is busy with the first)
      await other.start();
      await other.work<{ bundleId: string }>("ingest", { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
        secondRan.set(job.id, await runOne(job.data.bundleId));
      });
      const second = await other.send("ingest", { bundleId: id });
      expect(second).not.toBeNull();
      // the other process ran the second job to its end
      await vi.waitFor(
        async () => {
          const [j] = await db.sql.query<{ state: string }>(`SELECT state FROM pgboss.job WHERE id = $1`, [second!]);
          expect(j.state, otherErrors.join("; ")).toBe("completed");
          expect(secondRan.has(second!), `jobs the other process ran: ${[...secondRan.keys()].join(", ")}`).toBe(true);
        },
        { timeout: 30_000, interval: 100 },
      );
      expect(otherErrors).toEqual([]);
      // every job the other process took for the bundle (the second, and any the worker's start sent) left it alone
      expect([...secondRan.values()]).toEqual([...secondRan.values()].map(() => false));
      // the first run still holds its bundle
      expect((await status(id)).status).toBe("parsing");
      await blocker.query(`ROLLBACK`);
      await vi.waitFor(async () => expect((await status(id)).status).toBe("ready"), { timeout: 60_000, interval: 100 });
      const b = await status(id);
      expect(b).toEqual({ status: "ready", error: null, events: 4 });
      const [n] = await db.sql.query<{ events: number; files: number }>(
        `SELECT (SELECT count(*)::int FROM "Event" WHERE "bundleId" = $1) AS events, (SELECT count(*)::int FROM "SourceFile" WHERE "bundleId" = $1) AS files`,
        [id],
      );
      expect(n).toEqual({ events: 4, files: 1 });
    } finally {
      await blocker.query(`ROLLBACK`).catch(() => {});
      await blocker.end();
      await other.stop({ graceful: true, wait: true }).catch(() => {});
    }
  });
});
