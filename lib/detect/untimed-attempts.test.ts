import { describe, expect, it } from "vitest";
import { eventFactory, sid } from "./test-support";
import { untimedAttempts } from "./untimed-attempts";

describe("untimedAttempts", () => {
  it("an event message quoted alone is one attempt per occurrence; timed lines are left to the windows", () => {
    const ev = eventFactory();
    const quoted = {
      ...ev({ t: null, lane: "events", component: "k8s-events", errorClass: "istio-cni-kubeconfig-missing" }),
      k8s: { reason: "FailedCreatePodSandBox", count: 3, firstMs: null, lastMs: null },
    };
    const timed = ev({ t: 5, component: "kubelet", sandboxId: sid(9), errorClass: "istio-cni-kubeconfig-missing" });
    expect(untimedAttempts([quoted, timed])).toEqual({ attempts: 3, errorClass: "istio-cni-kubeconfig-missing", evidence: [quoted.id] });
  });

  it("node lines: one per sandbox id; lines without an id one under the other with one class are one attempt", () => {
    const ev = eventFactory();
    const lines = [
      ev({ t: null, component: "kubelet", sandboxId: sid(1), errorClass: "calico-nodename-missing" }),
      ev({ t: null, component: "containerd", sandboxId: sid(1), errorClass: "calico-nodename-missing" }),
      ev({ t: null, component: "kubelet", fileId: 1, errorClass: "cni-connection-refused" }),
      ev({ t: null, component: "kubelet", fileId: 1, errorClass: "cni-connection-refused" }),
      ev({ t: null, component: "kubelet", fileId: 1, errorClass: "calico-nodename-missing" }),
      ev({ t: null, kind: "network.not-ready", component: "kubelet" }),
    ];
    const got = untimedAttempts(lines);
    expect(got.attempts).toBe(3);
    expect(got.errorClass).toBe("calico-nodename-missing");
    expect(got.evidence).toEqual([1, 2, 3, 4, 5]);
  });

  it("a line without a time that names a timed attempt's sandbox, or sits right under its line with its class, is that attempt", () => {
    const ev = eventFactory();
    const klog = ev({ t: 1, component: "kubelet", fileId: 1, sandboxId: sid(4), errorClass: "sig:x" });
    const fata = ev({ t: null, component: "crictl", lane: "kubelet", fileId: 1, sandboxId: sid(4), errorClass: "sig:y" });
    const under = ev({ t: 2, component: "kubelet", fileId: 2, errorClass: "sig:z" });
    const next = ev({ t: null, component: "kubelet", fileId: 2, errorClass: "sig:z" });
    expect(untimedAttempts([klog, fata, under, next]).attempts).toBe(0);
  });

  it("no failure lines without a time: none", () => {
    const ev = eventFactory();
    expect(untimedAttempts([ev({ t: 1 }), ev({ t: null, kind: "sandbox.created" })])).toEqual({ attempts: 0, errorClass: null, evidence: [] });
  });
});
