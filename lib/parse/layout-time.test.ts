/**
 * `parseFile` with the layout options (collector noise, collector zone, sos >= 4.10 separators),
 * monotonic resets, multi-line Go dumps, and the time rules of the newer formats: years from
 * list-boots and `wtmp begins` (with a new-year rollover), zones from epoch envelopes, newest-first
 * detection. Exact UTC times throughout; line accounting always adds up.
 */
import { describe, expect, it } from "vitest";
import type { ParsedFile } from "./file-types";
import { parseFile } from "./parse-file";
import { isNewestFirst } from "./resolve-time";

const times = (f: ParsedFile) => f.records.map((r) => (r.ts === null ? null : new Date(r.ts).toISOString()));

function expectAccounting(f: ParsedFile): void {
  const c = f.counts;
  expect(c.parsed + c.blank + c.skipped).toBe(c.lines);
  expect(c.records + c.continuation + c.banner).toBe(c.parsed);
  expect(Object.values(c.skippedByReason).reduce((a, b) => a + b, 0)).toBe(c.skipped);
}

const PREV = "6c0f2ea14b7d4e1a9c3358b0f2d7e611";
const CUR = "a91e07c25d3f4b08b6e2f4c1d9a07e33";

describe("collector noise", () => {
  it("skips journalctl warnings and the collector's goroutine dump with their reasons, out of the sniff too", () => {
    const text = [
      "Warning: Journal has been rotated since unit was started. Log output is incomplete or unavailable.",
      "Hint: You are currently not seeing messages from other users and the system.",
      'May 19 04:19:35 h containerd[811]: time="2025-05-19T04:19:35.931046219Z" level=info msg="starting containerd"',
      'May 19 04:31:05 h containerd[811]: time="2025-05-19T04:31:05.000000000Z" level=info msg="=== BEGIN goroutine stack dump ==="',
      "May 19 04:31:05 h containerd[811]: goroutine 1 [chan receive]:",
      "May 19 04:31:05 h containerd[811]: main.main()",
      "May 19 04:31:05 h containerd[811]:         /go/src/main.go:39 +0x25",
      "May 19 04:31:05 h containerd[811]: === END goroutine stack dump ===",
    ].join("\n");
    const f = parseFile("containerd/containerd-log.txt", text, { noise: ["journalctl-warnings", "collector-stack-dump"] });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 8, records: 1, skipped: 7, skippedByReason: { "journalctl-warning": 2, "collector-stack-dump": 5 } });
    expectAccounting(f);
    // without the rules the same lines are other things (and the file still parses)
    const plain = parseFile("x", text);
    expect(plain.counts.records).toBeGreaterThan(1);
  });

  it("a dump written as one escaped logrus line is one skipped line", () => {
    const text = [
      'May 19 04:19:35 h containerd[811]: time="2025-05-19T04:19:35.9Z" level=info msg="starting containerd"',
      'May 19 04:31:05 h containerd[811]: time="2025-05-19T04:31:05Z" level=info msg="=== BEGIN goroutine stack dump ===\\ngoroutine 1 [running]:\\n=== END goroutine stack dump ==="',
      'May 19 04:31:06 h containerd[811]: time="2025-05-19T04:31:06.1Z" level=info msg="later line"',
    ].join("\n");
    const f = parseFile("c", text, { noise: ["collector-stack-dump"] });
    expect(f.counts).toMatchObject({ records: 2, skipped: 1, skippedByReason: { "collector-stack-dump": 1 } });
  });

  it("refuses an unknown rule", () => {
    expect(() => parseFile("c", "x", { noise: ["nope"] })).toThrow(RangeError);
  });
});

