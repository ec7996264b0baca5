/**
 * Detectors through the real ingest (retry storms, conflist rewrite loops, CNI bootstrap
 * deadlocks, runtime degradation, the rules of rules/*.yaml): each scenario's bundle (built in memory as the
 * tar.gz a reviewer uploads) is ingested into PostgreSQL through the real pipeline
 * (enqueueBundle -> processBundle -> detectFindings), and the report's findings carry each
 * detector's metrics with the values the scenario was generated with.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { getIncidentReport, type IncidentReport } from "../lib/incidents/get-incident-report";
import { bundleTarGz, generateScenario, type Scenario } from "../lib/sample/index";
import { allParts } from "../lib/detect/parts";
import type { PodPart } from "../lib/detect/retry-storm";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `data-${process.pid}`);
});
afterAll(async () => {
  await db?.drop();
});

type ReportFinding = IncidentReport["findings"][number];
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

async function ingest(s: Scenario, title: string): Promise<ReportFinding[]> {
  const { incidentId, bundleId } = await enqueueBundle(db, { title, files: [{ name: s.truth.archiveName, data: bundleTarGz(s) }] });
  const r = await processBundle(db, bundleId);
  expect(r.error).toBeNull();
  const report = await getIncidentReport(db, incidentId);
  expect(report.nodes.map((n) => n.name)).toEqual([s.truth.node]);
  return report.findings.filter((f) => f.bootId === s.truth.bootKey);
}

const METRIC_NAMES: Record<string, string[]> = {
  "retry-storm:node": ["scope", "ratePerMin", "pods", "attempts", "peakAt", "partsOf", "parts"],
  "retry-storm:pods": ["scope", "pods", "attempts", "partsOf", "parts"],
  "conflist-rewrite-loop": ["path", "writes", "writers", "writesByWriter", "turns", "writesPerS", "durationS"],
  "cni-bootstrap-deadlock": ["missingPath", "writerPod", "blockedPods", "sinceS"],
  "runtime-degradation": ["signals"],
};

describe("scenario bundles ingested into PostgreSQL: findings carry the detectors' metrics", () => {
  it.each([
    ["calico", { seed: 4, pods: 30, nodenameDelayS: 200 }, ["sandbox-failure-window", "retry-storm", "runtime-degradation"]],
    ["calico", { seed: 5, pods: 8, backoff: "growing", retryIntervalS: 10, nodenameDelayS: 330, degradeAfterS: 0 }, ["sandbox-failure-window", "retry-storm"]],
    ["istio-deadlock", {}, ["sandbox-failure-window", "cni-bootstrap-deadlock", "retry-storm"]],
    ["istio-deadlock", { seed: 3, mode: "slow-start" }, ["sandbox-failure-window", "retry-storm"]],
    ["conflist-loop", {}, ["conflist-rewrite-loop"]],
    ["conflist-loop", { seed: 3, rate: 6, durationS: 30, ciliumLog: "plain" }, ["conflist-rewrite-loop"]],
    ["conflist-loop", { seed: 2, ciliumLog: "slog" }, ["conflist-rewrite-loop"]],
    ["two-boots", { seed: 6 }, ["sandbox-failure-window", "retry-storm"]],
    ["healthy", { seed: 4 }, []],
    ["runtime-oom", {}, ["sandbox-failure-window", "retry-storm", "rule:oom-kill-runtime"]],
  ] as Array<[string, Record<string, unknown>, string[]]>)("%s %j", async (name, params, detectors) => {
    const s = generateScenario(name, params);
    const findings = await ingest(s, `${name} ${JSON.stringify(params)}`);
    expect([...new Set(findings.map((f) => f.detector))].sort()).toEqual([...detectors].sort());
    for (const f of findings) {
      const key = f.detector === "retry-storm" ? `retry-storm:${f.metrics.scope}` : f.detector;
      for (const m of METRIC_NAMES[key] ?? []) expect(f.metrics, `${key} ${m}`).toHaveProperty(m);
      expect(f.bootStart).toBe(s.truth.t0);
      expect(f.explanation.length).toBeGreaterThan(0);
    }
    const d = s.truth.detectors;
    const pick = (f: ReportFinding, keys: string[]) => Object.fromEntries([...keys.map((k) => [k, f.metrics[k]]), ["start", f.start], ["end", f.end]]);
    const storm = findings.filter((f) => f.detector === "retry-storm");
    expect(storm.filter((f) => f.metrics.scope === "node").map((f) => pick(f, ["ratePerMin", "pods", "attempts", "peakAt"]))).toEqual(
      d.retryStorm.nodes.map((n) => ({
        ratePerMin: n.ratePerMin,
        pods: n.pods,
        attempts: n.attempts,
        peakAt: n.peakAt,
        start: iso(n.startMs),
        end: iso(n.endMs),
      })),
    );
    // one finding per storm (or one for the pods with a rhythm outside any), the pods inside
    expect(storm.filter((f) => f.metrics.scope === "pods").length).toBeLessThanOrEqual(1);
    expect(storm.filter((f) => f.metrics.scope === "node")).toHaveLength(d.retryStorm.nodes.length);
    const pods = (allParts(storm) as PodPart[])
      .filter((p) => p.rhythm !== "few" && p.rhythm !== "irregular")
      .map((p) => ({
        pod: p.pod,
        attempts: p.attempts,
        intervalS: p.intervalS,
        jitterS: p.jitterS,
        rhythm: p.rhythm,
        intervalsS: p.intervalsS,
        start: iso(p.startMs),
        end: iso(p.endMs),
      }));
    expect(pods.sort((a, b) => String(a.pod).localeCompare(String(b.pod)))).toEqual(
      d.retryStorm.pods
        .map((p) => ({
          pod: p.pod,
          attempts: p.attempts,
          intervalS: p.intervalS,
          jitterS: p.jitterS,
          rhythm: p.rhythm,
          intervalsS: p.intervalsS,
          start: iso(p.startMs),
          end: iso(p.endMs),
        }))
        .sort((a, b) => a.pod.localeCompare(b.pod)),
    );
    expect(
      findings
        .filter((f) => f.detector === "conflist-rewrite-loop")
        .map((f) => pick(f, ["path", "writes", "writers", "writesByWriter", "turns", "writesPerS", "durationS"])),
    ).toEqual(
      d.conflistLoops.map((l) => ({
        path: l.path,
        writes: l.writes,
        writers: l.writers,
        writesByWriter: l.writesByWriter,
        turns: l.turns,
        writesPerS: l.writesPerS,
        durationS: l.durationS,
        start: iso(l.startMs),
        end: iso(l.endMs),
      })),
    );
    expect(findings.filter((f) => f.detector === "cni-bootstrap-deadlock").map((f) => pick(f, ["missingPath", "writerPod", "blockedPods", "sinceS"]))).toEqual(
      d.deadlocks.map((x) => ({
        missingPath: x.missingPath,
        writerPod: x.writerPod,
        blockedPods: x.blockedPods,
        sinceS: x.sinceS,
        start: iso(x.startMs),
        end: null,
      })),
    );
    expect(
      findings
        .filter((f) => f.detector === "runtime-degradation")
        .map((f) => ({
          signals: (f.metrics.signals as Array<Record<string, unknown>>).map(({ signal, count, first, last }) => ({ signal, count, first, last })),
        })),
    ).toEqual(d.degradation ? [d.degradation] : []);
    // rule findings: the kernel lines (kind log) reach the rules through the streaming ingest too
    expect(
      findings
        .filter((f) => f.detector.startsWith("rule:"))
        .map((f) => ({ detector: f.detector, matches: f.metrics.matches, minCount: f.metrics.minCount, start: f.start, end: f.end })),
    ).toEqual(
      (s.truth.rules ?? []).map((r) => ({
        detector: r.detector,
        matches: r.matches,
        minCount: 1,
        start: iso(s.truth.t0Ms + r.atS[0] * 1000),
        end: iso(s.truth.t0Ms + r.atS[r.atS.length - 1] * 1000),
      })),
    );
  });
});
