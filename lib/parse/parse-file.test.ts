/**
 * `parseFile`: line splitting, line accounting (docs/definitions.md), sniffing, boots, multi-line
 * records, whole-document formats, over-long and binary lines.
 */
import { describe, expect, it } from "vitest";
import type { ParsedFile } from "./file-types";
import { parseFile, sniffFormat, sniffLines, splitLines, truncateLine } from "./parse-file";

function expectAccounting(f: ParsedFile): void {
  const c = f.counts;
  expect(c.parsed + c.blank + c.skipped).toBe(c.lines);
  expect(c.records + c.continuation + c.banner).toBe(c.parsed);
  expect(Object.values(c.skippedByReason).reduce((a, b) => a + b, 0)).toBe(c.skipped);
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

describe("splitLines", () => {
  it.each([
    ["", []],
    ["a", ["a"]],
    ["a\n", ["a"]],
    ["a\n\n", ["a", ""]],
    ["a\r\nb", ["a", "b"]],
    ["a\r\nb\r\n", ["a", "b"]],
    ["\ufeffa\nb", ["a", "b"]],
    ["\n", [""]],
  ])("%j", (text, want) => {
    expect(splitLines(text)).toEqual(want);
  });
});

describe("line accounting", () => {
  it("counts CRLF lines, a last line without newline, blanks and unknown lines", () => {
    const text = "May 19 04:20:07 node-a kubelet[1]: a\r\n\r\n   \r\nnot a journal line\r\nMay 19 04:20:08 node-a kubelet[1]: b";
    const f = parseFile("x.log", text, { year: 2025 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 5, records: 2, blank: 2, skipped: 1, skippedByReason: { "unknown-format": 1 }, parsed: 2 });
    expectAccounting(f);
    expect(f.records.map((r) => r.raw)).toEqual(["May 19 04:20:07 node-a kubelet[1]: a", "May 19 04:20:08 node-a kubelet[1]: b"]);
  });

  it("journal continuation lines belong to the record before; orphans are skipped", () => {
    const text = [
      "  orphan continuation",
      "May 19 04:20:07 node-a app[1]: first line",
      "                              second line",
      "                              third line",
      "May 19 04:20:08 node-a app[1]: next",
    ].join("\n");
    const f = parseFile("x.log", text, { year: 2025 });
    expect(f.counts).toMatchObject({ lines: 5, records: 2, continuation: 2, skipped: 1 });
    expectAccounting(f);
    expect(f.records[0]).toMatchObject({ line: 2, endLine: 4, message: "first line\nsecond line\nthird line" });
    expect(f.records[0].raw.split("\n")).toHaveLength(3);
  });

  it("a klog multi-line value split by journald into prefixed entries continues its record", () => {
    const text = [
      'May 19 04:20:07 node-a kubelet[2817]: E0519 04:20:07.512344    2817 pod_workers.go:1] "Error syncing pod" err=<',
      "May 19 04:20:07 node-a kubelet[2817]: \tfailed to setup network for sandbox",
      "May 19 04:20:07 node-a kubelet[2817]:  >",
      "May 19 04:20:07 node-a kubelet[2818]:  another pid: a record of its own",
      "May 19 04:20:08 node-a systemd[1]:  indented systemd message stays a record",
    ].join("\n");
    const f = parseFile("x.log", text, { year: 2025 });
    expect(f.counts).toMatchObject({ lines: 5, records: 3, continuation: 2 });
    expect(f.records[0]).toMatchObject({ line: 1, endLine: 3 });
    expect(f.records[0].message).toBe("Error syncing pod err=<\n\tfailed to setup network for sandbox\n >");
    expect(f.records[1]).toMatchObject({ line: 4, pid: 2818, message: " another pid: a record of its own" });
    expect(f.records[2]).toMatchObject({ component: "systemd", message: " indented systemd message stays a record" });
  });

  it("an unknown file is returned with every non-blank line skipped, not thrown", () => {
    const f = parseFile("notes.txt", "hello\n\nworld\n", {});
    expect(f).toMatchObject({ format: "unknown", kind: "unknown", records: [] });
    expect(f.counts).toMatchObject({ lines: 3, blank: 1, skipped: 2, skippedByReason: { "unknown-format": 2 }, parsed: 0 });
    expectAccounting(f);
  });

  it("an empty file has no lines", () => {
    const f = parseFile("empty.log", "", {});
    expect(f.counts).toMatchObject({ lines: 0, parsed: 0, skipped: 0 });
  });

  it("a journal dump with only banners is journal text with no records", () => {
    const f = parseFile("journald/kubelet", "-- No entries --\n", {});
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 1, banner: 1, records: 0 });
  });

  it("lines holding NUL are skipped as binary", () => {
    const f = parseFile("x.log", "May 19 04:20:07 node-a app[1]: a\nLPKSHHRH\u0000\u0000\u0001\n", { year: 2025 });
    expect(f.counts).toMatchObject({ lines: 2, records: 1, skipped: 1, skippedByReason: { binary: 1 } });
    expectAccounting(f);
  });

  it("keeps over-long lines cut at 64 KiB with a marker", () => {
    const long = `May 19 04:20:07 node-a app[1]: ${"x".repeat(70_000)}`;
    const f = parseFile("x.log", long, { year: 2025 });
    const r = f.records[0];
    const cut = long.length - 65_536;
    expect(r.raw.endsWith(`…[truncated ${cut} bytes]`)).toBe(true);
    expect(r.raw.length).toBe(65_536 + `…[truncated ${cut} bytes]`.length);
    expect(r.message.endsWith(`…[truncated ${cut} bytes]`)).toBe(true);
    expect(f.errors).toEqual([{ line: 1, message: `line longer than 65536 bytes: ${cut} bytes cut` }]);
    expect(truncateLine("é".repeat(40_000))).toEqual({ text: "é".repeat(32_768), cut: 80_000 - 65_536 });
    expect(truncateLine("short")).toBeNull();
  });

  it("forced format and unknown format names", () => {
    const f = parseFile("x.log", "level=info msg=hi\n", { format: "cilium-logfmt" });
    expect(f.format).toBe("cilium-logfmt");
    expect(() => parseFile("x.log", "", { format: "no-such-format" })).toThrow(RangeError);
  });
});

