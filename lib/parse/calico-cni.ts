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
import { splitTrailingPairs } from "./text-scan";
import type { FormatSpec, Severity } from "./types";

const RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{3}) \[(DEBUG|INFO|WARNING|ERROR|FATAL|PANIC)\]\[(\d+)\] (?:\S+ \d+: )?(.*)$/;

const LEVELS: Readonly<Record<string, Severity>> = { DEBUG: 0, INFO: 1, WARNING: 2, ERROR: 3, FATAL: 4, PANIC: 4 };

/** Parse one Calico log line; null when `s` is not one. `time.offsetMin` is null (local time). */
export function parseCalicoText(s: string): ComponentLine | null {
  const c0 = s.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || s.charCodeAt(10) !== 32 || s.charCodeAt(24) !== 91) return null;
  const m = RE.exec(s);
  if (!m) return null;
  const message = m[10];
  const fields: Record<string, string> = {};
  const out: ComponentLine = {
    time: {
      year: Number(m[1]),
      month: Number(m[2]),
      day: Number(m[3]),
      hour: Number(m[4]),
      minute: Number(m[5]),
      second: Number(m[6]),
      ms: Number(m[7]),
      offsetMin: null,
      precision: "ms",
    },
    severity: LEVELS[m[8]],
    message,
    component: "cni-calico",
    pid: Number(m[9]),
  };
  if (message.includes("=") && splitTrailingPairs(message, 0, fields) >= 0) out.fields = fields;
  return out;
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
