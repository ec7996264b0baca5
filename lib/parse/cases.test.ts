/**
 * The real-format cases of tests/cases (expect/*.json there gives the expected values): each
 * file parsed by `parseFile` with the options a reviewer would give at upload.
 */
import { describe, expect, it } from "vitest";
import { expectAccounting, parseCase, recordIso as iso } from "../testing/parse-cases";

const SANDBOX_001 = "b8dd4f5155b9c51c7732863cc74aa2621051bb7ce31231dfe939a33eab6c77f7";

describe("case 001: calico nodename, StopPodSandbox, journal short + klog", () => {
  const f = parseCase("001-calico-nodename-stopsandbox-journald.log", { year: 2025 });

  it("reads 3 kubelet error records on node-p; blank lines are blank, not errors", () => {
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 5, records: 3, blank: 2, skipped: 0, continuation: 0, banner: 0, noTimestamp: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(f.errors).toEqual([]);
    for (const r of f.records) {
      expect(r.host).toBe("node-p");
      expect(r.component).toBe("kubelet");
      expect(r.severity).toBe(3);
    }
    expect(f.records.map((r) => r.line)).toEqual([1, 3, 5]);
  });

  it("keeps the klog stamp, floored to the ms", () => {
    expect(f.records.map(iso)).toEqual(["2025-03-10T14:23:33.100Z", "2025-03-10T14:23:33.100Z", "2025-03-10T14:23:33.100Z"]);
    expect(f.records.every((r) => r.precision === "us" && r.yearInferred && r.zoneAssumed)).toBe(true);
    expect(f.yearSource).toBe("user");
  });

  it("exposes the sandbox id in every record, unescaped", () => {
    expect(f.records[0].fields?.podSandboxID).toBe(SANDBOX_001);
    expect(f.records[0].fields?.err).toContain(`failed to destroy network for sandbox "${SANDBOX_001}"`);
    expect(f.records[0].fields?.err).toContain('plugin type="calico" failed (delete): stat /var/lib/calico/nodename');
    expect(JSON.parse(f.records[1].fields?.podSandboxID ?? "{}")).toEqual({ Type: "containerd", ID: SANDBOX_001 });
    expect(f.records[1].message).toBe(`Failed to stop sandbox podSandboxID={"Type":"containerd","ID":"${SANDBOX_001}"}`);
    const err3 = f.records[2].fields?.err ?? "";
    expect(err3).toContain(SANDBOX_001);
    expect(err3).toContain('plugin type="calico" failed (delete): stat /var/lib/calico/nodename: no such file or directory');
    expect(err3.startsWith('failed to "KillPodSandbox" for "58ed73cc-d879-1817-22c2-15734789c6df" with KillPodSandboxError: "rpc error')).toBe(true);
  });
});

