/**
 * What a reviewer types around pasted output (sentences, headings, one-word labels), Markdown
 * emphasis in or around a log line, journal lines word-wrapped by an editor or issue form, a CI
 * console's `[<ISO stamp>] ` before every line, and a describe paste that starts at a multi-line
 * header field. Lines written for these tests in the tools' documented shapes.
 */
import { describe, expect, it } from "vitest";
import type { ParsedFile } from "./file-types";
import { ciStampMs } from "./prefix-stamps";
import { parseFile, pasteInfo } from "./parse-file";
import { detectWordWrap, isProse, isWordWrapTail } from "./paste";
import { stripEmphasis } from "./transforms/emphasis";

function expectAccounting(f: ParsedFile): void {
  const c = f.counts;
  const glued = (c as typeof c & { glued?: number }).glued ?? 0;
  expect(c.parsed + c.blank + c.skipped).toBe(c.lines);
  expect(c.records + c.continuation + c.banner - glued).toBe(c.parsed);
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const collectedMs = Date.UTC(2024, 8, 2, 10, 0, 0);

const ROW_FAIL =
  '  Warning  FailedCreatePodSandBox  3m12s (x6 over 5m)  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "b71c0de4a9": plugin type="calico" failed (add): error getting ClusterInformation: connection is unauthorized: Unauthorized';
const ROW_CHANGED = "  Normal   SandboxChanged          3m10s (x6 over 5m)  kubelet  Pod sandbox changed, it will be killed and re-created.";

describe("prose typed around a paste", () => {
  it("a long sentence ending with `:` before one backticked row is a banner", () => {
    const text = ["Right after the reboot, when I describe the coredns Pod I get this:", `\`${ROW_CHANGED.trim()}\``].join("\n");
    const f = parseFile("issue.md", text, { collectedMs });
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ records: 1, banner: 1, skipped: 0 });
    expectAccounting(f);
  });

  it("sentences that outnumber the rows still let the rows sniff; a heading and a capitalised line are banners", () => {
    const text = [
      "### What happened?",
      "After a power cut the worker came back but no pod got an IP.",
      `The error shown by \`kubectl describe pod\` is:`,
      "",
      ROW_FAIL,
      "",
      "Here is what I tried so far",
    ].join("\n");
    const f = parseFile("issue.md", text, { collectedMs });
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ records: 1, banner: 4, skipped: 0 });
    expect(f.records[0].k8sEvent).toMatchObject({ reason: "FailedCreatePodSandBox", count: 6 });
    expect(iso(f.records[0].ts)).toBe("2024-09-02T09:56:48.000Z");
    expectAccounting(f);
  });

  it("a chat thread copied whole: the authors' name-and-time lines are banners, the journal line between them is read", () => {
    const journal =
      'Apr 12 09:15:07 node-3 kubelet[4120]: E0412 09:15:07.482113    4120 remote_runtime.go:176] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"7c1d\\": plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory"';
    const text = ["Jane Doe  9:41 AM", "here is what kubelet says after the reboot:", journal, "Sam O'Neil  9:43 AM", "Today at 9:44 AM", "same here"].join(
      "\n",
    );
    const f = parseFile("thread.txt", text, { year: 2024 });
    expect(f.format).toBe("journal-short");
    expect(f.records).toHaveLength(1);
    expect(f.records[0]).toMatchObject({ host: "node-3", component: "kubelet", severity: 3 });
    // the three author lines and the sentence ending with `:` are banners; `same here` is counted as skipped
    expect(f.counts).toMatchObject({ lines: 6, records: 1, banner: 4, skipped: 1 });
  });

  it("isProse: sentences and labels yes; log lines, error chains, stack heads and lowercase fragments no", () => {
    for (const l of [
      "When I describe the Pod I get:",
      "Here is the output",
      "The full error shown by `kubectl describe`:",
      'looking at the "describe pods" & "pod events" and the journal the error I see is:',
      "kubelet:",
      "Node logs?",
      "- Then the node was drained and rebooted.",
      "报错信息：",
      "升级内核之后还是一样。pod 的信息",
    ]) {
      expect(isProse(l), l).toBe(true);
    }
    for (const l of [
      "this is not a log line",
      "error: failed to dial: connection refused.",
      "Traceback (most recent call last):",
      "E0902 09:56:48.100200    1201 log.go:32] failed",
      'level=error msg="failed to destroy network for sandbox"',
      "INFO Starting the CNI agent now.",
      "goroutine 1 [running]:",
      "NAME      READY   STATUS",
      "Started kubelet",
      "12月 06 02:16:20 node2 kubelet[3756]: E1206 02:16:20.865784    3756 cni.go:364] 失败",
    ]) {
      expect(isProse(l), l).toBe(false);
    }
  });

  it("in a prefixed paste, a line without the prefix right under a record continues it", () => {
    const text = [
      "[pod/calico-node-8k2lp/calico-node] 2024-09-02 09:55:01.120 [ERROR][77] cni-plugin/plugin.go 580: Final result of CNI ADD was an error.",
      "It was retried.",
      "[pod/calico-node-8k2lp/calico-node] 2024-09-02 09:55:02.300 [INFO][77] cni-plugin/plugin.go 325: Calico CNI found existing endpoint",
    ].join("\n");
    const f = parseFile("paste.txt", text, { year: 2024 });
    expect(pasteInfo(f)?.prefix).toEqual(["kubectl-prefix"]);
    expect(f.counts).toMatchObject({ records: 2, continuation: 1, skipped: 0 });
  });
});

