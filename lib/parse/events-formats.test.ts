/**
 * The Kubernetes event printouts beyond the real-format cases: every shape kubectl, oc and k9s print
 * events in (tables, describe output, JSON and YAML), as pasted (tabs, collapsed spaces, prompts,
 * frames, cut ends). Inputs written from the printers' documented output.
 */
import { describe, expect, it } from "vitest";
import type { FileRecord, ParsedFile } from "./file-types";
import { kubectlEventsTableSpec } from "./kubectl-events-table";
import { parseFile } from "./parse-file";

const T0 = Date.parse("2024-03-01T06:00:00Z");
const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
const ev = (r: FileRecord) => r.k8sEvent;

function parse(lines: string[], collectedMs: number | null = T0, path = "paste.txt"): ParsedFile {
  return parseFile(path, lines.join("\n"), collectedMs === null ? {} : { collectedMs });
}

function expectAllRead(f: ParsedFile): void {
  expect(f.counts.skipped).toBe(0);
  expect(f.counts.parsed + f.counts.blank).toBe(f.counts.lines);
}

describe("kubectl get events tables", () => {
  it("-w: rows printed with their own widths under one header, then a header per batch", () => {
    const f = parse([
      "$ kubectl get events -w",
      "LAST SEEN   TYPE      REASON      OBJECT            MESSAGE",
      "5m          Normal    Scheduled   pod/web-1         Successfully assigned shop/web-1 to worker-2",
      '0s   Warning   FailedCreatePodSandBox   pod/web-1   Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "77ab"',
      "0s    Normal   SandboxChanged   pod/web-1   Pod sandbox changed, it will be killed and re-created.",
      "LAST SEEN   TYPE      REASON                   OBJECT      MESSAGE",
      "1s          Warning   FailedCreatePodSandBox   pod/web-1   Failed to create pod sandbox: second try",
    ]);
    expect(f.format).toBe("kubectl-events-table");
    expect(f.counts).toMatchObject({ records: 4, banner: 3 });
    expectAllRead(f);
    expect(f.records.map((r) => ev(r)?.reason)).toEqual(["Scheduled", "FailedCreatePodSandBox", "SandboxChanged", "FailedCreatePodSandBox"]);
    expect(f.records[1].message).toBe('Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "77ab"');
    expect(ev(f.records[1])).toMatchObject({ objectKind: "Pod", objectName: "web-1" });
    expect(iso(f.records[3].ts)).toBe("2024-03-01T05:59:59.000Z");
  });

  it("--output-watch-events adds an EVENT column", () => {
    const f = parse([
      "EVENT      LAST SEEN   TYPE      REASON                   OBJECT      MESSAGE",
      "ADDED      12s         Warning   FailedCreatePodSandBox   pod/web-1   Failed to create pod sandbox: x",
      "MODIFIED   2s          Warning   FailedCreatePodSandBox   pod/web-1   Failed to create pod sandbox: x",
    ]);
    expect(f.counts).toMatchObject({ records: 2, banner: 1 });
    expect(f.records.map((r) => r.fields?.watchEvent)).toEqual(["ADDED", "MODIFIED"]);
    expect(iso(f.records[1].ts)).toBe("2024-03-01T05:59:58.000Z");
  });

  it("rows with their spaces collapsed and no header, -A and not", () => {
    const f = parse([
      "kube-system 2m Warning FailedCreatePodSandBox pod/coredns-1 Failed to create pod sandbox: rpc error",
      "default 3m Normal Starting node/worker-1 Starting kubelet.",
      '45s Normal Pulled pod/web-1 Container image "nginx" already present on machine',
    ]);
    expect(f.format).toBe("kubectl-events-table");
    expectAllRead(f);
    expect(ev(f.records[0])).toMatchObject({ namespace: "kube-system", objectKind: "Pod", objectName: "coredns-1", reason: "FailedCreatePodSandBox" });
    expect(ev(f.records[1])).toMatchObject({ namespace: "default", objectKind: "Node", node: "worker-1" });
    expect(ev(f.records[2])).toMatchObject({ namespace: null, reason: "Pulled" });
    expect(f.records[2].message).toBe('Container image "nginx" already present on machine');
  });

  it("tab-separated rows under a tab-separated header", () => {
    const f = parse([
      "NAMESPACE\tLAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE",
      "kube-system\t4m10s\tWarning\tFailedCreatePodSandBox\tpod/coredns-1\tFailed to create pod sandbox: boom",
    ]);
    expect(f.counts).toMatchObject({ records: 1, banner: 1 });
    expect(iso(f.records[0].ts)).toBe("2024-03-01T05:55:50.000Z");
    expect(f.records[0].message).toBe("Failed to create pod sandbox: boom");
  });

  it("kubectl events without its header: count and first seen from `(xN over D)`", () => {
    const f = parse([
      '2m (x12 over 9m)     Warning   FailedCreatePodSandBox   Pod/coredns-1       Failed to create pod sandbox: plugin type="cilium-cni" failed (add): unable to connect to Cilium daemon',
      "9m                   Normal    Scheduled                Pod/coredns-1       Successfully assigned kube-system/coredns-1 to worker-5",
    ]);
    expect(f.format).toBe("kubectl-events-table");
    expectAllRead(f);
    const r = f.records[0];
    expect(ev(r)).toMatchObject({ count: 12, objectKind: "Pod", objectName: "coredns-1", firstUncertaintyMs: 60_000 }); // no age only the long form writes
    expect(iso(ev(r)?.firstMs)).toBe("2024-03-01T05:51:00.000Z");
    expect(iso(ev(r)?.lastMs)).toBe("2024-03-01T05:58:00.000Z");
  });

  it("kubectl 1.11 `LAST SEEN FIRST SEEN COUNT NAME KIND ...` with `kubelet, <node>` sources", () => {
    const f = parse([
      "LAST SEEN   FIRST SEEN   COUNT   NAME        KIND   SUBOBJECT   TYPE      REASON                   SOURCE              MESSAGE",
      "1m          8m           40      coredns-1   Pod                Warning   FailedCreatePodSandBox   kubelet, worker-7   Failed create pod sandbox: rpc error: code = Unknown",
    ]);
    expectAllRead(f);
    expect(ev(f.records[0])).toMatchObject({ count: 40, objectKind: "Pod", objectName: "coredns-1", node: "worker-7", firstUncertaintyMs: 60_000 });
    expect(iso(ev(f.records[0])?.firstMs)).toBe("2024-03-01T05:52:00.000Z");
  });

  it("old rows pasted without header: LASTSEEN and FIRSTSEEN told apart by size", () => {
    const f = parse([
      "7m 7m 1 web-1 Pod Normal Scheduled {default-scheduler } Successfully assigned web-1 to worker-3",
      "2m 6m 25 web-1 Pod Warning FailedCreatePodSandBox {kubelet worker-3} Failed create pod sandbox.",
    ]);
    expectAllRead(f);
    expect(ev(f.records[1])).toMatchObject({ count: 25, node: "worker-3", objectName: "web-1" });
    expect(iso(ev(f.records[1])?.lastMs)).toBe("2024-03-01T05:58:00.000Z");
    expect(iso(ev(f.records[1])?.firstMs)).toBe("2024-03-01T05:54:00.000Z");
  });

  it("a k9s event view: framed lines, sort arrow in the header", () => {
    const f = parse([
      "┌──────────────────────────── Events(all)[2] ─────────────────────────────┐",
      "│ NAMESPACE↑    LAST SEEN   TYPE      REASON                   OBJECT              COUNT │",
      "│ kube-system   2m          Warning   FailedCreatePodSandBox   pod/coredns-1       17    │",
      "│ kube-system   40s         Normal    SandboxChanged           pod/coredns-1       16    │",
      "└──────────────────────────────────────────────────────────────────────────┘",
    ]);
    expect(f.format).toBe("kubectl-events-table");
    expectAllRead(f);
    expect(ev(f.records[0])).toMatchObject({ count: 17, namespace: "kube-system", objectName: "coredns-1" });
  });
});

