/**
 * The vocabulary tables as data: components (lib/model/components.ts) and event kinds
 * (lib/model/event-kinds.ts) are well formed, and the code that reads them gives what they say.
 */
import { describe, expect, it } from "vitest";
import { laneOf } from "../normalise/classify";
import { componentFor } from "../parse/helpers/component";
import { klogComponentFromPath, KLOG_WRITERS } from "../parse/klog";
import { COMPONENTS, componentFromPath, componentSpec, FILE_KIND_COMPONENTS } from "./components";
import { detectorFields } from "./boot-event";
import { EVENT_KIND_NAMES, EVENT_KINDS, FAILURE_KINDS, KINDS_WITH_FIELDS, MILESTONES, reachesDetectors, WINDOW_CLOSING_KINDS } from "./event-kinds";
import { LANES } from "./lanes";
import { ZRuleMatch } from "../detect/rules/schema";

describe("component table", () => {
  it("every name and alias is lower case and declared once", () => {
    const seen = new Map<string, string>();
    for (const c of COMPONENTS) {
      for (const n of [c.name, ...(c.aliases ?? [])]) {
        expect(n, n).toBe(n.toLowerCase());
        expect(seen.get(n), `${n} is declared by ${seen.get(n)} and ${c.name}`).toBeUndefined();
        seen.set(n, c.name);
      }
    }
  });

  it("every lane is a timeline lane and every path hint names its own program", () => {
    for (const c of COMPONENTS) {
      expect(LANES, c.name).toContain(c.lane);
      if (c.path)
        expect(
          [c.name, ...(c.aliases ?? [])].some((n) => c.path!.test(`/var/log/pods/x/${n}/0.log`)),
          c.name,
        ).toBe(true);
    }
  });

  it("the classifier's lane of each name, alias and prefix is the table's", () => {
    for (const c of COMPONENTS) {
      for (const n of [c.name, ...(c.aliases ?? []), ...(c.prefixes ?? []).map((p) => `${p}x`)]) {
        expect(laneOf({ component: n }), n).toBe(c.lane);
        if (c.lane !== "other") expect(laneOf({ component: "unnamed-thing", ident: n }), `ident ${n}`).toBe(c.lane);
      }
    }
    expect(laneOf({ component: "Kubenswrapper" })).toBe("kubelet");
    expect(laneOf({ component: "systemd-networkd" })).toBe("kernel");
    expect(laneOf({ component: "cni-bridge" })).toBe("cni-plugin");
    expect(laneOf({ component: "something" })).toBe("other");
  });

  it("Calico's agent texts move a calico line to the agent lane", () => {
    expect(laneOf({ component: "cni-calico" }, "Calico CNI IPAM request count IPv4=1")).toBe("cni-plugin");
    expect(laneOf({ component: "calico-felix" }, "Using node name: worker-2")).toBe("cni-agent");
    expect(laneOf({ component: "calico-node" }, "anything")).toBe("cni-agent");
  });

  it("a path names the first of a format's writers whose hint it matches", () => {
    expect(componentFromPath("/var/log/pods/kube-system_kube-flannel-ds-x_1/kube-flannel/0.log", KLOG_WRITERS)).toBe("flannel");
    expect(componentFromPath("logs/calico-node.log", ["rke2", "cni-calico"])).toBe("cni-calico");
    expect(componentFromPath("/var/lib/rancher/rke2/agent/containerd/containerd.log", ["rke2", "containerd"])).toBe("rke2");
    expect(componentFromPath("/var/log/aws-routed-eni/ipamd.log", ["aws-vpc-cni"])).toBe("aws-vpc-cni");
    expect(componentFromPath("node1/kube-proxy.log", KLOG_WRITERS)).toBe("kube-proxy");
    expect(componentFromPath("node1/kubeproxy.log", KLOG_WRITERS)).toBe("kube-proxy");
    expect(componentFromPath("/var/log/pods/kube-system_kindnet-x7k2p_5c1f0d2e/kindnet-cni/0.log", KLOG_WRITERS)).toBe("kindnet");
    expect(componentFromPath("node1/messages", KLOG_WRITERS)).toBeNull();
    expect(klogComponentFromPath(undefined)).toBe("kubelet");
    expect(() => componentFromPath("x", ["weave"])).toThrow(/no path hint/);
  });

  it("a line written under a name or an alias (a journal identifier, a CRI container) is stored as the entry's name", () => {
    // the identifiers whose lines are another entry's, and a supervisor whose own lines keep its name
    const other: Record<string, string> = { "calico-node": "cni-calico", "cilium-cni": "cilium", kubelite: "kubelite" };
    for (const c of COMPONENTS) for (const n of [c.name, ...(c.aliases ?? [])]) expect(componentFor(n, null), n).toBe(other[n] ?? c.name);
    expect(componentFor("kindnet-cni", null)).toBe("kindnet");
    expect(componentFor("Kube-Flannel", null)).toBe("flannel");
    expect(componentFor("install-cni", null)).toBe("install-cni");
    expect(componentFor("cni-bridge", null)).toBe("cni-bridge");
  });

  it("the names of the table are the ones looked up", () => {
    expect(componentSpec("CRI-O")?.name).toBe("crio");
    expect(componentSpec("flanneld")?.name).toBe("flannel");
    expect(componentSpec("")).toBeNull();
    expect(componentSpec("kindnetd")?.lane).toBe("cni-agent");
    expect(FILE_KIND_COMPONENTS.has("kube-router")).toBe(true);
    expect(FILE_KIND_COMPONENTS.has("crictl")).toBe(false);
  });
});