describe("Markdown emphasis", () => {
  const J =
    'Sep 02 09:41:07 edge-3.lab.local k3s[812]: E0902 09:41:07.551020 812 **remote_runtime**.go:116] "**RunPodSandbox from runtime service failed**" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"9e0d41c2b7aa\\": address already in use"';

  it("`**…**` inside a journal line goes before the line is read", () => {
    const f = parseFile("issue.md", ["Log from the node, bold is mine.", "", J].join("\n"), { year: 2024 });
    expect(f.format).toBe("journal-short");
    expect(pasteInfo(f)?.decoration).toBe("emphasis");
    expect(f.counts).toMatchObject({ records: 1, banner: 1, skipped: 0 });
    expect(f.records[0].message.startsWith("RunPodSandbox from runtime service failed")).toBe(true);
    expect(f.records[0].severity).toBe(3);
    expect(iso(f.records[0].ts)).toBe("2024-09-02T09:41:07.551Z");
  });

  it("whole-line `**…**` / `__…__` / `*…*` go; path globs and dunder names stay", () => {
    expect(stripEmphasis(["**kubelet:**", "__Sep 02 09:41:07 n k[1]: x__", "*Here it is*"])).toEqual(["kubelet:", "Sep 02 09:41:07 n k[1]: x", "Here it is"]);
    expect(stripEmphasis(["copy /etc/cni/**/*.conflist", "loading __init__.py", "a**b**c"])).toBeNull();
  });
});

/** Break `s` at blanks so that no line is longer than `w`, keeping the blank at the line's end (an editor's word wrap). */
function wordWrap(s: string, w: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (rest.length > w) {
    let cut = rest.lastIndexOf(" ", w - 1);
    if (cut <= 0) cut = w - 1;
    out.push(rest.slice(0, cut + 1));
    rest = rest.slice(cut + 1);
  }
  out.push(rest);
  return out;
}

