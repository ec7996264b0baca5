/**
 * Node log shapes whose writer is named by the collector rather than the line: MicroK8s's snap
 * identifiers (`microk8s.daemon-containerd`, `microk8s.daemon-kubelite`), `journalctl -o short-iso
 * --no-hostname`, and CloudWatch Container Insights dataplane streams (`<host>-<unit>`). Each file
 * parsed by `parseFile`, its records classified as the ingest does.
 */
import { describe, expect, it } from "vitest";
import { classifyRecord } from "../normalise/classify";
import { expectAccounting, recordIso as iso } from "../testing/parse-cases";
import { parseFile } from "./parse-file";

const SB1 = "4be7c1d09a3f5e2b8c6d0a1f3e5b7c9d2a4f6e8b0c1d3e5f7a9b2c4d6e8f0a1b";
const SB2 = "9c0e2a4b6d8f1a3c5e7b9d0f2a4c6e8b1d3f5a7c9e0b2d4f6a8c1e3b5d7f9a0c";

describe("MicroK8s journal (`journalctl -u snap.microk8s.daemon-*`, Norwegian locale `okt.`)", () => {
  const text = [
    `okt. 14 06:31:10 mk-node microk8s.daemon-containerd[2210]: time="2026-10-14T06:31:10.004512377+02:00" level=info msg="StopPodSandbox for \\"${SB1}\\""`,
    `okt. 14 06:31:11 mk-node microk8s.daemon-containerd[2210]: time="2026-10-14T06:31:11.250093918+02:00" level=error msg="StopPodSandbox for \\"${SB1}\\" failed" error="failed to destroy network for sandbox \\"${SB1}\\": plugin type=\\"calico\\" failed (delete): error getting ClusterInformation: connection is unauthorized"`,
    `okt. 14 06:31:12 mk-node microk8s.daemon-kubelite[2388]: E1014 06:31:12.731402    2388 log.go:32] "StopPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to destroy network for sandbox \\"${SB1}\\"" podSandboxID="${SB1}"`,
    "okt. 14 06:31:13 mk-node microk8s.daemon-kubelite[2388]: + export XDG_RUNTIME_DIR=/var/snap/microk8s/common/run",
    'okt. 14 06:31:14 mk-node microk8s.daemon-flanneld[1990]: I1014 06:31:14.100200    1990 main.go:212] "Installing signal handlers"',
  ].join("\n");
  const f = parseFile("journal-microk8s.txt", text, { year: 2026 });

  it("reads 5 journal-short records at containerd's +02:00 stamps and klog's prefix-zoned stamps", () => {
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 5, records: 5, skipped: 0 });
    expectAccounting(f);
    expect(f.records.slice(0, 2).map(iso)).toEqual(["2026-10-14T04:31:10.004Z", "2026-10-14T04:31:11.250Z"]);
    expect(f.records.map((r) => r.severity)).toEqual([1, 3, 3, 1, 1]);
  });

  it("stores `microk8s.daemon-containerd` lines as containerd (runtime lane), kubelite's klog as kubelet", () => {
    expect(f.records.map((r) => r.ident)).toEqual([
      "microk8s.daemon-containerd",
      "microk8s.daemon-containerd",
      "microk8s.daemon-kubelite",
      "microk8s.daemon-kubelite",
      "microk8s.daemon-flanneld",
    ]);
    expect(f.records.map((r) => r.component)).toEqual(["containerd", "containerd", "kubelet", "microk8s.daemon-kubelite", "flannel"]);
    const c = f.records.map(classifyRecord);
    // the snap wrapper's shell trace under kubelite keeps its identifier: not the kubelet's line
    expect(c.map((x) => x.lane)).toEqual(["runtime", "runtime", "kubelet", "other", "cni-agent"]);
    expect(c[1]).toMatchObject({ kind: "sandbox.stop.failed", sandboxId: SB1 });
    expect(c[2]).toMatchObject({ kind: "sandbox.stop.failed", sandboxId: SB1 });
  });
});

