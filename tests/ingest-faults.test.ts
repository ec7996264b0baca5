/**
 * Faults during an ingest, on PostgreSQL through the app's queue (pg-boss, lib/ingest/worker.ts):
 * each fault ends its bundle `failed` with a reason in words, leaves no transaction, lock or held
 * events behind, and the next upload lands without a restart.
 *
 * - the backend running `COPY "Event"` terminated (`pg_terminate_backend`), for a tarball with
 *   node folders and for a plain log no path places, and a COPY
 *   cancelled (`pg_cancel_backend`). The COPY is held at its start by a test transaction's
 *   `LOCK TABLE "Event" IN SHARE MODE` (COPY takes ROW EXCLUSIVE: they conflict), so the fault
 *   always lands inside it, while the ingest writes into a full socket;
 * - plain journal logs of 200 MiB and 400 MiB (generated here, streamed to disk), a size whose
 *   spilled events once made one string too long for V8: they land whole;
 * - `finishedAt` is the real end of the run (not its transaction's start).
 */
import { createWriteStream, mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import type { DbHandles } from "../lib/db/connection";
import { bundleTarGz, generateScenario } from "../lib/sample/index";
import { caseBytes } from "./cases/cases";

const KIND_LOG = caseBytes("056-kind-journald-containerd-kubelet-cilium-cni-retry.log");

let db: TestDb;
let app: DbHandles;
let dataDir: string;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => void unhandled.push(e);
beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  db = await createTestDb();
  process.env.DATABASE_URL = db.url;
  dataDir = path.join(process.cwd(), ".tmp", `faults-${process.pid}`);
  process.env.BOOTLINE_DATA_DIR = dataDir;
  app = await (await import("../lib/db/connection")).getDb();
});
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  const { stopIngestWorker } = await import("../lib/ingest/worker");
  await stopIngestWorker();
  // dropped before the app's handles close (WITH FORCE ends every connection to it, a background
  // index build's included)
  await db?.drop();
  const { closeDb } = await import("../lib/db/connection");
  if (app) await closeDb(app).catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
});

interface BundleRow {
  status: string;
  error: string | null;
  counts: { events?: number; ingestPath?: string } | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

async function bundle(id: string): Promise<BundleRow> {
  const [b] = await db.sql.query<BundleRow>(`SELECT status, error, counts, "startedAt", "finishedAt" FROM "Bundle" WHERE id = $1`, [id]);
  return b;
}

/**
 * The bundle once it is `ready` or `failed`, its job has ended (the run's `finally` included) and
 * its background search index build too (a `CREATE INDEX CONCURRENTLY` and the test's table lock
 * would wait on each other).
 */
async function waitFor(id: string, timeoutMs = 120_000): Promise<BundleRow> {
  const { searchIndexPending } = await import("../lib/search/search-index");
  const until = Date.now() + timeoutMs;
  for (;;) {
    const b = await bundle(id);
    const [jobs] = await db.sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'bundleId' = $1 AND state IN ('created', 'retry', 'active')`,
      [id],
    );
    if (((b.status === "ready" || b.status === "failed") && jobs.n === 0 && !searchIndexPending(id)) || Date.now() > until) return b;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Enqueues an upload and hands it to the app's queue; returns its bundle id. */
async function upload(title: string, files: Array<{ name: string; data: Buffer } | { name: string; path: string }>): Promise<string> {
  const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
  const { startIngestWorker } = await import("../lib/ingest/worker");
  const r = await enqueueBundle(app, { title, files });
  await (await startIngestWorker()).enqueue(r.bundleId);
  return r.bundleId;
}

/**
 * Runs `start` (an upload) while a test transaction holds `LOCK TABLE "Event" IN SHARE MODE`; once
 * the ingest's `COPY "Event"` waits on it, applies `fault` to that backend (null: none, the COPY
 * waits `holdMs`), then lets the lock go. Returns the bundle id and the server's time at release.
 */
async function faultOnCopy(
  start: () => Promise<string>,
  fault: "pg_terminate_backend" | "pg_cancel_backend" | null,
  holdMs = 0,
): Promise<{ id: string; releasedAt: Date }> {
  const blocker = new pg.Client({ connectionString: db.url });
  await blocker.connect();
  try {
    await blocker.query(`BEGIN`);
    await blocker.query(`LOCK TABLE "Event" IN SHARE MODE`);
    const id = await start();
    const until = Date.now() + 60_000;
    for (;;) {
      // read outside the blocker's transaction: inside it, pg_stat_activity is one snapshot
      const rows = await db.sql.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY "Event"%' AND wait_event_type = 'Lock'`,
      );
      if (rows.length) {
        if (fault) {
          const [r] = await db.sql.query<{ ok: boolean }>(`SELECT ${fault}($1) AS ok`, [rows[0].pid]);
          expect(r.ok).toBe(true);
        }
        break;
      }
      if (Date.now() > until) throw new Error('the ingest never reached COPY "Event"');
      await new Promise((r) => setTimeout(r, 20));
    }
    await new Promise((r) => setTimeout(r, holdMs));
    const [{ at }] = (await blocker.query<{ at: Date }>(`SELECT clock_timestamp() AS at`)).rows;
    return { id, releasedAt: at };
  } finally {
    await blocker.query(`ROLLBACK`).catch(() => {});
    await blocker.end();
  }
}

