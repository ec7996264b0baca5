/**
 * Line decorations a chat, a diff, a table, `oc adm node-logs --role`, single-pod log tools and
 * container tags put before log lines; k9s frames around describe views; prose and markup lines in
 * event pastes; the node of a pod's event rows from its Scheduled row.
 */
import { describe, expect, it } from "vitest";
import { explainUnknown } from "./explain-unknown";
import type { FileRecord, ParsedFile } from "./file-types";
import { isPasteBanner, isProseLabel } from "./paste";
import { detectFrame, stripFrame } from "./transforms/frame";
import { parseFile, pasteInfo } from "./parse-file";

const collectedMs = Date.UTC(2024, 5, 11, 12, 0, 0);
const iso = (r: FileRecord): string | null => (r.ts === null ? null : new Date(r.ts).toISOString());

function expectAccounting(f: ParsedFile): void {
  const c = f.counts;
  const glued = (c as typeof c & { glued?: number }).glued ?? 0;
  expect(c.parsed + c.blank + c.skipped).toBe(c.lines);
  expect(c.records + c.continuation + c.banner - glued).toBe(c.parsed);
}

const J1 =
  'Jun 11 14:03:05 node-a kubelet[2210]: E0611 14:03:05.204118    2210 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"0a1b2c3d4e5f\\": plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory"';
const J2 =
  'Jun 11 14:03:19 node-a kubelet[2210]: I0611 14:03:19.877001    2210 kubelet.go:2468] "SyncLoop (probe)" probe="readiness" status="ready" pod="kube-system/coredns-6d4b75cb6d-r8t2x"';
const C1 =
  'Jun 11 14:03:04 node-a containerd[901]: time="2024-06-11T14:03:04.990512000Z" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:coredns-6d4b75cb6d-r8t2x,Uid:77aa,Namespace:kube-system,Attempt:0,} failed, error" error="failed to setup network for sandbox \\"0a1b2c3d4e5f\\": stat /var/lib/calico/nodename: no such file or directory"';

