/**
 * Calico CNI plugin / calico-node text; upstream projectcalico/calico
 * `libcalico-go/lib/logutils/logutils.go` (`Formatter.Format`).
 *
 *     2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint ContainerID="5f1c…" Pod="web-…"
 *
 * Milliseconds, local time, no offset (year present). ` [LEVEL][pid] `, then `[component/]file line: `
 * (`<nil> 0` for an unknown caller; calico-node's CNI installer prints `cni-installer/<nil> <nil>: `),
 * the message, then sorted `key=value` fields with Go-quoted strings. `message` keeps the text after
 * the caller (fields included, as printed); `fields` holds the trailing pairs unescaped and the
 * caller as printed (`fields.caller`: `felix/int_dataplane.go 1950`; none for `<nil> 0`).
 *
 * The same layout is written by the CNI plugin (`cni-plugin/`, `ipam/`: short-lived, a new pid per
 * call) and by calico-node's daemons and its install-cni container (`felix/`, `startup/`, `confd/`,
 * `cni-installer/`, `tunnel-ip-allocator/`, …; typha and kube-controllers alike). All are component
 * `cni-calico`; the caller (`fields.caller`, `felix/int_dataplane.go`) tells the node agent from
 * the plugin (the `cni-agent` lane: `agentText` of `cni-calico` in lib/model/components.ts). The
 * layout names Calico wherever it is found: containerd, CRI-O and the kubelet pass a CNI plugin's
 * stderr on under their own identifier (`containerd[812]: 2024-… [INFO][5678] ipam/ipam.go …`).
 *
 * calico-node's container output also holds lines without a stamp, read as records with no time
 * (component `cni-calico`), in a file that is Calico's by its timed lines:
 *
 *     bird: device1: Initializing                       BIRD (BGP daemon) on stderr: ident `bird` / `bird6`
 *     bird: Unable to open configuration file /etc/calico/confd/config/bird.cfg: No such file or directory
 *     Calico node started successfully                  startup, plain print: ident `calico-node`
 *     Starting libnetwork service
 *     CALICO_NETWORKING_BACKEND is vxlan - no need to run a BGP daemon     the start script (rc.local)
 *
 * A message that prints a Go struct with `%v` (`Calico CNI found existing endpoint: &{{…} {… map[…`)
 * breaks where a label value holds a line break: while the record's `{`/`[` are not all closed,
 * the unstamped lines after it continue it, and so does the line of its trailing `Key="value"`
 * pairs right after.
 *
 * and the plain-text startup messages of calico-node before 3.x (`Using node name: node1`,
 * `Skipping datastore connection test`, `No AS number configured …`, `WARNING: …`). BIRD lines
 * with `Error` / `Unable` / `failed` are errors, other lines info.
 *
 * calico-node states the node it runs on at startup (`startup/startup.go`: `Determined node name:
 * <name>`, `Using node name: <name>`; before 3.x untimed `Calico node name: <name>` /
 * `Using node name: <name>`): those records carry the name as `host`, so the file's node comes
 * from them.
 */
import { type ComponentLine, componentRecord } from "./helpers/component-line";
import { sniffRatio } from "./helpers/sniff-util";
import { isJsSpace, splitTrailingPairs } from "./helpers/text-scan";
import { d2, d4, digitsValue } from "./helpers/time-util";
import type { FormatSpec, ParsedRecord, Severity } from "./types";

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
  if (
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58 ||
    s.charCodeAt(19) !== 46 ||
    s.charCodeAt(23) !== 32
  )
    return null;
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
    if (k === j + 1 && s.startsWith("<nil>", k)) k += 5; // `cni-installer/<nil> <nil>: `
    if (k > j + 1 && s.charCodeAt(k) === 58 && s.charCodeAt(k + 1) === 32) start = k + 2;
  }
  const message = s.slice(start);
  const fields: Record<string, string> = {};
  // the caller as printed (`felix/int_dataplane.go 1950`); `<nil> 0` names no one
  const caller = start > rest ? s.slice(rest, start - 2) : "";
  if (caller !== "" && caller !== "<nil> 0") fields.caller = caller;
  const out: ComponentLine = {
    time: { year, month, day, hour, minute, second, ms: ms10 * 10 + ms1, offsetMin: null, precision: "ms" },
    severity: LEVELS[level],
    message,
    component: "cni-calico",
    // the layout is libcalico-go's alone: it names Calico even under a runtime's or the kubelet's
    // identifier (they pass a CNI plugin's stderr on as their own)
    named: true,
    pid,
  };
  if (message.includes("=")) splitTrailingPairs(message, 0, fields);
  for (const _ in fields) {
    out.fields = fields;
    break;
  }
  return out;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** calico-node lines without a stamp (see the module comment); group 1: `bird` / `bird6` */
