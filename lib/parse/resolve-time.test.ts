/**
 * Table tests for year and zone resolution (docs/definitions.md "Year", "Zone") and newest-first
 * detection, through `parseFile`.
 */
import { describe, expect, it } from "vitest";
import type { ParsedFile, TimeOptions } from "./file-types";
import { parseFile } from "./parse-file";
import { isNewestFirst } from "./resolve-time";
import { isoToUtc, parseIsoStamp } from "./helpers/time-util";
import { resolveZone } from "./zone";

const times = (f: ParsedFile): Array<string | null> => f.records.map((r) => (r.ts === null ? null : new Date(r.ts).toISOString()));
const j = (stamp: string, msg = "x", ident = "app[1]"): string => `${stamp} node-a ${ident}: ${msg}`;

describe("year of year-less stamps", () => {
  const rollover = [j("Dec 31 23:59:58"), j("Jan 01 00:00:01"), j("Jan 01 00:00:05")].join("\n");

  const table: Array<{ name: string; text: string; opts: TimeOptions; want: Array<string | null>; source: string }> = [
    {
      name: "--year: the first record takes it, December→January moves on",
      text: rollover,
      opts: { year: 2024 },
      want: ["2024-12-31T23:59:58.000Z", "2025-01-01T00:00:01.000Z", "2025-01-01T00:00:05.000Z"],
      source: "user",
    },
    {
      name: "collected bound: walk backwards from it",
      text: rollover,
      opts: { collectedMs: Date.parse("2025-03-01T00:00:00Z") },
      want: ["2024-12-31T23:59:58.000Z", "2025-01-01T00:00:01.000Z", "2025-01-01T00:00:05.000Z"],
      source: "collected",
    },
    {
      name: "collected bound a year later still gives the latest year at or before it",
      text: [j("Mar 01 10:00:00"), j("Nov 30 10:00:00")].join("\n"),
      opts: { collectedMs: Date.parse("2025-02-01T00:00:00Z") },
      want: ["2024-03-01T10:00:00.000Z", "2024-11-30T10:00:00.000Z"],
      source: "collected",
    },
    {
      name: "upload date as the last resort, flagged as a guess",
      text: rollover,
      opts: { uploadMs: Date.parse("2025-01-02T00:00:00Z") },
      want: ["2024-12-31T23:59:58.000Z", "2025-01-01T00:00:01.000Z", "2025-01-01T00:00:05.000Z"],
      source: "guess",
    },
    {
      name: "--year wins over the collection time",
      text: j("Jun 01 00:00:00"),
      opts: { year: 2020, collectedMs: Date.parse("2025-01-01T00:00:00Z") },
      want: ["2020-06-01T00:00:00.000Z"],
      source: "user",
    },
    {
      name: "Logs begin at banner: the earliest year at or after it, then forward",
      text: ["-- Logs begin at Mon 2022-05-30 14:37:44 UTC. --", j("Apr 16 19:26:30"), j("Dec 31 23:00:00"), j("Jan 02 01:00:00")].join("\n"),
      opts: { year: 1999, collectedMs: Date.parse("2030-01-01T00:00:00Z") },
      want: ["2023-04-16T19:26:30.000Z", "2023-12-31T23:00:00.000Z", "2024-01-02T01:00:00.000Z"],
      source: "banner",
    },
    {
      name: "Journal begins at banner after the first entry's date keeps that year",
      text: ["-- Journal begins at Mon 2025-05-12 00:00:03 UTC, ends at Mon 2025-05-19 04:31:10 UTC. --", j("May 12 00:00:03"), j("May 19 04:31:10")].join(
        "\n",
      ),
      opts: {},
      want: ["2025-05-12T00:00:03.000Z", "2025-05-19T04:31:10.000Z"],
      source: "banner",
    },
    {
      name: "neighbour with a year (containerd inside the journal) wins over --year, across New Year",
      text: [
        j("Dec 31 23:59:59", "Stopped x."),
        j("Jan 01 00:00:00", 'time="2025-01-01T00:00:00.500000000Z" level=info msg="starting containerd"', "containerd[5]"),
        j("Jan 01 00:00:02", "Started y."),
      ].join("\n"),
      opts: { year: 1999 },
      want: ["2024-12-31T23:59:59.000Z", "2025-01-01T00:00:00.500Z", "2025-01-01T00:00:02.000Z"],
      source: "neighbour",
    },
    {
      name: "Feb 29 only exists in leap years",
      text: [j("Feb 28 12:00:00"), j("Feb 29 12:00:00")].join("\n"),
      opts: { collectedMs: Date.parse("2025-06-01T00:00:00Z") },
      want: ["2024-02-28T12:00:00.000Z", "2024-02-29T12:00:00.000Z"],
      source: "collected",
    },
    {
      name: "no year anywhere: no time, year source none",
      text: j("May 19 04:20:07"),
      opts: {},
      want: [null],
      source: "none",
    },
  ];

  for (const t of table) {
    it(t.name, () => {
      const f = parseFile("journal.log", t.text, t.opts);
      expect(times(f)).toEqual(t.want);
      expect(f.yearSource).toBe(t.source);
      expect(f.counts.outOfOrder).toBe(0);
    });
  }

  it("klog file header gives the year; each header restarts the walk", () => {
    const text = [
      "Log file created at: 2024/12/31 23:59:00",
      "Running on machine: node-a",
      "Binary: Built with gc go1.23.6 for linux/amd64",
      "Log line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg",
      'I1231 23:59:59.000001    2817 kubelet.go:1] "a"',
      'I0101 00:00:01.000001    2817 kubelet.go:1] "b"',
      "Log file created at: 2026/03/01 08:00:00",
      'I0301 08:00:01.000001    9999 kubelet.go:1] "c"',
    ].join("\n");
    const f = parseFile("rke2/agent-logs/kubelet.log", text, { year: 1999 });
    expect(f.format).toBe("klog");
    expect(f.yearSource).toBe("header");
    expect(times(f)).toEqual(["2024-12-31T23:59:59.000Z", "2025-01-01T00:00:01.000Z", "2026-03-01T08:00:01.000Z"]);
    expect(f.counts).toMatchObject({ lines: 8, records: 3, banner: 5 });
    expect(f.banners.map((b) => b.banner.type)).toEqual(["klog-header", "header", "header", "header", "klog-header"]);
  });
});

