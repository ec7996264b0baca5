/**
 * journalctl `-o short` (the default of every collector) and `-o short-precise`, and traditional
 * rsyslog files (`/var/log/messages`): FORMATS.md Part 2, 3.15, 5b rule JS; upstream systemd
 * `src/shared/logs-show.c` (`output_short`).
 *
 *     Mar 10 14:23:33 node-p kubelet[74160]: E0310 14:23:33.100579   74160 log.go:32] "StopPodSandbox …" err="…"
 *     May 19 04:20:07.512401 ip-10-20-30-40 kubenswrapper[2817]: I0519 04:20:07.512344 …      (short-precise)
 *     May  9 04:20:07 ip-10-20-30-40 kubelet: I0509 …                                          (rsyslog: space-padded day, no pid)
 *
 * No year, no zone (the collecting shell's local time). The MESSAGE goes through the component
 * parsers (component.ts): the record's time is the component's own stamp when it has one.
 * Banners (`-- Boot … --`, `-- Logs begin at … --`, …) are banners; lines indented with spaces are
 * continuations of a multi-line MESSAGE.
 */
import { envelopeRecord } from "./component";
import { parseJournalBanner } from "./journal-banner";
import { sniffRatio } from "./sniff-util";
import { d2, monthFromAbbrev } from "./time-util";
import type { FormatSpec, LineResult, WallTime } from "./types";

