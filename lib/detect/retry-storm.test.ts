import { describe, expect, it } from "vitest";
import { defaults, peakRate, rhythmOf, run } from "./retry-storm";
import { BOOT, T0, eventFactory, sid, sortEvents } from "./test-support";
import type { BootEvent } from "./types";

function storm(spec: Record<string, number[]>, successes: Array<[string, number]> = []): BootEvent[] {
  const e = eventFactory();
  const out: BootEvent[] = [];
  let n = 0;
  for (const [pod, times] of Object.entries(spec)) for (const t of times) out.push(e({ t, pod, sandboxId: sid(++n), errorClass: "calico-nodename-missing" }));
  for (const [pod, t] of successes) out.push(e({ t, pod, sandboxId: sid(++n), kind: "sandbox.created", severity: 1 }));
  return sortEvents(out);
}

describe("retry-storm: rhythm", () => {
  it("steady within max(2 s, 20 %) of the median; growing when intervals lengthen; else irregular", () => {
    expect(rhythmOf([15.1, 14.4, 15.6], defaults)).toMatchObject({ rhythm: "steady", medianS: 15.1 });
    expect(rhythmOf([10, 20, 40, 80, 160, 300, 300], defaults).rhythm).toBe("growing");
    expect(rhythmOf([10, 40, 12, 35], defaults).rhythm).toBe("irregular");
    expect(rhythmOf([100, 125, 110], defaults).rhythm).toBe("steady"); // 20 % of 110 s is 22 s
  });

  it("peak rate: most attempts in any window that starts at an attempt", () => {
    expect(peakRate([0, 1000, 2000, 61_000, 61_500], 60_000)).toEqual({ count: 3, at: 0 });
    expect(peakRate([0, 59_999, 60_000, 60_001], 60_000)).toEqual({ count: 3, at: 59_999 });
  });
});

describe("retry-storm: findings", () => {
  it("a steady storm: one node finding with the peak, one per pod with median interval and jitter", () => {
    const pods: Record<string, number[]> = {};
    for (let p = 0; p < 12; p++) pods[`kube-system/ds-${p}`] = [10 + p * 0.3, 25 + p * 0.3, 40.2 + p * 0.3, 55 + p * 0.3, 70.4 + p * 0.3];
    const events = storm(
      pods,
      Object.keys(pods).map((p) => [p, 90] as [string, number]),
    );
    const f = run(BOOT, events, defaults);
    const node = f.filter((x) => x.metrics.scope === "node");
    expect(node).toHaveLength(1);
    expect(node[0].metrics).toMatchObject({
      scope: "node",
      attempts: 60,
      pods: 12,
      ratePerMin: 48,
      peakAt: new Date(T0 + 10_000).toISOString(),
      steadyPods: 12,
      growingPods: 0,
    });
    expect(node[0].severity).toBe("medium");
    const pod0 = f.find((x) => x.metrics.pod === "kube-system/ds-0")!;
    expect(pod0.metrics).toMatchObject({ scope: "pod", attempts: 5, intervalS: 15.1, jitterS: 0.3, rhythm: "steady", intervalsS: [15, 15.2, 14.8, 15.4] });
    expect(pod0.start).toBe(T0 + 10_000);
    expect(pod0.end).toBe(T0 + 70_400); // a sandbox of the pod succeeded afterwards
    expect(pod0.explanation).toContain("5 times");
    expect(pod0.explanation).toContain("median 15.100 s");
    expect(pod0.explanation).toContain("within 0.300 s");
  });

  it("growing backoff is reported with its real intervals, never as a steady storm", () => {
    const events = storm({ "ns/a": [10, 20.2, 40.1, 80.3, 160.2, 320.4], "ns/b": [11, 21.5, 41, 81.2, 161, 321] });
    const pods = run(BOOT, events, defaults).filter((x) => x.metrics.scope === "pod");
    expect(pods.map((p) => p.metrics.rhythm)).toEqual(["growing", "growing"]);
    expect(pods[0].metrics.intervalsS).toEqual([10.2, 19.9, 40.2, 79.9, 160.2]);
    expect(pods[0].end).toBeNull(); // still failing when the data ended
    expect(pods[0].title).toContain("growing backoff");
    expect(pods[0].explanation).toContain("10.200, 19.900, 40.200, 79.900, 160.200 s");
    expect(pods[0].explanation).toContain("not a steady retry storm");
    expect(pods[0].severity).toBe("info");
  });

  it("few failures: no node finding under 10/min and no pod finding under 4 attempts", () => {
    const events = storm({ "ns/a": [10, 25, 40], "ns/b": [12, 27, 42] }, [["ns/a", 50]]);
    expect(run(BOOT, events, defaults)).toEqual([]);
  });

  it("high severity from 100 failures per minute", () => {
    const pods: Record<string, number[]> = {};
    for (let p = 0; p < 55; p++) pods[`ns/p${p}`] = [10 + p * 0.1, 25 + p * 0.1];
    const [node] = run(BOOT, storm(pods), defaults);
    expect(node.metrics).toMatchObject({ ratePerMin: 110, attempts: 110, pods: 55 });
    expect(node.severity).toBe("high");
    expect(node.end).toBeNull();
  });
});