describe("zones", () => {
  it("parses +0900 (zap ISO8601), Z, and CRI-O's +05:1800", () => {
    expect(parseIsoStamp("2025-05-19T13:20:08.321+0900")).toMatchObject({ offsetMin: 540, ms: 321, precision: "ms" });
    expect(isoToUtc("2025-05-19T13:20:08.321+0900")?.ms).toBe(Date.parse("2025-05-19T04:20:08.321Z"));
    expect(parseIsoStamp("2025-05-19T09:50:09.104730000+05:1800")).toMatchObject({ offsetMin: 330, ms: 104, precision: "ns" });
    expect(parseIsoStamp("2025-05-19T04:20:07-07:00")).toMatchObject({ offsetMin: -420, precision: "s" });
    expect(parseIsoStamp("2025-05-19T04:20:07.1Z")).toMatchObject({ offsetMin: 0, ms: 100, precision: "ms" });
    expect(parseIsoStamp("2025-05-19 04:20:07.123")).toMatchObject({ offsetMin: null, ms: 123 });
    expect(parseIsoStamp("2025-13-19T04:20:07Z")).toBeNull();
    expect(parseIsoStamp("2025-05-19T04:20:07+0")).toBeNull();
  });

  it("CRI-O half-hour zone in a CRI file lands at the right UTC time", () => {
    const f = parseFile("var/log/pods/ns_p_uid/c/0.log", "2025-05-19T09:50:09.104730000+05:1800 stdout F listening on :8080\n");
    expect(f.format).toBe("cri-log");
    expect(times(f)).toEqual(["2025-05-19T04:20:09.104Z"]);
    expect(f.records[0]).toMatchObject({ zoneAssumed: false, yearInferred: false, precision: "ns" });
  });

  it("--tz with an IANA zone follows DST; a fixed offset does not", () => {
    const text = [j("Jan 15 12:00:00"), j("Jul 01 12:00:00")].join("\n");
    const berlin = parseFile("j.log", text, { year: 2025, tz: "Europe/Berlin" });
    expect(times(berlin)).toEqual(["2025-01-15T11:00:00.000Z", "2025-07-01T10:00:00.000Z"]);
    expect(berlin).toMatchObject({ timeZone: "Europe/Berlin", zoneSource: "user" });
    expect(berlin.records.every((r) => r.zoneAssumed)).toBe(true);
    const tokyo = parseFile("j.log", text, { year: 2025, tz: "+09:00" });
    expect(times(tokyo)).toEqual(["2025-01-15T03:00:00.000Z", "2025-07-01T03:00:00.000Z"]);
    const def = parseFile("j.log", text, { year: 2025 });
    expect(def).toMatchObject({ timeZone: "UTC", zoneSource: "default" });
    expect(times(def)).toEqual(["2025-01-15T12:00:00.000Z", "2025-07-01T12:00:00.000Z"]);
  });

  it("an offset in the stamp wins over --tz; the banner zone wins over --tz", () => {
    const withOffset = parseFile("j.log", "2025-05-19T04:20:07+02:00 node-a app[1]: x\n", { tz: "Asia/Tokyo" });
    expect(times(withOffset)).toEqual(["2025-05-19T02:20:07.000Z"]);
    const banner = ["-- Logs begin at Sun 2024-03-03 00:00:00 PST. --", j("Mar 03 12:00:00"), j("Mar 20 12:00:00")].join("\n");
    const f = parseFile("j.log", banner, { tz: "Asia/Tokyo" });
    expect(f).toMatchObject({ zoneSource: "banner", timeZone: "America/Los_Angeles" });
    // PST (-8) before the DST change of 2024-03-10, PDT (-7) after
    expect(times(f)).toEqual(["2024-03-03T20:00:00.000Z", "2024-03-20T19:00:00.000Z"]);
    expect(f.records.every((r) => !r.zoneAssumed)).toBe(true);
  });

  it("resolveZone reads offsets and IANA names and refuses unknown zones", () => {
    expect(resolveZone("+09:00").fixedOffsetMin).toBe(540);
    expect(resolveZone("-0730").fixedOffsetMin).toBe(-450);
    expect(resolveZone("UTC+9").fixedOffsetMin).toBe(540);
    expect(resolveZone("Z").fixedOffsetMin).toBe(0);
    expect(resolveZone("Asia/Kolkata").offsetAt(Date.parse("2025-01-01T00:00:00Z"))).toBe(330);
    expect(() => resolveZone("Mars/Olympus")).toThrow(RangeError);
    expect(() => parseFile("j.log", j("May 19 04:20:07"), { tz: "Nowhere/Land" })).toThrow(/unknown time zone/);
  });
});

