/**
 * `aws logs tail` (`--format detailed`, the default): `<ISO stamp> <log stream> <message>`, the
 * stamp Python's `isoformat()` of the UTC instant (`2024-05-14T08:11:33.199000+00:00`, no fraction
 * when the ms are 0); AWS CLI v2 `awscli/customizations/logs/tail.py`. A message of several lines
 * continues on the following lines. Each message is read as cloudwatch.ts reads an event's.
 */
import { type CloudWatchEvent, cloudWatchRecord, nodeOfStream } from "./cloudwatch";
import { isoToUtc } from "./helpers/time-util";
import type { FormatSpec, LineResult } from "./types";

/**
 * groups: 1 stamp (Python isoformat, UTC offset written `+00:00`), 2 stream (never a `{`: that is
 * a Loki label set, prefix-loki.ts), 3 message
 */
const TAIL_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{6})?[+-]\d{2}:\d{2}) ([^\s{]\S*) ?(.*)$/;
/** `[<host> ]<ident>[pid]: ` after the stamp: a short-iso journal / rsyslog line, not a tail line */
const JOURNALISH = /^(?:[^\s[:]+\[\d+\]|kernel|\S+ [^\s[:]+(?:\[\d+\])?): /;

/** The event of one `aws logs tail` line, or null. */
export function eventOfTailLine(line: string): CloudWatchEvent | null {
  const c0 = line.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || line.charCodeAt(10) !== 84) return null;
  const m = TAIL_RE.exec(line);
  if (!m || JOURNALISH.test(line.slice(m[1].length + 1))) return null;
  const t = isoToUtc(m[1]);
  if (!t) return null;
  return { utcMs: t.ms, precision: t.precision === "us" ? "us" : "s", stream: m[2], message: m[3] };
}

/** Whether a tail line's stream column looks like a log stream (not the first word of a message). */
function streamLike(s: string): boolean {
  return nodeOfStream(s) !== undefined || s.includes("/") || /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(s) || /\d/.test(s) || /^[\w.-]+_[\w.-]+_/.test(s);
}

/** Format spec: `aws logs tail` output (detailed format). */
export const cloudwatchTailSpec: FormatSpec = {
  name: "cloudwatch-tail",
  kind: "cloudwatch",
  sniff(_path, lines) {
    let hits = 0;
    let total = 0;
    let first = false;
    for (const l of lines) {
      const c = l.charCodeAt(0);
      if (c === 32 || c === 9 || c === 123 || c === 125 || c === 34) continue; // a pretty-printed JSON message
      total++;
      const m = TAIL_RE.exec(l);
      if (!m || !streamLike(m[2]) || JOURNALISH.test(l.slice(m[1].length + 1))) continue;
      hits++;
      if (total === 1) first = true;
    }
    return hits > 0 && (first || hits * 2 >= total);
  },
  createParser() {
    let seen = false;
    return {
      settled: true,
      parseLine(line: string): LineResult {
        const ev = eventOfTailLine(line);
        if (ev) {
          seen = true;
          return { type: "record", record: cloudWatchRecord(ev) };
        }
        return seen ? { type: "continuation", text: line } : null;
      },
    };
  },
  before: {
    // `<stamp> <stream> <message>` with fractional stamps is also `kubectl logs --timestamps` with an odd payload
    "kubectl-timestamps": [
      "2023-11-03T08:26:40.100000+00:00 i-07f3c1d2e4a5b6978 Nov  3 08:26:40 ip-172-31-5-9.us-west-2.compute.internal systemd[1]: Started kubelet.service - Kubernetes Kubelet.",
      '2023-11-03T08:26:41.200000+00:00 i-07f3c1d2e4a5b6978 Nov  3 08:26:41 ip-172-31-5-9.us-west-2.compute.internal containerd[1702]: time="2023-11-03T08:26:41.200311529Z" level=error msg="RunPodSandbox failed"',
    ],
  },
  samples: [
    {
      // events at whole milliseconds print no fraction (`kubectl-timestamps` needs one: it would claim
      // lines with a fraction alone; the registry order puts this spec first)
      context: [
        "2023-11-03T08:26:40+00:00 i-07f3c1d2e4a5b6978 Nov  3 08:26:40 ip-172-31-5-9.us-west-2.compute.internal systemd[1]: Started kubelet.service - Kubernetes Kubelet.",
        '2023-11-03T08:26:41+00:00 i-07f3c1d2e4a5b6978 Nov  3 08:26:41 ip-172-31-5-9.us-west-2.compute.internal containerd[1702]: time="2023-11-03T08:26:41Z" level=info msg="starting containerd"',
      ],
      line: '2023-11-03T08:26:41.200000+00:00 i-07f3c1d2e4a5b6978 Nov  3 08:26:41 ip-172-31-5-9.us-west-2.compute.internal containerd[1702]: time="2023-11-03T08:26:41.200311529Z" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:web-0,Uid:1f2e,Namespace:default,Attempt:0,} failed, error" error="failed to setup network for sandbox"',
      expect: {
        time: { year: 2023, month: 11, day: 3, hour: 8, minute: 26, second: 41, ms: 200, offsetMin: 0, precision: "ns" },
        host: "ip-172-31-5-9.us-west-2.compute.internal",
        ident: "containerd",
        component: "containerd",
        severity: 3,
      },
    },
    {
      // no fraction when the ms are 0; a message without a stamp of its own
      line: "2023-11-03T08:26:42+00:00 kube-apiserver-audit-4b8e1f0c2d Successfully started the audit backend",
      expect: { time: null, epochMs: Date.UTC(2023, 10, 3, 8, 26, 42), epochPrecision: "s", message: "Successfully started the audit backend" },
    },
  ],
  notMine: [
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "2025-05-19T04:20:09.104730000Z listening on :8080",
    "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod default/web excluded from mesh",
  ],
};