describe("boots", () => {
  it("boot and reboot separators start segments and set the journal boot id", () => {
    const text = [
      "-- Logs begin at Mon 2025-05-12 00:00:03 UTC, end at Mon 2025-05-19 04:31:10 UTC. --",
      "May 18 23:00:00 node-a kubelet[1]: old boot",
      "-- Boot a91e07c25d3f4b08b6e2f4c1d9a07e33 --",
      "May 19 04:19:31 node-a kernel: Linux version 6.1",
      "-- Reboot --",
      "May 19 05:00:00 node-a kernel: Linux version 6.1",
    ].join("\n");
    const f = parseFile("journal.log", text, {});
    expect(f.records.map((r) => r.bootSegment)).toEqual([0, 1, 2]);
    expect(f.records.map((r) => r.journalBootId)).toEqual([null, "a91e07c25d3f4b08b6e2f4c1d9a07e33", null]);
    expect(f.banners.map((b) => b.banner.type)).toEqual(["logs-begin", "boot", "reboot"]);
    expect(f.counts).toMatchObject({ lines: 6, records: 3, banner: 3 });
    expect(f.yearSource).toBe("banner");
    expect(f.records.map((r) => iso(r.ts))).toEqual(["2025-05-18T23:00:00.000Z", "2025-05-19T04:19:31.000Z", "2025-05-19T05:00:00.000Z"]);
  });

  it("a separator before any record does not open an empty segment", () => {
    const f = parseFile("j.log", "-- Boot a91e07c25d3f4b08b6e2f4c1d9a07e33 --\nMay 19 04:19:31 node-a kernel: x\n", { year: 2025 });
    expect(f.records[0]).toMatchObject({ bootSegment: 0, journalBootId: "a91e07c25d3f4b08b6e2f4c1d9a07e33" });
  });
});