describe("line decorations detected once per file", () => {
  it("a chat client's `[h:mm AM] ` stamp goes; the journal's own stamp and host stay", () => {
    const text = [`[2:14 PM] ${J1}`, `[2:14 PM] ${J2}`, `[2:15 PM] ${C1}`].join("\n");
    const f = parseFile("chat.txt", text, { year: 2024 });
    expect(f.format).toBe("journal-short");
    expect(pasteInfo(f)?.prefix).toEqual(["chat"]);
    expect(f.counts).toMatchObject({ records: 3, skipped: 0 });
    expect(f.records.map((r) => r.host)).toEqual(["node-a", "node-a", "node-a"]);
    expect(iso(f.records[0])).toBe("2024-06-11T14:03:05.204Z");
  });

  it("IRC-style `[14:14:02] <nick> ` stamps go too, and a prose line among them is all that is skipped", () => {
    const text = [
      `[14:14:02] <ops-anna> here is the kubelet after reboot`,
      `[14:14:02] <ops-anna> ${J1}`,
      `[14:14:03] <ops-anna> ${J2}`,
      `[14:14:03] <ops-anna> ${C1}`,
      `[14:14:04] <ops-anna> ${J2}`,
    ].join("\n");
    const f = parseFile("irc.txt", text, { year: 2024 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ records: 4, skipped: 1 });
    expectAccounting(f);
  });

  it("a unified diff's `+`/`-`/blank column goes; its file and hunk headers are furniture", () => {
    const text = ["--- a/kubelet.log", "+++ b/kubelet.log", "@@ -10,2 +10,3 @@", ` ${C1}`, `+${J1}`, `-${J2}`].join("\n");
    const f = parseFile("kubelet.diff", text, { year: 2024 });
    expect(f.format).toBe("journal-short");
    expect(pasteInfo(f)?.prefix).toEqual(["diff"]);
    expect(f.counts).toMatchObject({ records: 3, banner: 3, skipped: 0 });
    expect(f.records.map((r) => r.component)).toEqual(["containerd", "kubelet", "kubelet"]);
    expect(f.records.map((r) => r.severity)).toEqual([3, 3, 1]);
    expectAccounting(f);
  });

  it("`| ` bars of a Markdown table or quote go before the sniff", () => {
    const f = parseFile("p.md", [`| ${C1}`, `| ${J1}`, `| ${J2}`].join("\n"), { year: 2024 });
    expect(f.format).toBe("journal-short");
    expect(pasteInfo(f)?.decoration).toBe("frame");
    expect(f.counts).toMatchObject({ records: 3, skipped: 0 });
    expect(f.records[0]).toMatchObject({ host: "node-a", component: "containerd" });
  });

  it("`oc adm node-logs --role`: the node before each journal line is the record's host", () => {
    const text = [
      'ip-10-0-3-7.ec2.internal Jun 11 14:03:05.204118 ip-10-0-3-7.ec2.internal kubenswrapper[3001]: E0611 14:03:05.204118    3001 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to create pod network sandbox"',
      'ip-10-0-9-2.ec2.internal Jun 11 14:03:06.000100 ip-10-0-9-2.ec2.internal kubenswrapper[2990]: I0611 14:03:06.000100    2990 kubelet.go:2468] "SyncLoop (PLEG): event for pod"',
      'ip-10-0-3-7.ec2.internal Jun 11 14:03:07.500000 ip-10-0-3-7.ec2.internal crio[2801]: time="2024-06-11 14:03:07.500000000Z" level=info msg="Running pod sandbox: openshift-dns/dns-default-7xk2p/POD" id=aa11',
    ].join("\n");
    const f = parseFile("nodes.log", text, { year: 2024 });
    expect(f.format).toBe("journal-short");
    expect(pasteInfo(f)?.prefix).toEqual(["node-journal"]);
    expect(f.records.map((r) => r.host)).toEqual(["ip-10-0-3-7.ec2.internal", "ip-10-0-9-2.ec2.internal", "ip-10-0-3-7.ec2.internal"]);
    expect(f.counts.skipped).toBe(0);
  });

  it("a single container name before JSON lines (leading blank) goes; `<container> stream closed` is furniture", () => {
    const text = [
      ' aws-node {"level":"info","ts":"2023-02-10T06:41:12.118Z","caller":"entrypoint.sh","msg":"Validating env variables ..."}',
      ' aws-node {"level":"info","ts":"2023-02-10T06:41:12.131Z","caller":"entrypoint.sh","msg":"Install CNI binaries.."}',
      ' aws-node {"level":"error","ts":"2023-02-10T06:41:14.502Z","caller":"entrypoint.sh","msg":"Timed out waiting for IPAM daemon to start"}',
      " aws-node stream closed",
    ].join("\n");
    const f = parseFile("paste.txt", text, {});
    expect(pasteInfo(f)?.prefix).toEqual(["container"]);
    expect(f.counts).toMatchObject({ records: 3, banner: 1, skipped: 0 });
    expect(f.records[2]).toMatchObject({ severity: 3, message: "Timed out waiting for IPAM daemon to start" });
    expect(f.records[2].fields?.prefixContainer).toBe("aws-node");
    expect(f.records[2].host).toBeUndefined();
    expect(iso(f.records[0])).toBe("2023-02-10T06:41:12.118Z");
  });

  it("an upper-case container tag (`K3S: `) is kept as a fact, never taken for the node", () => {
    const text = [
      'K3S: I0704 09:12:40.100200      61 kubelet.go:2321] "Starting kubelet main sync loop"',
      'K3S: E0704 09:12:44.512300      61 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"9f8e\\": open /run/flannel/subnet.env: no such file or directory"',
    ].join("\n");
    const f = parseFile("container.log", text, { year: 2025 });
    expect(f.format).toBe("klog");
    expect(pasteInfo(f)?.prefix).toEqual(["tag"]);
    expect(f.records.map((r) => r.host)).toEqual([undefined, undefined]);
    expect(f.records[1].fields?.prefixTag).toBe("K3S");
    expect(iso(f.records[1])).toBe("2025-07-04T09:12:44.512Z");
  });

  it("a host prefix still gives the node (`worker-3: `)", () => {
    const f = parseFile("pdsh.txt", [`worker-3: ${J1}`, `worker-3: ${J2}`].join("\n"), { year: 2024 });
    expect(f.records.map((r) => r.host)).toEqual(["node-a", "node-a"]);
    const g = parseFile(
      "pdsh.txt",
      ['worker-3: E0611 14:03:05.204118    2210 log.go:32] "x"', 'worker-3: I0611 14:03:06.000000    2210 log.go:32] "y"'].join("\n"),
      { year: 2024 },
    );
    expect(g.records.map((r) => r.host)).toEqual(["worker-3", "worker-3"]);
  });
});

