/**
 * Every scenario through the real in-memory pipeline (analyseBundle, then the detectors
 * as detectFindings runs them): each detector's findings equal the truth the scenario
 * derived from what it emitted, and agree with the parameters it was generated with.
 */
import { describe, expect, it } from "vitest";
import type { Finding } from "../detect/types";
import { writerName } from "../detect/conflist-rewrite-loop";
import { allParts, partsOf } from "../detect/parts";
import type { PodPart } from "../detect/retry-storm";
import { SCENARIOS, generateScenario, type Scenario } from "./index";
import { runPipeline } from "./pipeline-support";

interface Run {
  s: Scenario;
  res: ReturnType<typeof runPipeline>;
  findings: Finding[];
  by: (detector: string) => Finding[];
}
const cache = new Map<string, Run>();
function runScenario(name: string, params: Record<string, unknown> = {}): Run {
  const key = `${name} ${JSON.stringify(params)}`;
  let r = cache.get(key);
  if (!r) {
    const s = generateScenario(name, params);
    const res = runPipeline(s.files, { collectedMs: s.truth.collectedMs });
    expect(res.errors).toEqual([]);
    expect(res.node).toBe(s.truth.node);
    const findings = res.findingsByBoot.get(s.truth.bootKey) ?? [];
    r = { s, res, findings, by: (d) => findings.filter((f) => f.detector === d) };
    cache.set(key, r);
  }
  return r;
}
/** The pods of the storms with a rhythm (the old per-pod findings), by first attempt then pod. */
const rhythmParts = (storm: Finding[]) =>
  (allParts(storm) as PodPart[])
    .filter((x) => x.rhythm !== "few" && x.rhythm !== "irregular")
    .sort((a, b) => a.startMs - b.startMs || a.pod.localeCompare(b.pod));
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const at = (f: Finding) => ({ start: iso(f.start), end: iso(f.end) });

/** Each detector's findings, in the shape of the truth. */
function actual(r: Run) {
  const storm = r.by("retry-storm");
  return {
    windows: r.by("sandbox-failure-window").map((f) => ({
      attempts: f.metrics.attempts,
      pods: f.metrics.pods,
      openedAfterBootS: f.metrics.openedAfterBootS,
      closedAfterBootS: f.metrics.closedAfterBootS,
      ...at(f),
    })),
    nodes: storm
      .filter((f) => f.metrics.scope === "node")
      .map((f) => ({ ratePerMin: f.metrics.ratePerMin, pods: f.metrics.pods, attempts: f.metrics.attempts, peakAt: f.metrics.peakAt, ...at(f) })),
    pods: rhythmParts(storm).map((x) => ({
      pod: x.pod,
      attempts: x.attempts,
      intervalS: x.intervalS,
      jitterS: x.jitterS,
      rhythm: x.rhythm,
      intervalsS: x.intervalsS,
      start: iso(x.startMs),
      end: iso(x.endMs),
    })),
    loops: r.by("conflist-rewrite-loop").map((f) => ({
      path: f.metrics.path,
      writes: f.metrics.writes,
      writers: f.metrics.writers,
      writesByWriter: f.metrics.writesByWriter,
      turns: f.metrics.turns,
      writesPerS: f.metrics.writesPerS,
      durationS: f.metrics.durationS,
      ...at(f),
    })),
    deadlocks: r.by("cni-bootstrap-deadlock").map((f) => ({
      missingPath: f.metrics.missingPath,
      writerPod: f.metrics.writerPod,
      blockedPods: f.metrics.blockedPods,
      sinceS: f.metrics.sinceS,
      start: iso(f.start),
      end: iso(f.end),
    })),
    degradation: r.by("runtime-degradation").map((f) => ({
      signals: (f.metrics.signals as Array<Record<string, unknown>>).map(({ signal, count, first, last }) => ({ signal, count, first, last })),
    })),
    rules: r.findings
      .filter((f) => f.detector.startsWith("rule:"))
      .map((f) => ({
        detector: f.detector,
        matches: f.metrics.matches,
        atS: f.evidence.map((id) => (r.res.events.find((e) => e.id === id)!.ts! - r.s.truth.t0Ms) / 1000),
      })),
  };
}
/** The same from the truth. */
function expected(s: Scenario) {
  const d = s.truth.detectors;
  return {
    windows: s.truth.windows.map((w) => ({
      attempts: w.attempts,
      pods: w.pods,
      openedAfterBootS: w.openedAfterBootS,
      closedAfterBootS: w.closedAfterBootS,
      start: iso(w.startMs),
      end: iso(w.endMs),
    })),
    nodes: d.retryStorm.nodes.map(({ startMs, endMs, ...m }) => ({ ...m, start: iso(startMs), end: iso(endMs) })),
    pods: d.retryStorm.pods.map(({ startMs, endMs, ...m }) => ({ ...m, start: iso(startMs), end: iso(endMs) })),
    loops: d.conflistLoops.map(({ startMs, endMs, ...m }) => ({ ...m, start: iso(startMs), end: iso(endMs) })),
    deadlocks: d.deadlocks.map(({ startMs, ...m }) => ({ ...m, start: iso(startMs), end: null })),
    degradation: d.degradation ? [d.degradation] : [],
    rules: s.truth.rules ?? [],
  };
}

