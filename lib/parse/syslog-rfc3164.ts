/**
 * Traditional BSD syslog (RFC 3164) lines that kept their `<PRI>`: what a syslog server or
 * `logger`/rsyslog forwarding writes when the priority is not stripped, and what a tcpdump or
 * netcat capture of syslog traffic shows (upstream rsyslog `RSYSLOG_ForwardFormat`,
 * `RSYSLOG_SyslogProtocol23Format` without the version digit).
 *
 *     <30>Mar 19 11:02:46 node-p kubelet[98675]: E0319 11:02:46.268141   98675 remote_runtime.go:92] …
 *     <13>Oct  7 08:12:55 kubelet[801]: I1007 08:12:55.001200     801 server.go:1]       (no host: /dev/log)
 *     <30>2019-03-19T11:02:46.268141+00:00 node-p kubelet[98675]: …                        (rsyslog high precision)
 *
 * After the `<PRI>` the line is journal short (journal-short.ts: C-locale or localised month,
 * space- or zero-padded day, optional host) or an RFC 3339 stamp (journal-short-iso.ts). PRI's
 * severity (its low 3 bits) is the transport's label: the MESSAGE's own level (klog `E`, logrus
 * `level=`) wins; a MESSAGE without one takes PRI's. Without `<PRI>` these files are read by
 * journal-short / journal-short-iso.
 */
import { envelopeRecord } from "./helpers/component";
import { PRIORITY_SEVERITY } from "./dmesg";
import { JournalEnvelopeParser } from "./journal-envelope";
import { isShortLine, parseShortLineWithPri } from "./journal-short";
import { parseIsoStamp } from "./helpers/time-util";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec, LineResult } from "./types";

const PRI = /^<(\d{1,3})>/;
/** groups: 1 stamp, 2 host, 3 ident, 4 pid, 5 message */
const ISO_LINE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[+-]\d{2}:?\d{2}|Z)) (?:(\S+) )??([^\s[:]+)(?:\[(\d+)\])?:(?: (.*))?$/;

/** Parse one `<PRI>` syslog line; null when not one. */
export function parseSyslog3164Line(line: string): LineResult {
  if (line.charCodeAt(0) !== 60) return null;
  const p = PRI.exec(line);
  if (!p) return null;
  const pri = Number(p[1]);
  if (pri > 191) return null;
  const severity = PRIORITY_SEVERITY[pri & 7];
  const rest = line.slice(p[0].length);
  const c = rest.charCodeAt(0);
  if (c >= 48 && c <= 57 && rest.charCodeAt(4) === 45) {
    const m = ISO_LINE.exec(rest);
    if (!m) return null;
    const time = parseIsoStamp(m[1]);
    if (!time) return null;
    return {
      type: "record",
      record: envelopeRecord({ time, host: m[2], ident: m[3], pid: m[4] !== undefined ? Number(m[4]) : undefined, severity }, m[5] ?? ""),
    };
  }
  return parseShortLineWithPri(rest, severity);
}

const SNIFF = /^<\d{1,3}>/;
const SNIFF_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[+-]\d{2}:?\d{2}|Z) (?:\S+ )?[^\s[:]+(?:\[\d+\])?: /;

function sniffLine(l: string): boolean {
  const p = PRI.exec(l);
  if (!p) return false;
  const rest = l.slice(p[0].length);
  return isShortLine(rest) || SNIFF_ISO.test(rest);
}

/** Format spec: RFC 3164 syslog lines with their `<PRI>`. */
export const syslogRfc3164Spec: FormatSpec = {
  name: "syslog-rfc3164",
  kind: "syslog",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, sniffLine),
  createParser() {
    return new JournalEnvelopeParser(parseSyslog3164Line);
  },
  samples: [
    {
      // <30>: daemon.info, but klog says E: the kubelet's own level wins
      line: '<30>Jun  4 02:17:40 worker-3 kubelet[1822]: E0604 02:17:40.551902    1822 pod_workers.go:1298] "Error syncing pod, skipping" pod="kube-system/coredns-5d78c9869d-x7x2q"',
      expect: {
        time: { year: null, month: 6, day: 4, hour: 2, minute: 17, second: 40, ms: 551, offsetMin: null, precision: "us" },
        host: "worker-3",
        ident: "kubelet",
        pid: 1822,
        component: "kubelet",
        severity: 3,
        message: 'Error syncing pod, skipping pod="kube-system/coredns-5d78c9869d-x7x2q"',
        fields: { pod: "kube-system/coredns-5d78c9869d-x7x2q" },
      },
    },
    {
      // no level in the message: PRI's severity (27 = daemon.err)
      line: "<27>Jun  4 02:17:41 worker-3 systemd[1]: kubelet.service: Main process exited, code=exited, status=255/EXCEPTION",
      expect: {
        time: { year: null, month: 6, day: 4, hour: 2, minute: 17, second: 41, ms: 0, offsetMin: null, precision: "s" },
        component: "systemd",
        severity: 3,
        message: "kubelet.service: Main process exited, code=exited, status=255/EXCEPTION",
      },
    },
    {
      // from /dev/log: no host column
      line: "<13>Oct  7 08:12:55 kube-setup[801]: bridge cni0 configured",
      expect: { ident: "kube-setup", pid: 801, severity: 1, message: "bridge cni0 configured" },
    },
    {
      line: '<30>2024-11-05T16:40:02.118733+01:00 node-b containerd[911]: time="2024-11-05T16:40:02.118511337+01:00" level=warning msg="cleanup warnings"',
      expect: {
        time: { year: 2024, month: 11, day: 5, hour: 16, minute: 40, second: 2, ms: 118, offsetMin: 60, precision: "ns" },
        host: "node-b",
        component: "containerd",
        severity: 2,
        message: "cleanup warnings",
      },
    },
  ],
  notMine: [
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "<30>1 2024-02-07T05:45:41Z NodeA systemd 1 - - Started kubelet.service.",
    "<6>[   11.803512] ena 0000:00:05.0 eth0: ENA device version: 0.10",
  ],
};
