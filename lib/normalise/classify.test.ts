import { describe, expect, it } from "vitest";
import { caseLineToInput } from "./case-lines";
import { classifyRecord, inheritErrorClasses, laneOf, recordCniOp } from "./classify";
import { cniOpOf, hasHex64 } from "./record-ids";
import type { K8sEventInfo } from "../parse/types";
import { caseText } from "../../tests/cases/cases";
import { parseFile } from "../parse/parse-file";

const caseLines = (file: string) =>
  caseText(file)
    .split("\n")
    .map(caseLineToInput)
    .filter((x) => x !== null);

const ev = (reason: string, extra: Partial<K8sEventInfo> = {}): K8sEventInfo => ({
  reason,
  type: "Warning",
  count: 1,
  namespace: null,
  objectKind: null,
  objectName: null,
  node: null,
  firstMs: null,
  lastMs: null,
  ...extra,
});

describe("classifyRecord on real case lines", () => {
  it("001: three kubelet lines are failed stops (CNI DEL), not creations, nested quoting unescaped", () => {
    const lines = caseLines("001-calico-nodename-stopsandbox-journald.log");
    expect(lines).toHaveLength(3);
    const cs = lines.map(classifyRecord);
    for (const c of cs) {
      expect(c.kind).toBe("sandbox.stop.failed");
      expect(c.lane).toBe("kubelet");
      expect(c.sandboxId).toBe("b8dd4f5155b9c51c7732863cc74aa2621051bb7ce31231dfe939a33eab6c77f7");
    }
    expect(cs.map((c) => c.errorClass)).toEqual(["calico-nodename-missing", "sig:failed to stop sandbox", "calico-nodename-missing"]);
    expect(lines.map(recordCniOp)).toEqual(["DEL", null, "DEL"]);
    // the middle line names only the sandbox: it takes its neighbours' class (times .100579/.100653/.100701)
    const times = [1741616613100, 1741616613100, 1741616613100];
    expect(inheritErrorClasses(cs.map((c, i) => ({ ...c, ts: times[i] })))).toEqual(Array(3).fill("calico-nodename-missing"));
  });

  it("009: network not ready reports, class cni-config-uninitialized", () => {
    const lines = caseLines("009-kubelet-cni-not-initialized-5s-journal-header.log");
    expect(lines).toHaveLength(4);
    for (const l of lines) {
      const c = classifyRecord(l);
      expect(c).toMatchObject({ kind: "network.not-ready", lane: "kubelet", errorClass: "cni-config-uninitialized", pod: null, sandboxId: null });
    }
  });

  it("056: containerd start and failure of one sandbox (cilium-cni ADD), systemd mount lines", () => {
    const [start, mount1, mount2, failed] = caseLines("056-kind-journald-containerd-kubelet-cilium-cni-retry.log");
    expect(classifyRecord(start)).toMatchObject({ kind: "sandbox.create.start", lane: "runtime", pod: "default/server" });
    const f = classifyRecord(failed);
    expect(f).toMatchObject({
      kind: "sandbox.create.failed",
      lane: "runtime",
      pod: "default/server",
      sandboxId: "fdd742d3fe55cbb4154a0702a05c1ac207e8805417381ed445ac1b781d32d2bb",
    });
    expect(recordCniOp(failed)).toBe("ADD");
    expect(f.errorClass).toMatch(/^sig:netplugin failed: /);
    expect(f.errorClass).not.toMatch(/\d/);
    expect(classifyRecord(mount1)).toMatchObject({ kind: "log", lane: "kernel" });
    expect(classifyRecord(mount2)).toMatchObject({
      kind: "log",
      lane: "kernel",
      sandboxId: "fdd742d3fe55cbb4154a0702a05c1ac207e8805417381ed445ac1b781d32d2bb",
    });
  });

  it("070: kubelet deadline lines are attempt lines, one naming the pod", () => {
    const [start, runFailed, createFailed, retry] = caseLines("070-syslog-kubelet-containerd-deadline.log");
    expect(classifyRecord(start)).toMatchObject({ kind: "sandbox.create.start", lane: "runtime", pod: "default/podX-b181ca13-fc5qq" });
    expect(classifyRecord(runFailed)).toMatchObject({ kind: "sandbox.create.failed", pod: null, sandboxId: null, errorClass: "context-deadline-exceeded" });
    expect(classifyRecord(createFailed)).toMatchObject({
      kind: "sandbox.create.failed",
      pod: "default/podX-b181ca13-fc5qq",
      errorClass: "context-deadline-exceeded",
    });
    expect(classifyRecord(retry).kind).toBe("sandbox.create.start");
  });

  it("003: cilium agent writes the conflist once among regenerations", () => {
    const cs = caseLines("003-cilium-agent-logfmt-regenerate-loop.log").map(classifyRecord);
    expect(cs).toHaveLength(13);
    expect(cs.filter((c) => c.kind === "cni.config.written")).toHaveLength(1);
    expect(cs[11].kind).toBe("cni.config.written");
    expect(cs.every((c) => c.lane === "cni-agent")).toBe(true);
  });

  it("002 and 006: istio-cni agent config writes", () => {
    const j = caseLines("002-istio-cni-json-rewrite-loop.log").map(classifyRecord);
    expect(j.map((c) => c.kind)).toEqual(["log", "cni.config.written", "log", "log", "log", "log", "log", "log"]);
    const t = caseLines("006-cni-agent-tabs-rewrite-multiline-kubeconfig.log").map(classifyRecord);
    expect(t[0].kind).toBe("cni.config.written"); // "(re)writing CNI config file at ..."
    expect(t[1].kind).toBe("cni.config.written"); // "created CNI config ..."
    expect(t[6].kind).toBe("cni.ready"); // "wrote kubeconfig file ..."
    expect(t[0].lane).toBe("cni-agent");
  });
});

