/**
 * Calico CNI plugin / calico-node text: FORMATS.md 3.8; upstream projectcalico/calico
 * `libcalico-go/lib/logutils/logutils.go` (`Formatter.Format`).
 *
 *     2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint ContainerID="5f1c…" Pod="web-…"
 *
 * Milliseconds, local time, no offset (year present). ` [LEVEL][pid] `, then `[component/]file line: `
 * (`<nil> 0` for an unknown caller), the message, then sorted `key=value` fields with Go-quoted
 * strings. `message` keeps the text after the caller (fields included, as printed); `fields` holds
 * the trailing pairs unescaped.
 */
import { type ComponentLine, componentRecord } from "./component-line";
import { sniffRatio } from "./sniff-util";
import { isJsSpace, splitTrailingPairs } from "./text-scan";
import { d2, d4, digitsValue } from "./time-util";
import type { FormatSpec, Severity } from "./types";

const LEVELS: Readonly<Record<string, Severity>> = { DEBUG: 0, INFO: 1, WARNING: 2, ERROR: 3, FATAL: 4, PANIC: 4 };
const LEVEL_NAMES = Object.keys(LEVELS);
/** what the regex's `.` does not match */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * Parse one Calico log line; null when `s` is not one. `time.offsetMin` is null (local time).
 * Hand-written scanner for `^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{3}) \[(LEVEL)\]\[(\d+)\] (?:\S+ \d+: )?(.*)$`
 * (`.` stops at line terminators: a line holding CR, LS or PS is not one).
 */
export function parseCalicoText(s: string): ComponentLine | null {
  const c0 = s.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || s.charCodeAt(10) !== 32 || s.charCodeAt(24) !== 91) return null;
  const year = d4(s, 0);
  const month = d2(s, 5);
  const day = d2(s, 8);
  const hour = d2(s, 11);
  const minute = d2(s, 14);
  const second = d2(s, 17);
  const ms10 = d2(s, 20);
  const ms1 = s.charCodeAt(22) - 48;
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || ms10 < 0 || !(ms1 >= 0 && ms1 <= 9)) return null;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 || s.charCodeAt(19) !== 46 || s.charCodeAt(23) !== 32) return null;
  // [LEVEL][pid]
  let level: string | null = null;
  for (const name of LEVEL_NAMES) {
    if (s.startsWith(name, 25) && s.charCodeAt(25 + name.length) === 93) {
      level = name;
      break;
    }
  }
  if (level === null) return null;
  let i = 25 + level.length + 1;
  if (s.charCodeAt(i) !== 91) return null;
  const pidStart = ++i;
  const n = s.length;
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  if (i === pidStart || s.charCodeAt(i) !== 93 || s.charCodeAt(i + 1) !== 32) return null;
  const pid = digitsValue(s, pidStart, i);
  const rest = i + 2;
  if (LINE_TERMINATOR.test(s)) return null;
  // optional caller `file line: ` (`<nil> 0: ` when unknown)
  let start = rest;
  let j = rest;
  while (j < n && !isJsSpace(s.charCodeAt(j))) j++;
  if (j > rest && s.charCodeAt(j) === 32) {
    let k = j + 1;
    while (k < n && isDigit(s.charCodeAt(k))) k++;
    if (k > j + 1 && s.charCodeAt(k) === 58 && s.charCodeAt(k + 1) === 32) start = k + 2;
  }
  const message = s.slice(start);
  const fields: Record<string, string> = {};
  const out: ComponentLine = {
    time: { year, month, day, hour, minute, second, ms: ms10 * 10 + ms1, offsetMin: null, precision: "ms" },
    severity: LEVELS[level],
    message,
    component: "cni-calico",
    pid,
  };
  if (message.includes("=") && splitTrailingPairs(message, 0, fields) >= 0) out.fields = fields;
  return out;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

const SNIFF = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \[(?:DEBUG|INFO|WARNING|ERROR|FATAL|PANIC)\]\[\d+\] /;

/** Format spec: Calico CNI plugin / calico-node text files (`/var/log/calico/cni/cni.log`). */
export const calicoCniSpec: FormatSpec = {
  name: "calico-cni",
  kind: "cni-calico",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    let seen = false;
    return {
      settled: true,
      parseLine(line) {
        const c = parseCalicoText(line);
        if (!c) {
          const c0 = line.charCodeAt(0);
          return seen && (c0 === 32 || c0 === 9) ? { type: "continuation", text: line } : null;
        }
        seen = true;
        return { type: "record", record: componentRecord(c, "cni-calico", true) };
      },
    };
  },
  samples: [
    {
      line: '2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint ContainerID="5f1c9a" Namespace="default" Pod="web-7d9c6b5f4-x2x9q" WorkloadEndpoint="ip--10--20--30--40-k8s-web--7d9c6b5f4--x2x9q-eth0"',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 11, ms: 207, offsetMin: null, precision: "ms" },
        component: "cni-calico",
        severity: 1,
        pid: 4123,
        message:
          'Populated endpoint ContainerID="5f1c9a" Namespace="default" Pod="web-7d9c6b5f4-x2x9q" WorkloadEndpoint="ip--10--20--30--40-k8s-web--7d9c6b5f4--x2x9q-eth0"',
        fields: {
          ContainerID: "5f1c9a",
          Namespace: "default",
          Pod: "web-7d9c6b5f4-x2x9q",
          WorkloadEndpoint: "ip--10--20--30--40-k8s-web--7d9c6b5f4--x2x9q-eth0",
        },
      },
    },
    {
      // unknown caller: `<nil> 0:`
      line: "2025-05-19 04:20:11.305 [ERROR][4123] <nil> 0: stat /var/lib/calico/nodename: no such file or directory",
      expect: {
        severity: 3,
        message: "stat /var/lib/calico/nodename: no such file or directory",
      },
    },
    {
      line: "2025-05-19 04:20:11.305 [WARNING][88] ipam/ipam.go 1172: Asked to release address but it doesn't exist. Ignoring",
      expect: { severity: 2, pid: 88, message: "Asked to release address but it doesn't exist. Ignoring" },
    },
  ],
  notMine: [
    'time="2025-05-19 04:20:05.931046219Z" level=info msg="Starting CRI-O"',
    "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod default/web-7d9c6b5f4-x2x9q excluded from mesh",
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] x",
  ],
};
