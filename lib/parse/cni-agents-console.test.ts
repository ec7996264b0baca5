/**
 * CNI agent and node proxy logs read as files of their own: the seelog-era AWS VPC CNI ipamd log,
 * istio ztunnel in its layouts (tabs, tabs expanded, stamp cut off, tracing's old layout), and
 * calico-node's statement of the node it runs on; CNI agents' CRI logs named by their container
 * (kube-ovn's `cni-server`, `antrea-agent`).
 */
import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file";
import { expectAccounting, recordIso as iso } from "../testing/parse-cases";

describe("AWS VPC CNI ipamd.log of the seelog era", () => {
  const text = [
    "2018-06-02T07:40:58Z [INFO] Received AddNetwork for NS /proc/8812/ns/net, Pod api-5c4b7-zt9kq, NameSpace prod, Container 6f1e2d3c4b5a, ifname eth0",
    "2018-06-02T07:40:58Z [DEBUG] AssignIPv4Address: IP address pool stats: total: 14, assigned 14",
    "2018-06-02T07:40:58Z [ERROR] Failed to assign IP address to pod prod/api-5c4b7-zt9kq: no available IP addresses",
    "2019-11-26T02:28:13.101Z [WARN]\tUnable to get IP address from CIDR",
    "    stack line indented",
  ].join("\n");
  const f = parseFile("ipamd.log.2018-06-02-07", text);

  it("is its own format, not a pod log with timestamps", () => {
    expect(f.format).toBe("aws-vpc-cni-seelog");
    expect(f.kind).toBe("aws-vpc-cni");
    expect(f.counts).toMatchObject({ lines: 5, records: 4, continuation: 1, skipped: 0 });
    expectAccounting(f);
  });

  it("reads whole-second and millisecond UTC stamps and the bracketed level", () => {
    expect(f.records.map(iso)).toEqual(["2018-06-02T07:40:58.000Z", "2018-06-02T07:40:58.000Z", "2018-06-02T07:40:58.000Z", "2019-11-26T02:28:13.101Z"]);
    expect(f.records.map((r) => r.severity)).toEqual([1, 0, 3, 2]);
    expect(f.records[2]).toMatchObject({
      component: "aws-vpc-cni",
      message: "Failed to assign IP address to pod prod/api-5c4b7-zt9kq: no available IP addresses",
    });
    expect(f.records[3].message.split("\n")).toEqual(["Unable to get IP address from CIDR", "    stack line indented"]);
  });

  it("leaves CoreDNS `[INFO]` lines under kubectl logs --timestamps to kubectl-timestamps", () => {
    const g = parseFile(
      "coredns.log",
      '2025-05-19T04:20:10.200310000Z [INFO] plugin/reload: Running configuration SHA512 = 7a1c\n2025-05-19T04:20:11.500000000Z [INFO] 10.244.0.5:43120 - 1 "A IN web.default.svc. udp 33 false 512" NOERROR qr,aa,rd 86 0.0001s',
    );
    expect(g.format).toBe("kubectl-timestamps");
    expect(g.counts.records).toBe(2);
    expect(g.records[0].message).toBe("[INFO] plugin/reload: Running configuration SHA512 = 7a1c");
  });
});

