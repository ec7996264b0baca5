/**
 * RFC 5424-style syslog files as rsyslog writes them with an RFC5424 template but without `<PRI>1`
 * (case 070; RFC 5424 section 6): `<time> <host> <app> <procid> <msgid> <structured-data> <msg>`.
 *
 *     2024-02-07T05:49:40.739405+00:00 NodeA kubelet 24578 - -  E0207 05:49:40.738973   40069 remote_runtime.go:176] "…"
 *
 * An optional `<PRI>1 ` prefix (real RFC 5424) is accepted. Structured data is `-` or `[…]` elements.
 * The MESSAGE (leading blanks trimmed) goes through the component parsers; the component's own
 * stamp is the record's time, taking year and offset from this stamp when it has none (klog).
 */
import { envelopeRecord } from "./helpers/component";
import { JournalEnvelopeParser } from "./journal-envelope";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineResult, Severity } from "./types";

/** groups: 1 pri, 2 stamp, 3 host, 4 app, 5 procid, 6 msgid, 7 message */
const RE =
  /^(?:<(\d{1,3})>1 )?(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})) (\S+) (\S+) (\d+|-) (\S+) (?:-|(?:\[(?:[^\]\\]|\\.)*\])+)(?: (.*))?$/;

const PRI_SEVERITY: readonly Severity[] = [4, 4, 4, 3, 2, 1, 1, 0];

/** Parse one RFC 5424-style line into a record; null when not one. */
export function parseSyslog5424Line(line: string): LineResult {
  const c0 = line.charCodeAt(0);
  if (c0 !== 60 && (c0 < 48 || c0 > 57)) return null;
  const m = RE.exec(line);
  if (!m) return null;
  const time = parseIsoStamp(m[2]);
  if (!time) return null;
  const msg = (m[7] ?? "").trimStart();
  return {
    type: "record",
    record: envelopeRecord(
      {
        time,
        host: m[3] === "-" ? undefined : m[3],
        ident: m[4] === "-" ? undefined : m[4],
        pid: m[5] === "-" ? undefined : Number(m[5]),
        severity: m[1] !== undefined ? PRI_SEVERITY[Number(m[1]) & 7] : undefined,
      },
      msg,
    ),
  };
}

const SNIFF = /^(?:<\d{1,3}>1 )?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}) \S+ \S+ (?:\d+|-) \S+ (?:-|\[)/;

/** Format spec: RFC 5424-style syslog files (`<time> <host> <app> <pid> - -  <msg>`). */
export const syslogRfc5424Spec: FormatSpec = {
  name: "syslog-rfc5424",
  kind: "syslog",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    return new JournalEnvelopeParser(parseSyslog5424Line);
  },
  samples: [
    {
      line: '2024-02-07T05:49:40.739537+00:00 NodeA kubelet 24578 - -  E0207 05:49:40.739041   40069 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded" pod="default/podX-b181ca13-fc5qq"',
      expect: {
        time: { year: 2024, month: 2, day: 7, hour: 5, minute: 49, second: 40, ms: 739, offsetMin: 0, precision: "us" },
        host: "NodeA",
        ident: "kubelet",
        pid: 24578,
        component: "kubelet",
        severity: 3,
        message: 'Failed to create sandbox for pod err="rpc error: code = DeadlineExceeded desc = context deadline exceeded" pod="default/podX-b181ca13-fc5qq"',
        fields: { err: "rpc error: code = DeadlineExceeded desc = context deadline exceeded", pod: "default/podX-b181ca13-fc5qq" },
      },
    },
    {
      // the message was cut before its closing quote: still a record
      line: '2024-02-07T05:45:40.739274+00:00 NodeA containerd 22938 - -  time="2024-02-07T05:45:40.738965836Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:podX,Attempt:0,}',
      expect: {
        time: { year: 2024, month: 2, day: 7, hour: 5, minute: 45, second: 40, ms: 738, offsetMin: 0, precision: "ns" },
        component: "containerd",
        message: "RunPodSandbox for &PodSandboxMetadata{Name:podX,Attempt:0,}",
      },
    },
    {
      line: "<30>1 2024-02-07T05:45:41Z NodeA systemd 1 - - Started kubelet.service.",
      expect: {
        time: { year: 2024, month: 2, day: 7, hour: 5, minute: 45, second: 41, ms: 0, offsetMin: 0, precision: "s" },
        component: "systemd",
        severity: 1,
        message: "Started kubelet.service.",
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "2025-05-19T04:20:09.104730000+00:00 stdout F listening on :8080",
  ],
};