describe("classifyRecord on pod and sandbox identification", () => {
  const podName = "calico-kube-controllers-658d97c59c-792df";
  it("013: describe FailedCreatePodSandBox with both ADD and DEL failures is a creation failure (ADD first)", () => {
    const msg =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = [failed to set up sandbox container "50163aa93e9293690431ed1511180ca436759f808f53bf3203bdc3e027f9178a" network for pod "kafka-0": networkPlugin cni failed to set up pod "kafka-0_default" network: netplugin failed with no error message, failed to clean up sandbox container "50163aa93e9293690431ed1511180ca436759f808f53bf3203bdc3e027f9178a" network for pod "kafka-0": networkPlugin cni failed to teardown pod "kafka-0_default" network: netplugin failed with no error message]';
    const rec = { component: "k8s-events", message: msg, severity: 2, k8sEvent: ev("FailedCreatePodSandBox", { node: "node-p-000000" }) };
    expect(classifyRecord(rec)).toMatchObject({
      kind: "sandbox.create.failed",
      lane: "events",
      pod: "default/kafka-0",
      sandboxId: "50163aa93e9293690431ed1511180ca436759f808f53bf3203bdc3e027f9178a",
      errorClass: "netplugin-no-error-message",
    });
    expect(recordCniOp(rec)).toBe("ADD");
    const changed = classifyRecord({
      component: "k8s-events",
      message: "Pod sandbox changed, it will be killed and re-created.",
      severity: 1,
      k8sEvent: ev("SandboxChanged", { type: "Normal", count: 10, namespace: "default", objectKind: "Pod", objectName: "kafka-0" }),
    });
    expect(changed).toMatchObject({ kind: "k8s.event", lane: "events", pod: "default/kafka-0" });
  });

  it("044: describe x158 Calico nodename, pod from the message", () => {
    const msg =
      'Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod "kube-dns-86f4d74b45-kgjbk_kube-system" network: stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/';
    const rec = { component: "k8s-events", message: msg, severity: 2, k8sEvent: ev("FailedCreatePodSandBox", { count: 158 }) };
    expect(classifyRecord(rec)).toMatchObject({
      kind: "sandbox.create.failed",
      pod: "kube-system/kube-dns-86f4d74b45-kgjbk",
      errorClass: "calico-nodename-missing",
    });
    expect(recordCniOp(rec)).toBe("ADD");
  });

  it("events JSON: pod from involvedObject, Rebooted boot id undashed", () => {
    const c = classifyRecord({
      component: "k8s-events",
      message: `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container "8282296283c378ac3b75f38b7d5fe19a8f7421e2d35795d63fed87dce414c0f6" network for pod "${podName}": networkPlugin cni failed to set up pod "${podName}_kube-system" network: plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/`,
      severity: 2,
      k8sEvent: ev("FailedCreatePodSandBox", { namespace: "kube-system", objectKind: "Pod", objectName: podName }),
    });
    expect(c.pod).toBe(`kube-system/${podName}`);
    expect(c.sandboxId).toBe("8282296283c378ac3b75f38b7d5fe19a8f7421e2d35795d63fed87dce414c0f6");
    const r = classifyRecord({
      component: "k8s-events",
      message: "Node ip-10-20-30-40.ec2.internal has been rebooted, boot id: a91e07c2-5d3f-4b08-b6e2-f4c1d9a07e33",
      severity: 2,
      k8sEvent: ev("Rebooted", { namespace: "default", objectKind: "Node", objectName: "ip-10-20-30-40.ec2.internal" }),
    });
    expect(r).toMatchObject({ kind: "k8s.event", pod: null, rebootBootId: "a91e07c25d3f4b08b6e2f4c1d9a07e33" });
  });

  it("kubelet creation failure chain: every line names the sandbox; pod from pod= and from name_ns(uid)", () => {
    const id = "e5a8e7ad13f2628e35bf08b06924cf006d67164345b0878910868fc68d43b1ff";
    const inner = `rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": plugin type="flannel" failed (add): loadFlannelSubnetEnv failed: open /run/flannel/subnet.env: no such file or directory`;
    const sync = `failed to "CreatePodSandbox" for "coredns-7484cd47db-kmg55_kube-system(5972853f-beb3-4e6d-a54d-cd9b52ba415f)" with CreatePodSandboxError: ${JSON.stringify(`Failed to create sandbox for pod "coredns-7484cd47db-kmg55_kube-system(5972853f-beb3-4e6d-a54d-cd9b52ba415f)": ${inner}`)}`;
    const aRec = {
      component: "kubelet",
      message: `CreatePodSandbox for pod failed err=${JSON.stringify(inner)} pod="kube-system/coredns-7484cd47db-kmg55"`,
      fields: { err: inner, pod: "kube-system/coredns-7484cd47db-kmg55" },
      severity: 3,
    };
    const a = classifyRecord(aRec);
    expect(a).toMatchObject({ kind: "sandbox.create.failed", sandboxId: id, pod: "kube-system/coredns-7484cd47db-kmg55" });
    expect(recordCniOp(aRec)).toBe("ADD");
    expect(a.errorClass).toBe("flannel-subnet-missing");
    // no fields given (a parser that did not split the pairs): the raw structured message still works
    const b = classifyRecord({ component: "kubelet", message: `"Error syncing pod, skipping" err=${JSON.stringify(sync)}`, severity: 3 });
    expect(b).toMatchObject({ kind: "sandbox.create.failed", sandboxId: id, pod: "kube-system/coredns-7484cd47db-kmg55", errorClass: a.errorClass });
    const kill = classifyRecord({ component: "kubelet", message: `Error syncing pod, skipping err="failed to \\"KillPodSandbox\\" for \\"x\\""`, severity: 3 });
    expect(kill.kind).toBe("sandbox.stop.failed");
  });

  it("containerd success, stop failure, start; kubelet start; kernel start", () => {
    const id = "5f1c".padEnd(64, "a");
    expect(
      classifyRecord({
        component: "containerd",
        message: `RunPodSandbox for &PodSandboxMetadata{Name:web-1,Uid:u,Namespace:default,Attempt:2,} returns sandbox id "${id}"`,
        severity: 1,
      }),
    ).toMatchObject({ kind: "sandbox.created", pod: "default/web-1", sandboxId: id });
    const stop = {
      component: "containerd",
      message: `Failed to destroy network for sandbox "${id}"`,
      fields: { error: 'plugin type="calico" failed (delete): stat /var/lib/calico/nodename: no such file or directory' },
      severity: 3,
    };
    expect(classifyRecord(stop)).toMatchObject({ kind: "sandbox.stop.failed", sandboxId: id, errorClass: "calico-nodename-missing" });
    expect(recordCniOp(stop)).toBe("DEL");
    expect(classifyRecord({ component: "containerd", message: "starting containerd", fields: { version: "v1.7.27" }, severity: 1 }).kind).toBe(
      "runtime.started",
    );
    expect(classifyRecord({ component: "containerd", message: "containerd successfully booted in 0.052186s", severity: 1 }).kind).toBe("runtime.started");
    expect(classifyRecord({ component: "kubelet", message: 'Kubelet version kubeletVersion="v1.31.4"', severity: 1 }).kind).toBe("kubelet.started");
    expect(classifyRecord({ component: "kubelet", message: "Starting kubelet main sync loop", severity: 1 }).kind).toBe("log");
    expect(
      classifyRecord({
        component: "kubelet",
        message: 'Skipping pod synchronization err="PLEG is not healthy: pleg was last seen active 3m0s ago"',
        severity: 3,
      }).kind,
    ).toBe("runtime.unhealthy");
    expect(
      classifyRecord({ component: "kernel", message: "Linux version 6.1.128-136.201.amzn2023.x86_64 (mockbuild@ip-10-0-54-52)", severity: 1 }),
    ).toMatchObject({
      kind: "kernel.start",
      lane: "kernel",
    });
  });

  it("Calico plugin and calico-node lines go to the right lanes and kinds", () => {
    const add = classifyRecord({
      component: "cni-calico",
      message:
        "Final result of CNI ADD was an error. error=stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/",
      severity: 3,
    });
    expect(add).toMatchObject({ kind: "cni.add.failed", lane: "cni-plugin", errorClass: "calico-nodename-missing", pod: null, sandboxId: null });
    const populated = classifyRecord({
      component: "cni-calico",
      message: `Populated endpoint ContainerID="${"ab".repeat(32)}" Namespace="default" Pod="web-7d9c6b5f4-x2x9q" WorkloadEndpoint="n-k8s-web-eth0"`,
      fields: { ContainerID: "ab".repeat(32), Namespace: "default", Pod: "web-7d9c6b5f4-x2x9q" },
      severity: 1,
    });
    expect(populated).toMatchObject({ kind: "log", lane: "cni-plugin", pod: "default/web-7d9c6b5f4-x2x9q", sandboxId: "ab".repeat(32) });
    expect(classifyRecord({ component: "cni-calico", message: "Using node name: ip-10-20-30-40.ec2.internal", severity: 1 })).toMatchObject({
      kind: "cni.ready",
      lane: "cni-agent",
    });
    expect(
      classifyRecord({ component: "cni-calico", message: "cni-installer/<nil> <nil>: Created /host/etc/cni/net.d/10-calico.conflist", severity: 1 }),
    ).toMatchObject({
      kind: "cni.config.written",
      lane: "cni-agent",
    });
  });

  it("lanes by component and identifier", () => {
    expect(laneOf({ component: "crio" })).toBe("runtime");
    expect(laneOf({ component: "kubelet" })).toBe("kubelet");
    expect(laneOf({ component: "unknown", ident: "kubenswrapper" })).toBe("kubelet");
    expect(laneOf({ component: "systemd" })).toBe("kernel");
    expect(laneOf({ component: "multus" })).toBe("cni-plugin");
    expect(laneOf({ component: "flannel" })).toBe("cni-agent");
    expect(laneOf({ component: "k8s-events" })).toBe("events");
    expect(laneOf({ component: "something" })).toBe("other");
  });

  it("CNI op is the earliest marker", () => {
    expect(cniOpOf('plugin type="calico" failed (add): x; failed (delete): y')).toBe("ADD");
    expect(cniOpOf("failed to destroy network for sandbox")).toBe("DEL");
    expect(cniOpOf("context deadline exceeded")).toBeNull();
  });

  it("CRI-O sandbox lines", () => {
    const id = "cd".repeat(32);
    expect(classifyRecord({ component: "crio", message: "Running pod sandbox: kube-system/coredns-5d78c9869d-abcde/POD", severity: 1 })).toMatchObject({
      kind: "sandbox.create.start",
      pod: "kube-system/coredns-5d78c9869d-abcde",
    });
    expect(
      classifyRecord({ component: "crio", message: `Ran pod sandbox ${id} with infra container: kube-system/coredns-5d78c9869d-abcde/POD`, severity: 1 }),
    ).toMatchObject({
      kind: "sandbox.created",
      sandboxId: id,
      pod: "kube-system/coredns-5d78c9869d-abcde",
    });
  });
});

