/**
 * The ingest queue on PostgreSQL (pg-boss): several uploads queue and all land, a bundle left
 * `parsing` by a process that died is taken up again when a worker starts, and two jobs for one
 * bundle at once run it once.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import type { DbHandles } from "../lib/db/connection";
import { caseBytes } from "./cases/cases";
import { claimBundle, setPhase } from "../lib/ingest/bundle-status";

const CASE = caseBytes("056-kind-journald-containerd-kubelet-cilium-cni-retry.log");

let db: TestDb;
let app: DbHandles;
beforeAll(async () => {
  db = await createTestDb();
  process.env.DATABASE_URL = db.url;
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `queue-${process.pid}`);
  app = await (await import("../lib/db/connection")).getDb();
});
afterAll(async () => {
  const { closeDb } = await import("../lib/db/connection");
  await closeDb(app);
  await db?.drop();
});

async function waitFor(ids: string[], timeoutMs = 60_000): Promise<string[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db.sql.query<{ id: string; status: string }>(`SELECT id, status FROM "Bundle" WHERE id = ANY($1::text[]) ORDER BY id`, [ids]);
    if (rows.every((r) => r.status === "ready" || r.status === "failed") || Date.now() > until) return rows.map((r) => r.status);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("ingest queue (pg-boss)", () => {
  it("runs a bundle once when two jobs for it run at once (the second finds its lock taken)", async () => {
    const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
    const { runOne } = await import("../lib/ingest/worker");
    const r = await enqueueBundle(app, { title: "twice", files: [{ name: "kind.log", data: CASE }] });
    const ran = await Promise.all([runOne(r.bundleId), runOne(r.bundleId)]);
    expect(ran.sort()).toEqual([false, true]);
    const [b] = await db.sql.query<{ status: string; error: string | null }>(`SELECT status, error FROM "Bundle" WHERE id = $1`, [r.bundleId]);
    expect(b).toEqual({ status: "ready", error: null });
    const [n] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Event" WHERE "bundleId" = $1`, [r.bundleId]);
    expect(n.n).toBe(4);
  });

  it("picks up a bundle left 'parsing' by a dead process, then queues five uploads and lands them all", async () => {
    const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
    // a bundle a crashed process had claimed: its files wait on disk, nothing was committed
    const stale = await enqueueBundle(app, { title: "stale", files: [{ name: "kind.log", data: CASE }] });
    await claimBundle(db.sql, stale.bundleId);
    await setPhase(db.sql, stale.bundleId, "ingest", 0);

    const { startIngestWorker } = await import("../lib/ingest/worker");
    const worker = await startIngestWorker();
    expect(await waitFor([stale.bundleId])).toEqual(["ready"]);

    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await enqueueBundle(app, { title: `upload ${i}`, files: [{ name: `kind-${i}.log`, data: CASE }] });
      await worker.enqueue(r.bundleId);
      ids.push(r.bundleId);
    }
    expect(await waitFor(ids)).toEqual(["ready", "ready", "ready", "ready", "ready"]);
    const counts = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Event" WHERE "bundleId" = ANY($1::text[]) GROUP BY "bundleId"`, [ids]);
    expect(counts.map((c) => c.n)).toEqual([4, 4, 4, 4, 4]);
    // pg-boss marks a job completed after its handler returns, which is after the bundle is ready
    await vi.waitFor(
      async () => {
        const jobs = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'ingest' AND state = 'completed'`);
        expect(jobs[0].n).toBe(6);
      },
      { timeout: 15_000, interval: 100 },
    );
  });
});
