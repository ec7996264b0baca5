/**
 * Cluster collectors and hand-made archives through the real pipeline (as collectors-node.test.ts):
 * OpenShift must-gather, the troubleshoot support bundle, `kubectl cluster-info dump`, a zip of
 * journalctl output, and plain logs (no collector): nodes, each file's kind and placement, the
 * boots, and the line accounting.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { buildTarGz } from "../lib/bundle/tar-build";
import { buildZip } from "../lib/bundle/zip-build";
import { boots, byPath, collectorDb, dashed, expectAccounting, klog } from "./collectors-fixture";

const { db, ingest } = collectorDb();

describe("cluster collector layouts through the pipeline", () => {
  it("OpenShift must-gather: merged master journals split by hostname (UTC), node-logs per folder, events YAML, pod logs placed by the pod's node", async () => {
    const top = "must-gather.local.5312345678901234/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-0123abcd";
    const W = "0b1c2d3e4f5a4b6c8d9e0f1a2b3c4d5e";
    const M = "1c2d3e4f5a6b4c7d8e9f0a1b2c3d4e5f";
    const kw = (h: string, t: string, pid: number, msg: string) => `May 19 ${t}.000100 ${h} kubenswrapper[${pid}]: ${klog("I", t, "000001", pid, msg)}`;
    const masters = [
      kw("master-0", "04:19:50", 3100, '"Starting kubelet main sync loop"'),
      kw("master-1", "04:19:55", 3200, '"Starting kubelet main sync loop"'),
      kw("master-0", "04:20:40", 3100, '"Updated node status"'),
    ].join("\n");
    const worker = [
      kw("worker-0", "04:15:00", 2100, '"Starting kubelet main sync loop"'),
      `-- Boot ${W} --`,
      kw("worker-0", "04:19:45", 2817, '"Starting kubelet main sync loop"'),
    ].join("\n");
    const events = [
      "apiVersion: v1",
      "items:",
      ...[
        ["worker-0", W, "04:20:31"],
        ["master-0", M, "04:20:35"],
      ].flatMap(([n, id, t]) => [
        "- apiVersion: v1",
        "  count: 1",
        `  firstTimestamp: "2025-05-19T${t}Z"`,
        "  involvedObject:",
        "    kind: Node",
        `    name: ${n}`,
        "  kind: Event",
        `  lastTimestamp: "2025-05-19T${t}Z"`,
        `  message: 'Node ${n} has been rebooted, boot id: ${dashed(id)}'`,
        "  metadata:",
        `    name: ${n}.183f0c2a9b1e4d77`,
        "    namespace: default",
        "  reason: Rebooted",
        "  source:",
        "    component: kubelet",
        `    host: ${n}`,
        "  type: Warning",
      ]),
      "kind: List",
    ].join("\n");
    const tgz = buildTarGz([
      { path: `${top}/version`, content: "openshift/must-gather\n4.16.3\n" },
      { path: `${top}/timestamp`, content: "2025-05-19 04:31:02.123456789 +0000 UTC m=+0.123456789\n" },
      { path: `${top}/host_service_logs/masters/kubelet_service.log`, content: masters },
      { path: `${top}/nodes/worker-0/worker-0_logs_kubelet.gz`, content: gzipSync(worker) },
      { path: `${top}/namespaces/default/core/events.yaml`, content: events },
      { path: `${top}/namespaces/openshift-sdn/pods/sdn-abcde/sdn-abcde.yaml`, content: "apiVersion: v1\nkind: Pod\nspec:\n  nodeName: worker-0\n" },
      {
        path: `${top}/namespaces/openshift-sdn/pods/sdn-abcde/sdn/sdn/logs/current.log`,
        content: "2025-05-19T04:20:02.104730000Z I0519 04:20:02.104500    5555 node.go:1] Starting openshift-sdn network plugin\n",
      },
    ]);
    const r = await ingest([{ name: "must-gather.local.5312345678901234.tar.gz", data: tgz }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("must-gather");
    expect(r.nodes.map((n) => n.name)).toEqual(["master-0", "master-1", "worker-0"]);
    const f = byPath(r);
    expect(f[`${top}/host_service_logs/masters/kubelet_service.log`]).toMatchObject({ kind: "kubelet", records: 3, timeZone: "UTC", zoneSource: "collector" });
    expect(f[`${top}/nodes/worker-0/worker-0_logs_kubelet`]).toMatchObject({ kind: "kubelet", node: "worker-0", records: 2, banner: 1 });
    expect(f[`${top}/namespaces/default/core/events.yaml`]).toMatchObject({ kind: "k8s-events", format: "k8s-events-yaml", records: 2 });
    expect(f[`${top}/namespaces/openshift-sdn/pods/sdn-abcde/sdn/sdn/logs/current.log`]).toMatchObject({
      kind: "container",
      format: "kubectl-timestamps",
      node: "worker-0",
    });
    expect(boots(r, "worker-0")).toEqual([
      { id: "inferred-1", start: "2025-05-19T04:15:00.000Z", detectedBy: "first-event" },
      { id: W, start: "2025-05-19T04:19:45.000Z", detectedBy: "separator" },
    ]);
    // master-0: no separator; the Rebooted event names the boot its kubelet started
    expect(boots(r, "master-0")).toEqual([{ id: M, start: "2025-05-19T04:19:50.000Z", detectedBy: "first-event" }]);
  });

  it("troubleshoot support bundle: local and remote journald collectors, a newest-first (reverse) journal, events JSON, pod logs placed by pods/<ns>.json", async () => {
    const top = "support-bundle-2025-05-19T04_31_02";
    const j = (h: string, t: string, pid: number, msg: string) => `May 19 ${t} ${h} kubelet[${pid}]: ${klog("I", t, "000001", pid, msg)}`;
    const reverse = [
      j("node-b", "04:21:00", 2900, '"Updated node status"'),
      j("node-b", "04:20:30", 2900, '"Updated node status"'),
      j("node-b", "04:20:00", 2900, '"Starting kubelet main sync loop"'),
    ].join("\n");
    const tgz = buildTarGz([
      { path: `${top}/version.yaml`, content: "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\n" },
      { path: `${top}/host-collectors/system/hostos_info.json`, content: '{"name":"node-a","kernelVersion":"6.1.0","platform":"ubuntu"}' },
      {
        path: `${top}/host-collectors/journald/kubelet.txt`,
        content: [j("node-a", "04:19:50", 2800, '"Starting kubelet main sync loop"'), j("node-a", "04:20:10", 2800, '"Updated node status"')].join("\n"),
      },
      { path: `${top}/host-collectors/journald/kubelet-info.json`, content: '{"command":"journalctl -u kubelet --no-pager","exitCode":"0"}' },
      { path: `${top}/host-collectors/node-b/journald/kubelet.txt`, content: reverse },
      {
        path: `${top}/cluster-resources/events/default.json`,
        content: JSON.stringify(
          {
            kind: "EventList",
            apiVersion: "v1",
            items: [
              {
                kind: "Event",
                metadata: { name: "node-b.1", namespace: "default" },
                involvedObject: { kind: "Node", name: "node-b" },
                reason: "NodeReady",
                message: "Node node-b status is now: NodeReady",
                source: { component: "kubelet", host: "node-b" },
                firstTimestamp: "2025-05-19T04:20:40Z",
                lastTimestamp: "2025-05-19T04:20:40Z",
                count: 1,
                type: "Normal",
              },
            ],
          },
          null,
          2,
        ),
      },
      {
        path: `${top}/cluster-resources/pods/kube-system.json`,
        content: JSON.stringify({ items: [{ metadata: { name: "calico-node-abcde" }, spec: { nodeName: "node-b" } }] }),
      },
      {
        path: `${top}/cluster-resources/pods/logs/kube-system/calico-node-abcde/calico-node.log`,
        content: "2025-05-19T04:20:05.104730000Z 2025-05-19 04:20:05.104 [INFO][1] startup/startup.go 400: Using node name: node-b\n",
      },
    ]);
    const r = await ingest([{ name: `${top}.tar.gz`, data: tgz }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("support-bundle");
    expect(r.nodes.map((n) => n.name)).toEqual(["node-a", "node-b"]);
    const f = byPath(r);
    expect(f[`${top}/host-collectors/journald/kubelet.txt`]).toMatchObject({ kind: "kubelet", node: "node-a", records: 2 });
    expect(f[`${top}/host-collectors/node-b/journald/kubelet.txt`]).toMatchObject({ kind: "kubelet", node: "node-b", records: 3, outOfOrder: 0 });
    expect(f[`${top}/cluster-resources/events/default.json`]).toMatchObject({ kind: "k8s-events", format: "k8s-events-json", records: 1 });
    expect(f[`${top}/cluster-resources/pods/logs/kube-system/calico-node-abcde/calico-node.log`]).toMatchObject({ kind: "cni-calico", node: "node-b" });
    expect(boots(r, "node-b")).toEqual([{ id: "inferred-1", start: "2025-05-19T04:20:00.000Z", detectedBy: "first-event" }]);
    const rows = await db().sql.query<{ ts: Date; line: number }>(
      `SELECT e.ts, e.line FROM "Event" e JOIN "SourceFile" s ON s.id = e."fileId" WHERE s.path = $1 ORDER BY e.line`,
      [`${top}/host-collectors/node-b/journald/kubelet.txt`],
    );
    expect(rows.map((x) => [x.line, x.ts.toISOString()])).toEqual([
      [1, "2025-05-19T04:21:00.000Z"],
      [2, "2025-05-19T04:20:30.000Z"],
      [3, "2025-05-19T04:20:00.000Z"],
    ]);
  });

  it("kubectl cluster-info dump (tar.gz): a pod's logs on the node pods.json names, kubectl's markers skipped, resource lists skipped", async () => {
    const d = "cluster-state";
    const mtimeMs = Date.parse("2025-05-19T04:40:00Z");
    const pod = "kindnet-x7k2p";
    const json = (v: unknown) => `${JSON.stringify(v, null, 4)}\n`;
    const tgz = buildTarGz([
      {
        path: `${d}/nodes.json`,
        mtimeMs,
        content: json({ kind: "NodeList", apiVersion: "v1", metadata: { resourceVersion: "48213" }, items: [{ metadata: { name: "kind-worker" } }] }),
      },
      {
        path: `${d}/kube-system/pods.json`,
        mtimeMs,
        content: json({
          kind: "PodList",
          apiVersion: "v1",
          metadata: {},
          items: [{ metadata: { name: pod, namespace: "kube-system" }, spec: { nodeName: "kind-worker" } }],
        }),
      },
      { path: `${d}/kube-system/services.json`, mtimeMs, content: json({ kind: "ServiceList", apiVersion: "v1", metadata: {}, items: [] }) },
      {
        path: `${d}/kube-system/events.json`,
        mtimeMs,
        content: json({
          kind: "EventList",
          apiVersion: "v1",
          metadata: {},
          items: [
            {
              metadata: { name: "kind-worker.1840c2f1a3b4c5d6", namespace: "default" },
              involvedObject: { kind: "Node", name: "kind-worker" },
              reason: "NodeNotReady",
              message: "Node kind-worker status is now: NodeNotReady",
              source: { component: "node-controller" },
              firstTimestamp: "2025-05-19T04:19:20Z",
              lastTimestamp: "2025-05-19T04:19:20Z",
              count: 1,
              type: "Normal",
            },
          ],
        }),
      },
      {
        path: `${d}/kube-system/${pod}/logs.txt`,
        mtimeMs,
        content: [
          `==== START logs for container kindnet-cni of pod kube-system/${pod} ====`,
          "I0519 04:19:52.123456       1 main.go:148] setting mtu 1500 for CNI",
          'I0519 04:19:55.000001       1 main.go:118] Failed to get nodes, retrying after error: Get "https://10.96.0.1:443/api/v1/nodes": dial tcp 10.96.0.1:443: connect: connection refused',
          "I0519 04:20:02.130000       1 main.go:223] Handling node with IPs: map[172.18.0.3:{}]",
          `==== END logs for container kindnet-cni of pod kube-system/${pod} ====`,
        ].join("\n"),
      },
    ]);
    const r = await ingest([{ name: "cluster-state.tar.gz", data: tgz }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("kubectl-cluster-info-dump");
    expect(r.nodes.map((n) => n.name)).toEqual(["kind-worker"]);
    const f = byPath(r);
    expect(f[`${d}/kube-system/${pod}/logs.txt`]).toMatchObject({
      format: "klog",
      kind: "kindnet",
      node: "kind-worker",
      records: 3,
      skipped: 2,
      skippedByReason: { "collector-marker": 2 },
    });
    expect(f[`${d}/kube-system/events.json`]).toMatchObject({ format: "k8s-events-json", records: 1 });
    for (const p of [`${d}/nodes.json`, `${d}/kube-system/pods.json`, `${d}/kube-system/services.json`])
      expect(f[p], p).toMatchObject({ status: "skipped", reason: "collector-state" });
  });

  it("hand-made zip of journalctl output: nodes from the hostname column, journalctl warnings skipped", async () => {
    const zip = buildZip([
      {
        path: "incident-logs/worker-7-kubelet.txt",
        content: [
          "Hint: You are currently not seeing messages from other users and the system.",
          `2025-05-19T04:19:50+00:00 worker-7 kubelet[2817]: ${klog("I", "04:19:50", "000001", 2817, '"Starting kubelet main sync loop"')}`,
        ].join("\n"),
      },
      {
        path: "incident-logs/worker-8-containerd.txt",
        content: 'May 19 04:19:40 worker-8 containerd[811]: time="2025-05-19T04:19:40.000000001Z" level=info msg="starting containerd" version=v1.7.27\n',
      },
      { path: "incident-logs/notes.md", content: "# what we saw\nthe node rebooted\n" },
    ]);
    const r = await ingest([{ name: "incident-logs.zip", data: zip }]);
    expectAccounting(r);
    expect(r.bundles[0].collector).toBe("journalctl-archive");
    expect(r.nodes.map((n) => n.name)).toEqual(["worker-7", "worker-8"]);
    const f = byPath(r);
    expect(f["incident-logs/worker-7-kubelet.txt"]).toMatchObject({
      kind: "kubelet",
      format: "journal-short-iso",
      node: "worker-7",
      skipped: 1,
      skippedByReason: { "journalctl-warning": 1 },
    });
    expect(f["incident-logs/worker-8-containerd.txt"]).toMatchObject({ kind: "containerd", node: "worker-8" });
    expect(f["incident-logs/notes.md"]).toMatchObject({ format: "unknown", skippedByReason: { "unknown-format": 2 } });
  });

  it("plain logs have no collector", async () => {
    const r = await ingest([
      { name: "kubelet.log", data: Buffer.from(`2025-05-19T04:19:50+00:00 worker-9 kubelet[1]: ${klog("I", "04:19:50", "000001", 1, '"x"')}\n`) },
    ]);
    expect(r.bundles[0].collector).toBeNull();
  });
});
