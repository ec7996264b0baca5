import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Finding } from "@/lib/detect/types";
import { generateScenario } from "@/lib/sample/index";
import { SAMPLE_PARAMS } from "@/lib/sample/load-sample";
import { runPipeline } from "@/lib/sample/pipeline-support";
import { CASES_DIR, caseText } from "@/tests/cases/cases";
import { RULE_INPUT_GROUPS, ruleInputRun } from "@/tests/rule-inputs/inputs";
import { DETECTOR_INPUTS, detectorInput } from "@/tests/detector-inputs/inputs";
import { allParts } from "@/lib/detect/parts";
import { METRIC_SPECS, PART_COLUMNS, metricLines, partTable, partsCount } from "./finding-metrics";

const TWO_NODE_CASES = new Set(["041-describe-x72-and-journald-go-monotonic-clock.log"]);

/** Findings the detectors give on real inputs: every sample scenario (with the variants that add metrics) and every real-format case. */
function realFindings(): Finding[] {
  const out: Finding[] = [];
  const runs: Array<[string, Record<string, unknown>]> = [
    ["calico", SAMPLE_PARAMS],
    ["calico", { backoff: "growing", nodenameDelayS: 200, degradeAfterS: 60 }],
    ["istio-deadlock", {}],
    ["istio-deadlock", { mode: "slow-start" }],
    ["conflist-loop", {}],
    ["two-boots", {}],
  ];
  for (const [name, params] of runs) {
    const s = generateScenario(name, params);
    for (const fs of runPipeline(s.files, { collectedMs: s.truth.collectedMs }).findingsByBoot.values()) out.push(...fs);
  }
  // the detectors whose incident no case holds, on their inputs
  for (const f of DETECTOR_INPUTS) for (const fs of runPipeline([{ path: f, content: detectorInput(f) }]).findingsByBoot.values()) out.push(...fs);
  // the rule catalogue on its real-format inputs
  for (const group of RULE_INPUT_GROUPS) out.push(...ruleInputRun(group).findings);
  // runPipeline reads one node; a case whose text names two (a describe and a journal of other hosts) gives its findings per node elsewhere
  for (const f of readdirSync(CASES_DIR).filter((x) => x.endsWith(".log") && !TWO_NODE_CASES.has(x))) {
    for (const fs of runPipeline([{ path: f, content: caseText(f) }]).findingsByBoot.values()) out.push(...fs);
  }
  return out;
}

const findings = realFindings();
const sample = (() => {
  const s = generateScenario("calico", SAMPLE_PARAMS);
  return runPipeline(s.files, { collectedMs: s.truth.collectedMs }).findingsByBoot.get(s.truth.bootKey)!;
})();
const lines = (f: Finding) => Object.fromEntries(metricLines(f.detector, f.metrics).map((l) => [l.key, `${l.label}: ${l.text}`]));