describe("hasHex64", () => {
  it("finds a run of 64 lowercase hex digits wherever it lies, as the regex does", () => {
    const id = "8421096d58ae07487b3a71169bf3e37b268aa67ebae2301b748f006b03688dfa";
    expect(hasHex64(`failed to setup network for sandbox "${id}": plugin type="calico" failed (add)`)).toBe(true);
    expect(hasHex64(id)).toBe(true);
    expect(hasHex64(id.slice(1))).toBe(false);
    expect(hasHex64(`${id.slice(0, 40)}X${id.slice(40)}`)).toBe(false);
    expect(hasHex64(id.toUpperCase())).toBe(false);
    // runs of every length near 64 at every offset, hex-rich neighbours (words of a-f, digits)
    const re = /[0-9a-f]{64}/;
    const seen = { true: 0, false: 0 };
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let i = 0; i < 3000; i++) {
      const parts: string[] = [];
      for (let k = rnd(5); k >= 0; k--) {
        const len = rnd(4) === 0 ? 60 + rnd(8) : rnd(70);
        parts.push(Array.from({ length: len }, () => "0123456789abcdef"[rnd(16)]).join(""), ["", " ", "g", "-", '\\"', "Z"][rnd(6)]);
      }
      const s = parts.join("");
      expect(hasHex64(s), s).toBe(re.test(s));
      seen[`${re.test(s)}`]++;
    }
    expect(seen.true).toBeGreaterThan(300);
    expect(seen.false).toBeGreaterThan(300);
  });
});

