/**
 * Real-format cases of node component logs at the parse level (tests/cases, expected values in
 * tests/cases/expect/*.json): the aws-vpc-cni plugin and ipamd lines of case 027, the CRI-O stale
 * sandbox name of case 116 (journal short, one line cut), the bare klog then `docker logs
 * --timestamps` logrus of case 136, and the French journal of case 114 (localised month and
 * banner weekday, a line cut inside its prefix). Each file parsed by `parseFile` with the options
 * a reviewer would give at upload.
 */
import { describe, expect, it } from "vitest";
import { parseJournalBanner } from "./helpers/journal-banner";
import { localMonth } from "./helpers/locale-names";
import { parseJournalShortFileLine, parseJournalShortLine } from "./journal-short";
import { expectAccounting, parseCase, recordIso as iso } from "../testing/parse-cases";

describe("case 027: aws-vpc-cni plugin.log and ipamd lines, `RFC3339Z [LEVEL] msg`", () => {
  const f = parseCase("027-aws-cni-plugin-log-bracket-level.log");

  it("6 records of component aws-vpc-cni, stamps to the ms with year and Z", () => {
    expect(f.format).toBe("aws-vpc-cni-seelog");
    expect(f.counts).toMatchObject({ lines: 6, records: 6, skipped: 0, continuation: 0, noTimestamp: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual([
      "2020-03-16T18:02:38.121Z",
      "2020-03-16T18:02:38.121Z",
      "2020-03-16T18:02:38.124Z",
      "2020-03-16T18:02:38.124Z",
      "2020-03-16T18:05:27.389Z",
      "2020-03-16T18:05:28.412Z",
    ]);
    expect(f.records.every((r) => r.component === "aws-vpc-cni" && r.precision === "ms")).toBe(true);
  });

  it("the plugin's two ERROR lines; ipamd's reply with its err is logged at INFO", () => {
    expect(f.records.map((r) => r.severity)).toEqual([1, 1, 3, 3, 1, 1]);
    expect(f.records[3].message).toBe("Failed CNI request: add cmd: failed to assign an IP address to container");
    expect(f.records[4].message).toBe("Send AddNetworkReply: IPv4Addr , DeviceNumber: 0, err: assignPodIPv4AddressUnsafe: no available IP addresses");
    expect(f.records[5].message).toMatch(
      /^Received AddNetwork for NS \/proc\/21332\/ns\/net, Pod nginx-deployment-q5mz28pfdc-jxpxr, NameSpace default, Container 0a0bfba9/,
    );
  });
});

describe("case 116: journal short, CRI-O's stale sandbox name logged by three kubelet layers", () => {
  const f = parseCase("116-after-reboot-crio-pod-sandbox-name-already-exists.log", { year: 2024 });

  it("4 kubelet records on node-a0, the klog stamps (µs) floored to the ms", () => {
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 4, records: 4, skipped: 0, continuation: 0, noTimestamp: 0 });
    expectAccounting(f);
    expect(f.records.map(iso)).toEqual(["2024-08-16T13:49:35.119Z", "2024-08-16T13:49:35.134Z", "2024-08-16T13:49:35.134Z", "2024-08-16T13:49:35.134Z"]);
    expect(f.records.every((r) => r.host === "node-a0" && r.pid === 9394 && r.component === "kubelet")).toBe(true);
    expect(f.records.map((r) => r.severity)).toEqual([2, 3, 3, 3]);
  });

  it("the last line is cut inside the pod's name and still a record of its own", () => {
    expect(f.records[3].message).toBe('createPodSandbox for pod "pharos-pro');
    expect(f.records[1].message).toMatch(/pod sandbox with name "k8s_pharos-proxy-node-a0_kube-system_08112654c0161d4e32267b80a22953b2_0" already exists$/);
  });
});

describe("case 136: bare structured klog, then a docker-logs stamp before a logrus line", () => {
  const f = parseCase("136-k3s-in-docker-klog-then-timestamp-prefixed-logrus-netns-gone.log", { year: 2024 });

  it("2 records: klog (error, µs) and logrus (info)", () => {
    expect(f.counts).toMatchObject({ lines: 2, records: 2, skipped: 0, continuation: 0, noTimestamp: 0 });
    expectAccounting(f);
    expect(f.records.map((r) => [r.component, r.severity])).toEqual([
      ["kubelet", 3],
      ["unknown", 1],
    ]);
  });

  it("klog's err unescaped three levels deep names the loopback plugin's Statfs of the gone netns", () => {
    expect(iso(f.records[0])).toBe("2024-09-02T04:49:10.503Z");
    expect(f.records[0].message.startsWith("Error syncing pod, skipping")).toBe(true);
    expect(f.records[0].fields?.pod).toBe("kube-system/metrics-server-pf9nk2crpf-b67pp");
    expect(f.records[0].fields?.err).toContain(
      'network: plugin type="loopback" failed (add): failed to Statfs "/proc/948243/ns/net": no such file or directory',
    );
    expect(f.records[0].message).toContain('failed to Statfs \\\\\\"/proc/948243/ns/net\\\\\\"');
  });

  it("logrus's own stamp (to the second) is told finer by the envelope inside that second: .523Z", () => {
    expect(iso(f.records[1])).toBe("2024-09-02T04:49:10.523Z");
    expect(f.records[1].precision).toBe("ns");
    expect(f.records[1].message).toBe("Failed to read pod IP from plugin/docker: networkPlugin cni failed o");
  });
});

