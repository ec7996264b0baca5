/**
 * CNI agent formats (Azure CNI, linkerd-cni, Open vSwitch, Cilium slog), Calico plugin lines under a runtime's identifier, and component lines wrapped
 * by a supervisor (k0s) or printed by k3s for its embedded containerd, at the parse level. Every
 * input below was written for this test in the shape the tool prints.
 */
import { describe, expect, it } from "vitest";
import { classifyRecord } from "../normalise/classify";
import { parseFile } from "./parse-file";
import { expectAccounting, recordIso as iso } from "../testing/parse-cases";

describe("Azure CNI azure-vnet.log / azure-vnet-ipam.log", () => {
  const withPid = [
    "2022/09/30 14:02:11 [4410] Report plugin error",
    "2022/09/30 14:02:11 [4410] [cni-net] Plugin azure-vnet version v1.4.22.",
    "2022/09/30 14:02:11 [4410] [cni-net] Processing ADD command with args {ContainerID:5c0d1e2f Netns:/var/run/netns/cni-77aa IfName:eth0 Args:IgnoreUnknown=1;K8S_POD_NAMESPACE=shop;K8S_POD_NAME=cart-7f9c;K8S_POD_INFRA_CONTAINER_ID=5c0d1e2f Path:/opt/cni/bin}.",
    "2022/09/30 14:02:11 [4411] [cni-net] Processing DEL command with args {ContainerID:99aa Netns: IfName:eth0 Args:IgnoreUnknown=1;K8S_POD_NAMESPACE=shop;K8S_POD_NAME=old-1;K8S_POD_INFRA_CONTAINER_ID=99aa Path:/opt/cni/bin}.",
    "2022/09/30 14:02:12 [4410] [cni-net] Failed to allocate pool: Failed to delegate: Failed to allocate address: No available addresses.",
    "2022/09/30 14:02:12 [4410] [cni-net] ADD command completed for pod cart-7f9c with IP:[] err:Failed to allocate pool: Failed to delegate: Failed to allocate address: No available addresses.",
    "2022/09/30 14:02:12 [4411] [cni-net] DEL command completed for pod old-1 with err:<nil>.",
  ].join("\n");

  it("reads every line; the failed ADD is an error naming its pod from the run's Processing line (same pid)", () => {
    const f = parseFile("var/log/azure-vnet.log", withPid);
    expect(f.format).toBe("azure-cni");
    expect(f.counts).toMatchObject({ lines: 7, records: 7, skipped: 0 });
    expectAccounting(f);
    expect(f.records.every((r) => r.component === "azure-cni")).toBe(true);
    expect(iso(f.records[5])).toBe("2022-09-30T14:02:12.000Z");
    const add = f.records[5];
    expect(add).toMatchObject({ severity: 3, pid: 4410 });
    expect(add.message).toBe(
      "ADD command completed for pod cart-7f9c with IP:[] err:Failed to allocate pool: Failed to delegate: Failed to allocate address: No available addresses.",
    );
    expect(add.fields).toMatchObject({
      tag: "cni-net",
      command: "ADD",
      pod: "shop/cart-7f9c",
      containerID: "5c0d1e2f",
      err: "Failed to allocate pool: Failed to delegate: Failed to allocate address: No available addresses",
    });
    // a DEL run of another pid interleaved: its completion keeps its own pod, and err:<nil> is no error
    expect(f.records[6]).toMatchObject({ severity: 1, fields: { command: "DEL", pod: "shop/old-1" } });
    expect(f.records[0]).toMatchObject({ severity: 1, message: "Report plugin error", pid: 4410 });
  });

  it("without pids the completion takes the last Processing line of its tag", () => {
    const text = [
      "2018/11/02 07:45:09 [cni-ipam] Plugin azure-vnet-ipam version v1.0.11.",
      "2018/11/02 07:45:09 [cni-ipam] Processing ADD command with args {ContainerID:0a1b2c Netns:/proc/991/ns/net IfName:eth0 Args:IgnoreUnknown=1;K8S_POD_NAMESPACE=kube-system;K8S_POD_NAME=metrics-server-5c8d Path:/opt/cni/bin}.",
      "2018/11/02 07:45:09 [ipam] Releasing pool with poolId:10.0.0.0/24.",
      "2018/11/02 07:45:09 [cni-ipam] ADD command completed with result:<nil> err:Failed to allocate address: No available addresses.",
      "2018/11/02 07:45:09 [cni-ipam] Plugin stopped.",
    ].join("\n");
    const f = parseFile("azure-vnet-ipam.log", text);
    expect(f.format).toBe("azure-cni");
    expect(f.counts).toMatchObject({ records: 5, skipped: 0 });
    expect(f.records[3]).toMatchObject({
      severity: 3,
      fields: { tag: "cni-ipam", command: "ADD", pod: "kube-system/metrics-server-5c8d", err: "Failed to allocate address: No available addresses" },
    });
    expect(f.records[3].pid).toBeUndefined();
  });

  it("does not take a Go-log file of another program (no Azure tag)", () => {
    const f = parseFile("x.log", ["2022/09/30 14:02:11 [worker] starting", "2022/09/30 14:02:12 [worker] done"].join("\n"));
    expect(f.format).not.toBe("azure-cni");
  });
});