const VARIANTS: Array<[string, Record<string, unknown>]> = [
  ["healthy", { seed: 4 }],
  ["calico", {}],
  ["calico", { seed: 4, pods: 30, nodenameDelayS: 200 }],
  ["calico", { seed: 5, pods: 8, backoff: "growing", retryIntervalS: 10, nodenameDelayS: 330, degradeAfterS: 0 }],
  ["two-boots", { seed: 6 }],
  ["istio-deadlock", {}],
  ["istio-deadlock", { seed: 2, pods: 30, retryIntervalS: 10, durationS: 120 }],
  ["istio-deadlock", { seed: 3, mode: "slow-start" }],
  ["conflist-loop", {}],
  ["conflist-loop", { seed: 3, rate: 10, durationS: 20, loopStartS: 45 }],
  ["conflist-loop", { seed: 3, rate: 6, durationS: 30, ciliumLog: "plain" }],
  ["conflist-loop", { seed: 2, ciliumLog: "slog" }],
  ["runtime-oom", {}],
  ["runtime-oom", { seed: 3, oomAtS: "13.5,40,70" }],
];

describe("every scenario through the real pipeline: each detector equals the truth", () => {
  it("covers every registered scenario", () => {
    expect(new Set(VARIANTS.map((v) => v[0]))).toEqual(new Set(SCENARIOS.map((s) => s.name)));
  });

  it.each(VARIANTS)("%s %j", (name, params) => {
    const r = runScenario(name, params);
    expect(actual(r)).toEqual(expected(r.s));
  });
});