describe("kubectl describe output", () => {
  const pod = [
    "[root@master-1 ~]# kubectl describe pod coredns-6f6b679f8f-4mq2d -n kube-system",
    "Name:                 coredns-6f6b679f8f-4mq2d",
    "Namespace:            kube-system",
    "Priority:             2000000000",
    "Priority Class Name:  system-cluster-critical",
    "Service Account:      coredns",
    "Node:                 worker-2/10.0.0.12",
    "Start Time:           Fri, 01 Mar 2024 05:40:02 +0000",
    "Labels:               k8s-app=kube-dns",
    "                      pod-template-hash=6f6b679f8f",
    "Status:               Pending",
    "IP:",
    "Controlled By:        ReplicaSet/coredns-6f6b679f8f",
    "Containers:",
    "  coredns:",
    "    Image:       registry.k8s.io/coredns/coredns:v1.11.1",
    "    Args:",
    "      -conf",
    "      /etc/coredns/Corefile",
    "    State:          Waiting",
    "      Reason:       ContainerCreating",
    "Conditions:",
    "  Type              Status",
    "  Initialized       True",
    "  Ready             False",
    "QoS Class:                   Burstable",
    "Tolerations:                 CriticalAddonsOnly op=Exists",
    "Events:",
    "  Type     Reason                  Age                  From               Message",
    "  ----     ------                  ----                 ----               -------",
    "  Normal   Scheduled               19m                  default-scheduler  Successfully assigned kube-system/coredns-6f6b679f8f-4mq2d to worker-2",
    '  Warning  FailedCreatePodSandBox  4m (x69 over 19m)    kubelet            Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "5c1e": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/',
    "  Normal   SandboxChanged          4m (x68 over 19m)    kubelet            Pod sandbox changed, it will be killed and re-created.",
  ];

  it("a whole describe pod: its lines are banners, the rows take pod and node from it", () => {
    const f = parse(pod);
    expect(f.format).toBe("describe-events");
    expectAllRead(f);
    expect(f.counts.records).toBe(3);
    for (const r of f.records)
      expect(ev(r)).toMatchObject({ namespace: "kube-system", objectKind: "Pod", objectName: "coredns-6f6b679f8f-4mq2d", node: "worker-2" });
    const failed = f.records[1];
    expect(ev(failed)).toMatchObject({ reason: "FailedCreatePodSandBox", count: 69, firstUncertaintyMs: 60_000, lastUncertaintyMs: 60_000 });
    expect(iso(ev(failed)?.firstMs)).toBe("2024-03-01T05:41:00.000Z");
    expect(iso(ev(failed)?.lastMs)).toBe("2024-03-01T05:56:00.000Z");
    expect(failed.message).toMatch(/^Failed to create pod sandbox: .*mounted \/var\/lib\/calico\/$/);
    expect(failed.fields?.source).toBe("kubelet");
  });

  it("the same from a k9s describe view (framed)", () => {
    const framed = [
      "┌───────────── Describe(kube-system/coredns-6f6b679f8f-4mq2d) ─────────────┐",
      ...pod.slice(1).map((l) => `│ ${l.padEnd(120)} │`),
      "└──────────────┘",
    ];
    const f = parse(framed);
    expect(f.format).toBe("describe-events");
    expectAllRead(f);
    expect(f.records.map((r) => ev(r)?.node)).toEqual(["worker-2", "worker-2", "worker-2"]);
    expect(ev(f.records[1])?.count).toBe(69);
  });

  it("tabs in place of spaces, and spaces collapsed", () => {
    for (const sep of ["\t", " "]) {
      const f = parse([
        "Events:",
        ["  Type", "Reason", "Age", "From", "Message"].join(sep),
        ["  Warning", "FailedCreatePodSandBox", "3m (x5 over 5m)", "kubelet, worker-9", "Failed to create pod sandbox: network is not ready"].join(sep),
        ["  Normal", "Scheduled", "5m", "default-scheduler", "Successfully assigned default/web-1 to worker-9"].join(sep),
      ]);
      expect(f.format).toBe("describe-events");
      expectAllRead(f);
      expect(ev(f.records[0])).toMatchObject({ count: 5, node: "worker-9", objectName: "web-1", namespace: "default" });
      expect(f.records[0].message).toBe("Failed to create pod sandbox: network is not ready");
    }
  });

  it("kubectl <= 1.8 describe (FirstSeen LastSeen Count From SubObjectPath ...), tab-padded", () => {
    const f = parse([
      "Events:",
      "  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubObjectPath\t\tType\t\tReason\t\t\tMessage",
      "  ---------\t--------\t-----\t----\t\t\t-------------\t\t--------\t------\t\t\t-------",
      "  12m\t\t12m\t\t1\tdefault-scheduler\t\t\t\tNormal\t\tScheduled\t\tSuccessfully assigned web-1 to worker-4",
      "  12m\t\t1m\t\t58\tkubelet, worker-4\t\t\t\tWarning\t\tFailedCreatePodSandBox\tFailed create pod sandbox.",
      '  11m\t\t11m\t\t1\tkubelet, worker-4\tspec.containers{web}\tNormal\t\tPulling\t\t\tpulling image "nginx"',
    ]);
    expectAllRead(f);
    expect(ev(f.records[1])).toMatchObject({ count: 58, node: "worker-4", objectName: "web-1", objectKind: "Pod" });
    expect(iso(ev(f.records[1])?.firstMs)).toBe("2024-03-01T05:48:00.000Z");
    expect(iso(ev(f.records[1])?.lastMs)).toBe("2024-03-01T05:59:00.000Z");
    expect(f.records[2].fields?.subobject).toBe("spec.containers{web}");
    expect(f.records[2].message).toBe('pulling image "nginx"');
  });

  it("describe node: the rows are the node's", () => {
    const f = parse([
      "Name:               worker-6",
      "Roles:              <none>",
      "Labels:             kubernetes.io/hostname=worker-6",
      "Taints:             node.kubernetes.io/network-unavailable:NoSchedule",
      "Events:",
      "  Type     Reason                   Age                From             Message",
      "  ----     ------                   ----               ----             -------",
      "  Normal   Starting                 3m                 kubelet          Starting kubelet.",
      "  Warning  Rebooted                 3m                 kubelet          Node worker-6 has been rebooted, boot id: 0c5a8f61-2f4b-4c1e-9d3a-7e6b5a4c3d2e",
    ]);
    expectAllRead(f);
    for (const r of f.records) expect(ev(r)).toMatchObject({ objectKind: "Node", objectName: "worker-6", node: "worker-6", namespace: null });
  });

  it("Events:  <none> and describe lines alone give no records and no skipped lines", () => {
    const f = parse(["Name:         web-1", "Namespace:    default", "Node:         <none>", "Events:       <none>"]);
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ records: 0, banner: 4, skipped: 0 });
  });
});