describe("linkerd-cni installer log", () => {
  const text = [
    "[2023-11-20 16:05:30] Wrote linkerd CNI binaries to /host/opt/cni/bin",
    "[2023-11-20 16:05:30] CNI config: {",
    '  "name": "linkerd-cni",',
    '  "type": "linkerd-cni"',
    "}",
    "[2023-11-20 16:05:31] Created CNI config /host/etc/cni/net.d/10-flannel.conflist",
    "[2023-11-20 16:05:32] Detected event: MODIFY /host/etc/cni/net.d/10-flannel.conflist",
  ].join("\n");

  it("stamped lines are records, the config dump continues its record", () => {
    const f = parseFile("linkerd-cni.log", text);
    expect(f.format).toBe("linkerd-cni");
    expect(f.counts).toMatchObject({ lines: 7, records: 4, continuation: 3, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map((r) => r.component)).toEqual(["linkerd-cni", "linkerd-cni", "linkerd-cni", "linkerd-cni"]);
    expect(f.records[1].message).toBe('CNI config: {\n  "name": "linkerd-cni",\n  "type": "linkerd-cni"\n}');
    expect(f.records[2].message).toBe("Created CNI config /host/etc/cni/net.d/10-flannel.conflist");
    expect(iso(f.records[2])).toBe("2023-11-20T16:05:31.000Z");
  });
});

describe("Open vSwitch vlog", () => {
  it("reads ovsdb-server restarts (seq back to 00001), levels and modules", () => {
    const text = [
      "2023-06-11T07:40:02.318Z|00001|vlog|INFO|opened log file /var/log/openvswitch/ovsdb-server.log",
      "2023-06-11T07:40:02.320Z|00002|ovsdb_server|INFO|ovsdb-server (Open vSwitch) 2.17.7",
      "2023-06-11T07:44:10.001Z|00003|fatal_signal|WARN|terminating with signal 15 (Terminated)",
      "2023-06-11T07:44:40.552Z|00001|vlog|INFO|opened log file /var/log/openvswitch/ovsdb-server.log",
    ].join("\n");
    const f = parseFile("ovsdb-server.log", text);
    expect(f.format).toBe("ovs-log");
    expect(f.counts).toMatchObject({ records: 4, skipped: 0 });
    expect(f.records.map((r) => r.fields?.seq)).toEqual(["00001", "00002", "00003", "00001"]);
    expect(f.records[2]).toMatchObject({ component: "ovs", severity: 2, message: "terminating with signal 15 (Terminated)" });
    expect(iso(f.records[3])).toBe("2023-06-11T07:44:40.552Z");
  });

  it("the syslog layout inside a journal line", () => {
    const f = parseFile("j.log", "Jun 11 07:40:02 node-a ovs-vswitchd[812]: ovs|00042|bridge|ERR|could not open network device gre0 (No such device)", {
      year: 2023,
    });
    expect(f.format).toBe("journal-short");
    expect(f.records[0]).toMatchObject({
      component: "ovs",
      severity: 3,
      message: "could not open network device gre0 (No such device)",
      fields: { seq: "00042", module: "bridge" },
    });
  });
});

describe("Calico CNI plugin lines passed on by the runtime or the kubelet", () => {
  // containerd, CRI-O and the kubelet print a CNI plugin's stderr under their own identifier
  const text = [
    'Mar 04 06:12:40 worker-2 containerd[812]: 2024-03-04 06:12:40.318 [INFO][91234] ipam/ipam_plugin.go 284: Releasing address using handleID ContainerID="8d2f0c1e5a" HandleID="k8s-pod-network.8d2f0c1e5a"',
    'Mar 04 06:12:40 worker-2 containerd[812]: 2024-03-04 06:12:40.402 [ERROR][91240] plugin.go 580: Final result of CNI ADD was an error. error="stat /var/lib/calico/nodename: no such file or directory"',
    'Mar 04 06:12:41 worker-2 kubelet[1377]: 2024-03-04 06:12:41.017 [WARNING][91251] k8s.go 572: WorkloadEndpoint does not exist in the datastore, moving forward with the clean up ContainerID="44ab09c7e1" WorkloadEndpoint="worker--2-k8s-web--7d9f-eth0"',
    'Mar 04 06:12:41 worker-2 containerd[812]: time="2024-03-04T06:12:41.090412Z" level=error msg="Failed to destroy network for sandbox \\"8d2f0c1e5a\\"" error="plugin type=\\"calico\\" failed (delete): stat /var/lib/calico/nodename: no such file or directory"',
  ].join("\n");

  it("Calico's layout names cni-calico under containerd's or the kubelet's identifier; containerd's own line stays containerd's", () => {
    const f = parseFile("containerd.log", text, { year: 2024, tz: "UTC" });
    expect(f.format).toBe("journal-short");
    expectAccounting(f);
    expect(f.counts.records).toBe(4);
    expect(f.records.map((r) => [iso(r), r.ident, r.component, r.severity])).toEqual([
      ["2024-03-04T06:12:40.318Z", "containerd", "cni-calico", 1],
      ["2024-03-04T06:12:40.402Z", "containerd", "cni-calico", 3],
      ["2024-03-04T06:12:41.017Z", "kubelet", "cni-calico", 2],
      ["2024-03-04T06:12:41.090Z", "containerd", "containerd", 3],
    ]);
    expect(f.records[1].fields).toMatchObject({ caller: "plugin.go 580", error: "stat /var/lib/calico/nodename: no such file or directory" });
    // the plugin's lines go to the CNI plugin's lane, the runtime's to the runtime's
    expect(f.records.map((r) => classifyRecord(r).lane)).toEqual(["cni-plugin", "cni-plugin", "cni-plugin", "runtime"]);
  });
});

describe("Open vSwitch vlog file layout as container output", () => {
  // ovn-kubernetes' ovn-controller and ovs-node containers (and kube-ovn's ovs-ovn) tail the daemons' log files to stdout
  const ovn = [
    "2024-03-05T08:11:02.417123456Z stdout F 2024-03-05T08:11:02.417Z|00031|binding|INFO|Claiming lport shop_cart-7d9f8b-xk2lp for this chassis.",
    "2024-03-05T08:11:02.470551002Z stdout F 2024-03-05T08:11:02.470Z|00034|rconn|WARN|unix:/var/run/openvswitch/br-int.mgmt: connection failed (No such file or directory)",
    "2024-03-05T08:11:03.000907113Z stdout F 2024-03-05T08:11:03Z|00001|pinctrl(ovn_pinctrl0)|INFO|unix:/var/run/openvswitch/br-int.mgmt: connecting to switch",
    "2024-03-05T08:11:04.200230115Z stdout F 2024-03-05T08:11:04.200Z|00035|ovsdb_idl|ERR|tcp:172.18.0.3:6642: transaction error",
  ].join("\n");

  it("CRI log: the vlog stamp, level, module and thread are read, not kept in the message", () => {
    const f = parseFile("pods/openshift-ovn-kubernetes_ovnkube-node-x7k2p_0c1d2e3f/ovn-controller/0.log", ovn);
    expect(f.format).toBe("cri-log");
    expect(f.counts).toMatchObject({ lines: 4, records: 4, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(["2024-03-05T08:11:02.417Z", "2024-03-05T08:11:02.470Z", "2024-03-05T08:11:03.000Z", "2024-03-05T08:11:04.200Z"]);
    expect(f.records.map((r) => r.severity)).toEqual([1, 2, 1, 3]);
    expect(f.records.map((r) => r.component)).toEqual(["ovn", "ovn", "ovn", "ovn"]);
    expect(f.records[0].message).toBe("Claiming lport shop_cart-7d9f8b-xk2lp for this chassis.");
    expect(f.records[1].fields).toMatchObject({ seq: "00034", module: "rconn" });
    expect(f.records[2]).toMatchObject({
      message: "unix:/var/run/openvswitch/br-int.mgmt: connecting to switch",
      fields: { seq: "00001", module: "pinctrl", thread: "ovn_pinctrl0" },
    });
    expect(f.records[3].message).toBe("tcp:172.18.0.3:6642: transaction error");
  });

  it("docker json-file and a journal with ISO stamps: the same lines read alike", () => {
    const docker = [
      '{"log":"2024-03-05T08:10:59.899Z|00042|netdev_linux(handler5)|WARN|genev_sys_6081: removing policing failed: No such device\\n","stream":"stdout","time":"2024-03-05T08:10:59.900000000Z"}',
      '{"log":"2024-03-05T08:11:00.100Z|00043|bridge|ERR|could not open network device gre0 (No such device)\\n","stream":"stdout","time":"2024-03-05T08:11:00.100300000Z"}',
    ].join("\n");
    const f = parseFile("containers/0a1b/0a1b-json.log", docker);
    expect(f.format).toBe("docker-json");
    expect(f.records.map(iso)).toEqual(["2024-03-05T08:10:59.899Z", "2024-03-05T08:11:00.100Z"]);
    expect(f.records.map((r) => [r.component, r.severity, r.message])).toEqual([
      ["ovs", 2, "genev_sys_6081: removing policing failed: No such device"],
      ["ovs", 3, "could not open network device gre0 (No such device)"],
    ]);
    expect(f.records[0].fields).toMatchObject({ seq: "00042", module: "netdev_linux", thread: "handler5" });

    const g = parseFile(
      "journal.log",
      "2024-03-05T08:11:00+0000 wrk-2 ovn-controller[1234]: 2024-03-05T08:11:00.100Z|00043|binding|ERR|Failed to bind lport shop_cart",
    );
    expect(g.format).toBe("journal-short-iso");
    expect(g.records.map(iso)).toEqual(["2024-03-05T08:11:00.100Z"]);
    expect(g.records[0]).toMatchObject({
      component: "ovn",
      severity: 3,
      message: "Failed to bind lport shop_cart",
      fields: { seq: "00043", module: "binding" },
    });
  });
});

describe("Cilium >= 1.17 slog", () => {
  it("text handler: unquoted time, source before msg", () => {
    const text = [
      'time=2025-03-04T18:22:40.1Z level=info source=/go/src/github.com/cilium/cilium/pkg/cmdref/cmdref.go:22 msg="Cilium 1.17.2 go version go1.23.7 linux/amd64"',
      'time=2025-03-04T18:22:41.50422311Z level=info source=/go/src/github.com/cilium/cilium/pkg/cni/config.go:288 msg="Wrote CNI configuration file" module=agent.infra.cni-config cniPath=/host/etc/cni/net.d/05-cilium.conflist',
    ].join("\n");
    const f = parseFile("cilium-agent.log", text);
    expect(f.format).toBe("cilium-logfmt");
    expect(f.counts).toMatchObject({ records: 2, skipped: 0 });
    expect(f.records[1]).toMatchObject({ component: "cilium", message: "Wrote CNI configuration file", fields: { module: "agent.infra.cni-config" } });
    expect(iso(f.records[1])).toBe("2025-03-04T18:22:41.504Z");
  });

  it("JSON handler: source object before msg, uppercase level", () => {
    const text = [
      '{"time":"2025-03-04T18:22:41.5Z","level":"INFO","source":{"function":"main.run","file":"/go/src/x.go","line":3},"msg":"Wrote CNI configuration file","module":"agent.infra.cni-config"}',
      '{"time":"2025-03-04T18:22:47.9Z","level":"ERROR","source":{"function":"main.run","file":"/go/src/x.go","line":9},"msg":"Unable to create endpoint","module":"agent.controlplane.daemon","error":"context deadline exceeded"}',
    ].join("\n");
    const f = parseFile("cilium.json", text);
    expect(f.format).toBe("cilium-json");
    expect(f.records.map((r) => r.severity)).toEqual([1, 3]);
    expect(f.records[0].message).toBe("Wrote CNI configuration file");
  });
});

describe("k0s: each child line wrapped in the supervisor's logrus", () => {
  const text = [
    'Mar 05 08:01:10 w1 k0s[1033]: time="2024-03-05 08:01:10" level=info msg="Starting to supervise" component=kubelet',
    'Mar 05 08:01:12 w1 k0s[1033]: time="2024-03-05 08:01:12" level=info msg="E0305 08:01:12.113344    1088 remote_runtime.go:193] \\"RunPodSandbox from runtime service failed\\" err=\\"rpc error: code = Unknown desc = failed to setup network for sandbox \\\\\\"aa11\\\\\\": plugin type=\\\\\\"bridge\\\\\\" failed (add): no IP ranges specified\\"" component=kubelet stream=stderr',
    'Mar 05 08:01:13 w1 k0s[1033]: time="2024-03-05 08:01:13" level=info msg="time=\\"2024-03-05T08:01:13.220145871Z\\" level=error msg=\\"RunPodSandbox for &PodSandboxMetadata{Name:web-1,Uid:u1,Namespace:shop,Attempt:0,} failed, error\\" error=\\"x\\"" component=containerd stream=stderr',
    'Mar 05 08:01:14 w1 k0s[1033]: time="2024-03-05 08:01:14" level=info msg="waiting for the API server" component=konnectivity stream=stdout',
  ].join("\n");
  const f = parseFile("k0s.log", text);

  it("a child's klog line: kubelet, its own stamp (year from k0s'), level and quoting", () => {
    expect(f.format).toBe("journal-short");
    const r = f.records[1];
    expect(r).toMatchObject({ component: "kubelet", severity: 3, pid: 1033 }); // the journal envelope's pid
    expect(iso(r)).toBe("2024-03-05T08:01:12.113Z");
    expect(r.fields?.err).toBe(
      'rpc error: code = Unknown desc = failed to setup network for sandbox "aa11": plugin type="bridge" failed (add): no IP ranges specified',
    );
    expect(r.message.startsWith("RunPodSandbox from runtime service failed err=")).toBe(true);
  });

  it("containerd's logrus line inside: containerd, error, ns stamp", () => {
    expect(f.records[2]).toMatchObject({
      component: "containerd",
      severity: 3,
      message: "RunPodSandbox for &PodSandboxMetadata{Name:web-1,Uid:u1,Namespace:shop,Attempt:0,} failed, error",
    });
    expect(iso(f.records[2])).toBe("2024-03-05T08:01:13.220Z");
  });

  it("the supervisor's own message about a child stays k0s'; a plain child line takes the child's name", () => {
    expect(f.records[0]).toMatchObject({ component: "k0s", message: "Starting to supervise" });
    expect(f.records[3]).toMatchObject({ component: "konnectivity", severity: 1, message: "waiting for the API server" });
  });
});

describe("containerd's messages printed by k3s", () => {
  it("logrus terminal layout with a full stamp: the CRI failure is containerd's, k3s' own line stays k3s", () => {
    const text = [
      "INFO[2019-03-11T09:15:00.100000000+01:00] Starting k3s v0.2.0 (2771ae1)",
      'ERRO[2019-03-11T09:15:02.447120931+01:00] RunPodSandbox for &PodSandboxMetadata{Name:traefik-1,Uid:aa2c,Namespace:kube-system,Attempt:0,} failed, error  error="open /run/flannel/subnet.env: no such file or directory"',
    ].join("\n");
    const f = parseFile("k3s-server.log", text);
    expect(f.format).toBe("logrus-text");
    expect(f.records.map((r) => r.component)).toEqual(["k3s", "containerd"]);
    expect(iso(f.records[1])).toBe("2019-03-11T08:15:02.447Z");
  });

  it("under k3s[pid] in the journal", () => {
    const line = 'Mar 11 09:15:02 n1 k3s[812]: time="2019-03-11T09:15:02.447120931+01:00" level=error msg="StopPodSandbox for \\"3f1e\\" failed" error="x"';
    const f = parseFile("j.log", line, { year: 2019 });
    expect(f.records[0].component).toBe("containerd");
  });
});

describe("klog of programs other than the kubelet", () => {
  it("kube-router's pod log: told by its messages, whatever the path", () => {
    const text = [
      "I1107 21:14:01.220431       1 version.go:21] Running /usr/local/bin/kube-router version v2.1.3, built on 2024-06-02T10:00:00Z, go1.22.3",
      "E1107 21:14:02.660118       1 network_routes_controller.go:287] Failed to get pod CIDR from node spec",
    ].join("\n");
    const f = parseFile("pasted.log", text, { year: 2024 });
    expect(f.records.map((r) => r.component)).toEqual(["kube-router", "kube-router"]);
  });

  it("a kubelet log mentioning a kube-router pod stays the kubelet's", () => {
    const text = [
      'I1107 21:14:01.220431    2817 kubelet.go:2430] "SyncLoop ADD" source="api" pods=["kube-system/kube-router-x7k2p"]',
      'E1107 21:14:02.660118    2817 pod_workers.go:1298] "Error syncing pod, skipping" pod="kube-system/kube-router-x7k2p"',
    ].join("\n");
    const f = parseFile("pasted.log", text, { year: 2024 });
    expect(f.records.map((r) => r.component)).toEqual(["kubelet", "kubelet"]);
  });

  // kindnetd (kubernetes-sigs/kind `images/kindnetd`), the CNI daemon of kind clusters: its start and its node loop
  const kindnet = [
    "I1203 10:01:02.123456       1 main.go:148] setting mtu 1500 for CNI",
    "I1203 10:01:02.124010       1 main.go:182] noMask IPv4 subnets: [10.244.0.0/16]",
    'I1203 10:01:05.000001       1 main.go:118] Failed to get nodes, retrying after error: Get "https://10.96.0.1:443/api/v1/nodes": dial tcp 10.96.0.1:443: i/o timeout',
    "I1203 10:01:12.130000       1 main.go:223] Handling node with IPs: map[172.18.0.3:{}]",
    "I1203 10:01:12.130100       1 main.go:250] Node kind-worker2 has CIDR [10.244.2.0/24]",
  ];

  it("kindnet's CRI pod log (as `kind export logs` copies it): the container name `kindnet-cni` is stored as kindnet", () => {
    const text = kindnet.map((l, i) => `2024-12-03T10:01:1${i}.200000000Z stderr F ${l}`).join("\n");
    const f = parseFile("kind-worker/pods/kube-system_kindnet-x7k2p_5c1f0d2e-7a4b-4c8e-9f10-2b3c4d5e6f70/kindnet-cni/0.log", text);
    expect(f.format).toBe("cri-log");
    expect(f.counts).toMatchObject({ lines: 5, records: 5 });
    expect(f.records.map((r) => r.component)).toEqual(Array(5).fill("kindnet"));
    expect(f.records[0].ident).toBe("kindnet-cni");
    expect(iso(f.records[2])).toBe("2024-12-03T10:01:05.000Z");
  });

  it("a klog file named after kindnet is its own, not the kubelet's", () => {
    const f = parseFile("kube-system/kindnet-x7k2p/logs.txt", kindnet.join("\n"), { year: 2024 });
    expect(f.format).toBe("klog");
    expect(f.kind).toBe("kindnet");
    expect(f.records.map((r) => r.component)).toEqual(Array(5).fill("kindnet"));
  });

  // ovnkube-node's CNI server (ovn-kubernetes `go-controller/pkg/cni/cni.go`, both lines at info), the
  // annotation timeout of ovn-kubernetes#2590
  const SB = "ad79dd3cae2322a8f0d50bbfba9a3ea0cd0f3d9f3d42eac4b575768e1cc15292";
  const REQ = `[default/webapp-7575f87ff9-abcd1 ${SB}]`;
  const ovnk = [
    `I1019 04:55:02.101000    3512 cni.go:227] ${REQ} ADD starting CNI request ${REQ}`,
    `I1019 04:55:07.065100    3512 cni.go:238] ${REQ} ADD finished CNI request ${REQ}, result "", err failed to get pod annotation: timed out waiting for annotations: context deadline exceeded`,
    "I1019 04:55:08.000000    3512 ovs.go:200] Exec(12): /usr/bin/ovs-vsctl --timeout=15 --if-exists del-port ad79dd3cae2322a8",
    `I1019 04:55:09.001000    3512 cni.go:238] ${REQ} DEL finished CNI request ${REQ}, result "", err <nil>`,
  ];

  it("ovnkube-node's klog, pasted without a path or under its pod's name, is OVN-Kubernetes' (cni-agent), not the kubelet's", () => {
    for (const path of ["pasted.log", "openshift-ovn-kubernetes/ovnkube-node-x7k2p/ovnkube-node.log"]) {
      const f = parseFile(path, ovnk.join("\n"), { year: 2021 });
      expect(f.format, path).toBe("klog");
      expect(
        f.records.map((r) => r.component),
        path,
      ).toEqual(Array(4).fill("ovn"));
      const cs = f.records.map((r) => classifyRecord(r));
      expect(
        cs.map((c) => [c.lane, c.kind, c.pod, c.sandboxId]),
        path,
      ).toEqual([
        ["cni-agent", "sandbox.create.start", "default/webapp-7575f87ff9-abcd1", SB],
        ["cni-agent", "cni.add.failed", "default/webapp-7575f87ff9-abcd1", SB],
        ["cni-agent", "log", null, null],
        ["cni-agent", "log", null, null],
      ]);
      expect(cs[1].errorClass).toBe("cni-pod-address-pending");
    }
  });

  it("a file named after an agent whose lines are the kubelet's is the kubelet's", () => {
    const text = "E0421 19:45:18.491954    8135 remote_runtime.go:105] RunPodSandbox from runtime service failed: rpc error: code = Unknown desc = x";
    const f = parseFile("logs/kube-router.log", text, { year: 2020 });
    expect(f.records[0].component).toBe("kubelet");
    const g = parseFile("logs/kube-router.log", "I0421 19:45:18.491954       1 health_controller.go:80] Received heartbeat", { year: 2020 });
    expect(g.records[0].component).toBe("kube-router");
  });
});
