/**
 * Multus CNI log file (`logFile` in the Multus conf; the thick daemon's stdout): FORMATS.md 3.13,
 * 5b rule MU; upstream `k8snetworkplumbingwg/multus-cni` `pkg/logging/logging.go`.
 *
 *     2025-05-19T04:20:14Z [verbose] ADD starting CNI request ContainerID:"5f1c…" Netns:"/var/run/netns/cni-…" IfName:"eth0"
 *     2025-05-19T13:20:14+09:00 [error] warning: failed to get the pod annotation
 *
 * `time.RFC3339` (second precision, `Z` or the local offset), then `[panic|error|verbose|debug]`.
 * Warnings are logged at the error level with a `warning: ` prefix: severity warn. Component
 * `multus`.
 */
import { type ComponentLine, componentRecord } from "./component-line";
import { sniffRatio } from "./sniff-util";
import { parseIsoStamp } from "./time-util";
import type { FormatSpec, LineResult, Severity } from "./types";

const RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) \[(panic|error|verbose|debug)\] ?(.*)$/;
const LEVELS: Readonly<Record<string, Severity>> = { panic: 4, error: 3, verbose: 1, debug: 0 };

/** Parse one Multus line; null when `s` is not one. */
export function parseMultusText(s: string): ComponentLine | null {
  const m = RE.exec(s);
  if (!m) return null;
  const time = parseIsoStamp(m[1]);
  if (!time) return null;
  let severity = LEVELS[m[2]];
  if (severity === 3 && m[3].startsWith("warning: ")) severity = 2;
  return { time, severity, message: m[3], component: "multus" };
}

const SNIFF = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}) \[(?:panic|error|verbose|debug)\] /;

/** Format spec: Multus log files. */
export const multusSpec: FormatSpec = {
  name: "multus",
  kind: "multus",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    let seen = false;
    return {
      parseLine(line: string): LineResult {
        const c = parseMultusText(line);
        if (c) {
          seen = true;
          return { type: "record", record: componentRecord(c, "multus") };
        }
        const c0 = line.charCodeAt(0);
        return seen && (c0 === 32 || c0 === 9) ? { type: "continuation", text: line } : null;
      },
    };
  },
  samples: [
    {
      line: '2025-05-19T04:20:14Z [verbose] ADD starting CNI request ContainerID:"5f1c" Netns:"/var/run/netns/cni-1234" IfName:"eth0" Args:"K8S_POD_NAMESPACE=default;K8S_POD_NAME=web-7d9c6b5f4-x2x9q"',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 14, ms: 0, offsetMin: 0, precision: "s" },
        component: "multus",
        severity: 1,
        message: 'ADD starting CNI request ContainerID:"5f1c" Netns:"/var/run/netns/cni-1234" IfName:"eth0" Args:"K8S_POD_NAMESPACE=default;K8S_POD_NAME=web-7d9c6b5f4-x2x9q"',
      },
    },
    {
      line: "2025-05-19T13:20:14+09:00 [error] warning: failed to get the pod annotation",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 13, minute: 20, second: 14, ms: 0, offsetMin: 540, precision: "s" },
        severity: 2,
        message: "warning: failed to get the pod annotation",
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod default/web excluded from mesh",
    "2025-05-19T04:20:09.104730000Z listening on :8080",
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
  ],
};