describe("classifyRecord on CNI plugins' own logs", () => {
  it("an Azure CNI ADD that completed with an error is a failed ADD, its cause the IPAM's", () => {
    const r = classifyRecord({
      component: "azure-cni",
      message:
        "[cni-net] ADD command completed for pod web-5d8f7b9c6-x7k2p with IP:[] err:Failed to allocate pool: Failed to delegate: Failed to allocate address: No available addresses.",
      fields: { err: "Failed to allocate pool: Failed to delegate: Failed to allocate address: No available addresses.", pod: "default/web-5d8f7b9c6-x7k2p" },
      severity: 3,
    });
    expect(r).toMatchObject({ kind: "cni.add.failed", lane: "cni-plugin", pod: "default/web-5d8f7b9c6-x7k2p", errorClass: "ipam-exhausted" });
  });

  it("CRI-O's failed ADD names the pod as <namespace>_<name>; a multus delegate names it in brackets", () => {
    const crio = classifyRecord({
      component: "crio",
      message: 'Error adding pod default_example-pod-2 to CNI network "crio": plugin type="bridge" failed (add): failed to set bridge addr',
      severity: 3,
    });
    expect(crio).toMatchObject({ kind: "cni.add.failed", lane: "runtime", pod: "default/example-pod-2" });
    const multus = classifyRecord({
      component: "multus",
      message:
        '[kube-system/app-7d9c9b7b8c-x2l4p/5b9c0d1e-aaaa-bbbb-cccc-ddddeeeeffff:cilium]: error adding container to network "cilium": unable to connect to Cilium daemon',
      severity: 3,
    });
    expect(multus).toMatchObject({ kind: "cni.add.failed", pod: "kube-system/app-7d9c9b7b8c-x2l4p", errorClass: "cilium-agent-unreachable" });
  });
});

