/**
 * Journal, syslog, kernel and Talos text in other output modes and locales: localised month and
 * weekday names, prefixes cut by a pager, `<PRI>` syslog, dmesg time formats, `-o verbose` with
 * several entries, `talosctl dmesg` with kmsg properties.
 */
import { describe, expect, it } from "vitest";
import { parseJournalShortLine } from "./journal-short";
import { dayOfWeek, localMonth, weekdayMask } from "./helpers/locale-names";
import { parseFile } from "./parse-file";
import { recordsNewestFirst } from "./resolve-time";

const iso = (ts: number | null): string | null => (ts === null ? null : new Date(ts).toISOString());

describe("locale-names", () => {
  it("reads glibc abmon tokens of many locales, with or without the trailing dot", () => {
    const cases: Array<[string, number]> = [
      ["Mär", 3],
      ["okt.", 10],
      ["Okt", 10],
      ["janv.", 1],
      ["févr.", 2],
      ["sept.", 9],
      ["sept", 9],
      ["mag", 5],
      ["giu", 6],
      ["mrt", 3],
      ["maj", 5],
      ["des.", 12],
      ["touko", 5],
      ["paź", 10],
      ["čen", 6],
      ["мар", 3],
      ["мая", 5],
      ["май", 5],
      ["лис", 11],
      ["Şub", 2],
      ["12月", 12],
      ["3월", 3],
      ["szept", 9],
      ["ian", 1],
      ["Dez", 12],
      ["Jän", 1],
    ];
    for (const [tok, m] of cases) expect(localMonth(tok), tok).toBe(m);
    expect(localMonth("Foo")).toBe(0);
    expect(localMonth("13月")).toBe(0);
  });

  it("weekday tokens name their days; the date check uses the Gregorian weekday", () => {
    expect(dayOfWeek(2022, 4, 6)).toBe(3);
    expect(weekdayMask("Mi") & (1 << 3)).not.toBe(0);
    expect(weekdayMask("dim.") & 1).toBe(1);
    expect(weekdayMask("水") & (1 << 3)).not.toBe(0);
    expect(weekdayMask("Thu") & (1 << 4)).not.toBe(0);
    expect(weekdayMask("Xyz")).toBe(0);
  });
});

describe("journal short in other locales and cut prefixes", () => {
  it("localised months time the envelope; English still reads", () => {
    const de = parseJournalShortLine("Mär 09 07:01:02 node-a systemd[1]: Started kubelet.service.");
    expect(de?.type === "record" && de.record.time).toMatchObject({ month: 3, day: 9, hour: 7, minute: 1, second: 2 });
    const fr = parseJournalShortLine("janv. 05 23:59:58.120004 node-a kubelet[77]: plain text");
    expect(fr?.type === "record" && fr.record.time).toMatchObject({ month: 1, day: 5, ms: 120, precision: "us" });
    const ru = parseJournalShortLine("мар 19 11:02:46 узел-1 containerd[9]: shim started");
    expect(ru?.type === "record" && ru.record).toMatchObject({ host: "узел-1", ident: "containerd", time: { month: 3, day: 19 } });
  });

  it("a ja_JP file: padded months ` 1月 05` are records, not continuations", () => {
    const text = [
      " 1月 05 04:00:01 worker-1 systemd[1]: Starting kubelet.service...",
      " 1月 05 04:00:02 worker-1 systemd[1]: Started kubelet.service.",
      "    continued text",
    ].join("\n");
    const f = parseFile("journal.txt", text, { year: 2024 });
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ records: 2, continuation: 1, skipped: 0 });
    expect(f.records.map((r) => iso(r.ts))).toEqual(["2024-01-05T04:00:01.000Z", "2024-01-05T04:00:02.000Z"]);
  });

  it("a prefix without month and no inner stamp: a record without time; no host column is read too", () => {
    const lost = parseJournalShortLine("9 12:58:07 node systemd[1]: kubelet.service: Main process exited");
    expect(lost?.type === "record" && lost.record).toMatchObject({ time: null, host: "node", ident: "systemd" });
    const noHost = parseJournalShortLine("May 19 04:20:07 kubelet[2817]: plain");
    expect(noHost?.type === "record" && noHost.record.host).toBeUndefined();
    expect(noHost?.type === "record" && noHost.record.ident).toBe("kubelet");
    expect(parseJournalShortLine("Foo 19 04:20:07 host kubelet[1]: x")).toBeNull();
  });
});

