/**
 * Multus CNI log file (`logFile` in the Multus conf; the thick daemon's stdout); upstream
 * `k8snetworkplumbingwg/multus-cni` `pkg/logging/logging.go`.
 *
 *     2025-05-19T04:20:14Z [verbose] ADD starting CNI request ContainerID:"5f1c…" Netns:"/var/run/netns/cni-…" IfName:"eth0"
 *     2025-05-19T13:20:14+09:00 [error] warning: failed to get the pod annotation
 *
 * `time.RFC3339` (second precision, `Z` or the local offset), then `[panic|error|verbose|debug]`.
 * Warnings are logged at the error level with a `warning: ` prefix: severity warn. Component
 * `multus`.
 *
 * The DaemonSet's entrypoint (`entrypoint.sh`, `date --iso-8601=seconds`; the Go thin entrypoint
 * keeps the layout) prints a stamp and the text, no level:
 *
 *     2019-05-09T15:41:20-05:00 Generating Multus configuration file using files in /host/etc/cni/net.d...
 *     2021-07-12T16:50:00+0000 Using MASTER_PLUGIN: 10-aws.conflist                    (offset without colon)
 *
 * Those lines are read (severity info) in a file that is Multus's by its other lines or its words
 * (`Multus`, a `[verbose]`-style level); what the script dumps between them (the generated JSON
 * config, `cat:` errors, a Python traceback) continues the record before it.
 *
 * Logs of several DaemonSet pods copied with a `<pod>:<container> ` lead (a loop over the pods
 * printing `$pod:$container` before each line) are read the same way, the lead kept as
 * `fields.prefixPod` / `fields.prefixContainer`; a wrapped piece of a long line (the JSON config
 * hard-wrapped by the terminal, without the lead) continues the record before it:
 *
 *     kube-multus-ds-amd64-x7k2p:kube-multus 2019-08-02T09:12:40+0000 Config file created @ /host/etc/cni/net.d/00-multus.conf
 *     kube-multus-ds-amd64-x7k2p:kube-multus { "name": "multus-cni-network", "type": "multus", "delegates": [ { "name":
 *     "default-cni-network", "plugins": [ … ] } ] }
 */
import { type ComponentLine, componentRecord } from "./helpers/component-line";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineResult, Severity } from "./types";

const RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) \[(panic|error|verbose|debug)\] ?(.*)$/;
const LEVELS: Readonly<Record<string, Severity>> = { panic: 4, error: 3, verbose: 1, debug: 0 };
const ENTRY_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:?\d{2})) (\S.*)$/;
/** a journal/syslog line (`<host> <ident>[pid]: `) is never an entrypoint message */
const JOURNALISH_RE = /^\S+ [^\s[:]+(?:\[\d+\])?: /;
/** nor is `inotifywait --timefmt` output (`<dir>/ <EVENTS> <file>`, `<dir>/<file> <EVENTS>`), whose file may be `00-multus.conf` */
const INOTIFY_RE =
  /^\/\S* (?:\S+ )?(?:[A-Z_]+,)*(?:ACCESS|MODIFY|ATTRIB|CLOSE_WRITE|CLOSE_NOWRITE|CLOSE|OPEN|MOVED_TO|MOVED_FROM|MOVE_SELF|CREATE|DELETE|DELETE_SELF)(?:,[A-Z_]+)*(?: |$)/;

/** Parse one Multus entrypoint line (stamp and text, no level); null when `s` is not one. */
export function parseMultusEntrypoint(s: string): ComponentLine | null {
  const m = ENTRY_RE.exec(s);
  if (!m || JOURNALISH_RE.test(m[2]) || m[2].charCodeAt(0) === 91 || (m[2].charCodeAt(0) === 47 && INOTIFY_RE.test(m[2]))) return null;
  const time = parseIsoStamp(m[1]);
  if (!time) return null;
  return { time, severity: 1, message: m[2], component: "multus" };
}

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
const MULTUS_WORD = /multus|^\S+ \[(?:panic|error|verbose|debug)\] /i;

/** `<pod>:<container> ` lead; groups: 1 pod, 2 container */
const POD_LEAD = /^([a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?):([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?) /;

/** Lines without their `<pod>:<container> ` lead when at least half carry one, else as they are. */
function withoutLead(lines: string[]): string[] {
  let n = 0;
  const out = lines.map((l) => {
    const m = POD_LEAD.exec(l);
    if (!m) return l;
    n++;
    return l.slice(m[0].length);
  });
  return n > 0 && n * 2 >= lines.length ? out : lines;
}

function sniffMultus(linesIn: string[]): boolean {
  const lines = withoutLead(linesIn);
  if (sniffRatio(lines, SNIFF)) return true;
  return sniffRatio(lines, ENTRY_RE, (l) => parseMultusEntrypoint(l) !== null || parseMultusText(l) !== null) && lines.some((l) => MULTUS_WORD.test(l));
}

/** Format spec: Multus log files. */
export const multusSpec: FormatSpec = {
  name: "multus",
  kind: "multus",
  sniff: (_path, lines) => sniffMultus(lines),
  createParser() {
    let seen = false;
    return {
      settled: true,
      parseLine(line: string): LineResult {
        const c = parseMultusText(line) ?? parseMultusEntrypoint(line);
        if (c) {
          seen = true;
          return { type: "record", record: componentRecord(c, "multus") };
        }
        const lead = line.charCodeAt(0) >= 97 ? POD_LEAD.exec(line) : null;
        if (lead) {
          const rest = line.slice(lead[0].length);
          const p = parseMultusText(rest) ?? parseMultusEntrypoint(rest);
          if (p) {
            seen = true;
            const rec = componentRecord(p, "multus");
            rec.fields = Object.assign(rec.fields ?? {}, { prefixPod: lead[1], prefixContainer: lead[2] });
            return { type: "record", record: rec };
          }
        }
        return seen ? { type: "continuation", text: line } : null;
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
        message:
          'ADD starting CNI request ContainerID:"5f1c" Netns:"/var/run/netns/cni-1234" IfName:"eth0" Args:"K8S_POD_NAMESPACE=default;K8S_POD_NAME=web-7d9c6b5f4-x2x9q"',
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
    {
      line: "2022-03-25T01:34:23+0000 Using /host/etc/cni/net.d/10-flannel.conflist as a source to generate the Multus configuration",
      context: ["2022-03-25T01:34:22+0000 Generating Multus configuration file using files in /host/etc/cni/net.d..."],
      expect: {
        time: { year: 2022, month: 3, day: 25, hour: 1, minute: 34, second: 23, ms: 0, offsetMin: 0, precision: "s" },
        component: "multus",
        severity: 1,
        message: "Using /host/etc/cni/net.d/10-flannel.conflist as a source to generate the Multus configuration",
      },
    },

    {
      line: "kube-multus-ds-amd64-x7k2p:kube-multus 2019-08-02T09:12:40+0000 Config file created @ /host/etc/cni/net.d/00-multus.conf",
      context: ["kube-multus-ds-amd64-x7k2p:kube-multus 2019-08-02T09:12:36+0000 Attemping to find master plugin configuration, attempt 12"],
      expect: {
        time: { year: 2019, month: 8, day: 2, hour: 9, minute: 12, second: 40, ms: 0, offsetMin: 0, precision: "s" },
        component: "multus",
        severity: 1,
        message: "Config file created @ /host/etc/cni/net.d/00-multus.conf",
        fields: { prefixPod: "kube-multus-ds-amd64-x7k2p", prefixContainer: "kube-multus" },
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod default/web excluded from mesh",
    "2025-05-19T04:20:09.104730000Z listening on :8080",
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "2025-05-19T04:20:31+0000 /host/etc/cni/net.d/ MOVED_TO 00-multus.conf",
  ],
};
