import { describe, expect, it } from "vitest";
import { collectAttempts, distinctPods } from "./attempts";
import { defaults, run, sandboxFailureWindow, type SandboxWindowMetrics } from "./sandbox-failure-window";
import { runDetectors, DETECTORS, assertUniqueNames } from "./index";
import type { BootEvent, BootInfo, Detector, EventKind, Lane } from "./types";
import { caseLineToInput } from "../normalise/case-lines";
import { classifyRecord } from "../normalise/classify";
import { caseText } from "../../tests/cases/cases";

const T0 = Date.UTC(2026, 2, 14, 2, 10, 0);
const boot: BootInfo = { node: "n1", bootKey: "6513a0c2d1e84f0bb2a7c3d4e5f60718", start: T0, end: null };

let nextId = 1;
const sid = (n: number) => n.toString(16).padStart(64, "0");

interface Spec {
  t: number; // seconds after T0
  kind?: EventKind;
  lane?: Lane;
  component?: string;
  pod?: string | null;
  sandboxId?: string | null;
  errorClass?: string | null;
  message?: string;
  fileId?: number;
  k8s?: BootEvent["k8s"];
  fields?: Record<string, string>;
}
function be(s: Spec): BootEvent {
  const lane: Lane = s.lane ?? (s.component === "kubelet" ? "kubelet" : s.component === "k8s-events" ? "events" : "runtime");
  return {
    id: nextId++,
    ts: T0 + Math.round(s.t * 1000),
    fileId: s.fileId ?? (lane === "kubelet" ? 1 : lane === "events" ? 3 : 2),
    line: nextId,
    component: s.component ?? (lane === "kubelet" ? "kubelet" : lane === "events" ? "k8s-events" : "containerd"),
    lane,
    severity: 3,
    kind: s.kind ?? "sandbox.create.failed",
    pod: s.pod === undefined ? null : s.pod,
    sandboxId: s.sandboxId === undefined ? null : s.sandboxId,
    errorClass: s.errorClass === undefined ? "calico-nodename-missing" : s.errorClass,
    message: s.message ?? "",
    k8s: s.k8s ?? null,
    fields: s.fields ?? null,
  };
}
/** containerd's failure line of one attempt (names pod and sandbox). */
const fail = (t: number, pod: string, n: number, extra: Partial<Spec> = {}) => be({ t, pod, sandboxId: sid(n), ...extra });
const ok = (t: number, pod: string, n: number) => be({ t, pod, sandboxId: sid(n), kind: "sandbox.created", errorClass: null, severity: 1 } as Spec);
const sorted = (events: BootEvent[]) => [...events].sort((a, b) => a.ts! - b.ts! || a.fileId - b.fileId || a.line - b.line);
const metrics = (events: BootEvent[], b: BootInfo = boot) =>
  run(b, sorted(events), defaults).map((f) => ({ ...(f.metrics as unknown as SandboxWindowMetrics), start: f.start, end: f.end, severity: f.severity }));