describe("zones", () => {
  it("a collector zone (node-logs --utc) wins over --tz and is not assumed", () => {
    const f = parseFile("k", "May 19 04:20:07.512401 master-0 kubenswrapper[1]: x", { zone: "UTC", tz: "+09:00", year: 2025 });
    expect(times(f)).toEqual(["2025-05-19T04:20:07.512Z"]);
    expect(f.zoneSource).toBe("collector");
    expect(f.records[0].zoneAssumed).toBe(false);
  });

  it("journal json: a local klog stamp takes the offset the entry's UTC instant shows (+09:00, -07:00, +05:30)", () => {
    const line = (rt: string, klog: string) =>
      JSON.stringify({ __REALTIME_TIMESTAMP: rt, SYSLOG_IDENTIFIER: "kubelet", _HOSTNAME: "n", MESSAGE: `I0519 ${klog}    2817 kubelet.go:1] "x"` });
    const f = parseFile(
      "j.json",
      [
        line("1747628407512401", "13:20:07.512344"),
        line("1747628407612401", "21:20:07.612344").replace("I0519", "I0518"),
        line("1747628407712401", "09:50:07.712344"),
      ].join("\n"),
    );
    expect(f.format).toBe("journal-json");
    expect(times(f)).toEqual(["2025-05-19T04:20:07.512Z", "2025-05-19T04:20:07.612Z", "2025-05-19T04:20:07.712Z"]);
    expect(f.records.map((r) => r.time?.offsetMin)).toEqual([540, -420, 330]);
  });

  it("short-full: the zone abbreviation, DST included; short-unix is UTC", () => {
    const full = parseFile(
      "f",
      ["Sun 2025-05-18 21:19:31 PDT h systemd[1]: a", "Sun 2025-01-05 21:19:31 PST h systemd[1]: b", "Mon 2025-05-19 13:19:31 JST h systemd[1]: c"].join("\n"),
    );
    expect(full.format).toBe("journal-short-full");
    expect(times(full)).toEqual(["2025-05-19T04:19:31.000Z", "2025-01-06T05:19:31.000Z", "2025-05-19T04:19:31.000Z"]);
    const unix = parseFile("u", "1747628371.000123 h kernel: Linux version 6.1");
    expect(times(unix)).toEqual(["2025-05-19T04:19:31.000Z"]);
    expect(unix.records[0].precision).toBe("us");
  });

  it("zap JSON with a colon-less offset and multus with +09:00 land on the same UTC instant", () => {
    const zap = parseFile("var_log/aws-routed-eni/ipamd.log", '{"level":"info","ts":"2025-05-19T13:20:08.321+0900","caller":"ipamd/ipamd.go:850","msg":"x"}');
    const mu = parseFile("multus.log", "2025-05-19T13:20:08+09:00 [verbose] ADD starting CNI request");
    expect(times(zap)).toEqual(["2025-05-19T04:20:08.321Z"]);
    expect(times(mu)).toEqual(["2025-05-19T04:20:08.000Z"]);
  });
});

