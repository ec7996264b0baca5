import { describe, expect, it } from "vitest";
import { defaults, run, signalsOf } from "./runtime-degradation";
import { BOOT, T0, eventFactory, sid, sortEvents } from "./test-support";
import type { BootEvent } from "./types";
import { classifyRecord } from "../normalise/classify";

const e0 = eventFactory();
const storm = (e = e0): BootEvent[] =>
  Array.from({ length: 20 }, (_, i) => e({ t: 10 + i * 5, pod: `ns/p${i % 5}`, sandboxId: sid(i + 1), errorClass: "calico-nodename-missing" }));

describe("runtime-degradation", () => {
  it("classify gives the runtime's health lines the kinds the detector reads", () => {
    const k = (component: string, message: string, severity: number, fields?: Record<string, string>) =>
      classifyRecord({ component, message, severity, fields }).kind;
    expect(k("containerd", "ttrpc: received message on inactive stream", 3, { stream: "31" })).toBe("runtime.unhealthy");
    expect(k("containerd", "Failed to handle event stream", 3, { error: "rpc error: code = Unavailable desc = error reading from server: EOF" })).toBe(
      "runtime.unhealthy",
    );
    expect(
      k("containerd", "failed to handle container TaskExit event &TaskExit{ContainerID:x,ID:x,Pid:1,ExitStatus:137,}", 3, {
        error: "failed to stop container: context deadline exceeded: unknown",
      }),
    ).toBe("runtime.unhealthy");
    expect(k("kubelet", 'Skipping pod synchronization err="PLEG is not healthy: pleg was last seen active 3m10.2s ago; threshold is 3m0s"', 1)).toBe(
      "runtime.unhealthy",
    );
    expect(
      k("kubelet", 'ListPodSandbox with filter from runtime service failed err="rpc error: code = DeadlineExceeded desc = context deadline exceeded"', 3),
    ).toBe("runtime.unhealthy");
    expect(k("containerd", 'StopPodSandbox for "ab" failed', 3, { error: "rpc error: code = DeadlineExceeded desc = context deadline exceeded" })).toBe(
      "sandbox.stop.failed",
    );
  });

  it("lists each signal with its count and first/last time; stops count once per sandbox", () => {
    const e = eventFactory();
    const events = sortEvents([
      ...storm(e),
      e({ t: 60, kind: "sandbox.stop.failed", sandboxId: sid(3), errorClass: "context-deadline-exceeded", message: `StopPodSandbox for "${sid(3)}" failed` }),
      e({
        t: 60.02,
        kind: "sandbox.stop.failed",
        component: "kubelet",
        sandboxId: sid(3),
        errorClass: "context-deadline-exceeded",
        message: "StopPodSandbox from runtime service failed",
      }),
      e({ t: 70, kind: "sandbox.stop.failed", sandboxId: sid(4), errorClass: "context-deadline-exceeded", message: `StopPodSandbox for "${sid(4)}" failed` }),
      e({
        t: 61,
        kind: "runtime.unhealthy",
        message: "failed to handle container TaskExit event &TaskExit{}",
        errorClass: "sig:failed to stop container: context deadline exceeded: unknown",
      }),
      e({ t: 62, kind: "runtime.unhealthy", message: "ttrpc: received message on inactive stream" }),
      e({
        t: 75,
        kind: "runtime.unhealthy",
        component: "kubelet",
        message: 'Skipping pod synchronization err="PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s"',
        severity: 1,
      }),
      e({ t: 76, kind: "network.not-ready", component: "kubelet", message: "Container runtime network not ready" }),
      // before the storm: a normal boot's network-not-ready, not counted
      e({ t: 5, kind: "network.not-ready", component: "kubelet", message: "Container runtime network not ready" }),
    ]);
    const [f, ...rest] = run(BOOT, events, defaults);
    expect(rest).toEqual([]);
    const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
    expect(f.metrics.signals).toEqual([
      { signal: "sandbox-stop-timeout", count: 2, first: iso(60), last: iso(70), firstAfterBootS: 60, lastAfterBootS: 70 },
      { signal: "task-exit-event", count: 1, first: iso(61), last: iso(61), firstAfterBootS: 61, lastAfterBootS: 61 },
      { signal: "ttrpc", count: 1, first: iso(62), last: iso(62), firstAfterBootS: 62, lastAfterBootS: 62 },
      { signal: "pleg-unhealthy", count: 1, first: iso(75), last: iso(75), firstAfterBootS: 75, lastAfterBootS: 75 },
      { signal: "network-not-ready", count: 1, first: iso(76), last: iso(76), firstAfterBootS: 76, lastAfterBootS: 76 },
    ]);
    expect(f.metrics).toMatchObject({ healthSignals: 5, stormStartAfterBootS: 10, stormAttempts: 20 });
    expect(f.severity).toBe("critical");
    expect(f.start).toBe(T0 + 60_000);
    expect(f.end).toBeNull(); // no sandbox succeeded afterwards
    expect(f.explanation).toContain("2 timed-out sandbox stops (T+60.000 s to T+70.000 s)");
    expect(f.explanation).toContain("1 PLEG not healthy report (T+75.000 s to T+75.000 s)");
  });

  it("no storm, or network-not-ready reports alone, or a single timed-out stop: no finding", () => {
    const e = eventFactory();
    const health = [
      e({ t: 60, kind: "runtime.unhealthy", message: "ttrpc: received message on inactive stream" }),
      e({ t: 61, kind: "runtime.unhealthy", message: "ttrpc: received message on inactive stream" }),
      e({ t: 62, kind: "runtime.unhealthy", message: "ttrpc: received message on inactive stream" }),
    ];
    expect(run(BOOT, sortEvents(health), defaults)).toEqual([]);
    const nr = Array.from({ length: 10 }, (_, i) =>
      e({ t: 20 + i * 5, kind: "network.not-ready", component: "kubelet", message: "Container runtime network not ready" }),
    );
    expect(run(BOOT, sortEvents([...storm(e), ...nr]), defaults)).toEqual([]);
    const one = e({ t: 60, kind: "sandbox.stop.failed", sandboxId: sid(3), errorClass: "context-deadline-exceeded", message: "StopPodSandbox failed" });
    expect(run(BOOT, sortEvents([...storm(e), one]), defaults)).toEqual([]);
  });

  it("signals long after a closed storm are not counted (afterStormS)", () => {
    const e = eventFactory();
    const closed = [...storm(e), e({ t: 110, kind: "sandbox.created", pod: "ns/p0", severity: 1 })];
    const late = [800, 801, 802].map((t) => e({ t, kind: "runtime.unhealthy", message: "ttrpc: received message on inactive stream" }));
    expect(run(BOOT, sortEvents([...closed, ...late]), defaults)).toEqual([]);
    const [f] = run(BOOT, sortEvents([...closed, ...late]), { ...defaults, afterStormS: 900 });
    expect(f.metrics.healthSignals).toBe(3);
  });

  it("a runtime restart and runtime-down reports during the storm are critical", () => {
    const e = eventFactory();
    const events = sortEvents([
      ...storm(e),
      e({ t: 50, kind: "runtime.started", message: "starting containerd", severity: 1 }),
      e({
        t: 52,
        kind: "runtime.unhealthy",
        component: "kubelet",
        message: 'Container runtime not ready runtimeReady="RuntimeReady=false reason:ContainerdNotReady"',
      }),
      e({ t: 58, kind: "runtime.unhealthy", component: "kubelet", message: 'Node became not ready condition={"message":"container runtime is down"}' }),
    ]);
    const [f] = run(BOOT, events, defaults);
    expect((f.metrics.signals as Array<{ signal: string; count: number }>).map((x) => [x.signal, x.count])).toEqual([
      ["runtime-restart", 1],
      ["runtime-down", 2],
    ]);
    expect(f.severity).toBe("critical");
  });

  it("a Calico DEL failure is a failed stop but no timeout", () => {
    const e = eventFactory();
    expect(
      signalsOf(e({ t: 1, kind: "sandbox.stop.failed", errorClass: "calico-nodename-missing", message: 'Failed to destroy network for sandbox "x"' })),
    ).toEqual([]);
  });
});