describe("finding metrics in words", () => {
  it("knows every metric key the detectors give on real inputs", () => {
    const keys = [...new Set(findings.flatMap((f) => Object.keys(f.metrics)))].sort();
    expect(keys.length).toBeGreaterThan(40);
    expect(keys.filter((k) => !(k in METRIC_SPECS))).toEqual([]);
    // and every entry is a key some detector gives (no stale labels)
    expect(Object.keys(METRIC_SPECS).filter((k) => !keys.includes(k))).toEqual([]);
    for (const d of ["sandbox-failure-window", "retry-storm", "conflist-rewrite-loop", "cni-bootstrap-deadlock", "runtime-degradation", "image-pull-storm"])
      expect(
        findings.some((f) => f.detector === d),
        d,
      ).toBe(true);
  });

  it("writes no code names and no raw dumps", () => {
    for (const f of findings)
      for (const l of metricLines(f.detector, f.metrics)) {
        expect(l.label, l.key).not.toMatch(/[a-z][A-Z]|\(s\)$/);
        expect(l.text, l.key).not.toMatch(/\[object|\{|\}|undefined|NaN/);
      }
  });

  it("reads the sample's window and storm in words, the not-applicable ones left out", () => {
    const window = sample.find((f) => f.detector === "sandbox-failure-window")!;
    expect(lines(window)).toEqual({
      attempts: "failed attempts: 200",
      pods: "pods: 40",
      errorClass: "cause (error class): calico-nodename-missing",
      openedAfterBootS: "opened: T+11.763 s",
      closedAfterBootS: "closed: T+76.350 s",
      closedBy: "closed by: calico nodename written",
      durationS: "lasted: 64.587 s",
    });
    const storm = sample.find((f) => f.detector === "retry-storm" && f.metrics.scope === "node")!;
    expect(sample.filter((f) => f.detector === "retry-storm")).toEqual([storm]);
    expect(lines(storm)).toEqual({
      attempts: "failed attempts: 200",
      pods: "pods: 40",
      ratePerMin: "peak failure rate: 166 / min",
      peakCount: "failures in the busiest 60 s: 166",
      peakAfterBootS: "busiest interval from: T+11.763 s",
      steadyPods: "pods retrying at a steady interval: 40",
      steadyMedianIntervalS: "their median interval: 14.962 s",
    });
  });

  it("reads a storm's pods as one table: a row per pod, the columns in words, every part key the detectors give has a column or is left out on purpose", () => {
    const storm = sample.find((f) => f.detector === "retry-storm")!;
    const t = partTable(storm.metrics)!;
    expect(partsCount(storm.metrics)).toBe("40 pods");
    expect(t.word).toBe("pod");
    expect(t.columns.map((c) => c.label)).toEqual([
      "pod",
      "attempts",
      "median interval",
      "largest gap from the median",
      "rhythm",
      "first failure",
      "last failure",
    ]);
    expect(t.rows).toHaveLength(40);
    const first = t.rows[0];
    expect(first.cells[0].text).toMatch(/^kube-system\/[a-z0-9-]+$/);
    expect(first.cells[0].code).toBe(true);
    expect(first.cells[1]).toMatchObject({
      text: String((storm.metrics.parts as Array<{ attempts: number }>)[0].attempts),
      sort: (storm.metrics.parts as Array<{ attempts: number }>)[0].attempts,
    });
    expect(first.cells[4].text).toBe("steady");
    expect(first.cells[5].text).toMatch(/^T\+\d+\.\d{3} s$/);
    const partKeys = [...new Set(allParts(findings).flatMap((p) => Object.keys(p)))].sort();
    const shown = new Set(Object.values(PART_COLUMNS).flatMap((cols) => cols.map((c) => c.key)));
    expect(partKeys.filter((k) => !shown.has(k))).toEqual(["endMs", "intervalsS", "key", "recovered", "startMs"]);
  });

  it("shows lists as lists: runtime signals, error classes, writers", () => {
    const deg = findings.find((f) => f.detector === "runtime-degradation")!;
    const signals = metricLines(deg.detector, deg.metrics).find((l) => l.key === "signals")!;
    expect(signals.items!.length).toBe((deg.metrics.signals as unknown[]).length);
    expect(signals.items![0]).toMatch(/^\d+ [a-zA-Z/ ]+, (at T\+\d+\.\d{3} s|T\+\d+\.\d{3} s to T\+\d+\.\d{3} s)$/);
    const loop = findings.find((f) => f.detector === "conflist-rewrite-loop" && Object.keys(f.metrics.writesByWriter as object).length === 2)!;
    const byWriter = metricLines(loop.detector, loop.metrics).find((l) => l.key === "writesByWriter")!;
    expect(byWriter.items).toEqual(
      Object.entries(loop.metrics.writesByWriter as Record<string, number>)
        .sort((a, b) => b[1] - a[1])
        .map(([w, n]) => `${w}: ${n}`),
    );
    expect(metricLines(loop.detector, loop.metrics).some((l) => l.key === "untimedWrites")).toBe(Object.keys(loop.metrics.untimedWrites as object).length > 0);
  });

  it("reads a rule's finding in words: its count, thresholds and values", () => {
    const restarts = findings.find((f) => f.detector === "rule:containerd-restarting")!;
    expect(lines(restarts)).toEqual({
      matches: "matching lines: 5",
      minCount: "fires at (matching lines): 5",
      withinS: "counted within: 1200 s",
      peakMatches: "matching lines in the busiest 1200 s: 5",
      ruleSet: "rule set: restarts",
      firstAfterBootS: "first match: T+5.000 s",
      lastAfterBootS: "last match: T+390.000 s",
    });
    const pid = findings.find((f) => f.detector === "rule:pid-pressure")!;
    expect(lines(pid)).toMatchObject({ clearedAfterBootS: "cleared: T+1351.592 s", matches: "matching lines: 1" });
    const oom = findings.find((f) => f.detector === "rule:oom-kill-runtime")!;
    expect(metricLines(oom.detector, oom.metrics).find((l) => l.key === "matchedValues")).toMatchObject({
      items: ["pid=1432 (1)", "process=containerd (1)"],
      code: true,
    });
  });

  it("falls back to words for a key it does not know", () => {
    expect(metricLines("x", { newThingPerMin: 3, someList: ["a", "b"] })).toEqual([
      { key: "newThingPerMin", label: "new thing / min", text: "3", items: null, code: false },
      { key: "someList", label: "some list", text: "a, b", items: ["a", "b"], code: false },
    ]);
  });
});
