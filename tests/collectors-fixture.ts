/**
 * The shared part of the collector-layout tests (collectors-node.test.ts, collectors-cluster.test.ts):
 * a test database for the file, `ingest` (one bundle through the real pipeline, then its incident
 * report), and what the assertions read off a report.
 *
 * The made-up incident: node ip-10-20-30-40 rebooted at about 2025-05-19 04:19 UTC;
 * the previous boot is PREV, the current one CUR.
 */
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { enqueueBundle, type UploadedFile } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import type { BundleOptions } from "../lib/ingest/uploads";
import { getIncidentReport, type IncidentReport } from "../lib/incidents/get-incident-report";

export const PREV = "6c0f2ea14b7d4e1a9c3358b0f2d7e611";
export const CUR = "a91e07c25d3f4b08b6e2f4c1d9a07e33";
export const dashed = (id: string) => `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
export const HEX = (c: string) => c.repeat(64);

/**
 * A test database for the calling test file (made before its tests, dropped after: `db()` during
 * them) and `ingest`, which takes one bundle into it, asserts it ends `ready` and returns its
 * incident report.
 */
export function collectorDb(): {
  db: () => TestDb;
  ingest: (files: UploadedFile[], options?: BundleOptions) => Promise<IncidentReport>;
} {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
    process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `data-collectors-${process.pid}`);
  });
  afterAll(async () => {
    await db?.drop();
  });
  const ingest = async (files: UploadedFile[], options: BundleOptions = {}) => {
    const { incidentId, bundleId } = await enqueueBundle(db, { title: "collector test", files, options });
    const result = await processBundle(db, bundleId);
    expect(result.error).toBeNull();
    expect(result.status).toBe("ready");
    return getIncidentReport(db, incidentId);
  };
  return { db: () => db, ingest };
}

/** path → file entry of the report (paths are unique inside one test bundle). */
export function byPath(r: IncidentReport) {
  return Object.fromEntries(r.files.map((f) => [f.path, f]));
}

/** Every file's lines add up: parsed + blank + skipped, records + continuations + banners, skips by reason. */
export function expectAccounting(r: IncidentReport): void {
  for (const f of r.files) {
    expect(f.parsed + f.blank + f.skipped, f.path).toBe(f.lines);
    expect(f.records + f.continuation + f.banner, f.path).toBe(f.parsed);
    expect(
      Object.values(f.skippedByReason).reduce((a, b) => a + b, 0),
      f.path,
    ).toBe(f.skipped);
  }
}

/** The boots of `node` in the report (id, start, how found); fails when the node is missing. */
export function boots(r: IncidentReport, node: string) {
  const n = r.nodes.find((x) => x.name === node);
  expect(n, `node ${node}`).toBeDefined();
  return n!.boots.map((b) => ({ id: b.id, start: b.start, detectedBy: b.detectedBy }));
}

/** A kubelet klog line of 2025-05-19. */
export const klog = (sev: string, hms: string, us: string, pid: number, msg: string) =>
  `${sev}0519 ${hms}.${us} ${String(pid).padStart(7)} kubelet.go:2321] ${msg}`;