describe("classifyRecord on Calico's shared layout: node agent or plugin by the caller", () => {
  it("calico-node's felix, startup and install-cni lines are the node agent's; the plugin's and IPAM's stay the plugin's", () => {
    const text = [
      '2024-05-06 10:00:00.123 [INFO][86] felix/int_dataplane.go 1950: Received interface update msg=&intdataplane.ifaceUpdate{Name:"cali12ab", State:"up"}',
      "2024-05-06 10:00:00.300 [INFO][9] startup/startup.go 318: Determined node name: worker-2",
      "2024-05-06 10:00:02.789 [ERROR][1] cni-installer/<nil> <nil>: Unable to create token for CNI kubeconfig error=Unauthorized",
      '2024-05-06 10:00:05.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint ContainerID="5f1c9a" Namespace="default" Pod="web-7d9c6b5f4-x2x9q"',
      "2024-05-06 10:00:05.305 [INFO][4123] ipam/ipam.go 1172: Auto-assign 1 ipv4, 0 ipv6 addrs for host 'worker-2'",
    ].join("\n");
    const f = parseFile("calico.log", text);
    expect(f.format).toBe("calico-cni");
    expect(f.records.map((r) => r.fields?.caller)).toEqual([
      "felix/int_dataplane.go 1950",
      "startup/startup.go 318",
      "cni-installer/<nil> <nil>",
      "cni-plugin/k8s.go 418",
      "ipam/ipam.go 1172",
    ]);
    expect(f.records.map((r) => classifyRecord(r).lane)).toEqual(["cni-agent", "cni-agent", "cni-agent", "cni-plugin", "cni-plugin"]);
  });
});