describe("events as JSON and YAML", () => {
  const item = (n: number, extra: Record<string, unknown> = {}) => ({
    apiVersion: "v1",
    count: n,
    firstTimestamp: "2024-03-01T05:40:00Z",
    involvedObject: { kind: "Pod", name: `web-${n}`, namespace: "shop" },
    kind: "Event",
    lastTimestamp: "2024-03-01T05:55:00Z",
    message: "Failed to create pod sandbox",
    metadata: { name: `web-${n}.17d2a6b0c1e3f4a5`, namespace: "shop" },
    reason: "FailedCreatePodSandBox",
    source: { component: "kubelet", host: "worker-1" },
    type: "Warning",
    ...extra,
  });

  it("a JSON list cut at its start: the first complete event on", () => {
    const lines = JSON.stringify({ apiVersion: "v1", items: [item(1), item(2), item(3)], kind: "List" }, null, 4).split("\n");
    const from = lines.findIndex((l) => l.includes('"web-1"'));
    const f = parse(lines.slice(from), null);
    expect(f.format).toBe("k8s-events-json");
    expect(f.records.map((r) => ev(r)?.objectName)).toEqual(["web-2", "web-3"]);
    expect(ev(f.records[0])).toMatchObject({ count: 2, node: "worker-1" });
    expect(iso(ev(f.records[0])?.firstMs)).toBe("2024-03-01T05:40:00.000Z");
  });

  it("-w -o json: pretty-printed objects one after another", () => {
    const text = [item(4), item(5)].map((e) => JSON.stringify(e, null, 4)).join("\n");
    const f = parseFile("w.json", text, {});
    expect(f.records.map((r) => ev(r)?.objectName)).toEqual(["web-4", "web-5"]);
    expect(f.counts.skipped).toBe(0);
  });

  it("a YAML list cut at both ends keeps only its complete events", () => {
    const yaml = [
      "    namespace: shop",
      "  reason: FailedCreatePodSandBox",
      "  type: Warning",
      "- apiVersion: v1",
      "  count: 9",
      '  firstTimestamp: "2024-03-01T05:40:00Z"',
      "  involvedObject:",
      "    kind: Pod",
      "    name: web-8",
      "    namespace: shop",
      "  kind: Event",
      '  lastTimestamp: "2024-03-01T05:55:00Z"',
      "  message: Failed to create pod sandbox",
      "  reason: FailedCreatePodSandBox",
      "  source:",
      "    component: kubelet",
      "    host: worker-1",
      "  type: Warning",
      "- apiVersion: v1",
      "  count: 2",
      '  firstTimestamp: "2024-03-01T05:50:00Z"',
      "  involvedObject:",
      "    kind: Pod",
      "    name: web-9",
    ];
    const f = parse(yaml, null);
    expect(f.format).toBe("k8s-events-yaml");
    expect(f.records.map((r) => ev(r)?.objectName)).toEqual(["web-8"]);
    expect(ev(f.records[0])).toMatchObject({ count: 9, node: "worker-1", namespace: "shop" });
    expect(f.counts.skipped).toBe(3);
  });
});