describe("boots in files", () => {
  it("sos >= 4.10: a separator names the boot before it; the records after the last one get no id", () => {
    const text = ["May 19 04:10:00 h app[1]: a", "May 19 04:18:00 h app[1]: b", `-- Boot ${PREV} --`, "May 19 04:19:40 h app[2]: c"].join("\n");
    const plain = parseFile("j", text, { year: 2025 });
    expect(plain.records.map((r) => [r.bootSegment, r.journalBootId])).toEqual([
      [0, null],
      [0, null],
      [1, PREV],
    ]);
    const sos = parseFile("j", text, { year: 2025, separatorsLabelPrevious: true });
    expect(sos.records.map((r) => [r.bootSegment, r.journalBootId])).toEqual([
      [0, PREV],
      [0, PREV],
      [1, null],
    ]);
  });

  it("short-monotonic: a monotonic reset starts a new boot segment; the delta form too", () => {
    const text = [
      "[    0.000000] h kernel: Linux version 6.1",
      "[   11.803512] h systemd[1]: Started kubelet.service.",
      "[  600.100000 <  588.296488 >] h kubelet[2817]: x",
      "[    0.000000 <    0.000000*>] h kernel: Linux version 6.1",
      "[   12.000000] h systemd[1]: Started kubelet.service.",
    ].join("\n");
    const f = parseFile("m", text);
    expect(f.format).toBe("journal-short-monotonic");
    expect(f.records.map((r) => [r.bootSegment, r.fields?.uptime])).toEqual([
      [0, "0.000000"],
      [0, "11.803512"],
      [0, "600.100000"],
      [1, "0.000000"],
      [1, "12.000000"],
    ]);
    expect(f.counts.noTimestamp).toBe(5);
    expectAccounting(f);
  });

  it("list-boots: boots with ids and years; the last entry in UTC", () => {
    const f = parseFile(
      "sos_commands/systemd/journalctl_--list-boots",
      [
        "IDX BOOT ID                          FIRST ENTRY                 LAST ENTRY",
        ` -1 ${PREV} Mon 2025-05-12 00:00:03 UTC Mon 2025-05-19 04:18:52 UTC`,
        `  0 ${CUR} Mon 2025-05-19 04:19:31 UTC Mon 2025-05-19 04:31:10 UTC`,
      ].join("\n"),
    );
    expect(f.format).toBe("journal-list-boots");
    expect(times(f)).toEqual(["2025-05-12T00:00:03.000Z", "2025-05-19T04:19:31.000Z"]);
    expect(f.records.map((r) => [r.journalBootId, r.bootDecl?.lastMs])).toEqual([
      [PREV, Date.UTC(2025, 4, 19, 4, 18, 52)],
      [CUR, Date.UTC(2025, 4, 19, 4, 31, 10)],
    ]);
    expect(f.yearSource).toBe("stamp");
    expectAccounting(f);
  });

  it("last reboot: newest first, years from `wtmp begins` across a new year, minute precision", () => {
    const text = [
      "reboot   system boot  6.1.134 Fri Jan  3 08:12   still running",
      "reboot   system boot  6.1.134 Tue Dec 31 23:50 - 08:10 (2+08:20)",
      "reboot   system boot  6.1.134 Sun Dec  1 00:05 - 23:48 (30+23:43)",
      "",
      "wtmp begins Sun Dec  1 00:00:02 2024",
    ].join("\n");
    const f = parseFile("system/last_reboot.txt", text);
    expect(f.format).toBe("last-reboot");
    // reversed into time order (newest-first file), line numbers kept
    expect(times(f)).toEqual(["2024-12-01T00:05:00.000Z", "2024-12-31T23:50:00.000Z", "2025-01-03T08:12:00.000Z"]);
    expect(f.records.map((r) => r.line)).toEqual([3, 2, 1]);
    expect(f.records.every((r) => r.precision === "min" && r.bootDecl?.source === "last-reboot")).toBe(true);
    expect(f.counts).toMatchObject({ lines: 5, records: 3, banner: 1, blank: 1, outOfOrder: 0 });
    expectAccounting(f);
  });

  it("last reboot without `wtmp begins`: the collection time bounds the year", () => {
    const f = parseFile(
      "last",
      "reboot   system boot  6.1.134 Fri Jan  3 08:12   still running\nreboot   system boot  6.1.134 Tue Dec 31 23:50 - 08:10 (2+08:20)\n",
      {
        collectedMs: Date.UTC(2025, 0, 3, 9, 0),
      },
    );
    expect(times(f)).toEqual(["2024-12-31T23:50:00.000Z", "2025-01-03T08:12:00.000Z"]);
  });
});