const UNTIMED =
  /^(?:(bird6?): \S|(?:Calico node started successfully|Starting libnetwork service|Calico node name: |Using node name: |Skipping datastore connection test|Waiting for etcd connection|Using (?:autodetected|configured) IPv[46] address|No IPv6 address configured|No AS number configured|Using global AS number|Created default IPv[46] pool|CALICO_NETWORKING_BACKEND is |WARNING: ))/;
const BIRD_ERROR = /\b(?:Error|error|Unable|unable|failed)\b/;

const NODE_NAME_RE = /^(?:Determined node name|Using node name|Calico node name): ([A-Za-z0-9][A-Za-z0-9._-]*)\s*$/;

/** The node name a calico-node startup message states (see the module comment), or null. */
export function calicoNodeName(message: string): string | null {
  const c = message.charCodeAt(0);
  if (c !== 68 && c !== 85 && c !== 67) return null; // D U C
  const m = NODE_NAME_RE.exec(message);
  return m ? m[1] : null;
}

/** The record of an untimed calico-node line, or null. */
export function calicoUntimedRecord(line: string): ParsedRecord | null {
  const m = UNTIMED.exec(line);
  if (!m) return null;
  const bird = m[1];
  const rec: ParsedRecord = {
    time: null,
    component: "cni-calico",
    ident: bird ?? "calico-node",
    severity: line.startsWith("WARNING: ") ? 2 : bird !== undefined && BIRD_ERROR.test(line) ? 3 : 1,
    message: bird !== undefined ? line.slice(bird.length + 2) : line,
  };
  const host = bird === undefined ? calicoNodeName(line) : null;
  if (host) rec.host = host;
  return rec;
}

const TRAILING_PAIRS_RE = /^[A-Z][A-Za-z]*="[^"]*"(?: [A-Z][A-Za-z]*="[^"]*")*\s*$/;

/** Opened minus closed `{` and `[` of a text (quoted strings not told apart: a rough count that only decides continuations). */
function bracketBalance(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 123 || ch === 91) n++;
    else if (ch === 125 || ch === 93) n--;
  }
  return n;
}

const SNIFF = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} \[(?:DEBUG|INFO|WARNING|ERROR|FATAL|PANIC)\]\[\d+\] /;