const W = 120;
/** A line of a k9s view: `│ ` + text padded to the view's width + ` │`. */
const box = (t: string): string => `│ ${t.padEnd(W)} │`;

describe("k9s frames", () => {
  const row =
    '  Warning  FailedCreatePodSandBox  3m10s (x41 over 40m)  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container "4c1d9e0b7a2f" network for pod "api-7c9d8-zk2lq": networkPlugin cni failed to set up pod "api-7c9d8-zk2lq_payments" network: dial tcp 127.0.0.1:50051: connect: connection refused';

  it("rows wrapped inside the frame are joined into one message; the frame counts as nothing unread", () => {
    const pieces = [row.slice(0, W), row.slice(W, 2 * W), row.slice(2 * W)];
    const text = [
      "┌──────────────── Describe(payments/api-7c9d8-zk2lq) ────────────────┐",
      box("Events:"),
      box("  Type     Reason                  Age                   From     Message"),
      box("  ----     ------                  ----                  ----     -------"),
      box("  Normal   Scheduled               41m                   default-scheduler  Successfully assigned payments/api-7c9d8-zk2lq to ip-10-1-2-3.internal"),
      ...pieces.map(box),
      "└────────────────────────────────────────────────────────────────────┘",
    ].join("\n");
    const f = parseFile("k9s.txt", text, { collectedMs });
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ records: 2, continuation: 2, skipped: 0 });
    const r = f.records[1];
    expect(r.message).toBe(row.slice(row.indexOf("Failed to create")));
    expect(r.fields?.pod).toBe("payments/api-7c9d8-zk2lq");
    expect(r.k8sEvent?.count).toBe(41);
    expect(r.k8sEvent?.node).toBe("ip-10-1-2-3.internal");
    expectAccounting(f);
  });

  it("a row cut at the frame with no left bar on its first line: the id cut mid-word is whole again", () => {
    const text = [
      "Warning  FailedCreatePodSandBox  5m   kubelet, node-7  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox k8s_router-5f6d7-ab12c_ingress_11aa22bb-33cc-44dd-55ee-66ff77aa88bb_0(0123456789abcdef0123456789ab │",
      "│ cdef0123456789abcdef0123456789abcdef): netplugin failed with no error message",
    ].join("\n");
    const f = parseFile("k9s.txt", text, { collectedMs });
    expect(f.counts).toMatchObject({ records: 1, continuation: 1, skipped: 0 });
    expect(f.records[0].message).toContain("_0(0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef): netplugin failed");
    expect(f.records[0].k8sEvent?.node).toBe("node-7");
  });

  it("detectFrame / stripFrame: bars and the blank next to each go, padding stays, wrapped pieces are marked", () => {
    const lines = [box("  Normal  Pulled  2m  kubelet  Container image already present"), `│ ${"x".repeat(W)} │`, box("tail of it")];
    expect(detectFrame(lines)).toEqual({ bar: "│" });
    const s = stripFrame(lines, { bar: "│" });
    expect(s.lines[0].length).toBe(W);
    expect(s.lines[2].trimEnd()).toBe("tail of it");
    expect([...s.wrapped]).toEqual([3]);
    // a systemctl tree (`│ └─`) is not a frame: nothing closes it on the right
    expect(detectFrame(["│ └─1234 /usr/bin/kubelet", "│ └─1301 /usr/bin/containerd"])).toBeNull();
  });
});