describe("word-wrapped journal lines", () => {
  const A =
    'Sep 02 09:58:48 node-b3 kubelet[558]: E0902 09:58:48.855639     558 kuberuntime_sandbox.go:54] CreatePodSandbox for pod "kube-dns-545bc4bfd4-r7q2c_kube-system(2ffdece1-c2d0-11e7-98cb-005056008ce3)" failed: rpc error: code = Unknown desc = failed to start sandbox container for pod "kube-dns-545bc4bfd4-r7q2c": Error response from daemon: OCI runtime create failed';
  const B = A.replace(/09:58:48/g, "09:59:03").replace("855639", "912004");

  it("a 4-blank code block whose journal lines an editor wrapped at ~80 columns: one record each, message whole", () => {
    const lines = [...wordWrap(A, 80), "", ...wordWrap(B, 80)];
    expect(lines.length).toBeGreaterThan(8);
    const f = parseFile("issue.md", lines.map((l) => (l ? `    ${l}` : "")).join("\n"), { year: 2024 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ records: 2, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map((r) => iso(r.ts))).toEqual(["2024-09-02T09:58:48.855Z", "2024-09-02T09:59:03.912Z"]);
    expect(f.records.map((r) => r.severity)).toEqual([3, 3]);
    expect(f.records[0].message).toContain('for pod "kube-dns-545bc4bfd4-r7q2c": Error response from daemon: OCI runtime create failed');
    expect(f.records[0].message.startsWith("CreatePodSandbox for pod")).toBe(true);
  });

  it("detectWordWrap / isWordWrapTail", () => {
    const lines = wordWrap(A, 80);
    const w = detectWordWrap(lines);
    expect(w).toBeGreaterThanOrEqual(70);
    expect(w).toBeLessThanOrEqual(80);
    expect(isWordWrapTail(lines[1], lines[0], w)).toBe(true);
    expect(isWordWrapTail("Sep 02 09:59:03 node-b3 kubelet[558]: x", lines[0], w)).toBe(false);
    expect(isWordWrapTail("short", "a short line ending with a blank ", w)).toBe(false);
    // lines of a log file that end without a blank are no word wrap
    expect(detectWordWrap([A, B, A])).toBe(0);
  });
});

describe("CI console stamps", () => {
  const pre = (l: string) => `[2024-09-02T10:04:30.250Z] ${l}`;

  it("Jenkins `[<ISO>] ` before every line of a describe: stripped; the last stamp is the collection time", () => {
    const text = [
      "Events:",
      "  Type     Reason                  Age                 From     Message",
      "  ----     ------                  ----                ----     -------",
      ROW_FAIL,
    ]
      .map(pre)
      .join("\n");
    const f = parseFile("console.txt", text, {});
    expect(f.format).toBe("describe-events");
    expect(pasteInfo(f)?.prefix).toEqual(["ci-stamp"]);
    expect(f.counts).toMatchObject({ records: 1, banner: 3, skipped: 0 });
    // 3m12s before 10:04:30.250
    expect(iso(f.records[0].ts)).toBe("2024-09-02T10:01:18.250Z");
    expect(f.records[0].fields?.prefixTime).toBe("2024-09-02T10:04:30.250Z");
    expect(ciStampMs([pre("a"), "[2024-09-02T10:05:00.999+02:00] b", "tail"])).toBe(Date.UTC(2024, 8, 2, 8, 5, 0, 999));
  });

  it("a given collection time wins over the stamps", () => {
    const f = parseFile("console.txt", ["Events:", ROW_FAIL].map(pre).join("\n"), { collectedMs });
    expect(iso(f.records[0].ts)).toBe("2024-09-02T09:56:48.000Z");
  });
});

describe("describe pasted from a multi-line header field", () => {
  it("`Tolerations:` with its deep-indented values, then the Events table: nothing unread", () => {
    const text = [
      "Tolerations:                 node-role.kubernetes.io/control-plane:NoSchedule op=Exists",
      "                             node.kubernetes.io/not-ready:NoExecute op=Exists for 300s",
      "                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s",
      "Events:",
      "  Type    Reason          Age                 From     Message",
      "  ----    ------          ----                ----     -------",
      ROW_CHANGED,
    ].join("\n");
    const f = parseFile("describe.txt", text, { collectedMs });
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ records: 1, banner: 6, skipped: 0 });
    expect(f.records[0].k8sEvent).toMatchObject({ reason: "SandboxChanged", count: 6 });
  });
});

describe("section heads of logs printed as one text", () => {
  it("`tail` and `minikube logs` heads, minikube's lone `*` and Audit table are furniture; a Markdown list item is not", async () => {
    const { isPasteBanner } = await import("./paste");
    for (const l of [
      "==> kubelet <==",
      "==> /var/log/containers/x.log <==",
      "* ==> Audit <==",
      "* ==> storage-provisioner [5e6f7a8b9c0d] <==",
      "*",
      "* ",
      "* |---------|------|",
      "* | start   | --driver=docker  | minikube |",
    ])
      expect(isPasteBanner(l), l).toBe(true);
    for (const l of ["* the kubelet restarted", "==> kubelet", "Mar 05 08:01:20 minikube kubelet[1830]: x"]) expect(isPasteBanner(l), l).toBe(false);
  });
});

describe("a journal between shell prompts", () => {
  const row = (s: string) =>
    `Mar 05 08:01:${s} node-3 kubelet[1830]: E0305 08:01:${s}.441122    1830 remote_runtime.go:193] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox \\"1a2b3c\\": plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory"`;
  it.each([
    ["[root@node-3 ~]# journalctl -u kubelet", "[root@node-3 ~]# "],
    ["$ sudo journalctl -u kubelet | grep -i sandbox", "$ "],
    ["node-3:~ # journalctl -u kubelet", "$"],
    ["(base) dev@laptop:~$ ssh node-3 journalctl -u kubelet", "core@node-3:~$ "],
    ["admin@ip-10-0-0-1 ~ % journalctl -u kubelet", "sh-5.1# "],
  ])("`%s` … `%s`: the two entries are the only records, the prompts banners", async (cmd, tail) => {
    const { parseFile } = await import("./parse-file");
    const f = parseFile("kubelet.txt", [cmd, row("20"), row("34"), tail].join("\n"), { year: 2024 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 4, records: 2, banner: 2, continuation: 0, skipped: 0 });
    expect(f.records.map((r) => r.message.endsWith('no such file or directory"'))).toEqual([true, true]);
  });
});