describe("case 002: istio-cni JSON rewrite loop", () => {
  const f = parseCase("002-istio-cni-json-rewrite-loop.log");

  it("reads 8 records, microsecond stamps, zone Z", () => {
    expect(f.format).toBe("istio-cni-json");
    expect(f.kind).toBe("istio-cni");
    expect(f.counts).toMatchObject({ lines: 8, parsed: 8, records: 8, skipped: 0, noTimestamp: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(iso(f.records[0])).toBe("2024-02-03T23:50:37.090Z");
    expect(iso(f.records[7])).toBe("2024-02-03T23:50:37.271Z");
    expect(f.records.every((r) => r.precision === "us" && !r.zoneAssumed && !r.yearInferred && r.component === "istio-cni")).toBe(true);
  });

  it("record 2 writes the conflist; record 7 restarts the loop; records 4-6 have no scope", () => {
    expect(iso(f.records[1])).toBe("2024-02-03T23:50:37.091Z");
    expect(f.records[1].message).toBe("Created CNI config /host/etc/cni/net.d/05-cilium.conflist");
    expect(iso(f.records[6])).toBe("2024-02-03T23:50:37.097Z");
    expect(f.records[6].message).toMatch(/^Detected changes to the node-level CNI setup/);
    for (const k of [3, 4, 5]) expect(f.records[k].fields?.scope).toBeUndefined();
    expect(f.records[0].fields?.scope).toBe("install");
  });
});

describe("case 003: cilium logfmt without time", () => {
  const f = parseCase("003-cilium-agent-logfmt-regenerate-loop.log");

  it("keeps 13 records without a time", () => {
    expect(f.format).toBe("cilium-logfmt");
    expect(f.counts).toMatchObject({ lines: 13, records: 13, noTimestamp: 13, skipped: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(f.records.every((r) => r.ts === null && r.time === null && r.severity === 1 && r.fields?.subsys === "cni-config")).toBe(true);
  });

  it("has 1 conflist write (record 12), 3 regenerations and 9 watch triggers", () => {
    const msgs = f.records.map((r) => r.message);
    expect(msgs.filter((m) => m.startsWith("Wrote CNI configuration file to /host/etc/cni/net.d/05-cilium.conflist")).length).toBe(1);
    expect(msgs[11]).toBe("Wrote CNI configuration file to /host/etc/cni/net.d/05-cilium.conflist");
    expect(msgs.filter((m) => m.startsWith("Generating CNI configuration file")).length).toBe(3);
    expect(msgs.filter((m) => m.startsWith("Activity in /host/etc/cni/net.d/")).length).toBe(9);
  });
});

describe("case 006: istio-cni console text with tabs and a multi-line record", () => {
  const f = parseCase("006-cni-agent-tabs-rewrite-multiline-kubeconfig.log");

  it("reads 12 lines as 7 records and 5 continuations", () => {
    expect(f.format).toBe("istio-cni");
    expect(f.counts).toMatchObject({ lines: 12, parsed: 12, records: 7, continuation: 5, skipped: 0, blank: 0 });
    expectAccounting(f);
    expect(f.records[6]).toMatchObject({ line: 7, endLine: 12 });
    expect(f.records[6].message).toMatch(/^wrote kubeconfig file \/var\/run\/istio-cni\/istio-cni-kubeconfig with: \napiVersion: v1\n/);
    expect(f.records[6].raw.split("\n")).toHaveLength(6);
    expect(f.records[6].message).toContain("certificate-authority-data: <REDACTED-BASE64-CA-DATA>");
  });

  it("times and the conflist rewrite", () => {
    expect(iso(f.records[0])).toBe("2024-09-17T13:04:21.295Z");
    expect(f.records[0].message).toContain('(re)writing CNI config file at "/host/etc/cni/net.d/05-cilium.conflist": istio-cni CNI config removed');
    expect(iso(f.records[1])).toBe("2024-09-17T13:04:21.305Z");
    expect(f.records[1].message).toBe("created CNI config /host/etc/cni/net.d/05-cilium.conflist");
    expect(f.records[3].fields?.scope).toBeUndefined();
    expect(f.records[3].message).toBe("file modified: /host/etc/cni/net.d/.05-cilium.conflist4276606968");
    expect(f.records[0].fields?.scope).toBe("cni-agent");
  });
});

describe("case 009: journal short under a Logs begin at banner (PDT)", () => {
  const f = parseCase("009-kubelet-cni-not-initialized-5s-journal-header.log");

  it("takes year and zone from the banner", () => {
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 5, records: 4, banner: 1, skipped: 0 });
    expectAccounting(f);
    expect(f.banners).toHaveLength(1);
    expect(f.banners[0]).toMatchObject({ line: 1, banner: { type: "logs-begin", offsetMin: -420 } });
    expect(f.yearSource).toBe("banner");
    expect(f.zoneSource).toBe("banner");
    expect(f.records.map(iso)).toEqual(["2023-04-17T02:26:30.150Z", "2023-04-17T02:26:35.152Z", "2023-04-17T02:26:40.153Z", "2023-04-17T02:26:45.154Z"]);
    expect(f.records.every((r) => r.component === "kubelet" && r.severity === 3 && r.host === "node-p" && r.yearInferred && !r.zoneAssumed)).toBe(true);
    expect(f.records[0].fields?.networkReady).toContain("NetworkPluginNotReady");
    expect(f.records[0].fields?.networkReady).toContain("cni plugin not initialized");
  });
});

describe("case 013: describe Events with relative ages (long form)", () => {
  const collectedMs = Date.parse("2020-07-08T10:00:00Z");
  const f = parseCase("013-describe-events-sandboxchanged-x10.log", { collectedMs });

  it("reads 3 events for default/kafka-0 on node-p-000000; headers are banners", () => {
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ lines: 6, records: 3, banner: 3, skipped: 0, noTimestamp: 1 });
    expectAccounting(f);
    for (const r of f.records) {
      expect(r.component).toBe("k8s-events");
      expect(r.fields?.pod).toBe("default/kafka-0");
      expect(r.k8sEvent?.node).toBe("node-p-000000");
    }
  });

  it("Scheduled is kept without a time", () => {
    expect(f.records[0].k8sEvent?.reason).toBe("Scheduled");
    expect(f.records[0].ts).toBeNull();
  });

  it("FailedCreatePodSandBox 2m ago, precision seconds, two netplugin failures", () => {
    const r = f.records[1];
    expect(r.k8sEvent).toMatchObject({ reason: "FailedCreatePodSandBox", type: "Warning", count: 1, lastUncertaintyMs: 1000 });
    expect(iso(r)).toBe("2020-07-08T09:58:00.000Z");
    expect(r.precision).toBe("s");
    expect(r.severity).toBe(2);
    expect(r.message).toContain('sandbox container "50163aa93e9293690431ed1511180ca436759f808f53bf3203bdc3e027f9178a" network');
    expect(r.message.match(/netplugin failed with no error message/g)).toHaveLength(2);
  });

  it("SandboxChanged x10 over 119s: first 09:58:01, last 09:59:58", () => {
    const r = f.records[2];
    expect(r.k8sEvent?.count).toBe(10);
    expect(new Date(r.k8sEvent?.firstMs ?? 0).toISOString()).toBe("2020-07-08T09:58:01.000Z");
    expect(new Date(r.k8sEvent?.lastMs ?? 0).toISOString()).toBe("2020-07-08T09:59:58.000Z");
    expect(iso(r)).toBe("2020-07-08T09:59:58.000Z");
    expect(((r.k8sEvent?.lastMs ?? 0) - (r.k8sEvent?.firstMs ?? 0)) / 9).toBeCloseTo(13.0 * 1000, -2);
  });
});