describe("classifyRecord on the kubelet's record of the events it emits", () => {
  it("`Event occurred … reason=FailedCreatePodSandBox` (kubernetes#99803) and the older `Event(v1.ObjectReference{…}): type: 'Warning' reason: '…'` are sandbox failures of the pod named; a plain event stays a log line", () => {
    const J = "Mar 12 10:00:01 worker-1 kubelet[812]: ";
    const msg =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container \\"73edc36f2c7b52e25c91bd7a4d290f78cd4e19b8063c0b8355adc6416cc3da67\\" network for pod \\"coredns-74ff55c5b-w2mk9\\": networkPlugin cni failed to set up pod \\"coredns-74ff55c5b-w2mk9_kube-system\\" network: open /run/flannel/subnet.env: no such file or directory';
    const text = [
      `${J}I0312 10:00:01.100000     812 event.go:291] "Event occurred" object="kube-system/coredns-74ff55c5b-w2mk9" kind="Pod" apiVersion="v1" type="Warning" reason="FailedCreatePodSandBox" message="${msg}"`,
      `${J}I0312 10:00:01.200000     812 event.go:291] "Event occurred" object="kube-system/coredns-74ff55c5b-w2mk9" kind="Pod" apiVersion="v1" type="Normal" reason="SandboxChanged" message="Pod sandbox changed, it will be killed and re-created."`,
      `${J}I0312 10:00:02.100000     812 event.go:278] Event(v1.ObjectReference{Kind:"Pod", Namespace:"kube-system", Name:"coredns-74ff55c5b-w2mk9", UID:"63ece1ff", APIVersion:"v1", ResourceVersion:"1234", FieldPath:""}): type: 'Warning' reason: 'FailedKillPod' error killing pod: failed to "KillPodSandbox" for "63ece1ff" with KillPodSandboxError: "rpc error: code = Unknown desc = networkPlugin cni failed to teardown pod"`,
    ].join("\n");
    const f = parseFile("kubelet.log", text, { year: 2021 });
    const cs = f.records.map((r) => classifyRecord(r));
    expect(cs.map((c) => [c.lane, c.kind, c.pod])).toEqual([
      ["kubelet", "sandbox.create.failed", "kube-system/coredns-74ff55c5b-w2mk9"],
      ["kubelet", "log", "kube-system/coredns-74ff55c5b-w2mk9"],
      ["kubelet", "sandbox.stop.failed", "kube-system/coredns-74ff55c5b-w2mk9"],
    ]);
    expect(cs[0]).toMatchObject({ sandboxId: "73edc36f2c7b52e25c91bd7a4d290f78cd4e19b8063c0b8355adc6416cc3da67", errorClass: "flannel-subnet-missing" });
  });
});

describe("classifyRecord on older and partial sandbox failure reports", () => {
  it("a FailedSync event of a kubelet before 1.8 that failed to create the sandbox is an attempt; one that failed to kill it is a stop", () => {
    const ev = (message: string) =>
      classifyRecord({
        component: "k8s-events",
        message,
        severity: 2,
        k8sEvent: {
          reason: "FailedSync",
          type: "Warning",
          count: 9,
          namespace: "default",
          objectKind: "Pod",
          objectName: "busybox-3219474226-8x1tq",
          node: "n1",
          firstMs: null,
          lastMs: null,
        },
      });
    expect(
      ev('Error syncing pod, skipping: failed to "CreatePodSandbox" for "busybox-3219474226-8x1tq_default(0c1d)" with CreatePodSandboxError: "..."').kind,
    ).toBe("sandbox.create.failed");
    expect(
      ev('Error syncing pod, skipping: failed to "KillPodSandbox" for "busybox-3219474226-8x1tq_default(0c1d)" with KillPodSandboxError: "..."').kind,
    ).toBe("sandbox.stop.failed");
    expect(ev('Error syncing pod, skipping: failed to "StartContainer" for "app" with CrashLoopBackOff').kind).toBe("k8s.event");
  });

  it("the runtime's set-up error on a kubelet line of its own (a grep of an err=< block) is an attempt line, with its sandbox", () => {
    const id = "eda8bab9e1914ec43190de3df221354a5a9db9b2385bddc2afe02b271d11668b";
    const r = classifyRecord({
      component: "kubelet",
      message: `        rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": plugin type="cilium-cni" failed (add): unable to connect to Cilium daemon`,
      severity: 1,
    });
    expect(r).toMatchObject({ kind: "sandbox.create.failed", sandboxId: id, errorClass: "cilium-agent-unreachable" });
  });
});

