/**
 * Shared checks, run on PostgreSQL (folded-findings.pg.test.ts) and PGlite
 * (folded-findings.pglite.test.ts): a big boot reads at a glance. The sample incident
 * (lib/sample/load-sample.ts) and a generated Calico storm of 550 DaemonSet pods go through the
 * real pipeline (enqueueBundle -> processBundle), and the stored report holds one retry-storm
 * finding per boot with every pod of the storm in its table (`metrics.parts`,
 * lib/detect/parts.ts), not one finding per pod; the boot's findings are a handful.
 */
import { expect, it } from "vitest";
import type { DbHandles } from "../lib/db/connection";
import { partsOf } from "../lib/detect/parts";
import { getIncidentReport } from "../lib/incidents/get-incident-report";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { bundleTarGz, generateScenario } from "../lib/sample/index";
import { SAMPLE_PARAMS } from "../lib/sample/load-sample";
import { foldedCounts } from "../lib/view/finding-groups";

/** The storm of the issue: 550 pods retrying every ~15 s for 200 s before calico-node writes its nodename. */
export const BIG_STORM = { seed: 7, pods: 550, nodenameDelayS: 200 };

async function ingest(db: DbHandles, name: string, params: Record<string, unknown>) {
  const s = generateScenario(name, params);
  const { incidentId, bundleId } = await enqueueBundle(db, {
    title: `${name} ${JSON.stringify(params)}`,
    files: [{ name: s.truth.archiveName, data: bundleTarGz(s) }],
  });
  const r = await processBundle(db, bundleId);
  expect(r.error).toBeNull();
  const report = await getIncidentReport(db, incidentId);
  return { s, findings: report.findings.filter((f) => f.bootId === s.truth.bootKey) };
}

export function foldedFindingsSuite(getDb: () => DbHandles) {
  it("the sample incident's boot: one retry-storm finding with its 40 pods inside", async () => {
    const { findings } = await ingest(getDb(), "calico", SAMPLE_PARAMS);
    const storms = findings.filter((f) => f.detector === "retry-storm");
    expect(storms).toHaveLength(1);
    expect(storms[0].metrics).toMatchObject({ scope: "node", pods: 40, steadyPods: 40, partsOf: "pod" });
    const parts = partsOf(storms[0].metrics);
    expect(parts).toHaveLength(40);
    expect(new Set(parts.map((p) => p.key)).size).toBe(40);
    expect(parts.every((p) => p.rhythm === "steady" && (p.attempts as number) >= 4)).toBe(true);
    expect(findings.map((f) => f.detector).sort()).toEqual(["retry-storm", "sandbox-failure-window"]);
  });

  it("550 pods storming: a handful of findings on the boot, the storm's table holds every pod", async () => {
    const { s, findings } = await ingest(getDb(), "calico", BIG_STORM);
    expect(findings.map((f) => f.detector).sort()).toEqual(["retry-storm", "runtime-degradation", "sandbox-failure-window"]);
    const [storm] = findings.filter((f) => f.detector === "retry-storm");
    expect(storm.metrics.pods).toBe(550);
    const parts = partsOf(storm.metrics);
    expect(parts).toHaveLength(550);
    expect(parts.map((p) => p.key).sort()).toEqual(s.truth.detectors.retryStorm.pods.map((p) => p.pod).sort());
    // the table's numbers are each pod's own: attempts and interval as the scenario emitted them
    const truth = new Map(s.truth.detectors.retryStorm.pods.map((p) => [p.pod, p]));
    for (const p of parts) expect([p.attempts, p.intervalS]).toEqual([truth.get(p.key)!.attempts, truth.get(p.key)!.intervalS]);
    expect(foldedCounts(findings)).toBe("1 storm, 550 pods");
  });
}
