/**
 * The timeline's reads of a real ingest on PostgreSQL: a Calico nodename storm bundle is
 * ingested, then
 * - the lane density read from the per-second rollup (EventDensity) equals the events counted
 *   per lane and second (and per lane and 5 s bucket), errors included;
 * - a search counted in slices (as the events table does, slice after slice) adds up to the
 *   exact count of matching events;
 * - a pod filter resolved on the pod index counts and pages that pod's events exactly, in one read.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../lib/db/connection";
import { useTestDatabaseUrl } from "../lib/db/test-db";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { generateScenario, writeBundleTarGz } from "../lib/sample/index";
import { countEvents } from "../lib/queries/count-events";
import { getEventsPage } from "../lib/queries/get-events-page";
import { getLaneDensity } from "../lib/queries/get-lane-density";
import { LANES } from "../lib/view/lanes";
import { resolvePods } from "../lib/queries/resolve-pods";

let drop: (() => Promise<void>) | undefined;
let incidentId = "";
let bootId = 0;
let firstMs = 0;
let lastMs = 0;

beforeAll(async () => {
  drop = (await useTestDatabaseUrl()).drop;
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `timeline-density-${process.pid}`);
  const s = generateScenario("calico", { pods: 40, retryIntervalS: 5, nodenameDelayS: 40, seed: 7 });
  const file = path.join(process.cwd(), ".tmp", `timeline-density-${process.pid}.tar.gz`);
  mkdirSync(path.dirname(file), { recursive: true });
  await writeBundleTarGz(s, file);
  const db = await getDb();
  const q = await enqueueBundle(db, { title: "density", files: [{ name: s.truth.archiveName, data: readFileSync(file) }] });
  const r = await processBundle(db, q.bundleId);
  expect(r.error).toBeNull();
  incidentId = q.incidentId;
  const [b] = await db.sql.query<{ id: number; first: number; last: number }>(
    `SELECT "bootId" AS id, (extract(epoch FROM min(ts)) * 1000)::float8 AS first, (extract(epoch FROM max(ts)) * 1000)::float8 AS last
     FROM "Event" WHERE "incidentId" = $1 AND "bootId" IS NOT NULL AND ts IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
    [incidentId],
  );
  bootId = b.id;
  firstMs = Number(b.first);
  lastMs = Number(b.last);
}, 120_000);

afterAll(async () => {
  await drop?.();
  rmSync(path.join(process.cwd(), ".tmp", `timeline-density-${process.pid}`), { recursive: true, force: true });
  rmSync(path.join(process.cwd(), ".tmp", `timeline-density-${process.pid}.tar.gz`), { force: true });
});

/** Events of the boot per lane and bucket of `bucketMs` (aligned to the epoch): `lane bucketStart` → [n, errors]. */
async function eventCounts(bucketMs: number): Promise<Map<string, [number, number]>> {
  const { sql } = await getDb();
  const rows = await sql.query<{ lane: string; b: string; n: number; e: number }>(
    `SELECT lane, (floor(extract(epoch FROM ts) * 1000 / $2) * $2)::bigint::text AS b, count(*)::int AS n, (count(*) FILTER (WHERE severity >= 3))::int AS e
     FROM "Event" WHERE "bootId" = $1 AND ts IS NOT NULL GROUP BY 1, 2`,
    [bootId, bucketMs],
  );
  return new Map(rows.map((r) => [`${r.lane} ${r.b}`, [Number(r.n), Number(r.e)]]));
}

describe("timeline reads of an ingested Calico storm (PostgreSQL)", () => {
  it("the density from the rollup equals the events counted per lane and second, and per 5 s", async () => {
    const from = Math.floor(firstMs / 1000) * 1000;
    const to = Math.ceil((lastMs + 1) / 1000) * 1000;
    for (const bucketMs of [1000, 5000]) {
      const d = await getLaneDensity({ incidentId, bootId, fromMs: from, toMs: to, buckets: Math.round((to - from) / bucketMs) });
      expect(d.bucketMs).toBe(bucketMs);
      const got = new Map<string, [number, number]>();
      for (const s of d.lanes) for (const [i, n, e] of s.buckets) got.set(`${s.lane} ${d.startMs + i * d.bucketMs}`, [n, e]);
      const want = await eventCounts(bucketMs);
      expect(want.size).toBeGreaterThan(20);
      expect(got).toEqual(want);
      // lane totals are the lanes' event counts
      const total = d.lanes.reduce((n, s) => n + s.total, 0);
      expect(total).toBe([...want.values()].reduce((n, [c]) => n + c, 0));
    }
  });

  it("a search counted slice by slice adds up to the exact count", async () => {
    const { sql } = await getDb();
    const base = { incidentId, bootId, fromMs: firstMs, toMs: lastMs + 1, lanes: [...LANES] };
    const [want] = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "Event" WHERE "bootId" = $1 AND ts IS NOT NULL AND (message ILIKE '%nodename%' OR pod ILIKE '%nodename%')`,
      [bootId],
    );
    expect(Number(want.n)).toBeGreaterThan(100);
    let from = base.fromMs;
    let sum = 0;
    let slices = 0;
    for (;;) {
      const c = await countEvents({ ...base, fromMs: from, q: "nodename", scanRows: 500 });
      sum += c.matching;
      slices++;
      if (c.scannedToMs === undefined) break;
      expect(c.capped).toBe(true);
      expect(c.scannedToMs).toBeGreaterThan(from);
      from = c.scannedToMs;
    }
    expect(slices).toBeGreaterThan(3);
    expect(sum).toBe(Number(want.n));
  });

  it("a pod filter resolves on the pod index and counts and pages that pod's events exactly", async () => {
    const { sql } = await getDb();
    const [top] = await sql.query<{ pod: string; n: number }>(
      `SELECT pod, count(*)::int AS n FROM "Event" WHERE "bootId" = $1 AND pod IS NOT NULL AND ts IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`,
      [bootId],
    );
    expect(Number(top.n)).toBeGreaterThan(5);
    expect(await resolvePods(sql, { incidentId, bootId, text: top.pod.toUpperCase() })).toEqual([top.pod]);
    // a boot of another incident is not read
    expect(await resolvePods(sql, { incidentId: "nope", bootId, text: top.pod })).toEqual([]);
    const base = { incidentId, bootId, fromMs: firstMs, toMs: lastMs + 1, lanes: [...LANES], pod: top.pod };
    // one read, even with a scan bound smaller than the pod's events
    expect(await countEvents({ ...base, scanRows: 2 })).toMatchObject({ matching: Number(top.n), capped: false });
    const page = await getEventsPage({ ...base, limit: 1000, scanRows: 2 });
    expect(page.scannedToMs).toBeNull();
    expect(page.events).toHaveLength(Number(top.n));
    expect(new Set(page.events.map((e) => e.pod))).toEqual(new Set([top.pod]));
  });
});
