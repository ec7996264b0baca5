/**
 * Upload to findings: a scenario of the startup race (docs/detectors.md pattern 2, Calico
 * nodename race: 20 DaemonSet pods retrying every 15 s, nodename written 18 s after
 * containerd starts) is ingested from a bundle file, and the window's attempts, pods,
 * error class, open and close offsets equal the values the scenario was built with.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { getIncidentReport } from "../lib/incidents/get-incident-report";
import { generateScenario, writeBundleTarGz } from "../lib/sample/index";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `data-${process.pid}`);
});
afterAll(async () => {
  await db?.drop();
});

describe("Calico nodename race scenario, ingested from a bundle file", () => {
  for (const params of [
    { pods: 20, retryIntervalS: 15, nodenameDelayS: 18, seed: 1 },
    { pods: 35, retryIntervalS: 10, nodenameDelayS: 22, seed: 9, eventsSkewS: 2 },
  ]) {
    it(`window equals the scenario's truth (${JSON.stringify(params)})`, async () => {
      const s = generateScenario("calico", params);
      const file = path.join(process.cwd(), ".tmp", `calico-${params.seed}.tar.gz`);
      mkdirSync(path.dirname(file), { recursive: true });
      await writeBundleTarGz(s, file);
      const { incidentId, bundleId } = await enqueueBundle(db, {
        title: `calico ${params.seed}`,
        files: [{ name: s.truth.archiveName, data: readFileSync(file) }],
      });
      const r = await processBundle(db, bundleId);
      expect(r.error).toBeNull();
      const report = await getIncidentReport(db, incidentId);

      expect(report.nodes.map((n) => n.name)).toEqual([s.truth.node]);
      const boot = report.nodes[0].boots.find((b) => b.id === s.truth.bootKey)!;
      expect(boot).toBeDefined();
      expect(boot.start).toBe(s.truth.t0);
      for (const f of report.files) expect(f.parsed + f.blank + f.skipped, f.path).toBe(f.lines);
      expect(report.files.filter((f) => f.skipped > 0).map((f) => f.path)).toEqual([]);

      const windows = report.findings.filter((f) => f.detector === "sandbox-failure-window" && f.bootId === s.truth.bootKey);
      expect(windows).toHaveLength(s.truth.windows.length);
      const w = windows[0];
      const t = s.truth.window!;
      expect(w.bootStart).toBe(s.truth.t0);
      expect(w.metrics).toMatchObject({
        attempts: t.attempts,
        pods: t.pods,
        errorClass: "calico-nodename-missing",
        openedAfterBootS: t.openedAfterBootS,
        closedAfterBootS: t.closedAfterBootS,
      });
      expect(t.pods).toBe(params.pods);
      expect(w.start).toBe(new Date(t.startMs).toISOString());
      expect(w.end).toBe(new Date(t.endMs!).toISOString());
    });
  }
});