/** What a failed bundle must not leave behind: open transactions, advisory locks, events on the threads, rows. */
async function expectNothingLeft(bundleId: string): Promise<void> {
  const open = await db.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
  );
  expect(open[0].n).toBe(0);
  const locks = await db.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = current_database()`,
  );
  expect(locks[0].n).toBe(0);
  const rows = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Event" WHERE "bundleId" = $1`, [bundleId]);
  expect(rows[0].n).toBe(0);
  const files = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "SourceFile" WHERE "bundleId" = $1`, [bundleId]);
  expect(files[0].n).toBe(0);
  const { heldStates } = await import("../lib/ingest/ingest-pool");
  for (const s of await heldStates()) expect(s).toEqual({ bundles: [], heldBytes: 0, prepared: 0 });
  // the job ended (the queue goes on): none left active
  const active = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'ingest' AND state = 'active'`);
  expect(active[0].n).toBe(0);
}

const scenario = (seed: number) => {
  const s = generateScenario("calico", { pods: 12, retryIntervalS: 15, nodenameDelayS: 60, eventsSkewS: 0, seed });
  return { name: s.truth.archiveName, data: bundleTarGz(s) };
};

describe("a lost database connection during COPY", () => {
  it("node folders: the terminated COPY fails its bundle with a reason in words, and the next upload lands", async () => {
    const { id } = await faultOnCopy(() => upload("node folders fault", [scenario(1)]), "pg_terminate_backend");
    const b = await waitFor(id);
    expect(b.status).toBe("failed");
    expect(b.error).toBe("the database server terminated the connection while the bundle was being stored");
    await expectNothingLeft(id);

    const next = await upload("node folders next", [scenario(2)]);
    const n = await waitFor(next);
    expect(n.status).toBe("ready");
    expect(n.counts?.ingestPath).toBe("as-parsed");
    expect(n.counts?.events).toBeGreaterThan(100);
  });

  it("a plain log: the terminated COPY fails its bundle with a reason in words, and the next upload lands", async () => {
    const { id } = await faultOnCopy(() => upload("plain log fault", [{ name: "kind.log", data: KIND_LOG }]), "pg_terminate_backend");
    const b = await waitFor(id);
    expect(b.status).toBe("failed");
    expect(b.error).toBe("the database server terminated the connection while the bundle was being stored");
    await expectNothingLeft(id);

    const next = await upload("plain log next", [{ name: "kind.log", data: KIND_LOG }]);
    const n = await waitFor(next);
    expect(n.status).toBe("ready");
    expect(n.counts?.ingestPath).toBe("as-parsed");
    expect(n.counts?.events).toBe(4);
  });

  it("a cancelled COPY fails its bundle with a reason in words, and the next upload lands", async () => {
    const { id } = await faultOnCopy(() => upload("cancel fault", [scenario(3)]), "pg_cancel_backend");
    const b = await waitFor(id);
    expect(b.status).toBe("failed");
    expect(b.error).toBe("the database cancelled a statement while the bundle was being stored");
    await expectNothingLeft(id);
    const next = await upload("cancel next", [scenario(4)]);
    expect((await waitFor(next)).status).toBe("ready");
  });

  it("no unhandled rejection was raised by any of the faults", () => {
    expect(unhandled).toEqual([]);
  });
});

