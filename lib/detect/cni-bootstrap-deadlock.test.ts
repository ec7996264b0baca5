import { describe, expect, it } from "vitest";
import { defaults, missingPathOf, run, writerPodOf } from "./cni-bootstrap-deadlock";
import { BOOT, T0, eventFactory, sid, sortEvents } from "./test-support";
import type { BootEvent } from "./types";

const KUBECONFIG = "/var/run/istio-cni/istio-cni-kubeconfig";
const ERR = `rpc error: code = Unknown desc = failed to setup network for sandbox \\"x\\": plugin type=\\"istio-cni\\" name=\\"istio-cni\\" failed (add): error loading kubeconfig: stat ${KUBECONFIG}: no such file or directory`;
const AGENT = "istio-system/istio-cni-node-7xk2p";

/** kubelet's "Failed to create sandbox for pod" line for each (pod, t), each its own sandbox. */
function failures(spec: Array<[string, number]>, e = eventFactory()): BootEvent[] {
  return spec.map(([pod, t], i) =>
    e({
      t,
      pod,
      component: "kubelet",
      sandboxId: sid(i + 1),
      errorClass: "istio-cni-kubeconfig-missing",
      message: `Failed to create sandbox for pod err="${ERR}" pod="${pod}"`,
    }),
  );
}
const every15 = (pod: string, from: number, n: number) => Array.from({ length: n }, (_, i) => [pod, from + 15 * i] as [string, number]);

describe("cni-bootstrap-deadlock", () => {
  it("reads the missing path and knows who writes it", () => {
    expect(missingPathOf(ERR)).toBe(KUBECONFIG);
    expect(missingPathOf("stat /var/lib/calico/nodename: no such file or directory: check that")).toBe("/var/lib/calico/nodename");
    expect(writerPodOf(KUBECONFIG, ["default/web-1", AGENT])).toEqual({ pod: AGENT, agent: "istio-cni" });
    expect(writerPodOf("/var/run/foo-cni/token", ["kube-system/foo-cni-node-abcde"])).toEqual({ pod: "kube-system/foo-cni-node-abcde", agent: "foo-cni" });
  });

  it("the agent pod fails like every other pod and nothing changes: a deadlock, open, with the writer and blocked pods", () => {
    const events = sortEvents(
      failures([...every15(AGENT, 11.4, 10), ...every15("kube-system/coredns-787cb67946-vtnhn", 8.5, 10), ...every15("logging/fluent-bit-z9vb5", 7.9, 10)]),
    );
    const [f, ...rest] = run(BOOT, events, defaults);
    expect(rest).toEqual([]);
    expect(f.metrics).toMatchObject({ missingPath: KUBECONFIG, writerPod: AGENT, blockedPods: 3, attempts: 30, writerAttempts: 10, sinceS: 7.9 });
    expect(f.start).toBe(T0 + 7_900);
    expect(f.end).toBeNull();
    expect(f.severity).toBe("critical");
    expect(f.explanation).toContain(KUBECONFIG);
    expect(f.explanation).toContain(AGENT);
    expect(f.explanation).toContain("30 failed sandbox attempts from 3 pods since T+7.900 s");
    expect(f.explanation).toContain("a cycle, not a slow start");
  });

  it("a slow start that ends in success is no deadlock: the agent got a sandbox, or the file was written", () => {
    const e = eventFactory();
    const base = failures([...every15(AGENT, 11.4, 2), ...every15("kube-system/coredns-787cb67946-vtnhn", 8.5, 3)], e);
    const agentOk = e({ t: 42, pod: AGENT, kind: "sandbox.created", severity: 1 });
    expect(run(BOOT, sortEvents([...base, agentOk]), defaults)).toEqual([]);
    const written = e({ t: 44, component: "istio-cni", kind: "cni.ready", message: `wrote kubeconfig file ${KUBECONFIG} with: `, severity: 1 });
    expect(run(BOOT, sortEvents([...base, written]), defaults)).toEqual([]);
  });

  it("no deadlock when the writer is not among the failing pods (calico-node runs on the host network) or failed once", () => {
    const e = eventFactory();
    const calico = every15("kube-system/ds-a", 10, 4).map(([pod, t], i) =>
      e({
        t,
        pod,
        component: "kubelet",
        sandboxId: sid(100 + i),
        errorClass: "calico-nodename-missing",
        message: `err="stat /var/lib/calico/nodename: no such file or directory"`,
      }),
    );
    expect(run(BOOT, sortEvents(calico), defaults)).toEqual([]);
    expect(run(BOOT, sortEvents(failures([[AGENT, 11], ...every15("default/web-1", 9, 5)])), defaults)).toEqual([]);
  });
});
