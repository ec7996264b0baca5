/**
 * Real-format cases read by the journal, syslog, kernel and Talos specs (tests/cases, expected
 * values in tests/cases/expect/*.json): each file parsed by `parseFile` with the options a
 * reviewer would give at upload.
 */
import { describe, expect, it } from "vitest";
import { expectAccounting, parseCase, recordIso as iso } from "../testing/parse-cases";

describe("case 017: journal short with a Chinese/Japanese month (12月), containerd logrus inside", () => {
  const f = parseCase("017-journald-localized-month-embedded-containerd.log");

  it("reads all 7 lines as journal records on node-p.localdomain, level info", () => {
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 7, records: 7, skipped: 0, banner: 0, continuation: 0, noTimestamp: 0 });
    expectAccounting(f);
    expect(f.records.every((r) => r.host === "node-p.localdomain" && r.pid === 7221 && r.ident === "pouchd" && r.severity === 1)).toBe(true);
  });

  it("takes containerd's stamps (+08:00) where its logrus line parses: records 4-7", () => {
    expect(f.records.slice(3).map(iso)).toEqual([
      "2018-12-26T12:34:08.000Z",
      "2018-12-26T12:34:08.000Z",
      "2018-12-26T12:34:08.000Z",
      "2018-12-26T12:34:08.763Z",
    ]);
    expect(f.records.slice(3).map((r) => r.precision)).toEqual(["s", "s", "s", "ns"]);
    expect(f.records[3].message).toBe("serving...");
    expect(f.records[3].fields?.address).toBe("/run/containerd/debug.sock");
    expect(f.records[5].message).toBe("containerd successfully booted in 0.012541s");
    expect(f.records[6].fields?.["containerd-pid"]).toBe("3333");
  });

  it("records 1-3 keep the inner quotes containerd left unescaped in msg, and its stamp", () => {
    expect(f.records.slice(0, 3).map(iso)).toEqual(["2018-12-26T12:34:08.000Z", "2018-12-26T12:34:08.000Z", "2018-12-26T12:34:08.000Z"]);
    expect(f.records[0].message).toBe('loading plugin "io.containerd.grpc.v1.tasks"...');
    expect(f.records[0].fields).toMatchObject({ module: "containerd", type: "io.containerd.grpc.v1" });
    expect(f.records[0].component).toBe("containerd");
  });

  it("the localised prefix month gives December 26 where the payload gives no stamp", () => {
    for (const r of f.records) {
      expect(r.time?.month).toBe(12);
      expect(r.time?.day).toBe(26);
    }
  });
});

describe("case 069: journalctl -r, pager-cut prefix without month, klog inside", () => {
  const f = parseCase("069-journalctl-reverse-order-pager-truncated.log", { year: 2025 });

  it("3 ## notes are banners, 4 kubelet records on node, pid 6366, severity error", () => {
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 7, records: 4, banner: 3, skipped: 0, continuation: 0, noTimestamp: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(f.banners.map((b) => b.line)).toEqual([1, 2, 3]);
    expect(f.records.every((r) => r.host === "node" && r.pid === 6366 && r.component === "kubelet" && r.severity === 3)).toBe(true);
  });

  it("klog's month and day (E1029) time the records; newest first, reversed; all .693Z", () => {
    expect(f.records.map(iso)).toEqual(Array(4).fill("2025-10-29T12:58:07.693Z"));
    expect(f.records.map((r) => r.line)).toEqual([7, 6, 5, 4]);
    expect(f.records.map((r) => r.message.split(" err=")[0])).toEqual([
      "RunPodSandbox from runtime service failed",
      "Failed to create sandbox for pod",
      "CreatePodSandbox for pod failed",
      "Error syncing pod, skipping",
    ]);
    expect(f.yearSource).toBe("user");
  });
});

