/**
 * Pastes with a decoration on every line (Markdown code block, block quote, inline backticks),
 * leading furniture (bare commands, kubectl notices, `systemctl status`, agent banners, crictl
 * tables), hard-wrapped lines, and klog multi-line values (`key=<` … ` >`), forward and
 * newest-first. Lines written for these tests in the tools' documented shapes.
 */
import { describe, expect, it } from "vitest";
import type { ParsedFile } from "./file-types";
import { parseFile, pasteInfo } from "./parse-file";
import { detectDecoration, detectWrapWidth, Furniture, isPasteBanner, isWrapTail, stripDecoration } from "./paste";
import { stripBackticks } from "./transforms/backticks";
import { detectPagerCut, stripPagerCut } from "./transforms/pager-cut";

function expectAccounting(f: ParsedFile): void {
  const c = f.counts;
  const glued = (c as typeof c & { glued?: number }).glued ?? 0;
  expect(c.parsed + c.blank + c.skipped).toBe(c.lines);
  expect(c.records + c.continuation + c.banner - glued).toBe(c.parsed);
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const SB = "4f0c2a9be61d7c3385e0a1f2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6";
const J1 = `Mar 04 09:12:40 worker-7 kubelet[2211]: E0304 09:12:40.118200    2211 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"${SB}\\": plugin type=\\"flannel\\" failed (add): loadFlannelSubnetEnv failed: open /run/flannel/subnet.env: no such file or directory"`;
const J2 = `Mar 04 09:12:40 worker-7 kubelet[2211]: E0304 09:12:40.118291    2211 kuberuntime_manager.go:1170] "CreatePodSandbox for pod failed" pod="kube-system/coredns-7db6d8ff4d-q2wxs"`;
const J3 =
  'Mar 04 09:12:41 worker-7 kubelet[2211]: I0304 09:12:41.000100    2211 kubelet.go:2408] "SyncLoop (PLEG): event for pod" pod="kube-system/coredns-7db6d8ff4d-q2wxs"';
const K1 = 'I0611 07:30:02.100300 4100771 main.go:201] "Starting agent" version="v1.14.2"';
const K2 = "E0611 07:30:09.555123 4100771 handler.go:277] failed to configure nic eth0 for pod demo/web-5c9d8f7b6-l4kzq: timed out waiting for the gateway";

describe("decorations on every line", () => {
  it("a Markdown code block (4 blanks) around a `systemctl status` paste: status block is furniture, journal read", () => {
    const text = [
      "root@worker-7:~# systemctl status kubelet",
      "● kubelet.service - kubelet: The Kubernetes Node Agent",
      "     Loaded: loaded (/lib/systemd/system/kubelet.service; enabled; vendor preset: enabled)",
      "    Drop-In: /usr/lib/systemd/system/kubelet.service.d",
      "             └─10-kubeadm.conf",
      "     Active: active (running) since Mon 2025-03-04 09:01:17 UTC; 11min ago",
      "   Main PID: 2211 (kubelet)",
      "     CGroup: /system.slice/kubelet.service",
      "             └─2211 /usr/bin/kubelet --config=/var/lib/kubelet/config.yaml",
      "",
      J1,
      J2,
      J3,
    ]
      .map((l) => (l ? `    ${l}` : "    "))
      .join("\n");
    const f = parseFile("paste.md", text, { year: 2025 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 13, blank: 1, records: 3, banner: 9, skipped: 0 });
    expectAccounting(f);
    expect(pasteInfo(f)?.decoration).toBe("indent");
    expect(f.records.map((r) => r.host)).toEqual(["worker-7", "worker-7", "worker-7"]);
    expect(iso(f.records[0].ts)).toBe("2025-03-04T09:12:40.118Z");
    expect(f.records[0].raw.startsWith("Mar 04")).toBe(true);
  });

  it("a tab-indented klog paste is read as klog", () => {
    const f = parseFile("paste.md", `\t${K1}\n\t${K2}\n`, { year: 2025 });
    expect(f.format).toBe("klog");
    expect(f.counts).toMatchObject({ records: 2, skipped: 0 });
    expect(f.records.map((r) => r.severity)).toEqual([1, 3]);
  });

  it("a `> ` block quote (with `>` alone on blank lines) around a crictl --debug run", () => {
    const text = [
      "> # crictl --debug runp sandbox.json",
      "> DEBU[0000] get runtime connection",
      ">",
      "> DEBU[0000] RunPodSandboxRequest: &RunPodSandboxRequest{Config:&PodSandboxConfig{Metadata:&PodSandboxMetadata{Name:probe,Uid:u1,Namespace:default,Attempt:1,},},}",
      `> FATA[0000] run pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${SB}": cni plugin not initialized`,
    ].join("\n");
    const f = parseFile("quote.txt", text);
    expect(f.format).toBe("logrus-text");
    expect(f.counts).toMatchObject({ lines: 5, blank: 1, records: 3, banner: 1, skipped: 0 });
    expect(pasteInfo(f)?.decoration).toBe("quote");
    expect(f.records.map((r) => r.severity)).toEqual([0, 0, 4]);
    expect(f.records[2].message.startsWith("run pod sandbox: rpc error")).toBe(true);
  });

  it("inline backticks opened on the first line and closed on the last: both lines read", () => {
    const f = parseFile("tick.txt", `\`${J3}\n${J2}\n${J1}\``, { year: 2025 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ records: 3, skipped: 0 });
    expect(f.records.some((r) => r.message.includes("`"))).toBe(false);
    expect(pasteInfo(f)?.decoration).toBe("backticks");
  });

  it("a fence glued to the `Events:` line and to the last row", () => {
    const text = [
      "```Events:",
      "  Type     Reason                  Age                  From     Message",
      "  ----     ------                  ----                 ----     -------",
      "  Warning  FailedCreatePodSandBox  2m10s (x9 over 6m)   kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox: cni plugin not initialized```",
    ].join("\n");
    const f = parseFile("fence.txt", text, { collectedMs: Date.UTC(2025, 2, 4, 10) });
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ records: 1, skipped: 0 });
    expect(f.records[0].message.endsWith("initialized")).toBe(true);
    expect(f.records[0].k8sEvent?.count).toBe(9);
  });

  it("an indentation that is the format's own shape stays: describe rows, journal -o verbose fields", () => {
    const rows = [
      "  Normal   SandboxChanged          4m (x12 over 9m)   kubelet, worker-7  Pod sandbox changed, it will be killed and re-created.",
      "  Warning  FailedCreatePodSandBox  3m (x40 over 9m)   kubelet, worker-7  Failed to create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed",
    ];
    const f = parseFile("rows.txt", rows.join("\n"), { collectedMs: Date.UTC(2025, 2, 4, 10) });
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ records: 2, skipped: 0 });
    expect(pasteInfo(f)?.decoration).toBeUndefined();
  });

  it("detectDecoration / stripDecoration / stripBackticks on their own", () => {
    expect(detectDecoration(["    a", "", "        b", "    c"])).toEqual({ kind: "indent", prefix: "    " });
    expect(detectDecoration(["\ta", "\t\tb"])).toEqual({ kind: "indent", prefix: "\t" });
    expect(detectDecoration(["a", "    b"])).toBeNull();
    expect(detectDecoration(["  a", "b"])).toBeNull();
    expect(detectDecoration(["> a", ">", "> b"])).toEqual({ kind: "quote" });
    expect(stripDecoration(["> a", ">", ">b"], { kind: "quote" })).toEqual(["a", "", "b"]);
    expect(stripBackticks(["`a", "b", "c`"])).toEqual(["a", "b", "c"]);
    expect(stripBackticks(["a", "b"])).toBeNull();
    expect(stripBackticks(["```", "a", "```"])).toBeNull();
  });
});