describe("sniffing", () => {
  it("skips banners and blank lines, keeps at most 20 lines", () => {
    const lines = ["", "-- Reboot --", "Log file created at: 2025/05/19 04:20:06", ...Array.from({ length: 30 }, (_, i) => `l${i}`)];
    const got = sniffLines(lines);
    expect(got).toHaveLength(20);
    expect(got[0]).toBe("l0");
  });

  it.each([
    ["journal-short", 'May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] "x"'],
    ["journal-short-iso", "2025-05-19T04:20:07.512401+00:00 ip-10-20-30-40 kubelet[2817]: hello"],
    ["syslog-rfc5424", "2024-02-07T05:45:40.739274+00:00 NodeA containerd 22938 - -  hello"],
    ["cri-log", "2025-05-19T04:20:09.10473Z stderr F hello"],
    ["klog", 'I0519 04:20:07.512344    2817 kubelet.go:2321] "x"'],
    ["containerd-logrus", 'time="2025-05-19T04:20:05.931046219Z" level=info msg="starting containerd"'],
    ["crio-logrus", 'time="2025-05-19 04:20:05.931046219Z" level=info msg="Starting CRI-O"'],
    ["calico-cni", "2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint"],
    ["istio-cni", "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod excluded"],
    ["istio-cni-json", '{"level":"info","time":"2024-02-03T23:50:37.090919Z","msg":"x"}'],
    ["cilium-logfmt", 'level=info msg="Restored endpoint" subsys=endpoint'],
    ["dmesg", "[   11.803512] ena 0000:00:05.0 eth0: ENA device version: 0.10"],
    ["kubectl-events-table", "LAST SEEN   TYPE      REASON      OBJECT      MESSAGE"],
    ["describe-events", "Events:"],
  ])("%s", (name, line) => {
    expect(sniffFormat("", [line])?.name).toBe(name);
  });

  it("a stray first line does not hide the format", () => {
    const lines = [
      "Hint: You are currently not seeing messages from other users and the system.",
      "May 19 04:20:07 node-a containerd[1]: x",
      "May 19 04:20:08 node-a containerd[1]: y",
    ];
    expect(sniffFormat("containerd-log.txt", lines)?.name).toBe("journal-short");
  });
});

