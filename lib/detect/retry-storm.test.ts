import { partsOf } from "./parts";
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
  it("a steady storm: one finding with the peak, its pods inside with median interval and jitter", () => {
    const pods: Record<string, number[]> = {};
    for (let p = 0; p < 12; p++) pods[`kube-system/ds-${p}`] = [10 + p * 0.3, 25 + p * 0.3, 40.2 + p * 0.3, 55 + p * 0.3, 70.4 + p * 0.3];
    const events = storm(
      pods,
      Object.keys(pods).map((p) => [p, 90] as [string, number]),
    );
    const f = run(BOOT, events, defaults);
    expect(f).toHaveLength(1); // one storm, not one finding per pod
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
    expect(node[0].metrics.partsOf).toBe("pod");
    const parts = partsOf(node[0].metrics);
    expect(parts.map((x) => x.key)).toEqual(Object.keys(pods)); // by first attempt
    expect(parts[0]).toEqual({
      key: "kube-system/ds-0",
      pod: "kube-system/ds-0",
      startMs: T0 + 10_000,
      endMs: T0 + 70_400, // a sandbox of the pod succeeded afterwards
      attempts: 5,
      intervalS: 15.1,
      jitterS: 0.3,
      rhythm: "steady",
      intervalsS: [15, 15.2, 14.8, 15.4],
      firstAfterBootS: 10,
      lastAfterBootS: 70.4,
      recovered: true,
    });
    expect(node[0].explanation).toContain("12 pods retried at a steady interval (median 15.100 s)");
  });

  it("growing backoff is reported with its real intervals, never as a steady storm: one finding, two pods inside", () => {
    const events = storm({ "ns/a": [10, 20.2, 40.1, 80.3, 160.2, 320.4], "ns/b": [11, 21.5, 41, 81.2, 161, 321] });
    const f = run(BOOT, events, defaults);
    expect(f).toHaveLength(1);
    expect(f[0].metrics).toMatchObject({ scope: "pods", pods: 2, attempts: 12, steadyPods: 0, growingPods: 2 });
    const pods = partsOf(f[0].metrics);
    expect(pods.map((p) => p.rhythm)).toEqual(["growing", "growing"]);
    expect(pods[0].intervalsS).toEqual([10.2, 19.9, 40.2, 79.9, 160.2]);
    expect(pods[0].endMs).toBeNull(); // still failing when the data ended
    expect(f[0].end).toBeNull();
    expect(f[0].title).toBe("Retry rhythm: 2 pods with a growing backoff, 12 attempts");
    expect(f[0].severity).toBe("info");
    // one pod alone: its intervals in words
    const one = run(BOOT, storm({ "ns/a": [10, 20.2, 40.1, 80.3, 160.2, 320.4] }), defaults);
    expect(one[0].title).toBe("ns/a: 6 sandbox failures with a growing backoff (10.200 s to 160.200 s)");
    expect(one[0].explanation).toContain("10.200, 19.900, 40.200, 79.900, 160.200 s");
    expect(one[0].explanation).toContain("not a steady retry storm");
  });

  it("two causes storming in one window: one finding per cause, each with its own pods", () => {
    const e = eventFactory();
    const events: BootEvent[] = [];
    let n = 0;
    for (let p = 0; p < 6; p++)
      for (const t of [10, 25, 40, 55]) {
        events.push(e({ t: t + p, pod: `ns/a${p}`, sandboxId: sid(++n), errorClass: "calico-nodename-missing" }));
        events.push(e({ t: t + p + 0.5, pod: `ns/b${p}`, sandboxId: sid(++n), errorClass: "istio-cni-kubeconfig-missing" }));
      }
    const f = run(BOOT, sortEvents(events), defaults);
    expect(f.map((x) => [x.metrics.errorClass, x.metrics.pods, x.metrics.attempts])).toEqual([
      ["calico-nodename-missing", 6, 24],
      ["istio-cni-kubeconfig-missing", 6, 24],
    ]);
    expect(partsOf(f[1].metrics).map((x) => x.key)).toEqual(["ns/b0", "ns/b1", "ns/b2", "ns/b3", "ns/b4", "ns/b5"]);
    expect(f[0].title).toMatch(/^Retry storm \(calico-nodename-missing\): /);
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