/** `Mon DD hh:mm:ss[.uuuuuu] host ident[pid]: msg`: groups 1 fraction, 2 host, 3 ident, 4 pid, 5 message. */
const RE = /^[A-Z][a-z]{2} [ 0-3]\d [0-2]\d:[0-5]\d:[0-6]\d(?:\.(\d{6}))? (\S+) ([^\s[:]+)(?:\[(\d+)\])?:(?: (.*))?$/;

/** Parse the envelope of one journal short line into a record (component parsed from the MESSAGE); null when not one. */
export function parseJournalShortLine(line: string): LineResult {
  const month = monthFromAbbrev(line, 0);
  if (month === 0) return null;
  const m = RE.exec(line);
  if (!m) return null;
  const dayTens = line.charCodeAt(4);
  const day = dayTens === 32 ? line.charCodeAt(5) - 48 : d2(line, 4);
  if (day < 1 || day > 31) return null;
  const frac = m[1];
  const time: WallTime = {
    year: null,
    month,
    day,
    hour: d2(line, 7),
    minute: d2(line, 10),
    second: d2(line, 13),
    ms: frac ? (frac.charCodeAt(0) - 48) * 100 + (frac.charCodeAt(1) - 48) * 10 + (frac.charCodeAt(2) - 48) : 0,
    offsetMin: null,
    precision: frac ? "us" : "s",
  };
  const record = envelopeRecord(
    { time, host: m[2], ident: m[3], pid: m[4] !== undefined ? Number(m[4]) : undefined },
    m[5] ?? "",
  );
  return { type: "record", record };
}

/** Shared line logic of the journal text envelopes: banner, continuation (indented), record, else null. */
export function journalLine(line: string, parseRecord: (l: string) => LineResult): LineResult {
  const c = line.charCodeAt(0);
  if (c === 45) {
    const b = parseJournalBanner(line);
    if (b) return { type: "banner", banner: b };
    return null;
  }
  if (c === 32 || c === 9) return { type: "continuation", text: line.trimStart() };
  return parseRecord(line);
}

const SNIFF = /^[A-Z][a-z]{2} [ 0-3]\d [0-2]\d:[0-5]\d:[0-6]\d(?:\.\d{6})? \S+ [^\s[:]+(?:\[\d+\])?: /;

export const journalShortSpec: FormatSpec = {
  name: "journal-short",
  kind: "journal",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => monthFromAbbrev(l, 0) !== 0 && SNIFF.test(l)),
  createParser() {
    return { parseLine: (line) => journalLine(line, parseJournalShortLine) };
  },
  samples: [
    {
      line: 'May 19 04:20:07 ip-10-20-30-40.ec2.internal kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"',
      expect: {
        time: { year: null, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 512, offsetMin: null, precision: "us" },
        host: "ip-10-20-30-40.ec2.internal",
        ident: "kubelet",
        pid: 2817,
        component: "kubelet",
        severity: 1,
        message: "Starting kubelet main sync loop",
      },
    },
    {
      // short-precise, OpenShift identifier
      line: 'May 19 04:20:07.512401 ip-10-20-30-40 kubenswrapper[2817]: E0519 04:20:09.001877    2817 kubelet.go:3002] "Container runtime network not ready" networkReady="NetworkReady=false"',
      expect: {
        time: { year: null, month: 5, day: 19, hour: 4, minute: 20, second: 9, ms: 1, offsetMin: null, precision: "us" },
        host: "ip-10-20-30-40",
        ident: "kubenswrapper",
        component: "kubelet",
        severity: 3,
        message: 'Container runtime network not ready networkReady="NetworkReady=false"',
        fields: { networkReady: "NetworkReady=false" },
      },
    },
    {
      // containerd logrus inside: its own stamp (with year and zone) is the record's time
      line: 'Feb 15 23:28:31 kind-worker containerd[7599]: time="2024-02-15T23:28:31.785841950Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:server,Uid:339b,Namespace:default,Attempt:0,}"',
      expect: {
        time: { year: 2024, month: 2, day: 15, hour: 23, minute: 28, second: 31, ms: 785, offsetMin: 0, precision: "ns" },
        host: "kind-worker",
        ident: "containerd",
        pid: 7599,
        component: "containerd",
        severity: 1,
        message: "RunPodSandbox for &PodSandboxMetadata{Name:server,Uid:339b,Namespace:default,Attempt:0,}",
      },
    },
    {
      // rsyslog file: space-padded day, no pid; plain message
      line: "May  9 04:20:07 ip-10-20-30-40 systemd: Started Kubernetes Kubelet.",
      expect: {
        time: { year: null, month: 5, day: 9, hour: 4, minute: 20, second: 7, ms: 0, offsetMin: null, precision: "s" },
        ident: "systemd",
        component: "systemd",
        severity: 1,
        message: "Started Kubernetes Kubelet.",
      },
    },
    {
      line: "May 19 04:19:31 ip-10-20-30-40 kernel: Linux version 6.1.134-150.224.amzn2023.x86_64",
      expect: { ident: "kernel", component: "kernel", message: "Linux version 6.1.134-150.224.amzn2023.x86_64" },
    },
    { line: "-- Boot 6c0f2ea14b7d4e1a9c3358b0f2d7e611 --", expect: { banner: { type: "boot", bootId: "6c0f2ea14b7d4e1a9c3358b0f2d7e611" } } },
    { line: "-- Reboot --", expect: { banner: { type: "reboot", bootId: null } } },
    { line: "-- No entries --", expect: { banner: { type: "no-entries" } } },
    {
      line: "-- Logs begin at Mon 2022-05-30 14:37:44 PDT. --",
      expect: {
        banner: {
          type: "logs-begin",
          offsetMin: -420,
          zoneName: "PDT",
          time: { year: 2022, month: 5, day: 30, hour: 14, minute: 37, second: 44, ms: 0, offsetMin: -420, precision: "s" },
        },
      },
    },
    {
      line: "-- Journal begins at Mon 2025-05-12 00:00:03 UTC, ends at Mon 2025-05-19 04:31:10 UTC. --",
      expect: {
        banner: {
          type: "logs-begin",
          offsetMin: 0,
          time: { year: 2025, month: 5, day: 12, hour: 0, minute: 0, second: 3, ms: 0, offsetMin: 0, precision: "s" },
        },
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] x",
    "I0519 04:20:07.512344    2817 kubelet.go:2321] \"Starting kubelet main sync loop\"",
    "Foo 19 04:20:07 host kubelet[1]: x",
    "[Mon May 19 04:20:07 2025] ena 0000:00:05.0 eth0: ENA device version: 0.10",
    "-- cursor: s=abc",
  ],
};