describe("whole-document and table formats", () => {
  const eventList = JSON.stringify(
    {
      apiVersion: "v1",
      items: [
        {
          apiVersion: "v1",
          count: 3,
          firstTimestamp: "2025-05-19T04:20:11Z",
          involvedObject: { kind: "Pod", name: "web-1", namespace: "default" },
          kind: "Event",
          lastTimestamp: "2025-05-19T04:20:41Z",
          message: 'Failed to create pod sandbox: plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory',
          metadata: { name: "web-1.1", namespace: "default" },
          reason: "FailedCreatePodSandBox",
          source: { component: "kubelet", host: "node-a" },
          type: "Warning",
        },
        {
          apiVersion: "v1",
          count: 1,
          eventTime: null,
          firstTimestamp: "2025-05-19T04:20:31Z",
          involvedObject: { kind: "Node", name: "node-a" },
          kind: "Event",
          lastTimestamp: "2025-05-19T04:20:31Z",
          message: "Node node-a has been rebooted, boot id: a91e07c2-5d3f-4b08-b6e2-f4c1d9a07e33",
          metadata: { name: "node-a.2", namespace: "default" },
          reason: "Rebooted",
          source: { component: "kubelet", host: "node-a" },
          type: "Warning",
        },
      ],
      kind: "List",
      metadata: { resourceVersion: "" },
    },
    null,
    4,
  );

  it("kubectl get events -o json: one record per item, every line accounted for", () => {
    const f = parseFile("cluster-resources/events/default.json", eventList, {});
    expect(f.format).toBe("k8s-events-json");
    expect(f.kind).toBe("k8s-events");
    expect(f.records).toHaveLength(2);
    const lines = eventList.split("\n");
    expect(f.counts).toMatchObject({ lines: lines.length, records: 2, banner: 3, skipped: 0, blank: 0 });
    expect(f.counts.continuation).toBe(lines.length - 5);
    expectAccounting(f);
    const [sandbox, reboot] = f.records;
    expect(sandbox.line).toBe(4);
    expect(lines[sandbox.line - 1].trim()).toBe("{");
    expect(reboot.line).toBe(sandbox.endLine + 1);
    expect(reboot.endLine).toBe(lines.length);
    expect(iso(sandbox.ts)).toBe("2025-05-19T04:20:41.000Z");
    expect(sandbox.precision).toBe("s");
    expect(sandbox.k8sEvent).toMatchObject({
      reason: "FailedCreatePodSandBox",
      count: 3,
      node: "node-a",
      namespace: "default",
      objectKind: "Pod",
      objectName: "web-1",
    });
    expect(iso(sandbox.k8sEvent?.firstMs ?? null)).toBe("2025-05-19T04:20:11.000Z");
    expect(sandbox.fields?.pod).toBe("default/web-1");
    expect(sandbox.component).toBe("k8s-events");
    expect(reboot.k8sEvent).toMatchObject({ reason: "Rebooted", objectKind: "Node", node: "node-a" });
    expect(JSON.parse(sandbox.raw.replace(/,\s*$/, ""))).toMatchObject({ reason: "FailedCreatePodSandBox" });
  });

  it("a truncated event list still yields its complete events", () => {
    const cut = eventList.slice(0, eventList.indexOf('"Rebooted"'));
    const f = parseFile("events.json", cut, {});
    expect(f.records.map((r) => r.k8sEvent?.reason)).toEqual(["FailedCreatePodSandBox"]);
    expectAccounting(f);
  });

  it("kubectl get events -A -o wide: columns cut at the header, ages against the collection time", () => {
    const text = [
      "NAMESPACE     LAST SEEN   TYPE      REASON                   OBJECT          SUBOBJECT   SOURCE                    MESSAGE                                   FIRST SEEN   COUNT   NAME",
      "kube-system   45s         Warning   FailedCreatePodSandBox   pod/coredns-1               kubelet, node-a           Failed to create pod sandbox: x y z       3m10s        12      coredns-1.17",
      "default       2m          Normal    Starting                 node/node-a                 kubelet, node-a           Starting kubelet.                         2m           1       node-a.18",
    ].join("\n");
    const f = parseFile("rancher/kubectl/events", text, { collectedMs: Date.parse("2025-05-19T04:31:00Z") });
    expect(f.format).toBe("kubectl-events-table");
    expect(f.counts).toMatchObject({ lines: 3, records: 2, banner: 1 });
    const [a, b] = f.records;
    expect(a.k8sEvent).toMatchObject({
      reason: "FailedCreatePodSandBox",
      count: 12,
      namespace: "kube-system",
      objectKind: "Pod",
      objectName: "coredns-1",
      node: "node-a",
    });
    expect(a.message).toBe("Failed to create pod sandbox: x y z");
    expect(a.fields?.pod).toBe("kube-system/coredns-1");
    expect(iso(a.ts)).toBe("2025-05-19T04:30:15.000Z");
    expect(iso(a.k8sEvent?.firstMs ?? null)).toBe("2025-05-19T04:27:50.000Z");
    expect(a.precision).toBe("s"); // 3m10s → long form
    expect(iso(b.ts)).toBe("2025-05-19T04:29:00.000Z");
    expect(b.k8sEvent).toMatchObject({ objectKind: "Node", node: "node-a" });
  });

  it("describe output: pod from the header, rows wrapped onto indented lines", () => {
    const text = [
      "Name:         web-1",
      "Namespace:    shop",
      "Node:         node-a/10.0.0.1",
      "Events:",
      "  Type     Reason                  Age   From     Message",
      "  ----     ------                  ----  ----     -------",
      "  Warning  FailedCreatePodSandBox  30s   kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network",
      '                                                  for sandbox "5f1c": plugin type="calico" failed (add)',
    ].join("\n");
    const f = parseFile("kubectl/poddescribe/shop", text, { collectedMs: Date.parse("2025-05-19T04:31:00Z") });
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ lines: 8, records: 1, continuation: 1, banner: 6, skipped: 0 });
    expectAccounting(f);
    expect(f.records[0].fields?.pod).toBe("shop/web-1");
    expect(f.records[0].message).toContain('\nfor sandbox "5f1c": plugin type="calico" failed (add)');
    expect(iso(f.records[0].ts)).toBe("2025-05-19T04:30:30.000Z");
  });

  it("describe rows without a collection time are kept without a time", () => {
    const f = parseFile("d.txt", "  Warning  FailedCreatePodSandBox  1m (x3 over 2m)  kubelet  boom\n", {});
    expect(f.records[0]).toMatchObject({ ts: null, epochMs: null });
    expect(f.counts.noTimestamp).toBe(1);
    expect(f.records[0].k8sEvent?.count).toBe(3);
  });
});

describe("CRI files", () => {
  it("joins P pieces into one record parsed once complete", () => {
    const text = [
      '2025-05-19T04:20:09.104730000Z stderr P E0519 04:20:09.104500       1 server.go:1] "Failed" err="part one ',
      "2025-05-19T04:20:09.104731000Z stderr P and two ",
      '2025-05-19T04:20:09.104732000Z stderr F and three"',
      "2025-05-19T04:20:10.000000000Z stdout F done",
    ].join("\n");
    const f = parseFile("var/log/pods/kube-system_calico-node-x_uid/calico-node/0.log", text, {});
    expect(f.format).toBe("cri-log");
    expect(f.counts).toMatchObject({ lines: 4, records: 2, continuation: 2 });
    const [joined, done] = f.records;
    expect(joined).toMatchObject({ line: 1, endLine: 3, component: "cni-calico", severity: 3, ident: "calico-node" });
    expect(joined.fields).toEqual({ err: "part one and two and three", stream: "stderr" });
    expect(iso(joined.ts)).toBe("2025-05-19T04:20:09.104Z");
    expect(done.message).toBe("done");
  });
});