describe("leading furniture", () => {
  it("kubectl logs notice, agent chatter and a version banner between rules before klog", () => {
    const text = [
      "# kubectl -n kube-system logs kube-ovn-cni-7xk2p",
      'Defaulted container "cni-server" out of: cni-server, install-cni (init)',
      "ovsdb-server is running with pid 4100502",
      "iptables v1.8.9 (legacy)",
      "--------------------------------------------------------------------------------",
      "Kube-OVN:",
      "  Version:       v1.14.2",
      "  Build:         2025-05-30_08:11:02",
      "  Commit:        git-0a1b2c3",
      "--------------------------------------------------------------------------------",
      K1,
      K2,
    ].join("\n");
    const f = parseFile("agent.txt", text, { year: 2025 });
    expect(f.format).toBe("klog");
    expect(f.counts).toMatchObject({ lines: 12, records: 2, banner: 10, skipped: 0 });
    expect(f.banners.every((b) => b.banner.type === "header")).toBe(true);
  });

  it("a bare command line and an elision mark before describe rows are banners", () => {
    const text = [
      "KUBECONFIG=/etc/kubernetes/admin.conf kubectl -n kube-system describe pod coredns-7db6d8ff4d-q2wxs",
      "",
      "[...]",
      "  Warning  FailedCreatePodSandBox  1m (x30 over 5m)  kubelet, worker-7  Failed to create pod sandbox: rpc error: code = Unknown desc = cni config uninitialized",
      "  …",
    ].join("\n");
    const f = parseFile("describe.txt", text, { collectedMs: Date.UTC(2025, 2, 4, 10) });
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ records: 1, banner: 3, skipped: 0 });
  });

  it("crictl pods and crictl ps tables in a paste: header and rows are banners, not unread", () => {
    const text = [
      "$ sudo crictl runp sandbox.json",
      `E0304 09:12:40.118200   51210 remote_runtime.go:176] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"${SB}\\": cni plugin not initialized"`,
      "$ sudo crictl pods",
      "POD ID              CREATED             STATE               NAME                NAMESPACE           ATTEMPT             RUNTIME",
      "4f0c2a9be61d7       12 seconds ago      NotReady            probe               default             1                   (default)",
      "sudo crictl ps -a",
      "CONTAINER           IMAGE               CREATED             STATE               NAME                ATTEMPT             POD ID              POD",
      "9a8b7c6d5e4f3       1c2d3e4f5a6b7       3 minutes ago       Running             kube-proxy          0                   0d1e2f3a4b5c6       kube-proxy-h7q2d",
    ].join("\n");
    const f = parseFile("crictl.txt", text, { year: 2025 });
    expect(f.format).toBe("klog");
    expect(f.counts).toMatchObject({ lines: 8, records: 1, banner: 7, skipped: 0 });
  });

  it("isPasteBanner: furniture yes, log records no", () => {
    for (const l of [
      "journalctl -xeu kubelet",
      "sudo crictl ps",
      "k -n kube-system logs cilium-5xk2d",
      'Defaulted container "calico-node" out of: calico-node, install-cni (init)',
      "...",
      "…",
      "[...]",
      "<snip>",
      "[47 duplicate lines deleted]",
      "(12 similar lines)",
      "------------",
      "● containerd.service - containerd container runtime",
    ])
      expect(isPasteBanner(l), l).toBe(true);
    for (const l of [
      J1,
      K1,
      K2,
      'time="2025-03-04T09:12:40.118200Z" level=error msg="x"',
      "2025-03-04 09:12:40.118 [INFO][77] ipam.go 1: x",
      "kubelet[2211]: x",
      "- name: x",
      "---",
    ]) {
      expect(isPasteBanner(l), l).toBe(false);
    }
  });

  it("Furniture blocks end at a blank line or a line that is not part of them", () => {
    const fu = new Furniture();
    const lines = ["● kubelet.service - kubelet", "   Active: active", "", "   indented later"];
    expect(lines.map((l, i) => (l ? fu.test(l, i) : false))).toEqual([true, true, false, false]);
  });
});