describe("journalctl -o short-iso --no-hostname", () => {
  const text = [
    `2026-12-03T04:14:34+0000 kubelet[1730]: E1203 04:14:34.100731    1730 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"${SB2}\\": plugin type=\\"flannel\\" failed (add): open /run/flannel/subnet.env: no such file or directory"`,
    `2026-12-03T04:14:34+0000 kubelet[1730]: E1203 04:14:34.100902    1730 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err="rpc error" pod="kube-system/coredns-7db6d8ff4d-9xw2q"`,
    `2026-12-03T04:14:35.118220+0000 containerd[880]: time="2026-12-03T04:14:35.118011402Z" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:coredns-7db6d8ff4d-9xw2q,Uid:5d1e,Namespace:kube-system,Attempt:4,} failed, error" error="failed to setup network for sandbox \\"${SB2}\\": exit status 1"`,
    "2026-12-03T04:14:36+0000 kernel: cni0: port 2(veth3a1b2c4d) entered disabled state",
    "2026-12-03T04:14:37Z microk8s.daemon-containerd[881]: + ARCH=x86_64",
  ].join("\n");
  const f = parseFile("kubelet-nohost.log", text);

  it("reads all 5 lines as journal-short-iso records with no host (before: unknown-format, skipped)", () => {
    expect(f.format).toBe("journal-short-iso");
    expect(f.counts).toMatchObject({ lines: 5, records: 5, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map((r) => r.host)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(f.records.map((r) => r.ident)).toEqual(["kubelet", "kubelet", "containerd", "kernel", "microk8s.daemon-containerd"]);
    expect(f.records.map((r) => r.pid)).toEqual([1730, 1730, 880, undefined, 881]);
    expect(f.records.map(iso)).toEqual([
      "2026-12-03T04:14:34.100Z",
      "2026-12-03T04:14:34.100Z",
      "2026-12-03T04:14:35.118Z",
      "2026-12-03T04:14:36.000Z",
      "2026-12-03T04:14:37.000Z",
    ]);
    expect(f.records.map((r) => r.component)).toEqual(["kubelet", "kubelet", "containerd", "kernel", "containerd"]);
  });

  it("classifies the sandbox failure chain with pod and sandbox id", () => {
    const c = f.records.map(classifyRecord);
    expect(c[0]).toMatchObject({ kind: "sandbox.create.failed", lane: "kubelet", sandboxId: SB2 });
    expect(c[1]).toMatchObject({ kind: "sandbox.create.failed", pod: "kube-system/coredns-7db6d8ff4d-9xw2q" });
    expect(c[2]).toMatchObject({ kind: "sandbox.create.failed", lane: "runtime", pod: "kube-system/coredns-7db6d8ff4d-9xw2q", sandboxId: SB2 });
  });

  it("a stamped Go panic is still no journal line", () => {
    const g = parseFile("p.txt", "2026-12-03T04:14:34.000000001Z panic: runtime error: index out of range [3] with length 3");
    expect(g.format).not.toBe("journal-short-iso");
  });
});

describe("CloudWatch Logs Insights CSV of Container Insights dataplane streams (`<host>-<unit>`)", () => {
  const host = "ip-10-0-7-21.us-west-2.compute.internal";
  const text = [
    "@timestamp,@message,@logStream,@log",
    `2026-12-03 20:01:02.123,"E1203 20:01:02.123456    3102 log.go:32] ""RunPodSandbox from runtime service failed"" err=""rpc error: code = Unknown desc = failed to setup network for sandbox \\""${SB1}\\"": add cmd: failed to assign an IP address to container""",${host}-kubelet.service,111122223333:/aws/containerinsights/prod/dataplane`,
    `2026-12-03 20:01:02.900,"time=""2026-12-03T20:01:02.899311045Z"" level=error msg=""RunPodSandbox for &PodSandboxMetadata{Name:api-5f7c9d-kq2mz,Uid:77aa,Namespace:prod,Attempt:0,} failed, error"" error=""failed to setup network for sandbox \\""${SB1}\\"": add cmd: failed to assign an IP address to container""",${host}-containerd.service,111122223333:/aws/containerinsights/prod/dataplane`,
    `2026-12-03 20:01:03.000,"Successfully copied CNI plugin binary and config file.",aws-node-7xq2p_kube-system_aws-node-0123abcd,111122223333:/aws/containerinsights/prod/application`,
  ].join("\n");
  const f = parseFile("insights.csv", text);

  it("takes the unit after the host as the writer: kubelet and containerd (before: unknown, lane other)", () => {
    expect(f.format).toBe("cloudwatch-insights-csv");
    expect(f.counts).toMatchObject({ records: 3, banner: 1, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(["2026-12-03T20:01:02.123Z", "2026-12-03T20:01:02.899Z", "2026-12-03T20:01:03.000Z"]);
    expect(f.records.map((r) => r.host)).toEqual([host, host, undefined]);
    expect(f.records.map((r) => r.component)).toEqual(["kubelet", "containerd", "unknown"]);
    const c = f.records.map(classifyRecord);
    expect(c[0]).toMatchObject({ kind: "sandbox.create.failed", lane: "kubelet", sandboxId: SB1 });
    expect(c[1]).toMatchObject({ kind: "sandbox.create.failed", lane: "runtime", pod: "prod/api-5f7c9d-kq2mz", sandboxId: SB1 });
  });
});

describe("Container Insights dataplane events: `{hostname, systemd_unit, message}` (aws logs filter-log-events)", () => {
  const host = "ip-10-0-7-21.us-west-2.compute.internal";
  const stream = `${host}-dataplane.systemd.containerd.service`;
  const msg = (o: Record<string, string>) => JSON.stringify(JSON.stringify(o));
  const containerd = `time="2026-12-03T20:05:09.412087733Z" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:cart-0,Uid:91c2,Namespace:shop,Attempt:2,} failed, error" error="failed to setup network for sandbox \\"${SB2}\\": plugin type=\\"aws-cni\\" failed (add): add cmd: Error received from AddNetwork gRPC call"`;
  const kubelet = `E1203 20:05:09.420551    3102 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \\"CreatePodSandbox\\" for \\"cart-0_shop(91c2)\\"" pod="shop/cart-0" podUID="91c2"`;
  const text = [
    "{",
    '    "events": [',
    "        {",
    `            "logStreamName": "${stream}",`,
    '            "timestamp": 1796328309412,',
    `            "message": ${msg({ hostname: host, systemd_unit: "containerd.service", message: containerd })},`,
    '            "ingestionTime": 1796328310001,',
    '            "eventId": "38000000000000000000000000000000000000000000000000000001"',
    "        },",
    "        {",
    `            "logStreamName": "${host}-dataplane.systemd.kubelet.service",`,
    '            "timestamp": 1796328309420,',
    `            "message": ${msg({ hostname: host, systemd_unit: "kubelet.service", message: kubelet })},`,
    '            "ingestionTime": 1796328310002,',
    '            "eventId": "38000000000000000000000000000000000000000000000000000002"',
    "        }",
    "    ],",
    '    "searchedLogStreams": []',
    "}",
  ].join("\n");
  const f = parseFile("dataplane.json", text);

  it("reads the line inside `message` with the unit as identifier (before: the whole logrus line as an info message)", () => {
    expect(f.format).toBe("cloudwatch-events-json");
    expect(f.counts).toMatchObject({ records: 2, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(["2026-12-03T20:05:09.412Z", "2026-12-03T20:05:09.420Z"]);
    expect(f.records.map((r) => [r.host, r.ident, r.component, r.severity])).toEqual([
      [host, "containerd", "containerd", 3],
      [host, "kubelet", "kubelet", 3],
    ]);
    expect(f.records[0].message).toBe("RunPodSandbox for &PodSandboxMetadata{Name:cart-0,Uid:91c2,Namespace:shop,Attempt:2,} failed, error");
    expect(f.records[0].fields?.unit).toBe("containerd.service");
    const c = f.records.map(classifyRecord);
    expect(c[0]).toMatchObject({ kind: "sandbox.create.failed", lane: "runtime", pod: "shop/cart-0", sandboxId: SB2 });
    expect(c[1]).toMatchObject({ kind: "sandbox.create.failed", lane: "kubelet", pod: "shop/cart-0" });
  });
});