describe("sandbox-failure-window: windows", () => {
  it("a slow start that ends in success closes at the last failure", () => {
    const events = [
      fail(10, "kube-system/a", 1),
      fail(25, "kube-system/a", 2),
      fail(40.5, "kube-system/a", 3),
      ok(55.25, "kube-system/a", 4),
      be({ t: 300, kind: "log", errorClass: null }),
    ];
    const [w] = metrics(events);
    expect(w).toMatchObject({
      attempts: 3,
      pods: 1,
      errorClass: "calico-nodename-missing",
      openedAfterBootS: 10,
      closedAfterBootS: 40.5,
      closedBy: "sandbox created (kube-system/a)",
      start: T0 + 10000,
      end: T0 + 40500,
      severity: "medium", // 30.5 s >= mediumDurationS
    });
  });

  it("successes of host-network pods inside the window do not close it", () => {
    const storm = [fail(10, "ds/a", 1), fail(11, "ds/b", 2), fail(25, "ds/a", 3), fail(26, "ds/b", 4), fail(40, "ds/a", 5), fail(41, "ds/b", 6)];
    const hostNet = [ok(12, "kube-system/kube-proxy-x", 100), ok(30, "kube-system/node-exporter-y", 101)];
    const closed = metrics([...storm, ...hostNet, ok(55, "ds/a", 7), ok(56, "ds/b", 8)]);
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ attempts: 6, pods: 2, openedAfterBootS: 10, closedAfterBootS: 41, closedBy: "sandbox created (ds/a)" });
    // same storm, the retries never succeed: still open although sandboxes succeeded inside it
    const open = metrics([...storm, ...hostNet, be({ t: 500, kind: "log", errorClass: null })]);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ attempts: 6, closedAfterBootS: null, closedBy: null, end: null, severity: "high" });
  });

  it("a gap alone never closes a window", () => {
    const ws = metrics([fail(10, "ds/a", 1), fail(100, "ds/a", 2), fail(400, "ds/a", 3)]);
    expect(ws).toHaveLength(1);
    expect(ws[0]).toMatchObject({ attempts: 3, end: null, closedAfterBootS: null });
  });

  it("a success followed by >= quietS without attempts closes; the next attempt opens a new window", () => {
    // exactly 60 s after the closing attempt counts as quiet
    const ws = metrics([fail(10, "ds/a", 1), ok(20, "ds/b", 9), fail(70, "ds/a", 2), ok(80, "ds/a", 3)]);
    expect(ws.map((w) => [w.openedAfterBootS, w.closedAfterBootS, w.attempts])).toEqual([
      [10, 10, 1],
      [70, 70, 1],
    ]);
    // 59.999 s is not quiet: one window
    const one = metrics([fail(10, "ds/a", 1), ok(20, "ds/b", 9), fail(69.999, "ds/a", 2), ok(80, "ds/a", 3)]);
    expect(one.map((w) => [w.openedAfterBootS, w.closedAfterBootS, w.attempts])).toEqual([[10, 69.999, 2]]);
  });

  it("the data ending before quietS also satisfies the quiet condition", () => {
    const ws = metrics([fail(10, "ds/a", 1), ok(12, "ds/a", 2)]);
    expect(ws[0]).toMatchObject({ closedAfterBootS: 10, closedBy: "sandbox created (ds/a)" });
  });

  it("attempts before T+0 are not counted; failed stops, CNI DEL failures and network-not-ready are never attempts", () => {
    const ws = metrics([
      fail(-5, "ds/a", 1),
      be({ t: 3, kind: "network.not-ready", errorClass: "cni-config-uninitialized", lane: "kubelet" }),
      be({ t: 11, kind: "sandbox.stop.failed", pod: "ds/a", sandboxId: sid(1) }),
      be({ t: 12, kind: "cni.del.failed", lane: "cni-plugin", component: "cni-calico" }),
      be({ t: 13, kind: "cni.add.failed", lane: "cni-plugin", component: "cni-calico" }),
      fail(20, "ds/b", 2),
    ]);
    expect(ws).toHaveLength(1);
    expect(ws[0]).toMatchObject({ attempts: 1, openedAfterBootS: 20, pods: 1 });
  });

  it("milestones right after the end name what closed the window", () => {
    const ws = metrics([
      fail(10, "ds/a", 1),
      be({ t: 22.5, kind: "cni.ready", lane: "cni-agent", component: "cni-calico", message: "Using node name: ip-10-20-30-40.ec2.internal", errorClass: null }),
      ok(24, "ds/a", 2),
    ]);
    expect(ws[0].closedBy).toBe("calico nodename written");
  });

  it("errorClass is the class of most attempts, ties to the earliest; severity follows the thresholds", () => {
    const ws = metrics([
      fail(10, "ds/a", 1, { errorClass: "sig:other" }),
      fail(11, "ds/b", 2, { errorClass: "context-deadline-exceeded" }),
      fail(12, "ds/c", 3, { errorClass: "context-deadline-exceeded" }),
      fail(13, "ds/d", 4, { errorClass: "sig:other" }),
    ]);
    expect(ws[0]).toMatchObject({ errorClass: "sig:other", errorClasses: { "sig:other": 2, "context-deadline-exceeded": 2 } });
    const many = Array.from({ length: 25 }, (_, i) => fail(10 + i, `ds/p${i}`, 100 + i));
    expect(metrics(many)[0].severity).toBe("critical");
    expect(metrics([...many, ok(80, "ds/p0", 999)])[0].severity).toBe("high");
    expect(metrics([...many.slice(0, 6), ok(80, "ds/p0", 999)])[0].severity).toBe("medium");
  });
});