describe("case 044: describe rows without header, short-form ages", () => {
  const collectedMs = Date.parse("2018-04-12T08:00:00Z");
  const f = parseCase("044-describe-calico-nodename-x158-over-6m.log", { collectedMs });

  it("reads 2 events; the short form gives minute bounds", () => {
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ lines: 2, records: 2, skipped: 0, noTimestamp: 0 });
    expectAccounting(f);
    const [changed, failed] = f.records;
    expect(changed.k8sEvent).toMatchObject({ reason: "SandboxChanged", count: 11, lastUncertaintyMs: 60_000, firstUncertaintyMs: 60_000 });
    expect(new Date(changed.k8sEvent?.lastMs ?? 0).toISOString()).toBe("2018-04-12T07:54:00.000Z");
    expect(new Date(changed.k8sEvent?.firstMs ?? 0).toISOString()).toBe("2018-04-12T07:54:00.000Z");
    expect(failed.k8sEvent).toMatchObject({
      reason: "FailedCreatePodSandBox",
      type: "Warning",
      count: 158,
      node: "node-p-0000000000000000000",
      namespace: "kube-system",
      objectKind: "Pod",
      objectName: "kube-dns-86f4d74b45-kgjbk",
    });
    expect(failed.fields?.pod).toBe("kube-system/kube-dns-86f4d74b45-kgjbk");
    expect(iso(failed)).toBe("2018-04-12T07:59:00.000Z");
    expect(new Date(failed.k8sEvent?.firstMs ?? 0).toISOString()).toBe("2018-04-12T07:54:00.000Z");
    expect(failed.precision).toBe("age");
    expect(failed.message).toMatch(
      /stat \/var\/lib\/calico\/nodename: no such file or directory: check that the calico\/node container is running and has mounted \/var\/lib\/calico\/$/,
    );
  });
});