describe("event-kind table", () => {
  it("every kind is a dotted lower-case name with a meaning", () => {
    for (const k of EVENT_KIND_NAMES) {
      expect(k).toMatch(/^[a-z][a-z0-9]*(?:[.-][a-z]+)*$/);
      expect(EVENT_KINDS[k].about.length, k).toBeGreaterThan(5);
    }
  });

  it("failures, milestones and window ends follow from the table", () => {
    expect(FAILURE_KINDS).toEqual([
      "network.not-ready",
      "sandbox.create.failed",
      "sandbox.stop.failed",
      "cni.add.failed",
      "cni.del.failed",
      "runtime.unhealthy",
      "image.pull.failed",
    ]);
    expect(MILESTONES.map((m) => m.label)).toEqual(["kernel start", "runtime up", "kubelet up", "CNI config written", "CNI ready", "first sandbox"]);
    // a failure window never ends at the kernel's banner: the node rebooted, the window did not close
    expect(WINDOW_CLOSING_KINDS.has("kernel.start")).toBe(false);
    expect([...WINDOW_CLOSING_KINDS].every((k) => MILESTONES.some((m) => m.kind === k))).toBe(true);
  });

  it("the detectors receive every kind but `log`, and no kind the table lacks; the fields of the config writes only", () => {
    expect(EVENT_KIND_NAMES.filter((k) => !reachesDetectors(k))).toEqual(["log"]);
    expect([...KINDS_WITH_FIELDS]).toEqual(["cni.config.written", "cni.config.removed"]);
    expect(detectorFields("cni.config.written", { destination: "/etc/cni/net.d/05-cilium.conflist", n: 1 })).toEqual({
      destination: "/etc/cni/net.d/05-cilium.conflist",
    });
    expect(detectorFields("image.pull.failed", { image: "x" })).toBeNull();
    expect(reachesDetectors("image.pull.slow")).toBe(false);
  });

  it("a rule file may name only the table's kinds", () => {
    expect(ZRuleMatch.safeParse({ kinds: ["kubelet.started"] }).success).toBe(true);
    expect(ZRuleMatch.safeParse({ kinds: ["kubelet.start"] }).success).toBe(false);
  });
});