describe("istio ztunnel", () => {
  it("tab layout: target and span become fields, the YAML after `running with config:` continues it", () => {
    const text = [
      "2025-02-11T09:30:13.500001Z\tinfo\tztunnel\trunning with config: proxy: true",
      "dnsProxy: true",
      "windowSize: 4194304",
      "2025-02-11T09:30:15.001422Z\twarn\txds::client:xds{id=3}\tXDS client connection error: retrying in 80ms\t",
      "2025-02-11T09:30:16.208113Z\terror\tinpod::workloadmanager\tfailed to start proxy: Bind([::1]:15053, Os { code: 99 })\t",
      '2025-02-11T09:30:16.308113Z\tinfo\tinpod::statemanager\tpod received, starting proxy\tuid="0c1d" name="cart-6d5f7c8b9-k2m4p" namespace="shop"',
    ].join("\n");
    const f = parseFile("ztunnel.log", text);
    expect(f.format).toBe("ztunnel");
    expect(f.counts).toMatchObject({ lines: 6, records: 4, continuation: 2, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(["2025-02-11T09:30:13.500Z", "2025-02-11T09:30:15.001Z", "2025-02-11T09:30:16.208Z", "2025-02-11T09:30:16.308Z"]);
    expect(f.records.map((r) => r.severity)).toEqual([1, 2, 3, 1]);
    expect(f.records.map((r) => r.component)).toEqual(["ztunnel", "ztunnel", "ztunnel", "ztunnel"]);
    expect(f.records[1].fields).toEqual({ scope: "xds::client", span: "xds{id=3}" });
    expect(f.records[2].message).toBe("failed to start proxy: Bind([::1]:15053, Os { code: 99 })");
    expect(f.records[3].fields).toEqual({ scope: "inpod::statemanager", uid: "0c1d", name: "cart-6d5f7c8b9-k2m4p", namespace: "shop" });
  });

  it("stamp cut off: untimed records", () => {
    const text = [
      "info\tinpod::workloadmanager\thandling new stream",
      "error\tinpod::workloadmanager\tfailed to start proxy: Bind([::1]:15053)",
      "info\tproxy::inbound\tlistener established\taddress=[::]:15008 transparent=true",
    ].join("\n");
    const f = parseFile("paste.txt", text);
    expect(f.format).toBe("ztunnel");
    expect(f.counts).toMatchObject({ lines: 3, records: 3, noTimestamp: 3, skipped: 0 });
    expect(f.records.map((r) => [r.ts, r.severity, r.message])).toEqual([
      [null, 1, "handling new stream"],
      [null, 3, "failed to start proxy: Bind([::1]:15053)"],
      [null, 1, "listener established"],
    ]);
    expect(f.records[2].fields).toEqual({ scope: "proxy::inbound", address: "[::]:15008", transparent: "true" });
  });

  it("tracing's old layout is ztunnel's, not a journal with host DEBUG", () => {
    const text = [
      "2023-06-02T10:41:07.018532Z DEBUG xds{id=2}: ztunnel::xds::client: connection established",
      "2023-06-02T10:41:07.118532Z  WARN xds{id=2}: ztunnel::xds::client: XDS client error: broken pipe, retrying",
      '2023-06-02T10:41:07.218532Z  INFO ztunnel::xds::client: sending initial request resources=3 type_url="type.googleapis.com/istio.workload.Workload"',
    ].join("\n");
    const f = parseFile("ztunnel-old.log", text);
    expect(f.format).toBe("ztunnel");
    expect(f.records.map((r) => r.host ?? null)).toEqual([null, null, null]);
    expect(f.records.map((r) => r.severity)).toEqual([0, 2, 1]);
    expect(f.records[1]).toMatchObject({ message: "XDS client error: broken pipe, retrying", fields: { scope: "ztunnel::xds::client", span: "xds{id=2}" } });
    expect(f.records[2]).toMatchObject({
      message: "sending initial request",
      fields: { scope: "ztunnel::xds::client", resources: "3", type_url: "type.googleapis.com/istio.workload.Workload" },
    });
  });

  it("istio-cni agent files stay istio-cni", () => {
    const f = parseFile(
      "istio-cni.log",
      "2025-05-19T04:20:12.400120Z\tinfo\tcni-agent\tPod default/web excluded from mesh\n2025-05-19T04:20:13.400120Z\tinfo\tcni-agent\tpod added",
    );
    expect(f.format).toBe("istio-cni");
  });
});

describe("calico-node names its node", () => {
  it("`Determined node name:` and `Using node name:` records carry the host", () => {
    const text = [
      "2021-04-09 12:00:01.100 [INFO][8] startup/startup.go 306: Using NODENAME environment for node name",
      "2021-04-09 12:00:01.101 [INFO][8] startup/startup.go 318: Determined node name: k8s-worker-3",
      "2021-04-09 12:00:01.300 [INFO][8] startup/startup.go 215: Using node name: k8s-worker-3",
      "Calico node started successfully",
    ].join("\n");
    const f = parseFile("calico-node.log", text);
    expect(f.format).toBe("calico-cni");
    expect(f.records.map((r) => r.host ?? null)).toEqual([null, "k8s-worker-3", "k8s-worker-3", null]);
  });
});

describe("CNI agents' container logs named by their container", () => {
  it("kube-ovn-cni's `cni-server` and antrea-agent's `antrea-agent` containers: klog read as kube-ovn's and Antrea's", () => {
    const kubeOvn = [
      '2024-03-05T08:11:02.417123456Z stderr F I0305 08:11:02.417001   12345 handler.go:287] "add port request" pod="shop/cart-55f6c7d8-qw8rt" provider="ovn"',
      '2024-03-05T08:11:22.418201000Z stderr F E0305 08:11:22.418100   12345 handler.go:333] "failed to configure nic" err="wait ovs port binding timed out" pod="shop/cart-55f6c7d8-qw8rt"',
    ].join("\n");
    const f = parseFile("pods/kube-system_kube-ovn-cni-7xk2p_0c1d2e3f/cni-server/0.log", kubeOvn);
    expect(f.format).toBe("cri-log");
    expect(f.kind).toBe("kube-ovn");
    expect(f.records.map(iso)).toEqual(["2024-03-05T08:11:02.417Z", "2024-03-05T08:11:22.418Z"]);
    expect(f.records.map((r) => [r.component, r.severity])).toEqual([
      ["kube-ovn", 1],
      ["kube-ovn", 3],
    ]);
    expect(f.records[1].fields).toMatchObject({ err: "wait ovs port binding timed out", pod: "shop/cart-55f6c7d8-qw8rt" });

    const antrea =
      '2024-03-05T08:12:04.771200000Z stderr F E0305 08:12:04.771000       1 server.go:472] "Failed to configure interfaces for container" err="failed to create veth devices" container="a1b2c3d4"';
    const g = parseFile("pods/kube-system_antrea-agent-5m9qz_4a5b6c7d/antrea-agent/0.log", antrea);
    expect(g.kind).toBe("antrea");
    expect(g.records.map(iso)).toEqual(["2024-03-05T08:12:04.771Z"]);
    expect(g.records[0]).toMatchObject({
      component: "antrea",
      severity: 3,
      message: 'Failed to configure interfaces for container err="failed to create veth devices" container="a1b2c3d4"',
    });
  });
});