describe("classifyRecord on the AWS VPC CNI's ipamd", () => {
  it("a failed IP assignment is a failed ADD for the pod it names, its cause IPAM exhaustion", () => {
    const r = classifyRecord({ component: "aws-vpc-cni", message: "Failed to assign IP address to pod default/web-0: no available IP addresses", severity: 3 });
    expect(r).toMatchObject({ kind: "cni.add.failed", lane: "cni-agent", pod: "default/web-0", errorClass: "ipam-exhausted" });
  });

  const aws = (message: string, severity = 1) => classifyRecord({ component: "aws-vpc-cni", message, severity });

  it("case 027: the plugin's request names pod and sandbox; its ERROR lines and ipamd's INFO reply with an err are failed ADDs", () => {
    const lines = caseText("027-aws-cni-plugin-log-bracket-level.log")
      .trim()
      .split("\n")
      .map((l) => /^\S+ \[(\w+)\] (.*)$/.exec(l)!)
      .map((m) => aws(m[2], m[1] === "ERROR" ? 3 : 1));
    const pod = "default/nginx-deployment-q5mz28pfdc-jxpxr";
    expect(lines.map((c) => [c.kind, c.pod, c.errorClass])).toEqual([
      ["log", null, null],
      ["sandbox.create.start", pod, null],
      ["cni.add.failed", pod, "ipam-exhausted"],
      ["cni.add.failed", null, "ipam-exhausted"],
      ["cni.add.failed", null, "ipam-exhausted"],
      ["sandbox.create.start", pod, null],
    ]);
    expect(lines[1].sandboxId).toBe("8b1a9b34d23ad5cbf8e6a2fc5e23122d05ad037a12071f181a849e7c9961a9eb");
    expect(lines[5].sandboxId).toBe("0a0bfba9b62c401c6b3e1dcd086962cda376078a6c038cd8340b41eb3b4d6d53");
  });

  it("ipamd's replies across versions: a reply with an address and `err: <nil>` or `Success: true` is no failure", () => {
    expect(aws("Send AddNetworkReply: IPv4Addr 10.0.1.7, DeviceNumber: 0, err: <nil>").kind).toBe("log");
    expect(aws("Send AddNetworkReply: IPv4Addr 10.0.1.7, IPv6Addr: , DeviceNumber: 0, err: <nil>").kind).toBe("log");
    expect(aws('Send AddNetworkReply: Success: true IPAddr: [ipv4Addr:"10.0.1.7" deviceNumber:0 routeTableId:1], err: <nil>').kind).toBe("log");
    expect(aws("Send AddNetworkReply: Success: false IPAddr: [], err: datastore: no available IP/Prefix addresses")).toMatchObject({
      kind: "cni.add.failed",
      errorClass: "ipam-exhausted",
    });
    expect(aws('Send AddNetworkReply: Failed to get pod: pods "web-0" not found', 2).kind).toBe("cni.add.failed");
    expect(aws("Send DelNetworkReply: IPAddress: [], err: datastore: unknown pod").kind).toBe("cni.del.failed");
    expect(aws("Send DelNetworkReply: IPv4Addr 10.0.1.7, DeviceNumber: 0, err: <nil>").kind).toBe("log");
    // zap-era request: the sandbox by id
    const id = "6a3c0e1f9b2d4c5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6";
    expect(aws(`Received AddNetwork for NS /var/run/netns/cni-1f2e, Sandbox ${id}, ifname eth0`)).toMatchObject({
      kind: "sandbox.create.start",
      sandboxId: id,
    });
  });
});