describe("a host column blanked out before pasting", () => {
  it("`[Redacted]` (moby/moby#49653) and other placeholders name no node; real host names stay", () => {
    const line = (host: string) => `Dec  4 23:16:08 ${host} kernel: [   54.878462] docker0: port 1(veth9a6257f) entered blocking state`;
    for (const h of ["[Redacted]", "<hostname>", "{node}", "***", "xxxx", "REDACTED", "redacted-host"]) {
      const f = parseFile("kern.log", `${line(h)}\n${line(h)}`, { year: 2024 });
      expect(f.format, h).toBe("journal-short");
      expect(
        f.records.map((r) => r.host),
        h,
      ).toEqual([undefined, undefined]);
      expect(iso(f.records[0].ts), h).toBe("2024-12-04T23:16:08.000Z");
    }
    for (const h of ["worker-1", "ip-10-0-0-50.ec2.internal", "node3"]) {
      const f = parseFile("kern.log", line(h), { year: 2024 });
      expect(f.records[0].host, h).toBe(h);
    }
  });
});

describe("resolve-time: newest-first within one millisecond", () => {
  it("uses the stamp's µs digits when the ms are equal", () => {
    const w = { year: 2025, month: 1, day: 1, hour: 0, minute: 0, second: 7, ms: 693, offsetMin: 0, precision: "us" as const };
    const mk = (us: string) => ({ ts: 1, yearInferred: false, time: w, precision: "us", raw: `E0101 00:00:07.693${us} 1 a.go:1] x` });
    expect(recordsNewestFirst([mk("335"), mk("288"), mk("267"), mk("205")])).toBe(true);
    expect(recordsNewestFirst([mk("205"), mk("267"), mk("288"), mk("335")])).toBe(false);
  });
});

describe("syslog RFC 3164 with <PRI>", () => {
  it("PRI's severity only where the message has no level", () => {
    const text = [
      "<27>Oct 07 08:12:55 node-b systemd[1]: kubelet.service: Failed with result 'exit-code'.",
      '<30>Oct 07 08:12:56 node-b kubelet[801]: E1007 08:12:56.002100     801 kubelet.go:2855] "Container runtime network not ready"',
    ].join("\n");
    const f = parseFile("messages", text, { year: 2023 });
    expect(f.format).toBe("syslog-rfc3164");
    expect(f.records.map((r) => r.severity)).toEqual([3, 3]);
    expect(f.records.map((r) => iso(r.ts))).toEqual(["2023-10-07T08:12:55.000Z", "2023-10-07T08:12:56.002Z"]);
  });
});

describe("dmesg time formats", () => {
  it("dmesg -T in Japanese (padded month) and a cut stamp, year from the neighbours", () => {
    const text = [
      "[水  4月  6 18:23:24 2022] cni0: port 8(vethf0e6f9cd) entered blocking state",
      "[水  4月  6 18:23:25 2022] device vethf0e6f9cd entered promiscuous mode",
      "[水  4月  6 18:23",
    ].join("\n");
    const f = parseFile("dmesg", text, { tz: "Asia/Tokyo" });
    expect(f.format).toBe("dmesg");
    expect(f.counts).toMatchObject({ records: 3, skipped: 0 });
    expect(f.records.map((r) => iso(r.ts))).toEqual(["2022-04-06T09:23:24.000Z", "2022-04-06T09:23:25.000Z", "2022-04-06T09:23:00.000Z"]);
    expect(f.records[2].precision).toBe("min");
  });

  it("user-space lines in the ring buffer (journald ForwardToKMsg, a VM's serial console): their program, and a klog line's own stamp and level", () => {
    const text = [
      "[    0.000000] Linux version 5.15.0-1048-gke (buildd@lcy02-amd64-046) #53-Ubuntu SMP Tue Nov 28 00:38:15 UTC 2023",
      "[    3.105318] systemd[1]: Detected virtualization kvm.",
      '[   14.512004] kubelet[812]: E1203 10:00:14.512004     812 kubelet.go:2855] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"',
      "[   15.000100] kubelet[812]: segfault at 10 ip 00000000004a1b2c sp 000000c000123f00 error 4 in kubelet[400000+5a00000]",
      "[   19.100000] cni0: port 1(veth1a2b3c4d) entered blocking state",
    ].join("\n");
    const f = parseFile("serial-port-1.txt", text, { year: 2023 });
    expect(f.format).toBe("dmesg");
    expect(f.counts).toMatchObject({ records: 5, skipped: 0 });
    expect(f.records.map((r) => [r.component, r.ident, r.pid, r.severity, r.fields?.uptime])).toEqual([
      ["kernel", undefined, undefined, 1, "0.000000"],
      ["systemd", "systemd", 1, 1, "3.105318"],
      ["kubelet", "kubelet", 812, 3, "14.512004"],
      ["kernel", undefined, undefined, 1, "15.000100"],
      ["kernel", undefined, undefined, 1, "19.100000"],
    ]);
    expect(f.records[1].message).toBe("Detected virtualization kvm.");
    expect(f.records[2].message.startsWith("Container runtime network not ready")).toBe(true);
    expect(f.records.map((r) => iso(r.ts))).toEqual([null, null, "2023-12-03T10:00:14.512Z", null, null]);
  });

  it("a weekday that disagrees with the date is no -T stamp", () => {
    const f = parseFile("dmesg", "[Mo Apr  6 18:23:24 2022] x\n[Mi Apr  6 18:23:24 2022] y\n[Mi Apr  6 18:23:24 2022] z", { tz: "UTC" });
    expect(f.counts).toMatchObject({ records: 2, skipped: 1 });
  });

  it("raw with PRI: seconds since boot kept; a fall to near 0 starts a new boot", () => {
    const text = [
      "<6>[  912.004511] eth0: link up",
      "<4>[  913.100000] cni0: port 1(veth1) entered disabled state",
      "<6>[    0.000000] Linux version 6.1.0",
      "<6>[    1.500000] Run /init as init process",
    ].join("\n");
    const f = parseFile("kmsg.txt", text);
    expect(f.format).toBe("dmesg");
    expect(f.records.map((r) => r.fields?.uptime)).toEqual(["912.004511", "913.100000", "0.000000", "1.500000"]);
    expect(f.records.map((r) => r.severity)).toEqual([1, 2, 1, 1]);
    expect(f.records.map((r) => r.bootSegment)).toEqual([0, 0, 1, 1]);
    expect(f.records.every((r) => r.ts === null)).toBe(true);
  });

  it("/dev/kmsg records and their properties", () => {
    const text = ["6,339,5140900,-;NET: Registered protocol family 10", "3,340,5690716,-;nvme0: I/O timeout", " SUBSYSTEM=nvme", " DEVICE=c243:0"].join("\n");
    const f = parseFile("kmsg", text);
    expect(f.format).toBe("dmesg");
    expect(f.counts).toMatchObject({ records: 2, continuation: 2, skipped: 0 });
    expect(f.records.map((r) => r.fields?.uptime)).toEqual(["5.140900", "5.690716"]);
    expect(f.records[1].severity).toBe(3);
  });
});

