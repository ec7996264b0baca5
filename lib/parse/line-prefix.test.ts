/**
 * The paste layer of `parseFile`: tool prefixes in front of known formats, prompts and comments,
 * pager cut marks, hard wraps, glued records and mixed formats.
 */
import { describe, expect, it } from "vitest";
import type { FileRecord, ParsedFile } from "./file-types";
import { planPrefix, stripPrefix, splitGlued, POD_CONTAINER } from "./line-prefix";
import { detectWrapWidth, isPasteBanner } from "./paste";
import { detectPagerCut } from "./transforms/pager-cut";
import { parseFile, pasteInfo, sniffFormat } from "./parse-file";

const iso = (r: FileRecord): string | null => (r.ts === null ? null : new Date(r.ts).toISOString());

function expectAccounting(f: ParsedFile): void {
  const c = f.counts;
  const glued = (c as typeof c & { glued?: number }).glued ?? 0;
  expect(c.parsed + c.blank + c.skipped).toBe(c.lines);
  expect(c.records + c.continuation + c.banner - glued).toBe(c.parsed);
}

const KLOG_1 =
  'E0519 04:20:07.512344    2817 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"CreatePodSandbox\\" for \\"web-1_shop(5f1c)\\"" pod="shop/web-1"';
const KLOG_2 = 'I0519 04:20:08.100200    2817 kubelet.go:2321] "SyncLoop ADD" source="api" pods=["shop/web-1"]';
const CALICO = "2025-05-19 04:20:11.305 [ERROR][4123] <nil> 0: stat /var/lib/calico/nodename: no such file or directory";