describe("prose and markup in event pastes", () => {
  it("a prose label before rows and a row wrapped in quotes with single spaces", () => {
    const text = [
      "Pod events:",
      "",
      '" Warning FailedCreatePodSandBox 2m kubelet Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "5e6f": plugin type="flannel" failed (add): open /run/flannel/subnet.env: no such file or directory',
      '"',
    ].join("\n");
    const f = parseFile("paste.txt", text, { collectedMs });
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ records: 1, banner: 2, skipped: 0 });
    expect(f.records[0]).toMatchObject({ severity: 2, k8sEvent: expect.objectContaining({ reason: "FailedCreatePodSandBox" }) });
    expect(f.records[0].message.startsWith("Failed to create pod sandbox")).toBe(true);
  });

  it("an inline-code row closed on the next line by `` '` ``, `<details>` tags and a chat link are furniture", () => {
    const text = [
      "<details>",
      "<summary>kubectl describe</summary>",
      "",
      '`Warning  FailedCreatePodSandBox  7m  kubelet  Failed to create pod sandbox: plugin type="multus-shim" name="multus-cni-network" failed (add): CmdAdd (shim): CNI request failed with status 400: \'ERRORED: error configuring pod [media/encoder-0] networking: timed out',
      "'`",
      "[4:02](https://example.slack.com/archives/C012AB3CD/p1700000000000100)",
      "</details>",
    ].join("\n");
    const f = parseFile("paste.txt", text, { collectedMs });
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ records: 1, banner: 5, skipped: 0 });
    expectAccounting(f);
  });

  it("one-line furniture tests", () => {
    for (const l of [
      '"',
      "'`",
      "  `",
      "<details>",
      "  <summary>ovsdb-server.log</summary>",
      "</details>",
      "[7:25](https://x.slack.com/archives/C1/p2)",
      "https://github.com/org/repo/issues/1",
      "@@ -3,7 +3,8 @@",
      "+++ b/x.log",
      "stream closed",
      "stream closed EOF for kube-system/aws-node-x2 (aws-node)",
    ]) {
      expect(isPasteBanner(l), l).toBe(true);
    }
    for (const l of ['"msg":"x"', "<nil>", "[INFO] started", "streams closed by peer", "+Jun 11 14:03:05 node-a kubelet[1]: x"])
      expect(isPasteBanner(l), l).toBe(false);
    expect(isProseLabel("Logs error:")).toBe(true);
    expect(isProseLabel("here is the kubelet log:")).toBe(true);
    expect(isProseLabel("Events:")).toBe(false);
    expect(isProseLabel("Traceback (most recent call last):")).toBe(false);
    expect(isProseLabel("E0611 14:03:05.204118 x:")).toBe(false);
  });
});

describe("explainUnknown quotes an unread line", () => {
  it("the example comes from the skipped lines, never from a line that was read", () => {
    const msg = explainUnknown([], { format: "logrus-text", parsedPercent: 67, skippedLines: ["/etc/cni/net.d and its /opt/cni/bin", "ask on the channel"] });
    expect(msg).toContain("`/etc/cni/net.d and its /opt/cni/bin`");
    expect(msg).not.toContain("DEBU");
  });

  it("skipped lines that are all furniture: no empty quote", () => {
    const msg = explainUnknown([], { format: "logrus-text", parsedPercent: 60, skippedLines: ["$ crictl runp pod.json"] });
    expect(msg).not.toContain("``");
  });
});

describe("node from the Scheduled row of an events table", () => {
  it("`kubectl events --for pod/x`: the rows of the pod take the node the scheduler named", () => {
    const text = [
      "$ kubectl -n web events --for pod/shop-0",
      "LAST SEEN             TYPE      REASON                   OBJECT       MESSAGE",
      "14m                   Normal    Scheduled                Pod/shop-0   Successfully assigned web/shop-0 to pool-a-7x2k",
      '13m (x12 over 14m)    Warning   FailedCreatePodSandBox   Pod/shop-0   Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "ab12": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory',
      '2m                    Normal    Pulled                   Pod/other-1  Container image "nginx:1.25" already present on machine',
    ].join("\n");
    const f = parseFile("events.txt", text, { collectedMs });
    expect(f.format).toBe("kubectl-events-table");
    expect(f.records.map((r) => r.k8sEvent?.node)).toEqual(["pool-a-7x2k", "pool-a-7x2k", null]);
    expect(f.records[1].fields?.node).toBe("pool-a-7x2k");
  });

  it("a pod assigned to two nodes in one paste gets none", () => {
    const text = [
      "LAST SEEN   TYPE      REASON      OBJECT       MESSAGE",
      "30m         Normal    Scheduled   pod/job-x    Successfully assigned batch/job-x to node-1",
      "10m         Normal    Scheduled   pod/job-x    Successfully assigned batch/job-x to node-2",
      "9m          Warning   FailedCreatePodSandBox   pod/job-x    Failed to create pod sandbox: timeout",
    ].join("\n");
    const f = parseFile("events.txt", text, { collectedMs });
    expect(f.records[2].k8sEvent?.node).toBeNull();
  });
});