describe("Go panics as one event", () => {
  it("in a journal: the dump lines of the same process continue the panic record", () => {
    const text = [
      "May 19 04:20:00 h cilium-agent[900]: level=info msg=starting",
      "May 19 04:20:01 h cilium-agent[900]: panic: runtime error: invalid memory address or nil pointer dereference",
      "May 19 04:20:01 h cilium-agent[900]: [signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x1b2c3d4]",
      "May 19 04:20:01 h cilium-agent[900]: ",
      "May 19 04:20:01 h cilium-agent[900]: goroutine 1 [running]:",
      "May 19 04:20:01 h cilium-agent[900]: main.(*Agent).Run(0x0)",
      "May 19 04:20:01 h cilium-agent[900]:         /go/src/agent/agent.go:123 +0x1d",
      "May 19 04:20:02 h systemd[1]: cilium.service: Main process exited, code=exited, status=2/INVALIDARGUMENT",
    ].join("\n");
    const f = parseFile("j", text, { year: 2025 });
    expect(f.records).toHaveLength(3);
    expect(f.records[1]).toMatchObject({ line: 2, endLine: 7, severity: 4 });
    // the empty entry adds no text to the message; the raw text keeps all six lines
    expect(f.records[1].message.split("\n")).toHaveLength(5);
    expect(f.records[1].raw.split("\n")).toHaveLength(6);
    expect(f.counts).toMatchObject({ records: 3, continuation: 5 });
    expectAccounting(f);
  });

  it("a standalone dump file is one record without a time", () => {
    const f = parseFile(
      "containerd.811.stacks.log",
      "goroutine 1 [chan receive]:\nmain.main()\n\t/go/src/main.go:39 +0x25\n\ngoroutine 7 [select]:\nmain.loop()\n",
    );
    expect(f.format).toBe("go-panic");
    expect(f.counts).toMatchObject({ records: 1, continuation: 4, blank: 1, noTimestamp: 1 });
    expect(f.records[0].component).toBe("containerd");
  });
});

describe("newest-first detection", () => {
  const s = (x: number) => Date.UTC(2025, 4, 19, 4, 20, x);
  it.each([
    ["falling throughout", [s(9), s(7), s(5), s(1)], true],
    ["rising", [s(1), s(5), s(7), s(9)], false],
    ["one step back only", [s(1), s(5), s(4), s(9)], false],
    ["a single fall", [s(5), s(1)], false],
    ["falling with one jitter rise in ten", [s(50), s(45), s(40), s(41), s(35), s(30), s(25), s(20), s(15), s(10), s(5), s(1)], true],
    ["nulls are ignored", [s(9), null, s(5), null, s(1)], true],
  ] as Array<[string, Array<number | null>, boolean]>)("%s", (_name, ts, want) => {
    expect(isNewestFirst(ts)).toBe(want);
  });

  it("year-less stamps across a new year (journalctl -r): reversed, then the years walk forward", () => {
    const f = parseFile("r", ["Jan 01 00:00:05 h app[1]: c", "Jan 01 00:00:01 h app[1]: b", "Dec 31 23:59:58 h app[1]: a"].join("\n"), {
      collectedMs: Date.UTC(2025, 0, 2),
    });
    expect(times(f)).toEqual(["2024-12-31T23:59:58.000Z", "2025-01-01T00:00:01.000Z", "2025-01-01T00:00:05.000Z"]);
    expect(f.counts.outOfOrder).toBe(0);
  });
});

describe("Go panics in CRI container logs", () => {
  it("the dump lines on the same stream continue the panic record", () => {
    const text = [
      '2025-05-19T04:20:00.000000001Z stdout F level=info msg="starting" subsys=daemon',
      "2025-05-19T04:20:01.000000001Z stderr F panic: runtime error: index out of range [3] with length 3",
      "2025-05-19T04:20:01.000000002Z stderr F ",
      "2025-05-19T04:20:01.000000003Z stderr F goroutine 1 [running]:",
      "2025-05-19T04:20:01.000000004Z stderr F main.main()",
      "2025-05-19T04:20:01.000000005Z stderr F \t/go/src/main.go:12 +0x1d",
      '2025-05-19T04:20:09.000000001Z stdout F level=info msg="restarted" subsys=daemon',
    ].join("\n");
    const f = parseFile(`var/log/pods/kube-system_cilium-x_uid/cilium-agent/0.log`, text);
    expect(f.format).toBe("cri-log");
    expect(f.records.map((r) => [r.line, r.endLine, r.severity])).toEqual([
      [1, 1, 1],
      [2, 6, 4],
      [7, 7, 1],
    ]);
    expect(times(f)[1]).toBe("2025-05-19T04:20:01.000Z");
    expectAccounting(f);
  });
});