describe("case 100: journalctl -o verbose, one entry", () => {
  const f = parseCase("100-journalctl-o-verbose-kubelet.log");

  it("the header is the record, the 5 field lines its continuations", () => {
    expect(f.format).toBe("journal-verbose");
    expect(f.counts).toMatchObject({ lines: 6, records: 1, continuation: 5, skipped: 0, noTimestamp: 0 });
    expectAccounting(f);
    const r = f.records[0];
    expect(r).toMatchObject({ line: 1, endLine: 6 });
  });

  it("printed time with CDT, PRIORITY=6, _BOOT_ID; no host, empty message", () => {
    const r = f.records[0];
    expect(iso(r)).toBe("2017-10-13T02:22:44.858Z");
    expect(r.precision).toBe("us");
    expect(r.zoneAssumed).toBe(false);
    expect(r.severity).toBe(1);
    expect(r.bootId).toBe("b0ca4a9fc52ec1d22af0a385a9024276");
    expect(r.journalBootId).toBe("b0ca4a9fc52ec1d22af0a385a9024276");
    expect(r.host).toBeUndefined();
    expect(r.ident).toBeUndefined();
    expect(r.message).toBe("");
  });
});

describe("case 107: Talos machined via kmsg, <12> and seconds since boot", () => {
  const f = parseCase("107-kmsg-pri-kubelet-crashloop-5s.log");

  it("12 records, each with its seconds since boot and no UTC", () => {
    expect(f.format).toBe("dmesg");
    expect(f.counts).toMatchObject({ lines: 12, records: 12, skipped: 0, continuation: 0 });
    expectAccounting(f);
    const up = f.records.map((r) => Math.floor(Number(r.fields?.uptime) * 1000) / 1000);
    expect(up).toEqual([46.972, 46.979, 47.357, 49.015, 54.134, 54.438, 59.56, 59.864, 64.985, 65.277, 70.401, 70.692]);
    expect(f.records.every((r) => r.ts === null && r.time === null && r.bootSegment === 0)).toBe(true);
  });

  it("severity warning from <12>; the service is the component; the cut line is still a record", () => {
    expect(f.records.every((r) => r.severity === 2)).toBe(true);
    expect(f.records.slice(0, 11).every((r) => r.component === "kubelet" && r.fields?.service === "kubelet")).toBe(true);
    expect(f.records.filter((r) => r.fields?.state === "Waiting").map((r) => r.fields?.uptime)).toEqual(["49.015741", "54.438482", "59.864470", "65.277455"]);
    const last = f.records[11];
    expect(last.message).toBe("[talos] service[");
    expect(last.component).toBe("machined");
  });
});

describe("case 112: dmesg -T with a German weekday, one cut stamp", () => {
  const f = parseCase("112-dmesg-T-german-weekday-cni0-veth-churn.log", { tz: "Europe/Berlin" });

  it("18 records at 2022-04-06T16:23:24Z, precision seconds, no level (info)", () => {
    expect(f.format).toBe("dmesg");
    expect(f.counts).toMatchObject({ lines: 18, records: 18, skipped: 0, noTimestamp: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(Array(18).fill("2022-04-06T16:23:24.000Z"));
    expect(f.records.every((r) => r.precision === "s" && r.severity === 1 && r.component === "kernel" && r.host === undefined)).toBe(true);
    expect(f.errors.some((e) => /newest-first/.test(e.message))).toBe(false);
  });

  it("the cut last line: year from its neighbours, empty message", () => {
    const last = f.records[17];
    expect(last.time?.year).toBeNull();
    expect(last.yearInferred).toBe(true);
    expect(last.message).toBe("");
    expect(f.records[5].message).toBe("IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready");
    expect(f.records[10].message).toBe("cni0: port 8(vethf0e6f9cd) entered forwarding state");
  });
});

describe("case 124: RFC 3164 syslog with <PRI> glued to the month, klog inside", () => {
  const f = parseCase("124-syslog-pri-prefix-sandbox-address-already-in-use.log", { year: 2019 });

  it("4 records on node-p, pid 98675, all at .268Z", () => {
    expect(f.format).toBe("syslog-rfc3164");
    expect(f.counts).toMatchObject({ lines: 4, records: 4, skipped: 0, noTimestamp: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(Array(4).fill("2019-03-19T11:02:46.268Z"));
    expect(f.records.every((r) => r.host === "node-p" && r.pid === 98675 && r.component === "kubelet")).toBe(true);
  });

  it("klog's E wins over <30> (daemon.info)", () => {
    expect(f.records.map((r) => r.severity)).toEqual([3, 3, 3, 3]);
    expect(f.records[0].message).toMatch(/^RunPodSandbox from runtime service failed: .*Address already in use$/);
  });
});