/**
 * A plain journal log (journalctl's short mode, kubelet's klog lines) of about `bytes`, written to
 * `file` in batches (never whole in memory); lines of about 380 bytes. Returns its line count.
 */
async function writeJournal(file: string, bytes: number): Promise<number> {
  const out = createWriteStream(file);
  const start = Date.UTC(2026, 2, 14, 2, 0, 0);
  const pad = "x".repeat(200);
  let written = 0;
  let lines = 0;
  while (written < bytes) {
    let batch = "";
    for (let i = 0; i < 5_000; i++, lines++) {
      const t = new Date(start + lines * 7);
      const hh = String(t.getUTCHours()).padStart(2, "0");
      const mm = String(t.getUTCMinutes()).padStart(2, "0");
      const ss = String(t.getUTCSeconds()).padStart(2, "0");
      const us = String(t.getUTCMilliseconds() * 1000).padStart(6, "0");
      batch +=
        `Mar 14 ${hh}:${mm}:${ss} ip-10-0-0-7 kubelet[2099]: I0314 ${hh}:${mm}:${ss}.${us}    2099 kubelet.go:2457] ` +
        `"SyncLoop (PLEG): event for pod" pod="default/app-${lines % 500}" event={"ID":"${lines.toString(16).padStart(12, "0")}","Type":"ContainerStarted"} note="${pad}"\n`;
    }
    written += Buffer.byteLength(batch);
    if (!out.write(batch)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((res, rej) => {
    out.once("error", rej);
    out.end(() => res());
  });
  return lines;
}

describe("one large plain log", () => {
  const MiB = 1024 * 1024;
  for (const size of [200, 400]) {
    it(`${size} MiB lands whole, and the next upload after it lands`, { timeout: 900_000 }, async () => {
      const dir = path.join(dataDir, "gen");
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `journal-${size}.log`);
      const lines = await writeJournal(file, size * MiB);
      expect(statSync(file).size).toBeGreaterThanOrEqual(size * MiB);
      const id = await upload(`${size} MiB`, [{ name: `journal-${size}.log`, path: file }]);
      const b = await waitFor(id, 840_000);
      expect(b.error).toBeNull();
      expect(b.status).toBe("ready");
      expect(b.counts?.events).toBe(lines);
      const [f] = await db.sql.query<{ lines: number; records: number; skipped: number }>(
        `SELECT lines, records, skipped FROM "SourceFile" WHERE "bundleId" = $1`,
        [id],
      );
      expect(f).toEqual({ lines, records: lines, skipped: 0 });
      const [blocks] = await db.sql.query<{ lines: string }>(
        `SELECT sum("lineCount")::text AS lines FROM "SourceBlock" sb JOIN "SourceFile" sf ON sf.id = sb."fileId" WHERE sf."bundleId" = $1`,
        [id],
      );
      expect(Number(blocks.lines)).toBe(lines);
      // the run's real length: the rows took seconds, and finishedAt is when it ended
      expect(b.finishedAt!.getTime() - b.startedAt!.getTime()).toBeGreaterThan(1000);
      const { heldStates } = await import("../lib/ingest/ingest-pool");
      for (const s of await heldStates()) expect(s).toEqual({ bundles: [], heldBytes: 0, prepared: 0 });
      // the bundle's events go before the next test's (keeps the database small)
      await db.sql.query(`DELETE FROM "Incident" WHERE id = (SELECT "incidentId" FROM "Bundle" WHERE id = $1)`, [id]);

      const next = await upload(`after ${size} MiB`, [{ name: "kind.log", data: KIND_LOG }]);
      expect((await waitFor(next)).status).toBe("ready");
    });
  }
});

describe("finishedAt", () => {
  it("is the end of the run, not the start of the transaction that stored it", async () => {
    // the store transaction is open while its COPY waits 1.5 s on the test's lock: the bundle
    // ends after the lock goes, so its finishedAt follows that moment
    const { id, releasedAt } = await faultOnCopy(() => upload("timing", [scenario(5)]), null, 1500);
    const b = await waitFor(id);
    expect(b.status).toBe("ready");
    expect(b.finishedAt!.getTime()).toBeGreaterThanOrEqual(releasedAt.getTime());
    expect(b.finishedAt!.getTime() - b.startedAt!.getTime()).toBeGreaterThanOrEqual(1500);
  });
});