/** Format spec: Calico CNI plugin / calico-node text files (`/var/log/calico/cni/cni.log`). */
export const calicoCniSpec: FormatSpec = {
  name: "calico-cni",
  kind: "cni-calico",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    let seen = false;
    /** brackets (`{`, `[`) the last record left open: Go's `%v` of a struct whose strings hold line breaks */
    let open = 0;
    /** the line before continued a record through its open brackets */
    let wrapped = false;
    return {
      settled: true,
      parseLine(line) {
        const c = parseCalicoText(line);
        if (!c) {
          const c0 = line.charCodeAt(0);
          if (seen && (c0 === 32 || c0 === 9)) return { type: "continuation", text: line };
          if (open > 0 && line !== "") {
            open = Math.max(0, open + bracketBalance(line));
            wrapped = true;
            return { type: "continuation", text: line };
          }
          // the record's trailing `Key="value"` pairs on a line of their own after the struct closed
          if (wrapped && TRAILING_PAIRS_RE.test(line)) {
            wrapped = false;
            return { type: "continuation", text: line };
          }
          wrapped = false;
          const u = calicoUntimedRecord(line);
          return u ? { type: "record", record: u } : null;
        }
        seen = true;
        open = Math.max(0, bracketBalance(c.message));
        wrapped = false;
        const rec = componentRecord(c, "cni-calico", true);
        const host = calicoNodeName(c.message);
        if (host) rec.host = host;
        return { type: "record", record: rec };
      },
    };
  },
  samples: [
    {
      // a `%v` struct broken by a line break in a label value: the unstamped lines continue it while brackets are open, then its pairs
      line: "2021-12-15 22:10:38.425 [INFO][7148] plugin.go 261: Calico CNI found existing endpoint: &{{WorkloadEndpoint projectcalico.org/v3} {win--node--5-k8s-iis2-eth0  demo-n1 map[app:iis",
      after: [
        "team:web] map[] [] []  []} {k8s  win-node-5  iis2-76f8647c6d-6t4dj eth0 default [] []  cali8685d2b43ad  []}}",
        'ContainerID="ab01" Namespace="demo-n1" Pod="iis2-76f8647c6d-6t4dj"',
      ],
      expect: { severity: 1, pid: 7148, time: { year: 2021, month: 12, day: 15, hour: 22, minute: 10, second: 38, ms: 425, offsetMin: null, precision: "ms" } },
    },
    {
      // Calico for Windows (`C:\CalicoWindows\logs\cni\cni.log`): the HNS call's error in the message
      line: '2023-01-02 03:04:05.640 [ERROR][5120] cni-plugin/dataplane_windows.go 575: Unable to hot attach bridge endpoint [Calico_ep] to host compartment, error: failed during hnsCallRawResponse: hnsCall failed in Win32: This endpoint is already attached to the switch. (0x803b0014) ContainerID="aa11" Namespace="default" Pod="iis-7d5c8b9f-qx2lm"',
      expect: {
        time: { year: 2023, month: 1, day: 2, hour: 3, minute: 4, second: 5, ms: 640, offsetMin: null, precision: "ms" },
        component: "cni-calico",
        severity: 3,
        pid: 5120,
        fields: { caller: "cni-plugin/dataplane_windows.go 575", ContainerID: "aa11", Namespace: "default", Pod: "iis-7d5c8b9f-qx2lm" },
      },
    },
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
          caller: "cni-plugin/k8s.go 418",
          ContainerID: "5f1c9a",
          Namespace: "default",
          Pod: "web-7d9c6b5f4-x2x9q",
          WorkloadEndpoint: "ip--10--20--30--40-k8s-web--7d9c6b5f4--x2x9q-eth0",
        },
      },
    },
    {
      // calico-node's felix: the caller (kept in `fields.caller`) tells the node agent from the plugin
      line: "2021-02-10 13:02:12.903 [INFO][51] felix/daemon.go 348: Successfully loaded configuration.",
      expect: { severity: 1, pid: 51, message: "Successfully loaded configuration.", fields: { caller: "felix/daemon.go 348" } },
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

    {
      line: "bird: Mesh_192_168_10_12: State changed to up",
      context: ["2025-05-19 04:20:11.900 [INFO][62] confd/resource.go 277: Target config /etc/calico/confd/config/bird.cfg has been updated"],
      expect: { time: null, component: "cni-calico", ident: "bird", severity: 1, message: "Mesh_192_168_10_12: State changed to up" },
    },
    {
      // the node calico-node runs on
      line: "2025-05-19 04:20:10.912 [INFO][9] startup/startup.go 318: Determined node name: ip-10-20-30-40.ec2.internal",
      expect: { severity: 1, pid: 9, message: "Determined node name: ip-10-20-30-40.ec2.internal", host: "ip-10-20-30-40.ec2.internal" },
    },
    {
      line: "Using node name: worker-2",
      context: ["2019-03-02 11:05:44.020 [INFO][10] startup.go 251: Early log level set to info"],
      expect: { time: null, ident: "calico-node", message: "Using node name: worker-2", host: "worker-2" },
    },
    {
      line: "Calico node started successfully",
      context: ["2025-05-19 04:20:11.305 [INFO][9] startup/startup.go 218: Using node name: ip-10-20-30-40"],
      expect: { time: null, component: "cni-calico", ident: "calico-node", severity: 1, message: "Calico node started successfully" },
    },
  ],
  notMine: [
    'time="2025-05-19 04:20:05.931046219Z" level=info msg="Starting CRI-O"',
    "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod default/web-7d9c6b5f4-x2x9q excluded from mesh",
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] x",
  ],
};