describe("case 114: French journal short under a `Logs begin at mer. …` banner", () => {
  const f = parseCase("114-journald-french-month-header-create-container-deadline.log");

  it("the banner gives the year 2018 and zone CEST; it is not a record", () => {
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 7, records: 6, banner: 1, skipped: 0, continuation: 0, noTimestamp: 0, outOfOrder: 1 });
    expectAccounting(f);
    expect(f.yearSource).toBe("banner");
    expect(f.banners[0]).toMatchObject({ line: 1, banner: { type: "logs-begin", offsetMin: 120, zoneName: "CEST" } });
  });

  it("`sept.` months, klog stamps in CEST: the CreateContainer deadline at 17:43:05.653Z", () => {
    expect(f.records.slice(0, 5).map(iso)).toEqual([
      "2018-09-20T17:41:05.744Z",
      "2018-09-20T17:41:06.384Z",
      "2018-09-20T17:42:06.808Z",
      "2018-09-20T17:42:55.926Z",
      "2018-09-20T17:43:05.653Z",
    ]);
    expect(f.records.slice(0, 5).every((r) => r.host === "node-p" && r.pid === 5407 && r.component === "kubelet")).toBe(true);
    expect(f.records[4].message).toMatch(
      /^CreateContainer in sandbox "cc9d5840.*" from runtime service failed: rpc error: code = DeadlineExceeded desc = context deadline exceeded$/,
    );
  });

  it("the last line, cut after its minute, is a record at 16:43 CEST (to the minute, empty), earlier than the one before", () => {
    const r = f.records[5];
    expect(r).toMatchObject({ line: 7, endLine: 7, message: "", precision: "min", outOfOrder: true });
    expect(iso(r)).toBe("2018-09-20T14:43:00.000Z");
  });
});

describe("French months and weekdays as glibc prints them", () => {
  it("every French month abbreviation, with its dot and without", () => {
    const months = ["janv.", "févr.", "mars", "avr.", "avril", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."];
    const want = [1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    expect(months.map(localMonth)).toEqual(want);
    expect(months.map((m) => localMonth(m.replace(/\.$/, "")))).toEqual(want);
  });

  it("a journal line in each French month", () => {
    for (const [m, n] of [
      ["févr.", 2],
      ["août", 8],
      ["déc.", 12],
    ] as const) {
      const res = parseJournalShortLine(`${m} 03 07:15:02 node-p kubelet[5407]: I0${n < 10 ? n : ""}03 07:15:02.100000 5407 x.go:1] y`);
      expect(res?.type === "record" ? res.record.time?.month : null).toBe(n);
    }
  });

  it("the Logs begin at banner with the weekday in the node's locale, the zone as tzdata prints it", () => {
    for (const day of ["mer.", "Mi", "mié", "Ср", "水", "ons", "Wed"]) {
      const b = parseJournalBanner(`-- Logs begin at ${day} 2018-09-19 11:42:51 CEST. --`);
      expect(b).toMatchObject({ type: "logs-begin", offsetMin: 120, time: { year: 2018, month: 9, day: 19, hour: 11 } });
    }
    expect(parseJournalBanner("-- Logs begin at dim. 2018-09-16 08:00:00 CEST, end at lun. 2018-09-17 09:00:00 CEST. --")).toMatchObject({
      time: { year: 2018, day: 16 },
      offsetMin: 120,
    });
  });
});

describe("journal lines cut inside their prefix", () => {
  const rec = (line: string) => {
    const res = parseJournalShortFileLine(line);
    return res?.type === "record" ? res.record : null;
  };

  it("after the minute, the second or the host: a record timed to what is left, empty", () => {
    expect(rec("sept. 20 16:43")?.time).toMatchObject({ month: 9, day: 20, hour: 16, minute: 43, second: 0, precision: "min" });
    expect(rec("Aug 16 13:49:35")?.time).toMatchObject({ month: 8, hour: 13, minute: 49, second: 35, precision: "s" });
    expect(rec("Aug 16 13:49:35.134552 node-a0")).toMatchObject({ host: "node-a0", message: "", time: { ms: 134, precision: "us" } });
  });

  it("no month, or a word that is no month: not a record", () => {
    expect(parseJournalShortFileLine("16:43")).toBeNull();
    expect(parseJournalShortFileLine("Done 20 16:43")).toBeNull();
    expect(parseJournalShortFileLine("Aug 16 25:49")).toBeNull();
    // a journal line carried elsewhere (a cloud entry's text) is read whole or not at all
    expect(parseJournalShortLine("Aug 16 13:49")).toBeNull();
  });
});
