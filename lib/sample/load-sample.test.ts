/** The sample incident's story (its title and parameters) and its findings agree. */
import { describe, expect, it } from "vitest";
import { partsOf } from "../detect/parts";
import { defaults as stormDefaults } from "../detect/retry-storm";
import { generateScenario } from "./index";
import { SAMPLE_PARAMS, SAMPLE_TITLE } from "./load-sample";
import { runPipeline } from "./pipeline-support";

describe("sample incident", () => {
  const s = generateScenario("calico", SAMPLE_PARAMS);
  const findings = runPipeline(s.files, { collectedMs: s.truth.collectedMs }).findingsByBoot.get(s.truth.bootKey)!;

  it("shows the retry rhythm its title tells: every pod steady at about 15 s", () => {
    expect(SAMPLE_TITLE).toContain(`${SAMPLE_PARAMS.pods} DaemonSet pods retrying every ${SAMPLE_PARAMS.retryIntervalS} s`);
    const storm = findings.find((f) => f.detector === "retry-storm" && f.metrics.scope === "node")!;
    expect(storm.metrics.pods).toBe(SAMPLE_PARAMS.pods);
    expect(storm.metrics.steadyPods).toBe(SAMPLE_PARAMS.pods);
    expect(Math.abs((storm.metrics.steadyMedianIntervalS as number) - SAMPLE_PARAMS.retryIntervalS)).toBeLessThan(0.8);
    // one storm, its pods inside (not a finding per pod)
    expect(findings.filter((f) => f.detector === "retry-storm")).toEqual([storm]);
    const pods = partsOf(storm.metrics);
    expect(pods.length).toBe(SAMPLE_PARAMS.pods);
    expect(pods.every((p) => p.rhythm === "steady")).toBe(true);
    expect(Math.min(...pods.map((p) => p.attempts as number))).toBeGreaterThanOrEqual(stormDefaults.minPodAttempts);
  });

  it("closes its window when calico-node writes the nodename", () => {
    const w = findings.find((f) => f.detector === "sandbox-failure-window")!;
    expect(w.metrics.errorClass).toBe("calico-nodename-missing");
    expect(w.metrics.closedBy).toBe("calico nodename written");
    expect(w.metrics.pods).toBe(SAMPLE_PARAMS.pods);
  });
});