describe("case 056: kind journal with containerd logrus inside", () => {
  const f = parseCase("056-kind-journald-containerd-kubelet-cilium-cni-retry.log");

  it("reads 4 records on kind-worker: 2 containerd, 2 systemd", () => {
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 4, records: 4, skipped: 0, noTimestamp: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(f.records.map((r) => r.component)).toEqual(["containerd", "systemd", "systemd", "containerd"]);
    expect(f.records.every((r) => r.host === "kind-worker")).toBe(true);
  });

  it("times: containerd's own stamps; systemd at the second, year from the neighbours", () => {
    expect(f.yearSource).toBe("neighbour");
    expect(f.records.map(iso)).toEqual(["2024-02-15T23:28:31.785Z", "2024-02-15T23:28:32.000Z", "2024-02-15T23:28:32.000Z", "2024-02-15T23:28:32.075Z"]);
    expect(f.records[1]).toMatchObject({ precision: "s", yearInferred: true });
    expect(f.records[0]).toMatchObject({ precision: "ns", yearInferred: false, zoneAssumed: false });
  });

  it("the failed RunPodSandbox names pod, sandbox, plugin and ADD", () => {
    const start = f.records[0];
    expect(start.severity).toBe(1);
    expect(start.message).toContain("RunPodSandbox for &PodSandboxMetadata{Name:server,");
    expect(start.message).toContain("Namespace:default,Attempt:0,");
    const fail = f.records[3];
    expect(fail.severity).toBe(3);
    expect(fail.message).toMatch(/^RunPodSandbox for &PodSandboxMetadata\{Name:server,.*\} failed, error$/);
    expect(fail.fields?.error).toContain('failed to setup network for sandbox "fdd742d3fe55cbb4154a0702a05c1ac207e8805417381ed445ac1b781d32d2bb"');
    expect(fail.fields?.error).toContain('plugin type="cilium-cni" failed (add)');
    expect((fail.ts ?? 0) - (start.ts ?? 0)).toBe(290);
    expect(f.records[1].message).toBe("run-netns-cni\\x2d47d23e41\\x2db2f8\\x2d2c57\\x2dd057\\x2df6d8b7ce2eb7.mount: Succeeded.");
  });
});

describe("case 070: RFC 5424-style syslog wrapping klog and containerd", () => {
  const f = parseCase("070-syslog-kubelet-containerd-deadline.log");

  it("reads 4 records on NodeA timed by the components' own stamps", () => {
    expect(f.format).toBe("syslog-rfc5424");
    expect(f.counts).toMatchObject({ lines: 7, records: 4, blank: 3, skipped: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(f.records.map((r) => r.host)).toEqual(["NodeA", "NodeA", "NodeA", "NodeA"]);
    expect(f.records.map((r) => r.component)).toEqual(["containerd", "kubelet", "kubelet", "containerd"]);
    expect(f.records.map(iso)).toEqual(["2024-02-07T05:45:40.738Z", "2024-02-07T05:49:40.738Z", "2024-02-07T05:49:40.739Z", "2024-02-07T05:49:52.035Z"]);
    expect(f.yearSource).toBe("stamp");
  });

  it("the cut containerd message is still read; kubelet fields name the pod and the deadline", () => {
    expect(f.records[0].message).toBe(
      "RunPodSandbox for &PodSandboxMetadata{Name:podX-b181ca13-fc5qq,Uid:b308036a-0c35-0730-0e27-eb0d55947ca7,Namespace:default,Attempt:0,}",
    );
    expect(f.records[1].fields?.err).toBe("rpc error: code = DeadlineExceeded desc = context deadline exceeded");
    expect(f.records[2].fields?.pod).toBe("default/podX-b181ca13-fc5qq");
    expect(f.records[1].severity).toBe(3);
    expect(((f.records[1].ts ?? 0) - (f.records[0].ts ?? 0)) / 1000).toBeCloseTo(240.0, 3);
    expect(((f.records[3].ts ?? 0) - (f.records[2].ts ?? 0)) / 1000).toBeCloseTo(11.3, 1);
  });
});

describe("case 091: flannel klog with out-of-order stamps", () => {
  const f = parseCase("091-after-reboot-flannel-klog-out-of-order-timestamps.log", { year: 2021 });

  it("reads 15 records, pid 4, component flannel", () => {
    expect(f.format).toBe("klog");
    expect(f.counts).toMatchObject({ lines: 15, parsed: 15, records: 15, skipped: 0, outOfOrder: 1 });
    expectAccounting(f);
    expect(f.records.every((r) => r.pid === 4 && r.component === "flannel")).toBe(true);
    expect(iso(f.records[0])).toBe("2021-06-08T13:43:04.906Z");
  });

  it("flags record 7 only, keeps file order", () => {
    expect(f.records.map((r) => r.line)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(iso(f.records[5])).toBe("2021-06-08T13:43:05.102Z");
    expect(iso(f.records[6])).toBe("2021-06-08T13:43:05.026Z");
    expect(f.records.map((r) => r.outOfOrder)).toEqual(f.records.map((_, i) => i === 6));
    expect((f.records[5].ts ?? 0) - (f.records[6].ts ?? 0)).toBe(76);
    expect(f.records[3].severity).toBe(2);
  });
});