describe("classifyRecord on the kubelet's other runtime calls", () => {
  it("case 114: CreateContainer in a sandbox timing out is the runtime's health, not a sandbox attempt", () => {
    const line = caseText("114-journald-french-month-header-create-container-deadline.log").split("\n")[5];
    const input = caseLineToInput(line.replace(/^sept\. 20/, "Sep 20"))!;
    expect(classifyRecord(input)).toMatchObject({ kind: "runtime.unhealthy", lane: "kubelet", errorClass: "context-deadline-exceeded" });
  });

  it("StartContainer and ExecSync refused or timing out too; a PullImage deadline is the registry's", () => {
    const k = (message: string) => classifyRecord({ component: "kubelet", message, severity: 3 }).kind;
    expect(k('StartContainer "4be1" from runtime service failed: rpc error: code = DeadlineExceeded desc = context deadline exceeded')).toBe(
      "runtime.unhealthy",
    );
    expect(k("ExecSync 4be1 'sh -c true' from runtime service failed: rpc error: code = Unavailable desc = connection error")).toBe("runtime.unhealthy");
    // the CRI client's echo of a pull the kubelet also reports as `Failed to pull image`: counted once, from that line
    expect(k('PullImage "nginx:1.25" from image service failed: rpc error: code = DeadlineExceeded desc = context deadline exceeded')).toBe("log");
    expect(k('CreateContainer in sandbox "4be1" from runtime service failed: rpc error: code = Unknown desc = image not found')).toBe("log");
  });
});

describe("classifyRecord on crictl, Antrea and kube-ovn failure lines", () => {
  it("crictl's fatal `run pod sandbox` is an attempt line, its sandbox and cause kept", () => {
    const id = "2dd1f42497899f01a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819";
    const r = classifyRecord({
      component: "crictl",
      message: `run pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory`,
      severity: 4,
    });
    expect(r).toMatchObject({ kind: "sandbox.create.failed", lane: "kubelet", sandboxId: id, errorClass: "calico-nodename-missing" });
  });

  it("an Antrea agent that could not configure a container's interface failed its ADD; kube-ovn names the pod unquoted", () => {
    const antrea = classifyRecord({
      component: "antrea",
      message:
        'Failed to configure container 2bf8333eafa19313d398bc07afeaa0496d11d01ab4eb9dd5d3f7485fb7e76d83 interface: failed to Statfs "/host/var/run/netns/cni-90c1": no such file or directory',
      severity: 3,
    });
    expect(antrea).toMatchObject({ kind: "cni.add.failed", lane: "cni-agent" });
    const ovn = classifyRecord({
      component: "kube-ovn",
      message: "failed to configure nic eth0 for pod kubevirt/virt-operator-6965ff7dff-jbvgh: network not ready after 200 ping to gateway 10.16.0.1",
      severity: 3,
    });
    expect(ovn).toMatchObject({ kind: "cni.add.failed", pod: "kubevirt/virt-operator-6965ff7dff-jbvgh" });
  });
});

describe("classifyRecord on failed image pulls", () => {
  it("the kubelet's and containerd's pull failures and the `Failed` event saying so are image.pull.failed; a back-off is not a pull", () => {
    const kubelet = classifyRecord({
      component: "kubelet",
      severity: 3,
      message:
        '"Failed to pull image" err="rpc error: code = Unknown desc = failed to pull and unpack image \\"docker.io/calico/node:v3.27.0\\": dial tcp: lookup registry-1.docker.io on 10.0.0.2:53: no such host" image="docker.io/calico/node:v3.27.0"',
    });
    expect(kubelet).toMatchObject({ kind: "image.pull.failed", lane: "kubelet" });
    const containerd = classifyRecord({
      component: "containerd",
      severity: 3,
      message: 'PullImage "docker.io/calico/node:v3.27.0" failed',
      fields: { error: "failed to pull and unpack image: 429 Too Many Requests" },
    });
    expect(containerd).toMatchObject({ kind: "image.pull.failed", lane: "runtime" });
    expect(classifyRecord({ component: "containerd", severity: 1, message: 'PullImage "docker.io/calico/node:v3.27.0"' }).kind).toBe("log");
    const ev = (reason: string, message: string) =>
      classifyRecord({
        component: "k8s-events",
        severity: 2,
        message,
        k8sEvent: {
          reason,
          type: "Warning",
          count: 1,
          namespace: "kube-system",
          objectKind: "Pod",
          objectName: "calico-node-x7k2p",
          node: null,
          firstMs: null,
          lastMs: null,
        },
      }).kind;
    expect(ev("Failed", 'Failed to pull image "docker.io/calico/node:v3.27.0": rpc error: code = Unknown desc = no such host')).toBe("image.pull.failed");
    expect(ev("Failed", "Error: ErrImagePull")).toBe("k8s.event");
    expect(ev("BackOff", 'Back-off pulling image "docker.io/calico/node:v3.27.0"')).toBe("k8s.event");
  });
});