describe("journalctl -o verbose with several entries", () => {
  it("each header starts a record; a multi-line MESSAGE value stays one message", () => {
    const text = [
      "-- Boot 6c0f2ea14b7d4e1a9c3358b0f2d7e611 --",
      "Tue 2024-06-04 02:17:40.551902 UTC [s=1a;i=1;b=6c0f2ea14b7d4e1a9c3358b0f2d7e611;m=5;t=6;x=7]",
      "    _HOSTNAME=worker-3",
      "    SYSLOG_IDENTIFIER=systemd",
      "    PRIORITY=3",
      "    MESSAGE=first line",
      "            second line",
      "Tue 2024-06-04 02:17:41.000000 UTC [s=1a;i=2;b=6c0f2ea14b7d4e1a9c3358b0f2d7e611;m=6;t=7;x=8]",
      "    _HOSTNAME=worker-3",
      "    SYSLOG_IDENTIFIER=kubelet",
      '    MESSAGE=I0604 02:17:41.000500    1822 kubelet.go:1] "Starting kubelet main sync loop"',
    ].join("\n");
    const f = parseFile("verbose.txt", text);
    expect(f.format).toBe("journal-verbose");
    expect(f.counts).toMatchObject({ records: 2, banner: 1, continuation: 8, skipped: 0 });
    expect(f.records.map((r) => r.message)).toEqual(["first line\nsecond line", "Starting kubelet main sync loop"]);
    expect(f.records.map((r) => r.severity)).toEqual([3, 1]);
    expect(f.records.map((r) => r.component)).toEqual(["systemd", "kubelet"]);
    expect(f.records.map((r) => iso(r.ts))).toEqual(["2024-06-04T02:17:40.551Z", "2024-06-04T02:17:41.000Z"]);
  });
});

describe("talosctl dmesg", () => {
  it("node column, levels, kmsg properties as continuations", () => {
    const text = [
      "10.5.0.2: kern:    info: [2024-05-14T08:30:41.226131566Z]: netconsole: network logging started",
      "10.5.0.2: kern: warning: [2024-05-14T08:30:41.228768566Z]: platform regulatory.0: Direct firmware load for regulatory.db failed with error -2",
      "SUBSYSTEM=platform",
      "DEVICE=+platform:regulatory.0",
      "10.5.0.2: user: warning: [2024-05-14T08:31:02.480116734Z]: [talos] service[kubelet](Running): Started task kubelet (PID 2656) for container kubelet",
    ].join("\n");
    const f = parseFile("dmesg.txt", text);
    expect(f.format).toBe("talos-dmesg");
    expect(f.counts).toMatchObject({ records: 3, continuation: 2, skipped: 0 });
    expect(f.records.map((r) => r.component)).toEqual(["kernel", "kernel", "kubelet"]);
    expect(f.records.map((r) => r.severity)).toEqual([1, 2, 2]);
    expect(f.records.every((r) => r.host === "10.5.0.2")).toBe(true);
    expect(iso(f.records[2].ts)).toBe("2024-05-14T08:31:02.480Z");
  });
});