describe("kubectl get events: counts, objects, namespaces, wrapped rows", () => {
  const sandbox = "9e3b1f0c7a5d42e8b6c1d0f9a8e7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9";

  it("`kubectl events` rows without header: `(xN over D)` in LAST SEEN, `Pod/<name>` objects", () => {
    const f = parse([
      '4m5s (x88 over 22m)    Warning   FailedCreatePodSandBox   Pod/image-sync-28391740-q8w2z   (combined from similar events): Failed to create pod sandbox: plugin type="flannel" failed (add): open /run/flannel/subnet.env: no such file or directory',
      '3m51s (x9 over 5m2s)   Warning   FailedCreatePodSandBox   POD/source-controller-5c8d-7hx2t   Failed to create pod sandbox: plugin type="flannel" failed (add): open /run/flannel/subnet.env: no such file or directory',
    ]);
    expect(f.format).toBe("kubectl-events-table");
    expectAllRead(f);
    const [a, b] = f.records;
    expect(ev(a)).toMatchObject({ count: 88, objectKind: "Pod", objectName: "image-sync-28391740-q8w2z", namespace: null });
    expect(iso(ev(a)?.firstMs)).toBe("2024-03-01T05:38:00.000Z");
    expect(iso(ev(a)?.lastMs)).toBe("2024-03-01T05:55:55.000Z");
    expect(ev(b)).toMatchObject({ count: 9, objectKind: "Pod", objectName: "source-controller-5c8d-7hx2t" });
    expect(iso(ev(b)?.firstMs)).toBe("2024-03-01T05:54:58.000Z");
    // no command line, no message naming a namespace: unknown
    expect(a.fields?.pod).toBe("image-sync-28391740-q8w2z");
  });

  it("the old LASTSEEN FIRSTSEEN COUNT NAME KIND table: NAME `<object>.<hex>`, COUNT between the ages", () => {
    const f = parse([
      "LASTSEEN   FIRSTSEEN   COUNT     NAME                                   KIND      SUBOBJECT                 TYPE      REASON                   SOURCE                     MESSAGE",
      "6m         6m          1         kube-proxy-4kx7d.15c8a0b1c2d3e4f5      Pod       spec.containers{proxy}    Normal    Started                  kubelet, node-a.example    Started container",
      '3m         11m         31        dns-autoscaler-7b4d-9pq2w.15c8a0a9f8e7d6c5   Pod                           Warning   FailedCreatePodSandBox   kubelet, node-b.example    Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod "dns-autoscaler-7b4d-9pq2w_kube-system" network: failed to allocate for range 0',
      "6m         6m          1         node-b.example.15c8a0a1b2c3d4e5        Node                                Normal    Starting                 kubelet, node-b.example    Starting kubelet.",
    ]);
    expectAllRead(f);
    expect(f.counts).toMatchObject({ records: 3, banner: 1 });
    const [started, failed, node] = f.records;
    // one namespace per table without NAMESPACE: the one the CNI message names
    expect(ev(started)).toMatchObject({ objectKind: "Pod", objectName: "kube-proxy-4kx7d", namespace: "kube-system", node: "node-a.example" });
    expect(started.fields?.subobject).toBe("spec.containers{proxy}");
    expect(ev(failed)).toMatchObject({
      count: 31,
      objectKind: "Pod",
      objectName: "dns-autoscaler-7b4d-9pq2w",
      namespace: "kube-system",
      node: "node-b.example",
    });
    expect(iso(ev(failed)?.firstMs)).toBe("2024-03-01T05:49:00.000Z");
    expect(iso(ev(failed)?.lastMs)).toBe("2024-03-01T05:57:00.000Z");
    expect(failed.fields?.pod).toBe("kube-system/dns-autoscaler-7b4d-9pq2w");
    expect(ev(node)).toMatchObject({ objectKind: "Node", objectName: "node-b.example", node: "node-b.example" });
  });

  it("namespace: `-n` of the command line, else the rows' messages, else `default` for a command that names none", () => {
    const rows = [
      "LAST SEEN   TYPE      REASON                   OBJECT            MESSAGE",
      '2m          Warning   FailedCreatePodSandBox   pod/api-0         Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "ab12": connection refused',
    ];
    const run = (lines: string[]) => {
      const p = kubectlEventsTableSpec.createParser({ collectedMs: T0 });
      const out = lines.map((l) => p.parseLine(l, 1));
      p.finish?.();
      return out.flatMap((r) => (r?.type === "record" ? [r.record] : []));
    };
    expect(run(["[admin@bastion ~]$ kubectl get events -n payments", ...rows])[0].k8sEvent).toMatchObject({ namespace: "payments" });
    expect(run(["kubectl --namespace=payments get ev", ...rows])[0].k8sEvent).toMatchObject({ namespace: "payments" });
    const assumed = run(["$ kubectl get events", ...rows])[0];
    expect(assumed.k8sEvent).toMatchObject({ namespace: "default" });
    expect(assumed.fields?.namespaceFrom).toBe("assumed");
    expect(run(rows)[0].k8sEvent).toMatchObject({ namespace: null });
    // parseFile hands a leading prompt to the parser as a paste banner
    const p = kubectlEventsTableSpec.createParser({ collectedMs: T0 }) as ReturnType<typeof kubectlEventsTableSpec.createParser> & {
      pasteBanner(l: string): void;
    };
    p.pasteBanner("$ k get events -n payments -w");
    const r = p.parseLine(rows[1], 2);
    p.finish?.();
    expect(r?.type === "record" && r.record.k8sEvent).toMatchObject({ namespace: "payments" });
  });

  it("namespace from a later row's message (scheduler, multus), per pod when the messages disagree", () => {
    const f = parse([
      "LAST SEEN   TYPE      REASON                   OBJECT           MESSAGE",
      "50s         Warning   FailedCreatePodSandBox   pod/worker-4q   Failed to create pod sandbox: rpc error",
      "52s         Normal    Scheduled                pod/worker-4q   Successfully assigned batch/worker-4q to node-c",
    ]);
    expect(f.records.map((r) => ev(r)?.namespace)).toEqual(["batch", "batch"]);
    const g = parse([
      "0s   Warning   FailedCreatePodSandBox   pod/a-1   Failed to create pod sandbox: error configuring pod [team-a/a-1] networking: Multus: [team-a/a-1/0b6e7c7e-2f7e-4c61-9d0c-3a4f5e6d7c8b]: error",
      "0s   Warning   FailedCreatePodSandBox   pod/b-1   Failed to create pod sandbox: error configuring pod [team-b/b-1] networking: Multus: error",
      "0s   Warning   FailedCreatePodSandBox   pod/c-1   Failed to create pod sandbox: rpc error",
    ]);
    expect(g.records.map((r) => ev(r)?.namespace)).toEqual(["team-a", "team-b", null]);
  });

  it("rows hard-wrapped by the terminal: the tails continue the row, joined as they were cut", () => {
    const row = `0s          Warning   FailedCreatePodSandBox   pod/probe-x7k2q    Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${sandbox}": plugin type="multus-shim" name="multus-cni-network" failed (add): CmdAdd (shim): CNI request failed with status 400: '&{...} ERRORED: error configuring pod [default/probe-x7k2q] networking: Multus: [default/probe-x7k2q/5f1c7a3e-9b2d-4e6f-8a0c-1d2e3f4a5b6c]: error loading k8s delegates k8s args: TryLoadPodDelegates: error in getting k8s network for pod: GetNetworkDelegates: failed getting the delegate: GetCNIConfig: err in GetCNIConfigFromFile: No networks found in /host/etc/cni/net.d`;
    const width = 180;
    const cut = (s: string) => s.match(new RegExp(`.{1,${width}}`, "g")) as string[];
    const lines = [...cut(row), ...cut(row.replace("0s  ", "1s  ").replace(sandbox, sandbox.split("").reverse().join("")))];
    const f = parse(lines);
    expect(f.format).toBe("kubectl-events-table");
    expectAllRead(f);
    expect(f.counts.records).toBe(2);
    expect(f.counts.continuation).toBe(lines.length - 2);
    expect(f.records[0].message).toBe(row.slice(row.indexOf("Failed to create")));
    expect(f.records[0].message).toContain(`sandbox "${sandbox}"`);
    expect(ev(f.records[0])).toMatchObject({ objectKind: "Pod", objectName: "probe-x7k2q", namespace: "default" });
    expect(f.records[1].line).toBe(cut(row).length + 1);
  });

  it("a message with a newline in it continues on the next line; a log line after the table does not", () => {
    const f = parse([
      "LAST SEEN   TYPE      REASON        OBJECT      MESSAGE",
      '3m          Warning   FailedMount   pod/db-0    MountVolume.SetUp failed for volume "data" : mount failed: exit status 32',
      "Output: mount: /var/lib/kubelet/pods/1/volumes/data: wrong fs type.",
      "2m          Warning   FailedMount   pod/db-0    Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data kube-api-access-7xk2q]: timed out waiting for the condition",
      'Mar  1 05:58:00 node-c kubelet[811]: I0301 05:58:00.000001     811 kubelet.go:2100] "SyncLoop ADD" source="api"',
    ]);
    expect(f.counts).toMatchObject({ records: 3, continuation: 1, banner: 1, skipped: 0 });
    // the row before the tail is shorter than a row left whole: not cut by a terminal
    expect(f.records[0].message).toBe(
      'MountVolume.SetUp failed for volume "data" : mount failed: exit status 32\nOutput: mount: /var/lib/kubelet/pods/1/volumes/data: wrong fs type.',
    );
    expect(f.records[1].message).toMatch(/condition$/);
    expect(f.records[2].k8sEvent).toBeFalsy();
  });

  it("another table pasted after a long row is not taken for its tail", () => {
    const p = kubectlEventsTableSpec.createParser({ collectedMs: T0 });
    const row = p.parseLine(
      `12s         Warning   FailedCreatePodSandBox   pod/web-2   Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${sandbox}"`,
      1,
    );
    expect(row?.type).toBe("record");
    expect(p.parseLine("NAME    READY   STATUS              RESTARTS   AGE", 2)).toBeNull();
    expect(p.parseLine("web-2   0/1     ContainerCreating   0          40s", 3)).toBeNull();
  });
});