describe("hard-wrapped lines", () => {
  it("a structured klog line wrapped at a fixed width: one record, its err value whole", () => {
    const w = 120;
    const pieces: string[] = [];
    for (let s = J1; s.length > 0; s = s.slice(w)) pieces.push(s.slice(0, w));
    const pieces2: string[] = [];
    for (let s = J2; s.length > 0; s = s.slice(w)) pieces2.push(s.slice(0, w));
    const lines = [...pieces, ...pieces2, J3];
    expect(detectWrapWidth(lines)).toBe(w);
    const f = parseFile("wrapped.txt", lines.join("\n"), { year: 2025 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ records: 3, continuation: pieces.length - 1 + pieces2.length - 1, skipped: 0 });
    expect(f.records[0].fields?.err).toBe(
      `rpc error: code = Unknown desc = failed to setup network for sandbox "${SB}": plugin type="flannel" failed (add): loadFlannelSubnetEnv failed: open /run/flannel/subnet.env: no such file or directory`,
    );
    expect(f.records[1].fields?.pod).toBe("kube-system/coredns-7db6d8ff4d-q2wxs");
    expect(pasteInfo(f)?.wrapped).toBe(pieces.length - 1 + pieces2.length - 1);
  });

  it("zap JSON lines a terminal wrapped inside their strings (aws/amazon-vpc-cni-k8s#3066): each first piece is the record, the tails join it", () => {
    const sb = "d78e79e2f3c65976885cf228da933b8d35471497f1bdfacbff8d24644f175222";
    const add = `{"level":"info","ts":"2024-10-10T21:51:34.288Z","caller":"rpc/rpc.pb.go:863","msg":"Received AddNetwork for NS /var/run/netns/cni-a1e04c19-447f-a214-5ccf-76f51a955e74, Sandbox ${sb}, ifname eth0"}`;
    const req = `{"level":"debug","ts":"2024-10-10T21:51:34.288Z","caller":"rpc/rpc.pb.go:863","msg":"AddNetworkRequest: K8S_POD_NAME:\\"jobs-79c5bb8c56-l7mfw\\"  K8S_POD_NAMESPACE:\\"booking-cars\\"  ContainerID:\\"${sb}\\"  IfName:\\"eth0\\"  NetworkName:\\"aws-cni\\"  Netns:\\"/var/run/netns/cni-a1e04c19-447f-a214-5ccf-76f51a955e74\\""}`;
    const one = '{"level":"debug","ts":"2024-10-10T21:51:34.289Z","caller":"ipamd/ipamd.go:1953","msg":"Total number of interfaces found: 2 "}';
    const w = 150;
    const cut = (l: string) => {
      const out: string[] = [];
      for (let i = 0; i < l.length; i += w) out.push(l.slice(i, i + w));
      return out;
    };
    const lines = [...cut(add), ...cut(req), one];
    expect(detectWrapWidth(lines)).toBe(w);
    const f = parseFile("ipamd.log", lines.join("\n"));
    expectAccounting(f);
    expect(f.format).toBe("zap-json");
    expect(f.counts).toMatchObject({ records: 3, continuation: cut(add).length - 1 + cut(req).length - 1, skipped: 0 });
    expect(f.records.map((r) => [r.line, r.endLine, iso(r.ts), r.severity])).toEqual([
      [1, cut(add).length, "2024-10-10T21:51:34.288Z", 1],
      [cut(add).length + 1, cut(add).length + cut(req).length, "2024-10-10T21:51:34.288Z", 0],
      [lines.length, lines.length, "2024-10-10T21:51:34.289Z", 0],
    ]);
    expect(f.records[0].message).toBe(`Received AddNetwork for NS /var/run/netns/cni-a1e04c19-447f-a214-5ccf-76f51a955e74, Sandbox ${sb}, ifname eth0`);
    expect(f.records[1].message).toContain(`ContainerID:"${sb}"`);
  });

  it("get events rows wrapped so that tails outnumber rows: the sniff looks at row starts", () => {
    const row = (id: string) =>
      `52s         Warning   FailedCreatePodSandBox   pod/web-5c9d8f7b6-l4kzq   Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": plugin type="multus-shim" name="multus-cni-network" failed (add): CmdAdd (shim): CNI request failed with status 400: 'ERRORED: error configuring pod [demo/web-5c9d8f7b6-l4kzq] networking: Multus: GetNetworkDelegates: failed getting the delegate: GetCNIConfig: err in GetCNIConfigFromFile: No networks found in /host/etc/cni/net.d'`;
    const w = 100;
    const lines: string[] = [];
    for (const r of [row(SB), row(SB.split("").reverse().join(""))]) for (let s = r; s.length > 0; s = s.slice(w)) lines.push(s.slice(0, w));
    const f = parseFile("events.txt", lines.join("\n"), { collectedMs: Date.UTC(2025, 2, 4, 10) });
    expect(f.format).toBe("kubectl-events-table");
    expect(f.counts).toMatchObject({ records: 2, skipped: 0 });
    expect(f.records[0].message).toContain(SB);
  });

  it("a long describe row cut inside a sandbox id, with no width shared by other lines", () => {
    const row = `  Warning  FailedCreatePodSandBox  2s  kubelet  (combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create pod network sandbox k8s_web-5c9d8f7b6-l4kzq_demo_0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b_0(${SB}): error adding pod demo_web-5c9d8f7b6-l4kzq to CNI network "multus-cni-network": plugin type="kube-ovn" failed (add): RPC failed; request ip return 500 no address allocated to pod demo/web-5c9d8f7b6-l4kzq, provider ovn`;
    const cut = row.indexOf(SB) + 30;
    const text = ["Events:", "  Type     Reason  Age  From  Message", row.slice(0, cut), row.slice(cut)].join("\n");
    const f = parseFile("describe.txt", text, { collectedMs: Date.UTC(2025, 2, 4, 10) });
    expect(f.counts).toMatchObject({ records: 1, continuation: 1, skipped: 0 });
    expect(f.records[0].message).toContain(SB);
  });

  it("isWrapTail: at or near the width, cut inside a word; never a record start or an indented line", () => {
    const prev = "x".repeat(120);
    expect(isWrapTail("tail of it", prev, 120)).toBe(true);
    expect(isWrapTail("  indented", prev, 120)).toBe(false);
    expect(isWrapTail("Mar 04 09:12:41 worker-7 kubelet[1]: x", prev, 120)).toBe(false);
    expect(isWrapTail("word", `${"x".repeat(110)}ab`, 120)).toBe(true);
    expect(isWrapTail("word", `${"x".repeat(110)}a `, 120)).toBe(false);
    expect(isWrapTail("this is not a log line", K1, 0)).toBe(false);
  });
});

