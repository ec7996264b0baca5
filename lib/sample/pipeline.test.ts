/**
 * End to end without a database: generated bundle -> analyseBundle (parse, classify, boots)
 * -> sandbox-failure-window, compared with the scenario's truth.
 */
import { describe, expect, it } from "vitest";
import type { SandboxWindowMetrics } from "../detect/sandbox-failure-window";
import { generateScenario } from "./index";
import { runPipeline } from "./pipeline-support";

function windowsOf(name: string, params: Record<string, unknown>) {
  const s = generateScenario(name, params);
  const res = runPipeline(s.files, { collectedMs: s.truth.collectedMs });
  const findings = res.findingsByBoot.get(s.truth.bootKey) ?? [];
  const got = findings
    .filter((f) => f.detector === "sandbox-failure-window")
    .map((f) => {
      const m = f.metrics as unknown as SandboxWindowMetrics;
      return {
        attempts: m.attempts,
        pods: m.pods,
        errorClass: m.errorClass,
        openedAfterBootS: m.openedAfterBootS,
        closedAfterBootS: m.closedAfterBootS,
        closedBy: m.closedBy,
        startMs: f.start,
        endMs: f.end,
      };
    });
  return { s, res, got };
}

describe("generated bundles through the pipeline", () => {
  it("every line of the Calico scenario parses", () => {
    const { s, res } = windowsOf("calico", {});
    expect(res.errors).toEqual([]);
    expect(res.events.length).toBeGreaterThan(300);
    const byPath = new Map<string, number>();
    for (const e of res.events) byPath.set(e.path, (byPath.get(e.path) ?? 0) + 1);
    for (const f of s.files) {
      const lines = f.content.split("\n").filter((l) => l && !l.startsWith("-- "));
      if (f.path.endsWith(".json")) expect(byPath.get(f.path)).toBe((JSON.parse(f.content) as { items: unknown[] }).items.length);
      else expect(byPath.get(f.path)).toBe(lines.length);
    }
  });

  it("boots: the previous boot (unknown id) and this one, T+0 = kernel start", () => {
    const { s, res } = windowsOf("calico", {});
    expect(res.boots.map((b) => [b.bootKey, b.detectedBy, b.startApprox])).toEqual([
      ["inferred-1", "first-event", true],
      [s.truth.bootKey, "separator", false],
    ]);
    expect(res.boots[1].start).toBe(s.truth.t0Ms);
    // every event from T+0 on belongs to this boot
    expect(res.events.filter((e) => e.ts !== null && e.ts >= s.truth.t0Ms).every((e) => e.bootKey === s.truth.bootKey)).toBe(true);
  });

  it.each([
    ["defaults", {}],
    ["50 pods, nodename after 40 s", { seed: 3, pods: 50, nodenameDelayS: 40 }],
    ["events skewed by +2 s", { seed: 5, eventsSkewS: 2 }],
    ["retries slower than quietS", { seed: 11, pods: 6, retryIntervalS: 70, nodenameDelayS: 160 }],
    ["other node and boot time", { seed: 21, node: "node-p-7f3c", bootAt: "2025-12-31T23:59:30Z", pods: 12, nodenameDelayS: 22 }],
  ])("calico scenario (%s): the detector's windows equal the truth", (_label, params) => {
    const { s, got } = windowsOf("calico", params);
    expect(s.truth.windows.length).toBeGreaterThan(0);
    expect(got).toEqual(s.truth.windows);
  });

  it("two-boots scenario: three boots (older, incident, healthy), each boot's windows equal the truth", () => {
    const s = generateScenario("two-boots", { seed: 6 });
    const res = runPipeline(s.files, { collectedMs: s.truth.collectedMs });
    expect(res.errors).toEqual([]);
    expect(res.boots.map((b) => [b.bootKey, b.detectedBy, b.startApprox])).toEqual([
      ["inferred-1", "first-event", true],
      [s.truth.boots[0].bootKey, "separator", false],
      [s.truth.boots[1].bootKey, "separator", false],
    ]);
    for (const tb of s.truth.boots) {
      const boot = res.boots.find((b) => b.bootKey === tb.bootKey)!;
      expect(boot.start).toBe(tb.t0Ms);
      const got = (res.findingsByBoot.get(tb.bootKey) ?? [])
        .filter((f) => f.detector === "sandbox-failure-window")
        .map((f) => {
          const m = f.metrics as unknown as SandboxWindowMetrics;
          return {
            attempts: m.attempts,
            pods: m.pods,
            errorClass: m.errorClass,
            openedAfterBootS: m.openedAfterBootS,
            closedAfterBootS: m.closedAfterBootS,
            closedBy: m.closedBy,
            startMs: f.start,
            endMs: f.end,
          };
        });
      expect(got).toEqual(tb.windows);
    }
    expect(s.truth.boots[0].windows.length).toBe(1);
    expect(s.truth.window).toEqual(s.truth.boots[0].windows[0]);
  });

  it("healthy scenario: no window", () => {
    const { s, res, got } = windowsOf("healthy", { seed: 4 });
    expect(got).toEqual([]);
    expect(res.boots.map((b) => b.bootKey)).toContain(s.truth.bootKey);
  });
});
