/**
 * The progress bar's source while a bundle runs (lib/ingest/live-status.ts): `processBundle`
 * keeps the bundle's live status in memory from start to outcome, `GET /api/bundles/:id`
 * answers from it without reading the row (on PGlite that read waited for the store
 * transaction), and once the bundle is stored the route reads the row again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "../app/api/bundles/[bundleId]/route";
import { getDb } from "../lib/db/connection";
import { useTestDatabaseUrl } from "../lib/db/test-db";
import { claimBundle } from "../lib/ingest/bundle-status";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { endLiveStatus, liveStatus, setLiveStatus, type LiveStatus } from "../lib/ingest/live-status";
import { processBundle } from "../lib/ingest/pipeline";
import { bundleTarGz, generateScenario } from "../lib/sample/index";

let t: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
let dataDir: string;
beforeAll(async () => {
  t = await useTestDatabaseUrl();
  dataDir = mkdtempSync(path.join(process.cwd(), ".tmp-live-"));
  process.env.BOOTLINE_DATA_DIR = dataDir;
});
afterAll(async () => {
  await t?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = async (bundleId: string) => (await GET(new Request(`http://127.0.0.1/api/bundles/${bundleId}`), { params: Promise.resolve({ bundleId }) })).json();

describe("bundle live status", () => {
  it("the route answers from a live status without reading the row", async () => {
    // no Bundle row has this id: an answer can only come from memory
    const s: LiveStatus = { id: "no-such-row", incidentId: "inc", fileName: "x.tgz", status: "parsing", phase: "store", progress: 0.25 };
    setLiveStatus(s);
    expect(await get(s.id)).toEqual({ ...s, error: null, counts: null });
    endLiveStatus(s.id);
    expect((await get(s.id)).error).toEqual({ code: "not_found", message: "no bundle no-such-row" });
  });

  it("processBundle keeps it from start to outcome, then the row answers", async () => {
    const db = await getDb();
    const s = generateScenario("calico", { pods: 20, nodenameDelayS: 300, retryIntervalS: 15, seed: 5 });
    const { bundleId } = await enqueueBundle(db, { title: "live", files: [{ name: s.truth.archiveName, data: bundleTarGz(s) }] });
    await claimBundle(db.sql, bundleId);
    const seen: LiveStatus[] = [];
    let running = true;
    const run = processBundle(db, bundleId).finally(() => (running = false));
    while (running) {
      const l = liveStatus(bundleId);
      if (l) seen.push({ ...l });
      await new Promise((r) => setTimeout(r, 2));
    }
    expect((await run).status).toBe("ready");
    expect(seen.length).toBeGreaterThan(0);
    for (const l of seen) {
      expect(l).toMatchObject({ id: bundleId, status: "parsing", fileName: s.truth.archiveName });
      expect(["unpack", "ingest", "parse", "store", "detect"]).toContain(l.phase);
      expect(l.progress).toBeGreaterThanOrEqual(0);
      expect(l.progress).toBeLessThanOrEqual(1);
    }
    expect(liveStatus(bundleId)).toBeUndefined();
    const after = await get(bundleId);
    expect(after).toMatchObject({ id: bundleId, status: "ready", phase: "done", progress: 1 });
    expect(after.counts.events).toBeGreaterThan(0);
  });
});