describe("newest-first files", () => {
  it("detects falling times and reverses the records; line numbers and boots follow", () => {
    const text = [
      j("Jan 01 00:00:05", "e"),
      j("Jan 01 00:00:04", "d"),
      "-- Boot 0123456789abcdef0123456789abcdef --",
      j("Dec 31 23:59:59", "c"),
      j("Dec 31 23:59:58", "b"),
      j("Dec 31 23:59:57", "a"),
    ].join("\n");
    const f = parseFile("journal-r.log", text, { collectedMs: Date.parse("2025-01-02T00:00:00Z") });
    expect(f.records.map((r) => r.message)).toEqual(["a", "b", "c", "d", "e"]);
    expect(f.records.map((r) => r.line)).toEqual([6, 5, 4, 2, 1]);
    expect(times(f)).toEqual([
      "2024-12-31T23:59:57.000Z",
      "2024-12-31T23:59:58.000Z",
      "2024-12-31T23:59:59.000Z",
      "2025-01-01T00:00:04.000Z",
      "2025-01-01T00:00:05.000Z",
    ]);
    expect(f.counts.outOfOrder).toBe(0);
    expect(f.records.map((r) => r.bootSegment)).toEqual([0, 0, 0, 1, 1]);
    expect(f.records[0].journalBootId).toBe("0123456789abcdef0123456789abcdef");
    expect(f.errors.some((e) => /newest-first/.test(e.message))).toBe(true);
  });

  it("one step back is out of order, not newest-first", () => {
    expect(isNewestFirst([1, 3, 2, 4])).toBe(false);
    expect(isNewestFirst([5, 4])).toBe(false);
    expect(isNewestFirst([5, 4, 3])).toBe(true);
    expect(isNewestFirst([5, null, 4, 4, 3, null])).toBe(true);
    expect(isNewestFirst([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, -1])).toBe(true);
  });
});