describe("pager cut marks at more than one length", () => {
  it("most cut lines share the screen width; a longer line (wide characters) cut with the mark too", () => {
    const cut = (l: string, n: number) => `${l.slice(0, n - 1)}>`;
    const lines = [
      cut(J1, 150),
      cut(J2, 150),
      cut(J1, 150),
      cut(`Mar 04 09:12:40 worker-7 kubelet[2211]: 한국어 ${J1.slice(40)}`, 170),
      "Mar 04 09:12:41 worker-7 kubelet[2211]: short",
    ];
    const pc = detectPagerCut(lines);
    expect(pc).toEqual({ mark: ">", width: 150 });
    expect(lines.map((l) => stripPagerCut(l, pc!).endsWith(">"))).toEqual([false, false, false, false, false]);
    // two at one length and a longer line without the mark: no pager
    expect(detectPagerCut([cut(J1, 150), cut(J2, 150), J1])).toBeNull();
    const f = parseFile("cut.txt", lines.join("\n"), { year: 2025 });
    expect(f.records.some((r) => r.message.endsWith(">"))).toBe(false);
  });
});

describe("klog multi-line values (`key=<`, tab-led lines, ` >`)", () => {
  const body = [
    `\trpc error: code = Unknown desc = failed to setup network for sandbox "${SB}": plugin type="multus-shim" name="multus-cni-network" failed (add): CmdAdd (shim): CNI request failed with status 400: 'ERRORED: error configuring pod [demo/web-5c9d8f7b6-l4kzq] networking:`,
    "\tMultus: [demo/web-5c9d8f7b6-l4kzq/0f1e2d3c]: error waiting for pod: pod not found'",
  ];
  const value = body.map((l) => l.slice(1)).join("\n");

  it("a standalone klog file: the block is the record's continuation and its value", () => {
    const text = [
      `E0611 07:30:09.555123 4100771 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err=<`,
      ...body,
      ' > pod="demo/web-5c9d8f7b6-l4kzq"',
      K1,
    ].join("\n");
    const f = parseFile("kubelet.log", text, { year: 2025 });
    expect(f.format).toBe("klog");
    expect(f.counts).toMatchObject({ records: 2, continuation: 3, skipped: 0 });
    expect(f.records[0].fields?.err).toBe(value);
    expect(f.records[0].fields?.pod).toBe("demo/web-5c9d8f7b6-l4kzq");
  });

  const jl = (t: string, msg: string) => `Jun 11 07:30:${t} worker-7 kubelet[4100]: ${msg}`;
  const blockEntries = (t: string, head: string) => [jl(t, head), ...body.map((b) => jl(t, b)), jl(t, ' > pod="demo/web-5c9d8f7b6-l4kzq"')];

  it("in a journal (one entry per line), oldest first", () => {
    const lines = [
      ...blockEntries("09", 'E0611 07:30:09.555123    4100 remote_runtime.go:193] "RunPodSandbox from runtime service failed" err=<'),
      ...blockEntries("09", 'E0611 07:30:09.555201    4100 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err=<'),
      jl("10", K1),
    ];
    const f = parseFile("journal.txt", lines.join("\n"), { year: 2025 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ records: 3, continuation: 6, skipped: 0 });
    expect(f.records.map((r) => r.fields?.err ?? null)).toEqual([value, value, null]);
  });

  it("in a newest-first journal (`journalctl -r`): the block lines before their record move to it", () => {
    const fwd = [
      jl("05", 'I0611 07:30:05.000001    4100 kubelet.go:2408] "SyncLoop ADD" source="api" pods=["demo/web-5c9d8f7b6-l4kzq"]'),
      ...blockEntries("09", 'E0611 07:30:09.555123    4100 remote_runtime.go:193] "RunPodSandbox from runtime service failed" err=<'),
      ...blockEntries("09", 'E0611 07:30:09.555201    4100 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err=<'),
    ];
    const f = parseFile("journal.txt", fwd.reverse().join("\n"), { year: 2025 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ records: 3, continuation: 6, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map((r) => iso(r.ts))).toEqual(["2025-06-11T07:30:05.000Z", "2025-06-11T07:30:09.555Z", "2025-06-11T07:30:09.555Z"]);
    expect(f.records.map((r) => r.fields?.err ?? null)).toEqual([null, value, value]);
    expect(f.records[2].fields?.pod).toBe("demo/web-5c9d8f7b6-l4kzq");
    expect(f.records[1].message.startsWith("RunPodSandbox from runtime service failed")).toBe(true);
  });
});