describe("tool prefixes", () => {
  it("logcli's `Common labels: {…}` names the node of the entries below it; a line's own labels win", () => {
    const text = [
      'Common labels: {host="worker-4", job="systemd-journal", unit="kubelet.service"}',
      `2025-05-19T04:20:07.512344Z {} ${KLOG_1}`,
      `2025-05-19T04:20:08.100200Z {host="worker-5"} ${KLOG_2}`,
      'Common labels: {host="worker-6", pod="calico-node-x7k2p"}',
      `2025-05-19T04:20:09.100200Z {} ${KLOG_2}`,
    ].join("\n");
    const f = parseFile("logcli.txt", text);
    expectAccounting(f);
    expect(f.counts).toMatchObject({ records: 3, banner: 2, skipped: 0 });
    expect(f.records.map((r) => r.host)).toEqual(["worker-4", "worker-5", "worker-6"]);
    expect(f.records[2].fields?.prefixPod).toBe("calico-node-x7k2p");
  });

  it("`kubectl logs --prefix` in front of Calico lines: the pod and container become fields, not the node", () => {
    const text = [
      `[pod/calico-node-x7k2p/calico-node] ${CALICO}`,
      '[pod/calico-node-x7k2p/calico-node] 2025-05-19 04:20:11.410 [INFO][4123] felix/int_dataplane.go 1950: Received interface update msg=&intdataplane.ifaceUpdate{Name:"cali12ab", State:"up"}',
    ].join("\n");
    const f = parseFile("paste.txt", text, {});
    expect(f.format).toBe("calico-cni");
    expect(pasteInfo(f)?.prefix).toEqual(["kubectl-prefix"]);
    expect(f.counts).toMatchObject({ lines: 2, records: 2, skipped: 0 });
    expect(f.records[0]).toMatchObject({ severity: 3, fields: expect.objectContaining({ prefixPod: "calico-node-x7k2p", prefixContainer: "calico-node" }) });
    expect(f.records[0].host).toBeUndefined();
    expect(iso(f.records[0])).toBe("2025-05-19T04:20:11.305Z");
  });

  it("stern's `<pod> <container>` in front of Calico lines: fields, not the node (the stamp's date is no container)", () => {
    const text = [
      `calico-node-x7k2p calico-node ${CALICO}`,
      'calico-node-x7k2p calico-node 2025-05-19 04:20:11.410 [INFO][4123] felix/int_dataplane.go 1950: Received interface update msg=&intdataplane.ifaceUpdate{Name:"cali12ab", State:"up"}',
    ].join("\n");
    const f = parseFile("stern.txt", text, {});
    expect(f.format).toBe("calico-cni");
    expect(pasteInfo(f)?.prefix).toEqual(["pod-container"]);
    expect(f.counts).toMatchObject({ lines: 2, records: 2, skipped: 0 });
    expect(f.records[0].fields).toMatchObject({ prefixPod: "calico-node-x7k2p", prefixContainer: "calico-node" });
    expect(f.records[0].host).toBeUndefined();
  });

  it("`--timestamps` under `--prefix` in front of klog: the component's own stamp wins", () => {
    const text = [
      `[pod/kube-proxy-9xk2p/kube-proxy] 2025-05-19T04:20:09.900000000Z ${KLOG_1}`,
      `[pod/kube-proxy-9xk2p/kube-proxy] 2025-05-19T04:20:09.900000000Z ${KLOG_2}`,
    ].join("\n");
    const f = parseFile("paste.txt", text, { year: 2025 });
    expect(f.format).toBe("klog");
    expect(pasteInfo(f)?.prefix).toEqual(["kubectl-prefix", "timestamps"]);
    expect(f.records.map(iso)).toEqual(["2025-05-19T04:20:07.512Z", "2025-05-19T04:20:08.100Z"]);
    expect(f.records[0].fields?.prefixTime).toBe("2025-05-19T04:20:09.900000000Z");
    expect(f.records[0].pid).toBe(2817);
  });

  it("`--timestamps` in front of a format with no time of its own (a Go panic): the prefix stamp is the time", () => {
    const text = [
      "2025-05-19T04:20:12.000000001Z panic: runtime error: invalid memory address or nil pointer dereference",
      "2025-05-19T04:20:12.000000002Z [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1b2c3d4]",
      "2025-05-19T04:20:12.000000003Z goroutine 1 [running]:",
    ].join("\n");
    const f = parseFile("paste.txt", text, {});
    expect(f.format).toBe("go-panic");
    expect(pasteInfo(f)?.prefix).toEqual(["timestamps"]);
    expect(f.counts).toMatchObject({ records: 1, continuation: 2 });
    expect(iso(f.records[0])).toBe("2025-05-19T04:20:12.000Z");
    expect(f.records[0].severity).toBe(4);
  });

  it("`--timestamps` in front of klog stays the kubectl-timestamps format (it reads component lines)", () => {
    const f = parseFile("paste.txt", `2025-05-19T04:20:09.104730000Z ${KLOG_2}\n`, {});
    expect(f.format).toBe("kubectl-timestamps");
    expect(pasteInfo(f)).toBeUndefined();
  });

  it("cilium logfmt without time behind `--timestamps`: kubectl-timestamps reads it, the stamp is used", () => {
    const text = [
      '2025-05-19T04:20:13.250000000Z level=info msg="Generating CNI configuration file with mode portmap" subsys=cni-config',
      '2025-05-19T04:20:13.251000000Z level=info msg="Wrote CNI configuration file to /host/etc/cni/net.d/05-cilium.conflist" subsys=cni-config',
    ].join("\n");
    const f = parseFile("paste.txt", text, {});
    expect(f.format).toBe("kubectl-timestamps");
    expect(f.records.map(iso)).toEqual(["2025-05-19T04:20:13.250Z", "2025-05-19T04:20:13.251Z"]);
    expect(f.records[1]).toMatchObject({ component: "cilium", fields: { subsys: "cni-config" } });
  });

  it("a talosctl-style address column gives the node; a line without it continues the record", () => {
    const text = [`172.20.0.3: ${KLOG_1}`, "172.20.0.3: " + KLOG_2, "  a line a terminal wrapped without the prefix"].join("\n");
    const f = parseFile("paste.txt", text, { year: 2025 });
    expect(f.format).toBe("klog");
    expect(f.records.map((r) => r.host)).toEqual(["172.20.0.3", "172.20.0.3"]);
    expect(f.counts).toMatchObject({ records: 2, continuation: 1, skipped: 0 });
  });

  it("a multi-node `<node> | ` column in front of journal lines: the journal's own host wins", () => {
    const text = ["worker-1 | May 19 04:20:07 ip-10-0-1-5 kubelet[2817]: " + KLOG_1, "worker-1 | May 19 04:20:08 ip-10-0-1-5 kubelet[2817]: " + KLOG_2].join(
      "\n",
    );
    const f = parseFile("paste.txt", text, { year: 2025 });
    expect(f.format).toBe("journal-short");
    expect(pasteInfo(f)?.prefix).toEqual(["host-pipe"]);
    expect(f.records.map((r) => r.host)).toEqual(["ip-10-0-1-5", "ip-10-0-1-5"]);
  });

  it("`grep -n` and `grep -H` prefixes: origin kept as fields, the format read behind them", () => {
    const n = parseFile("paste.txt", `1204:${KLOG_1}\n1207:${KLOG_2}\n`, { year: 2025 });
    expect(n.format).toBe("klog");
    expect(n.records.map((r) => r.fields?.prefixLine)).toEqual(["1204", "1207"]);
    const h = parseFile("paste.txt", `/var/log/kubelet.log:${KLOG_1}\n/var/log/kubelet.log:${KLOG_2}\n`, { year: 2025 });
    expect(h.format).toBe("klog");
    expect(h.records[0].fields?.prefixFile).toBe("/var/log/kubelet.log");
  });

  it("`cat -n` / `nl` line numbers (six columns, a tab) before journal lines and describe rows: the format read behind them", () => {
    const j = [
      'Feb 15 20:28:31 kind-worker containerd[3929]: time="2024-02-15T20:28:31.785841950Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:server,Uid:eb98,Namespace:default,Attempt:0,}"',
      'Feb 15 20:28:32 kind-worker kubelet[248]: E0215 20:28:32.075651     248 remote_runtime.go:176] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"1341f1c7aa620238c4d30e6f28e6bcb9ec8e44fd34d3f81ceaa1498e672054d2\\": plugin type=\\"cilium-cni\\" failed (add): unable to connect to Cilium agent"',
    ];
    const n = parseFile("paste.txt", j.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n"));
    expectAccounting(n);
    expect(n.format).toBe("journal-short");
    expect(n.counts).toMatchObject({ records: 2, skipped: 0 });
    expect(n.records.map((r) => [r.component, r.host, r.fields?.prefixLine, iso(r)])).toEqual([
      ["containerd", "kind-worker", "1", "2024-02-15T20:28:31.785Z"],
      ["kubelet", "kind-worker", "2", "2024-02-15T20:28:32.075Z"],
    ]);
    const rows = [
      "Events:",
      "  Type     Reason                  Age   From     Message",
      "  ----     ------                  ----  ----     -------",
      '  Warning  FailedCreatePodSandBox  13m   kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "671a92300345bd0ed7f6ea920ff1b9f59aa4ae57bcdf62f379d6aaaff2757e42": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory',
    ];
    const d = parseFile("paste.txt", rows.map((l, i) => `${String(i + 40).padStart(6)}\t${l}`).join("\n"), { collectedMs: Date.parse("2024-06-01T12:00:00Z") });
    expect(d.format).toBe("describe-events");
    expect(d.counts).toMatchObject({ records: 1, skipped: 0 });
    expect(d.records[0].k8sEvent?.reason).toBe("FailedCreatePodSandBox");
    expect(iso(d.records[0])).toBe("2024-06-01T11:47:00.000Z");
    // `grep -n` over the same rows: the number before `:  Warning` is a line, not a node's address
    const g = parseFile("paste.txt", rows.map((l, i) => `${i + 40}:${l}`).join("\n"), { collectedMs: Date.parse("2024-06-01T12:00:00Z") });
    expect(pasteInfo(g)?.prefix).toEqual(["grep"]);
    expect(g.counts).toMatchObject({ records: 1, skipped: 0 });
    expect(g.records[0].host).toBeUndefined();
    expect(g.records[0].fields?.prefixLine).toBe("43");
  });

  it("a file without any prefix pays nothing and reports nothing", () => {
    const f = parseFile("kubelet.log", `${KLOG_1}\n${KLOG_2}\n`, { year: 2025 });
    expect(f.format).toBe("klog");
    expect(pasteInfo(f)).toBeUndefined();
  });

  it("stripPrefix / splitGlued / planPrefix on their own", () => {
    const s = stripPrefix("   web-1 app time=x", [POD_CONTAINER]);
    expect(s).toMatchObject({ rest: "time=x", lead: "web-1 app ", facts: { pod: "web-1", container: "app" } });
    expect(stripPrefix("No prefix here: at all", [POD_CONTAINER])).toBeNull();
    const g = splitGlued("a=1 b=2web-1 app a=3   web-1 app a=4  ", "web-1 app ", (p) => p.startsWith("a="));
    expect(g).toEqual({ firstEnd: 7, more: ["web-1 app a=3", "web-1 app a=4"] });
    expect(planPrefix("", ["hello world", "more words"], sniffFormat)).toBeNull();
  });
});

describe("prompts, comments, pager marks, wraps", () => {
  it("prompts and commands are banners, whatever the shell", () => {
    for (const l of [
      "root@node-p:~# crictl runp pod-config.json",
      "ubuntu@ip-10-0-1-5:~/logs$ journalctl -u kubelet --no-pager",
      "[root@worker-3 ~]# crictl ps -a",
      "$ kubectl logs -n kube-system cilium-w96t9",
      "PS C:\\Users\\me> kubectl get events",
      "sh-5.1# chroot /host",
      "## (journalctl -u containerd -u kubelet -r)",
      "# kubelet after the reboot",
      "```",
      "```log",
      "--",
    ])
      expect(isPasteBanner(l), l).toBe(true);
    for (const l of [KLOG_1, CALICO, "[pod/a-1/b] x", "May 19 04:20:07 node-a kubelet[1]: x", '{"ts":1,"msg":"x"}', "level=info msg=x", "- name: x"])
      expect(isPasteBanner(l), l).toBe(false);
  });

  it("a paste: prompt, comment, journal lines; banners are counted, the prompt's host is no node", () => {
    const text = [
      "[root@worker-3 ~]# journalctl -u kubelet | tail -2",
      "# after the reboot",
      `May 19 04:20:07 worker-3 kubelet[2817]: ${KLOG_1}`,
      `May 19 04:20:08 worker-3 kubelet[2817]: ${KLOG_2}`,
    ].join("\n");
    const f = parseFile("paste.txt", text, { year: 2025 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 4, banner: 2, records: 2, skipped: 0 });
    expect(f.records.map((r) => r.host)).toEqual(["worker-3", "worker-3"]);
  });

  it("a pager's `>` at one right edge is stripped; the record is read", () => {
    const a = `${KLOG_1.slice(0, 79)}>`;
    const b = `${KLOG_2.slice(0, 79)}>`;
    expect(detectPagerCut([a, b, "short"])).toEqual({ mark: ">", width: 80 });
    expect(detectPagerCut([`${KLOG_1}>`, "x>"])).toBeNull();
    const f = parseFile("paste.txt", `${a}\n${b}\n`, { year: 2025 });
    expect(f.format).toBe("klog");
    expect(f.records[0].raw.endsWith(">")).toBe(false);
    expect(pasteInfo(f)?.pagerMark).toBe(">");
  });

  it("lines a terminal wrapped at a fixed width continue the record before them", () => {
    const w = 100;
    const long1 = KLOG_1 + " ".repeat(0);
    const lines = [long1.slice(0, w), long1.slice(w), KLOG_2.padEnd(w, " ").slice(0, w), "rest of record two"];
    expect(detectWrapWidth(lines)).toBe(w);
    const f = parseFile("paste.txt", lines.join("\n"), { year: 2025 });
    expect(f.format).toBe("klog");
    expect(f.counts).toMatchObject({ records: 2, continuation: 2, skipped: 0 });
    expect(pasteInfo(f)?.wrapped).toBe(2);
  });
});

describe("mixed pastes", () => {
  it("a journal file with a bare klog line: the line is read by klog", () => {
    const text = [`May 19 04:20:07 node-a kubelet[2817]: ${KLOG_1}`, KLOG_2, `May 19 04:20:09 node-a kubelet[2817]: ${KLOG_2}`].join("\n");
    const f = parseFile("paste.txt", text, { year: 2025 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ records: 3, skipped: 0 });
    expectAccounting(f);
    expect(pasteInfo(f)?.otherFormats).toEqual(["klog"]);
    expect(iso(f.records[1])).toBe("2025-05-19T04:20:08.100Z");
    expect(f.records[1].host).toBeUndefined();
  });

  it("junk lines are still skipped (the per-line fallback finds nothing)", () => {
    const f = parseFile("paste.txt", `${KLOG_1}\nthis is not a log line\n${KLOG_2}`, { year: 2025 });
    expect(f.counts).toMatchObject({ records: 2, skipped: 1 });
    expect(pasteInfo(f)).toBeUndefined();
  });
});