describe("findings agree with the parameters the scenarios were generated with", () => {
  it("runtime-oom: the OOM kills of containerd lie inside the failure window, both findings on one boot", () => {
    const r = runScenario("runtime-oom");
    const [w] = r.by("sandbox-failure-window");
    const [oom] = r.by("rule:oom-kill-runtime");
    expect(oom).toMatchObject({ severity: "critical", start: r.s.truth.t0Ms + 25_000, end: r.s.truth.t0Ms + 50_000 });
    expect(oom.metrics).toMatchObject({ matches: 2, matchedValues: ["pid=1432 (1)", "pid=2043 (1)", "process=containerd (2)"] });
    expect(w.start).toBeLessThan(oom.start);
    expect(oom.end!).toBeLessThan(w.end!);
    // the systemd lines of the kill and restart are no signal for the coded detectors: their findings are the calico race's
    expect(actual(runScenario("runtime-oom")).windows).toEqual(
      actual(runScenario("calico", { pods: 40, retryIntervalS: 15, nodenameDelayS: 75, eventsSkewS: 0, seed: 1 })).windows,
    );
    expect(() => generateScenario("runtime-oom", { oomAtS: "5" })).toThrow(/inside the failure window/);
  });

  it("healthy boot: no finding of any detector; its one conflist write at install time is no loop", () => {
    const r = runScenario("healthy", { seed: 4 });
    expect(r.findings).toEqual([]);
    const writes = r.res.events.filter((e) => e.bootKey === r.s.truth.bootKey && e.kind === "cni.config.written");
    expect(writes.map((e) => e.message.replace(/^cni-installer\/<nil> <nil>: /, ""))).toEqual(["Created /host/etc/cni/net.d/10-calico.conflist"]);
  });

  it("calico: a storm at the node level; pods with few retries get no rhythm finding; no degradation in a short storm", () => {
    const r = runScenario("calico", {});
    const [node] = r.by("retry-storm");
    expect(node.metrics).toMatchObject({ scope: "node", pods: 20, attempts: r.s.truth.window!.attempts });
    expect(r.by("retry-storm")).toHaveLength(1); // one storm, its pods inside
    expect(partsOf(node.metrics).map((x) => x.rhythm)).toEqual(Array(20).fill("few"));
    expect(r.by("runtime-degradation")).toEqual([]);
    expect(r.by("cni-bootstrap-deadlock")).toEqual([]); // calico-node writes the nodename and runs on the host network
    expect(r.by("conflist-rewrite-loop")).toEqual([]); // install-cni writes 10-calico.conflist once
  });

  it("calico, long storm: every pod retries at a steady interval near 15 s; the runtime degrades after 120 s", () => {
    const r = runScenario("calico", { seed: 4, pods: 30, nodenameDelayS: 200 });
    expect(r.by("retry-storm")).toHaveLength(1);
    const pods = rhythmParts(r.by("retry-storm"));
    expect(pods).toHaveLength(30);
    for (const f of pods) {
      expect(f.rhythm).toBe("steady");
      expect(Math.abs(f.intervalS! - 15)).toBeLessThanOrEqual(0.8);
      expect(f.jitterS!).toBeLessThanOrEqual(1.6);
    }
    const [deg] = r.by("runtime-degradation");
    const names = (deg.metrics.signals as Array<{ signal: string }>).map((x) => x.signal);
    expect(names).toEqual(["sandbox-stop-timeout", "task-exit-event", "ttrpc", "event-stream", "pleg-unhealthy", "network-not-ready"]);
    expect(deg.start - r.s.truth.window!.startMs).toBeGreaterThanOrEqual(120_000);
    expect(deg.severity).toBe("critical");
  });

  it("calico with the kubelet's growing backoff: reported with the real intervals (about 10, 20, 40, 80, 160 s), not as a steady storm", () => {
    const r = runScenario("calico", { seed: 5, pods: 8, backoff: "growing", retryIntervalS: 10, nodenameDelayS: 330, degradeAfterS: 0 });
    const pods = rhythmParts(r.by("retry-storm"));
    expect(pods).toHaveLength(8);
    for (const f of pods) {
      expect(f.rhythm).toBe("growing");
      const got = f.intervalsS;
      expect(got).toHaveLength(5);
      got.forEach((x, i) => expect(Math.abs(x - 10 * 2 ** i)).toBeLessThanOrEqual(0.8));
    }
    const [node] = r.by("retry-storm").filter((f) => f.metrics.scope === "node");
    expect(node.metrics).toMatchObject({ steadyPods: 0, growingPods: 8 });
  });

  it("istio-cni deadlock: the kubeconfig, the agent pod among the blocked pods, open; every pod retries every ~15 s", () => {
    const r = runScenario("istio-deadlock", {});
    const [d] = r.by("cni-bootstrap-deadlock");
    expect(d.metrics).toMatchObject({ missingPath: "/var/run/istio-cni/istio-cni-kubeconfig", blockedPods: 13 });
    expect(d.metrics.writerPod).toMatch(/^istio-system\/istio-cni-node-[a-z0-9]{5}$/);
    expect(d.end).toBeNull();
    const [w] = r.by("sandbox-failure-window");
    expect(w.end).toBeNull();
    expect(w.metrics.errorClass).toBe("istio-cni-kubeconfig-missing");
    const pods = rhythmParts(r.by("retry-storm"));
    expect(pods.map((f) => f.pod)).toContain(d.metrics.writerPod);
    for (const f of pods) expect(Math.abs(f.intervalS! - 15)).toBeLessThanOrEqual(0.8);
  });

  it("istio-cni slow start that ends in success: a closed window, no deadlock", () => {
    const r = runScenario("istio-deadlock", { seed: 3, mode: "slow-start" });
    const [w] = r.by("sandbox-failure-window");
    expect(w.end).not.toBeNull();
    expect(w.metrics.closedBy).toMatch(/^sandbox created \(istio-system\/istio-cni-node-/);
    expect(r.by("cni-bootstrap-deadlock")).toEqual([]);
  });

  it.each([
    [{}, 4, 60, ["istio-cni", "cilium"]],
    [{ seed: 3, rate: 10, durationS: 20, loopStartS: 45 }, 10, 20, ["istio-cni", "cilium"]],
    [{ seed: 3, rate: 6, durationS: 30, ciliumLog: "plain" }, 3, 30, ["istio-cni"]], // Cilium's writes have no time: istio-cni's half of the rate
    [{ seed: 2, ciliumLog: "slog" }, 4, 60, ["istio-cni", "cilium"]], // Cilium >= 1.18: the path in slog's `destination`
  ] as Array<[Record<string, unknown>, number, number, string[]]>)(
    "conflist loop %j: writes, writers, rate and duration as generated",
    (params, rate, durationS, writers) => {
      const r = runScenario("conflist-loop", params);
      const [f, ...rest] = r.by("conflist-rewrite-loop");
      expect(rest).toEqual([]);
      const p = { rate: 4, durationS: 60, ...params } as { rate: number; durationS: number };
      const total = Math.floor(p.rate * p.durationS) + 1;
      expect(f.metrics.writes).toBe(writers.length === 2 ? total : Math.ceil(total / 2));
      expect(f.metrics.writers).toEqual(writers);
      expect(Math.abs((f.metrics.writesPerS as number) - rate) / rate).toBeLessThan(0.01);
      expect(Math.abs((f.metrics.durationS as number) - durationS)).toBeLessThan(0.2);
      expect(f.metrics.path).toBe("/etc/cni/net.d/05-cilium.conflist");
      expect(f.explanation).toMatch(/cni-exclusive/);
      expect(r.by("sandbox-failure-window")).toEqual([]);
    },
  );
});

describe("the conflist-loop sample: two agents taking turns", () => {
  it.each([[{}], [{ seed: 2, ciliumLog: "slog" }]] as Array<[Record<string, unknown>]>)(
    "%j: 241 writes, istio-cni 121 and Cilium 120, 240 turns, 4 writes/s together for 60 s",
    (params) => {
      const [f] = runScenario("conflist-loop", params).by("conflist-rewrite-loop");
      expect(f.metrics).toMatchObject({
        path: "/etc/cni/net.d/05-cilium.conflist",
        writes: 241,
        writers: ["istio-cni", "cilium"],
        writesByWriter: { "istio-cni": 121, cilium: 120 },
        turns: 240,
        unattributedWrites: 0,
        writesPerS: 4,
        durationS: 60,
      });
      expect(f.explanation).toContain("Two agents overwrite each other: istio-cni (121 writes), Cilium (120 writes), with 240 turns");
    },
  );

  it("Cilium's lines without a time (kubectl logs): istio-cni's timed writes alone, at half the rate", () => {
    const [f] = runScenario("conflist-loop", { seed: 3, rate: 6, durationS: 30, ciliumLog: "plain" }).by("conflist-rewrite-loop");
    expect(f.metrics).toMatchObject({ writes: 91, writers: ["istio-cni"], writesByWriter: { "istio-cni": 91 }, turns: 0, writesPerS: 3, durationS: 30 });
  });
});

/** The figures each finding's explanation must cite, as the finding computed them. */
function keyFigures(f: Finding): string[] {
  const m = f.metrics as Record<string, unknown>;
  const t = (s: unknown) => `T+${(s as number).toFixed(3)} s`;
  switch (f.detector) {
    case "sandbox-failure-window":
      return [`${m.attempts} failed sandbox attempt`, `${m.pods} pod`, t(m.openedAfterBootS), ...(m.closedAfterBootS === null ? [] : [t(m.closedAfterBootS)])];
    case "retry-storm":
      return m.scope === "node"
        ? [`${m.attempts} failed sandbox attempts`, `${m.pods} pod`, `(${m.ratePerMin} per minute)`, t(m.peakAfterBootS)]
        : [`${m.pods} pod`, `${m.minNodeRatePerMin ?? 10}/min`];
    case "conflist-rewrite-loop":
      return [
        m.path as string,
        `written ${m.writes} times`,
        `${(m.durationS as number).toFixed(3)} s`,
        `${(m.writesPerS as number).toFixed(3)} writes/s`,
        ...(m.writers as string[]).map(writerName),
      ];
    case "cni-bootstrap-deadlock":
      return [m.missingPath as string, m.writerPod as string, `${m.attempts} failed sandbox attempts from ${m.blockedPods} pods since ${t(m.sinceS)}`];
    case "runtime-degradation":
      return (m.signals as Array<{ count: number; firstAfterBootS: number; lastAfterBootS: number }>)
        .map((s) => `${s.count} `)
        .concat([`${m.healthSignals} health signal`]);
    default:
      return [];
  }
}

describe("explanations", () => {
  it("each finding's explanation cites its key figures as computed", () => {
    let n = 0;
    for (const [name, params] of VARIANTS) {
      for (const f of runScenario(name, params).findings) {
        for (const fig of keyFigures(f)) expect(f.explanation, `${f.detector}: ${f.explanation}`).toContain(fig);
        expect(f.explanation).not.toMatch(/\n/);
        n++;
      }
    }
    expect(n).toBe(27); // every finding of the variants: one storm per boot, its pods inside, not one finding per pod
  });
});
