/**
 * Cloud log exports end to end through `parseFile`: CloudWatch Logs (Insights CSV, AWS CLI JSON and
 * text output, `aws logs tail`), the Cloud Logging console's expanded view and `gcloud logging read`
 * YAML; and two CNI console gaps: calico-node's untimed lines, Multus pod logs with a
 * `<pod>:<container>` lead and a hard-wrapped JSON config. Inputs are written here in each tool's
 * documented shape.
 */
import { describe, expect, it } from "vitest";
import { recordIso as iso, expectAccounting } from "../testing/parse-cases";
import { parseFile } from "./parse-file";

const KLOG_FAIL = (stamp: string, sb: string) =>
  `E${stamp}    2871 kuberuntime_manager.go:1172] "CreatePodSandbox for pod failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"${sb}\\": plugin type=\\"aws-cni\\" failed (add): add cmd: failed to assign an IP address to container" pod="default/api-6f7d9c8b5-q2w3e"`;

describe("CloudWatch Logs Insights CSV", () => {
  const csvMsg = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const row = (ts: string, jstamp: string, kstamp: string, sb: string) =>
    `${ts},${csvMsg(`${jstamp} ip-10-1-2-3.eu-west-1.compute.internal kubelet[2871]: ${KLOG_FAIL(kstamp, sb)}`)},i-0f1e2d3c4b5a69788,123456789012:/aws/eks/stage/nodes`;
  const text = [
    "@timestamp,@message,@logStream,@log",
    row("2023-09-07 22:04:31.870", "Sep  7 22:04:31", "0907 22:04:31.870411", "c3c3"),
    row("2023-09-07 22:04:16.502", "Sep  7 22:04:16", "0907 22:04:16.502977", "b2b2"),
    // a message holding a newline: the quoted field goes on over the next line
    '2023-09-07 22:04:01.110,"Sep  7 22:04:01 ip-10-1-2-3.eu-west-1.compute.internal kubelet[2871]: I0907 22:04:01.110020    2871 kubelet.go:2440] ""first line',
    'second line of the same message""",i-0f1e2d3c4b5a69788,123456789012:/aws/eks/stage/nodes',
  ].join("\n");
  const f = parseFile("results.csv", text);

  it("reads every row, newest first reversed, the journal host as node", () => {
    expect(f.format).toBe("cloudwatch-insights-csv");
    expect(f.counts).toMatchObject({ lines: 5, records: 3, skipped: 0, banner: 1, continuation: 1 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(["2023-09-07T22:04:01.110Z", "2023-09-07T22:04:16.502Z", "2023-09-07T22:04:31.870Z"]);
    for (const r of f.records) expect(r).toMatchObject({ host: "ip-10-1-2-3.eu-west-1.compute.internal", component: "kubelet", ident: "kubelet" });
    expect(f.records[2]).toMatchObject({ severity: 3, precision: "us" });
    expect(f.records[2].message).toContain(String.raw`failed to setup network for sandbox \"c3c3\"`);
    expect(f.records[2].fields).toMatchObject({ logStream: "i-0f1e2d3c4b5a69788", logGroup: "123456789012:/aws/eks/stage/nodes" });
    expect(f.records[0].message).toBe("first line\nsecond line of the same message");
  });
});

describe("aws logs filter-log-events JSON", () => {
  const ev = (ts: number, msg: string, id: string) => [
    "        {",
    '            "logStreamName": "i-0f1e2d3c4b5a69788",',
    `            "timestamp": ${ts},`,
    `            "message": ${JSON.stringify(msg)},`,
    `            "ingestionTime": ${ts + 640},`,
    `            "eventId": "${id}"`,
    "        }",
  ];
  const e1 = ev(Date.UTC(2023, 8, 7, 22, 4, 16, 502), KLOG_FAIL("0907 22:04:16.502977", "b2b2"), "1");
  const e2 = ev(Date.UTC(2023, 8, 7, 22, 4, 31, 870), KLOG_FAIL("0907 22:04:31.870411", "c3c3"), "2");
  e1[e1.length - 1] += ",";
  const text = [
    "aws logs filter-log-events --log-group-name /aws/eks/stage/nodes --filter-pattern CreatePodSandbox",
    "{",
    '    "events": [',
    ...e1,
    ...e2,
    "    ],",
    '    "searchedLogStreams": []',
    "}",
  ].join("\n");
  const f = parseFile("out.json", text);

  it("reads each event at its own line, the instance id stream as node, the klog stamp placed by the event", () => {
    expect(f.format).toBe("cloudwatch-events-json");
    expect(f.counts).toMatchObject({ records: 2, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map((r) => r.line)).toEqual([4, 11]);
    expect(f.records.map(iso)).toEqual(["2023-09-07T22:04:16.502Z", "2023-09-07T22:04:31.870Z"]);
    expect(f.records[0]).toMatchObject({ host: "i-0f1e2d3c4b5a69788", severity: 3, precision: "us", yearInferred: false });
  });

  it("reads the same events printed with --output text", () => {
    const t = [
      `EVENTS\t1\t${Date.UTC(2023, 8, 7, 22, 4, 17)}\tip-10-1-2-3.eu-west-1.compute.internal-kubelet.service\t${KLOG_FAIL("0907 22:04:16.502977", "b2b2")}\t${Date.UTC(2023, 8, 7, 22, 4, 16, 502)}`,
      "SEARCHEDLOGSTREAMS\tip-10-1-2-3.eu-west-1.compute.internal-kubelet.service\tTrue",
    ].join("\n");
    const g = parseFile("out.txt", t);
    expect(g.format).toBe("cloudwatch-events-text");
    expect(g.counts).toMatchObject({ records: 1, banner: 1, skipped: 0 });
    expect(g.records[0]).toMatchObject({ host: "ip-10-1-2-3.eu-west-1.compute.internal", severity: 3 });
    expect(iso(g.records[0])).toBe("2023-09-07T22:04:16.502Z");
  });
});

describe("aws logs tail", () => {
  const text = [
    "$ aws logs tail /aws/eks/stage/nodes --since 2h",
    `2023-09-07T22:04:16.502000+00:00 i-0f1e2d3c4b5a69788 Sep  7 22:04:16 ip-10-1-2-3.eu-west-1.compute.internal kubelet[2871]: ${KLOG_FAIL("0907 22:04:16.502977", "b2b2")}`,
    `2023-09-07T22:04:31.870000+00:00 i-0f1e2d3c4b5a69788 Sep  7 22:04:31 ip-10-1-2-3.eu-west-1.compute.internal kubelet[2871]: ${KLOG_FAIL("0907 22:04:31.870411", "c3c3")}`,
    "2023-09-07T22:04:40+00:00 kube-apiserver-7c1d2e3f4a5b6c7d8e9f I0907 22:04:40.001000      11 controller.go:615] quota admission added evaluator for: leases.coordination.k8s.io",
  ].join("\n");
  const f = parseFile("tail.txt", text);

  it("reads the journal line inside: its host wins over the stream; other streams name no node", () => {
    expect(f.format).toBe("cloudwatch-tail");
    expect(f.counts).toMatchObject({ records: 3, banner: 1, skipped: 0 });
    expect(f.records.map(iso)).toEqual(["2023-09-07T22:04:16.502Z", "2023-09-07T22:04:31.870Z", "2023-09-07T22:04:40.001Z"]);
    expect(f.records[0]).toMatchObject({ host: "ip-10-1-2-3.eu-west-1.compute.internal", ident: "kubelet", component: "kubelet", severity: 3 });
    expect(f.records[2].host).toBeUndefined();
    expect(f.records[2].fields?.logStream).toBe("kube-apiserver-7c1d2e3f4a5b6c7d8e9f");
  });
});

describe("Cloud Logging console expanded entries and gcloud YAML", () => {
  const entry = (id: string, kstamp: string, ts: string) => [
    "{",
    ` insertId:  "${id}"  `,
    " jsonPayload: {",
    `  MESSAGE:  "E${kstamp}    1630 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"CreatePodSandbox\\" for \\"web-0_shop(2c1d)\\"" pod="shop/web-0""   `,
    '  SYSLOG_IDENTIFIER:  "kubelet"   ',
    '  _HOSTNAME:  "gke-shop-pool-2-9a8b7c6d-m3n4"   ',
    " }",
    ' logName:  "projects/shop-prod/logs/kubelet"  ',
    " resource: {",
    "  labels: {",
    '   node_name:  "gke-shop-pool-2-9a8b7c6d-m3n4"    ',
    "  }",
    '  type:  "k8s_node"   ',
    " }",
    ' severity:  "ERROR"  ',
    ` timestamp:  "${ts}"  `,
    "}",
  ];

  it("console: unquoted keys, unescaped inner quotes; newest first reversed", () => {
    const text = [
      ...entry("b", "1104 03:10:20.250006", "2022-11-04T03:10:20.250006Z"),
      ...entry("a", "1104 03:10:05.125004", "2022-11-04T03:10:05.125004Z"),
    ].join("\n");
    const f = parseFile("entries.txt", text);
    expect(f.format).toBe("gcp-logging-console");
    expect(f.counts).toMatchObject({ lines: 34, records: 2, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(["2022-11-04T03:10:05.125Z", "2022-11-04T03:10:20.250Z"]);
    expect(f.records[0]).toMatchObject({ host: "gke-shop-pool-2-9a8b7c6d-m3n4", component: "kubelet", severity: 3 });
    expect(f.records[0].message).toContain('pod="shop/web-0"');
  });

  it("gcloud YAML: `---` documents, a wrapped scalar folded back", () => {
    const text = [
      "---",
      "insertId: 2b",
      "logName: projects/shop-prod/logs/kubelet",
      "receiveTimestamp: '2022-11-04T03:10:21.9Z'",
      "resource:",
      "  labels:",
      "    node_name: gke-shop-pool-2-9a8b7c6d-m3n4",
      "  type: k8s_node",
      "severity: ERROR",
      `textPayload: 'E1104 03:10:20.250006    1630 pod_workers.go:1301] "Error syncing pod,`,
      `  skipping" pod="shop/web-0"'`,
      "timestamp: '2022-11-04T03:10:20.250006Z'",
      "---",
      "insertId: 1a",
      "logName: projects/shop-prod/logs/kubelet",
      "resource:",
      "  labels:",
      "    node_name: gke-shop-pool-2-9a8b7c6d-m3n4",
      "  type: k8s_node",
      "severity: INFO",
      `textPayload: I1104 03:10:05.125004    1630 kubelet.go:2440] "SyncLoop ADD" source="api"`,
      "timestamp: '2022-11-04T03:10:05.125004Z'",
    ].join("\n");
    const f = parseFile("read.yaml", text);
    expect(f.format).toBe("gcp-logging-yaml");
    expect(f.counts).toMatchObject({ lines: 22, records: 2, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(["2022-11-04T03:10:05.125Z", "2022-11-04T03:10:20.250Z"]);
    expect(f.records[1]).toMatchObject({
      host: "gke-shop-pool-2-9a8b7c6d-m3n4",
      component: "kubelet",
      severity: 3,
      message: 'Error syncing pod, skipping pod="shop/web-0"',
    });
  });
});

describe("CNI console gaps", () => {
  it("calico-node: bird and startup lines without a stamp are untimed records", () => {
    const text = [
      "2021-02-10 13:02:11.402 [INFO][8] startup/startup.go 382: Early log level set to info",
      "2021-02-10 13:02:11.650 [INFO][8] startup/startup.go 218: Using node name: worker-3",
      "Calico node started successfully",
      "bird: device1: Initializing",
      "bird: Unable to open configuration file /etc/calico/confd/config/bird6.cfg: No such file or directory",
      "bird: Started",
      "2021-02-10 13:02:12.903 [INFO][51] felix/daemon.go 348: Successfully loaded configuration.",
    ].join("\n");
    const f = parseFile("calico-node.log", text);
    expect(f.format).toBe("calico-cni");
    expect(f.counts).toMatchObject({ lines: 7, records: 7, skipped: 0, noTimestamp: 4 });
    expect(f.records.slice(2, 6).map((r) => [r.ts, r.ident, r.severity])).toEqual([
      [null, "calico-node", 1],
      [null, "bird", 1],
      [null, "bird", 3],
      [null, "bird", 1],
    ]);
    for (const r of f.records) expect(r.component).toBe("cni-calico");
  });

  it("multus: `<pod>:<container>` lead, `+0000` offsets, hard-wrapped JSON as continuations", () => {
    const text = [
      "kube-multus-ds-9q8w7:kube-multus 2020-03-02T11:20:31+0000 Generating Multus configuration file using files in /host/etc/cni/net.d...",
      "kube-multus-ds-9q8w7:kube-multus 2020-03-02T11:20:32+0000 Config file created @ /host/etc/cni/net.d/00-multus.conf",
      'kube-multus-ds-9q8w7:kube-multus { "cniVersion": "0.3.1", "name": "multus-cni-network", "type": "multus", "delegates": [ { "cniVe',
      'rsion": "0.3.1", "name": "k8s-pod-network", "plugins": [ { "type": "calico" } ] } ] }',
      "kube-multus-ds-9q8w7:kube-multus 2020-03-02T11:20:32+0000 Entering sleep (success)...",
    ].join("\n");
    const f = parseFile("multus.txt", text);
    expect(f.format).toBe("multus");
    expect(f.counts).toMatchObject({ lines: 5, records: 3, continuation: 2, skipped: 0 });
    expect(f.records.map(iso)).toEqual(["2020-03-02T11:20:31.000Z", "2020-03-02T11:20:32.000Z", "2020-03-02T11:20:32.000Z"]);
    expect(f.records[1].fields).toMatchObject({ prefixPod: "kube-multus-ds-9q8w7", prefixContainer: "kube-multus" });
    expect(f.records[1].endLine).toBe(4);
  });
});

describe("CloudWatch events JSON with blank lines inside", () => {
  it("starts each record on the line its object starts on, so the line accounting adds up", () => {
    const ev =
      '{"timestamp":1715674293199,"message":"E0514 08:11:33.199000    3102 remote_runtime.go:176] \\"RunPodSandbox from runtime service failed\\"","ingestionTime":1715674293300}';
    const f = parseFile("events.json", ['{"events":[', "", "", ev, "]}"].join("\n"));
    expect(f.format).toBe("cloudwatch-events-json");
    expect(f.records.map((r) => r.line)).toEqual([4]);
    expect(f.counts).toMatchObject({ lines: 5, blank: 2, records: 1, banner: 1, continuation: 1, skipped: 0 });
    expect(f.counts.parsed + f.counts.blank + f.counts.skipped).toBe(f.counts.lines);
  });
});