describe("sandbox-failure-window: attempts", () => {
  it("kubelet, containerd and Kubernetes event lines of one failure are one attempt", () => {
    const id = sid(7);
    const pod = "kube-system/ebs-csi-node-x7k2p";
    const lines = [
      fail(10.02, pod, 7), // containerd "RunPodSandbox ... failed, error"
      be({ t: 10.021, component: "kubelet", sandboxId: id }), // "RunPodSandbox from runtime service failed" (id in err, no pod)
      be({ t: 10.021, component: "kubelet", sandboxId: id, pod }), // "Failed to create sandbox for pod"
      be({ t: 10.021, component: "kubelet", sandboxId: id, pod }), // "CreatePodSandbox for pod failed"
      be({ t: 10.022, component: "kubelet", sandboxId: id, pod }), // "Error syncing pod, skipping"
      be({ t: 10, component: "k8s-events", pod, sandboxId: id, k8s: { reason: "FailedCreatePodSandBox", count: 1, firstMs: T0 + 10000, lastMs: T0 + 10000 } }),
      be({ t: 9.9, kind: "sandbox.create.start", pod, errorClass: null }),
      be({ t: 60, kind: "log", errorClass: null, component: "kubelet" }),
    ];
    const attempts = collectAttempts(sorted(lines));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ time: T0 + 10020, pod, sandboxId: id, fromEvent: false });
    const f = run(boot, sorted(lines), defaults)[0];
    expect(f.metrics).toMatchObject({ attempts: 1, pods: 1, openedAfterBootS: 10.02 });
    expect(f.evidence).toEqual(
      lines
        .slice(0, 6)
        .map((l) => l.id)
        .sort((a, b) => a - b),
    );
  });

  it("case 070: the kubelet's two deadline lines (one without pod or sandbox) are one attempt", () => {
    const raw = caseText("070-syslog-kubelet-containerd-deadline.log").split("\n");
    const times = [
      Date.UTC(2024, 1, 7, 5, 45, 40, 738),
      Date.UTC(2024, 1, 7, 5, 49, 40, 738),
      Date.UTC(2024, 1, 7, 5, 49, 40, 739),
      Date.UTC(2024, 1, 7, 5, 49, 52, 35),
    ];
    const events: BootEvent[] = raw
      .map(caseLineToInput)
      .filter((x) => x !== null)
      .map((input, i) => {
        const c = classifyRecord(input);
        return {
          id: i + 1,
          ts: times[i],
          fileId: 1,
          line: i * 2 + 1,
          component: input.component,
          lane: c.lane,
          severity: input.severity,
          kind: c.kind,
          pod: c.pod,
          sandboxId: c.sandboxId,
          errorClass: c.errorClass,
          message: input.message,
          fields: input.fields ?? null,
        };
      });
    expect(events.map((e) => e.kind)).toEqual(["sandbox.create.start", "sandbox.create.failed", "sandbox.create.failed", "sandbox.create.start"]);
    const attempts = collectAttempts(events);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ time: times[1], pod: "default/podX-b181ca13-fc5qq", errorClass: "context-deadline-exceeded" });
    const ws = run({ node: "NodeA", bootKey: "inferred-1", start: times[0], end: times[3] }, events, defaults);
    expect(ws).toHaveLength(1);
    expect(ws[0].metrics).toMatchObject({ attempts: 1, pods: 1, openedAfterBootS: 240, closedAfterBootS: null });
    expect(ws[0].evidence).toEqual([2, 3]);
  });

  it("a line naming neither pod nor sandbox joins an attempt within 1 s with the same error text, or the same cause", () => {
    const err = { err: "rpc error: code = DeadlineExceeded desc = context deadline exceeded" };
    const attempts = collectAttempts(
      sorted([
        be({ t: 10, component: "kubelet", pod: "ds/a", fields: err, errorClass: "context-deadline-exceeded" }),
        be({ t: 10.5, component: "kubelet", fields: err, errorClass: "context-deadline-exceeded" }), // same text: joins
        be({ t: 10.6, component: "kubelet", fields: { err: "other" }, errorClass: "sig:other" }), // different cause: own attempt
        // the runtime's line of the same failure, its text worded otherwise: the same cause joins it
        be({ t: 10.7, component: "containerd", fields: { error: "context deadline exceeded" }, errorClass: "context-deadline-exceeded" }),
        be({ t: 10.8, component: "containerd", fields: { error: "cut" }, errorClass: "truncated" }), // a cut line states no cause: own attempt
        be({ t: 12, component: "kubelet", fields: err, errorClass: "context-deadline-exceeded" }), // > 1 s: own attempt
      ]),
    );
    expect(attempts.map((a) => [a.time - T0, a.lines.length])).toEqual([
      [10000, 3],
      [10600, 1],
      [10800, 1],
      [12000, 1],
    ]);
  });

  it("one writer logs one failure once: the same kubelet headline again within 1 s is the next attempt; four kubelet modules within ms stay one", () => {
    const err = (id: string) => ({
      err: `rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": failed to find plugin "cilium-cni" in path [/opt/cni/bin]`,
    });
    const rr = (t: number) =>
      be({
        t,
        component: "kubelet",
        errorClass: "cni-plugin-not-found",
        message: 'RunPodSandbox from runtime service failed err="rpc error: …"',
        fields: err("…"),
      });
    // three pods after a reboot, only remote_runtime's line of each (grep RunPodSandbox), ids elided
    expect(collectAttempts(sorted([rr(10), rr(10.45), rr(10.9)])).map((a) => [a.time - T0, a.lines.length])).toEqual([
      [10000, 1],
      [10450, 1],
      [10900, 1],
    ]);
    // one failure as the kubelet logs it: remote_runtime (no pod), kuberuntime_sandbox, kuberuntime_manager, pod_workers
    const pod = "kube-system/coredns-787d4945fb-x2x9k";
    const one = (t: number) => [
      rr(t),
      be({
        t: t + 0.0001,
        component: "kubelet",
        pod,
        errorClass: "cni-plugin-not-found",
        message: 'Failed to create sandbox for pod err="…" pod="kube-system/coredns"',
      }),
      be({
        t: t + 0.0002,
        component: "kubelet",
        pod,
        errorClass: "cni-plugin-not-found",
        message: 'CreatePodSandbox for pod failed err="…" pod="kube-system/coredns"',
      }),
      be({
        t: t + 0.0003,
        component: "kubelet",
        pod,
        errorClass: "cni-plugin-not-found",
        message: 'Error syncing pod, skipping err="…" pod="kube-system/coredns"',
      }),
    ];
    expect(collectAttempts(sorted([...one(10), ...one(10.6)])).map((a) => [a.time - T0, a.pod, a.lines.length])).toEqual([
      [10000, pod, 4],
      [10600, pod, 4],
    ]);
    // the same line in two files (the journal and kubelet.log): one line of one attempt
    expect(collectAttempts(sorted([rr(10), { ...rr(10), fileId: 4 }]))).toHaveLength(1);
  });

  it("the lines of one attempt span at most 1 s: lines of one pod each 0.6 s after the last are not one chain", () => {
    const attempts = collectAttempts(
      sorted([be({ t: 10, pod: "ds/a" }), be({ t: 10.6, pod: "ds/a" }), be({ t: 11.2, pod: "ds/a" }), be({ t: 11.8, pod: "ds/a" })]),
    );
    expect(attempts.map((a) => [a.time - T0, a.lines.length])).toEqual([
      [10000, 2],
      [11200, 2],
    ]);
  });

  it("a line naming the pod without its namespace joins the namespaced pod's attempt, and counts as that pod", () => {
    const attempts = collectAttempts(
      sorted([be({ t: 10, pod: "kube-apiserver-node-p" }), be({ t: 10.1, pod: "kube-system/kube-apiserver-node-p" }), be({ t: 10.2, pod: "other" })]),
    );
    expect(attempts.map((a) => [a.time - T0, a.pod, a.lines.length])).toEqual([
      [10000, "kube-system/kube-apiserver-node-p", 2],
      [10200, "other", 1],
    ]);
    expect([...distinctPods(attempts)].sort()).toEqual(["kube-system/kube-apiserver-node-p", "other"]);
  });

  it("pod-only lines of the same pod within 1 s are one attempt, further apart two", () => {
    const attempts = collectAttempts(
      sorted([be({ t: 10, pod: "ds/a" }), be({ t: 10.9, pod: "ds/a", component: "kubelet" }), be({ t: 12.5, pod: "ds/a" }), be({ t: 12.6, pod: "ds/b" })]),
    );
    expect(attempts.map((a) => [a.time - T0, a.pod, a.lines.length])).toEqual([
      [10000, "ds/a", 2],
      [12500, "ds/a", 1],
      [12600, "ds/b", 1],
    ]);
  });

  it("a kubelet line cut inside the pod's name joins that pod's attempt (case 116: three layers of one failure)", () => {
    const cls = 'sig:pod sandbox with name "*" already exists';
    const pod = "kube-system/pharos-proxy-node-a0";
    const attempts = collectAttempts(
      sorted([
        be({ t: 10.0, component: "kubelet", pod, errorClass: cls }), // remote_runtime
        be({ t: 10.0001, component: "kubelet", pod, errorClass: cls }), // kuberuntime_sandbox
        be({ t: 10.0001, component: "kubelet", errorClass: "sig:x", message: 'createPodSandbox for pod "pharos-pro' }), // kuberuntime_manager, cut
        be({ t: 10.2, component: "kubelet", errorClass: "sig:y", message: 'createPodSandbox for pod "other-po' }), // another pod's name: own attempt
        be({ t: 10.3, component: "kubelet", errorClass: "sig:z", message: 'createPodSandbox for pod "pha' }), // 3 letters tell no pod: own attempt
      ]),
    );
    expect(attempts.map((a) => [a.time - T0, a.lines.length])).toEqual([
      [10000, 3],
      [10200, 1],
      [10300, 1],
    ]);
  });

  it("a reply naming neither pod nor sandbox answers the request its component logged before it (aws-vpc-cni ipamd)", () => {
    const ipamd = { component: "aws-vpc-cni", lane: "cni-agent" as Lane, fileId: 5, errorClass: "ipam-exhausted", kind: "cni.add.failed" as EventKind };
    const req = (t: number, pod: string, n: number) => be({ ...ipamd, t, pod, sandboxId: sid(n), kind: "sandbox.create.start", errorClass: null });
    const reply = (t: number) => be({ ...ipamd, t, message: "Send AddNetworkReply: IPv4Addr , DeviceNumber: 0, err: no available IP addresses" });
    // two pods' requests, then both replies within the same second: two attempts, one per pod
    const events = sorted([req(10, "ds/a", 1), req(10.1, "ds/b", 2), reply(10.2), reply(10.3), reply(200)]);
    const attempts = collectAttempts(events);
    expect(attempts.map((a) => [a.time - T0, a.pod])).toEqual([
      [10200, "ds/b"],
      [10300, "ds/a"],
      [200000, null],
    ]);
    expect(attempts[0].lines[0].id).toBe(events[2].id);
    // without the requests, each reply is still one call's answer: one writer logs one line per failure
    expect(collectAttempts(sorted([reply(10.2), reply(10.3)]))).toHaveLength(2);
  });

  it("a Kubernetes event's count adds attempts only where no node log covers (case 044: x158 over 6 min, events only)", () => {
    const first = 60;
    const last = 360;
    const evLine = () =>
      be({
        t: last,
        component: "k8s-events",
        pod: "kube-system/kube-dns-86f4d74b45-kgjbk",
        k8s: { reason: "FailedCreatePodSandBox", count: 158, firstMs: T0 + first * 1000, lastMs: T0 + last * 1000 },
      });
    const onlyEvents = metrics([evLine()]);
    expect(onlyEvents[0]).toMatchObject({ attempts: 158, pods: 1, attemptsFromEvents: 158, openedAfterBootS: 60 });
    // a kubelet log covering the whole span (with its own 3 failures): the event adds nothing
    const covered = metrics([
      be({ t: 0, kind: "log", component: "kubelet", errorClass: null }),
      fail(61, "kube-system/kube-dns-86f4d74b45-kgjbk", 1, { component: "kubelet", lane: "kubelet" }),
      fail(200, "kube-system/kube-dns-86f4d74b45-kgjbk", 2, { component: "kubelet", lane: "kubelet" }),
      fail(359, "kube-system/kube-dns-86f4d74b45-kgjbk", 3, { component: "kubelet", lane: "kubelet" }),
      evLine(),
      be({ t: 400, kind: "log", component: "kubelet", errorClass: null }),
    ]);
    expect(covered[0]).toMatchObject({ attempts: 3, attemptsFromEvents: 0 });
    // a kubelet log that starts at +240 s: occurrences before it count from the event
    const partly = metrics([
      be({ t: 240, kind: "log", component: "kubelet", errorClass: null }),
      fail(359, "kube-system/kube-dns-86f4d74b45-kgjbk", 3, { component: "kubelet", lane: "kubelet" }),
      evLine(),
    ]);
    const uncovered = Array.from({ length: 158 }, (_, i) => Math.floor(first * 1000 + ((last - first) * 1000 * i) / 157)).filter((t) => t < 238000).length;
    expect(partly[0]).toMatchObject({ attempts: uncovered + 1, attemptsFromEvents: uncovered });
  });

  it("a node log covers an event's occurrences only for a pod it reports failures of", () => {
    const other = "kube-system/coredns-787d4945fb-x2x9k";
    const ev = be({
      t: 200,
      component: "k8s-events",
      pod: other,
      k8s: { reason: "FailedCreatePodSandBox", count: 3, firstMs: T0 + 100000, lastMs: T0 + 200000 },
    });
    const m = metrics([
      be({ t: 0, kind: "log", component: "kubelet", errorClass: null }),
      fail(150, "kube-system/kube-dns-86f4d74b45-kgjbk", 1, { component: "kubelet", lane: "kubelet" }),
      ev,
      be({ t: 400, kind: "log", component: "kubelet", errorClass: null }),
    ]);
    // the kubelet excerpt spans the event's occurrences but never names coredns: its 3 occurrences count
    expect(m[0]).toMatchObject({ attempts: 4, pods: 2, attemptsFromEvents: 3 });
  });
});

describe("detector registry and runner", () => {
  it("registers sandbox-failure-window first, with documented defaults", () => {
    expect(DETECTORS.map((d) => d.name)).toEqual([
      "sandbox-failure-window",
      "cni-bootstrap-deadlock",
      "retry-storm",
      "conflist-rewrite-loop",
      "runtime-degradation",
      "image-pull-storm",
    ]);
    expect(sandboxFailureWindow.defaults.quietS).toBe(60);
    expect(sandboxFailureWindow.describe(sandboxFailureWindow.defaults)).toContain("60 s");
    expect(() => assertUniqueNames([{ name: "a" }, { name: "a" }])).toThrow(/duplicate/);
  });

  it("isolates a failing detector and rejects invalid findings; applies parameter overrides", () => {
    const boom: Detector = {
      name: "boom",
      title: "Boom",
      defaults: {},
      describe: () => "",
      run: () => {
        throw new Error("kaput");
      },
    };
    const bad: Detector = { name: "bad", title: "Bad", defaults: {}, describe: () => "", run: () => [{ detector: "bad", severity: "urgent" } as never] };
    const events = [fail(10, "ds/a", 1), ok(20, "ds/b", 2), fail(40, "ds/a", 3), ok(50, "ds/a", 4)];
    const out = runDetectors(boot, [...events].reverse(), { detectors: [boom, bad, ...DETECTORS] });
    expect(out.errors.map((e) => e.detector)).toEqual(["boom", "bad"]);
    expect(out.errors[0].message).toBe("kaput");
    expect(out.findings).toHaveLength(1);
    expect(out.findings[0].metrics).toMatchObject({ attempts: 2, closedAfterBootS: 40 });
    const split = runDetectors(boot, events, { params: { "sandbox-failure-window": { quietS: 15 } } });
    expect(split.findings.map((f) => f.metrics.closedAfterBootS)).toEqual([10, 40]);
  });

  it("counts one attempt of one pod in the singular", () => {
    const f = run(boot, sorted([fail(10, "ds/a", 1), ok(30, "ds/a", 2)]), defaults)[0];
    expect(f.title).toBe("Sandbox failure window T+10.000 s → T+10.000 s: 1 attempt, 1 pod");
    expect(f.explanation).toContain("1 failed sandbox attempt from 1 pod between");
  });

  it("explains in one paragraph with the numbers", () => {
    const f = run(boot, sorted([fail(10, "ds/a", 1), fail(25, "ds/b", 2), ok(30, "ds/a", 3)]), defaults)[0];
    expect(f.title).toBe("Sandbox failure window T+10.000 s → T+25.000 s: 2 attempts, 2 pods");
    expect(f.explanation).toContain("2 failed sandbox attempts from 2 pods between T+10.000 s and T+25.000 s");
    expect(f.explanation).toContain("calico-nodename-missing");
    expect(f.explanation).not.toContain("\n");
  });
});
