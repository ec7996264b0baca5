/**
 * klog text (kubelet, kube-proxy, flannel, k3s/rke2 embedded components); upstream
 * `k8s.io/klog/v2` `klog.go` (`formatHeader`, `rotateFile` for the file header).
 *
 *     I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"
 *     E0519 04:20:09.001877    2817 kubelet.go:3002] "Container runtime network not ready" networkReady="…"
 *
 * `[IWEF]MMDD hh:mm:ss.uuuuuu <threadid> <file>:<line>] <msg>`: µs, no year, no zone (process local
 * time). The caller token is not required to end in `.go` (Rancher obfuscation rewrites it).
 * Structured messages are a Go-quoted string followed by `key=value` pairs; values are unescaped
 * into `fields` (`{…}` objects kept as written).
 *
 * Standalone files may start with the klog file header (`Log file created at: YYYY/MM/DD hh:mm:ss`,
 * then `Running on machine:`, `Binary:`, `Log line format:`), written at every process start: the
 * first line is a `klog-header` banner giving the year, the others `header` banners.
 *
 * Component: klog is written by the kubelet and by many agents (kube-router, kube-proxy, flannel,
 * antrea, …). The path may name one (`klogComponentFromPath`); the kubelet's own lines (its sandbox
 * messages, callers `kubelet*.go`, `kuberuntime_*.go`, `remote_runtime.go`, `pod_workers.go`)
 * switch the file back to `kubelet` whatever its name (looked for in its first 1000 records). A file whose path says nothing is the
 * kubelet's unless one of its first 50 records is another program's (kube-router's
 * `network_routes_controller.go`, a message naming `kube-router`/`kube-proxy`/Antrea) before any
 * kubelet line: the file is that program's from that record on. Indented lines
 * (multi-line values `key=<\n\t…\n >`) and the goroutine dump after an `F` line are continuations;
 * such a value is `<` in `fields` here, and becomes the block's lines once the file is read
 * (parse-file.ts `klogBlocks`, which also reads the pairs after ` >`).
 */
import { type ComponentLine, componentRecord } from "./helpers/component-line";
import { sniffRatio } from "./helpers/sniff-util";
import { d2, digitsValue } from "./helpers/time-util";
import { findQuoteEnd, quotedValue, scanPairs } from "./helpers/text-scan";
import type { Banner, FormatSpec, LineParser, LineResult, ParseContext, Severity, WallTime } from "./types";
import { componentFromPath } from "../model/components";

function klogSeverity(c: number): Severity | -1 {
  switch (c) {
    case 73:
      return 1; // I
    case 87:
      return 2; // W
    case 69:
      return 3; // E
    case 70:
      return 4; // F
    default:
      return -1;
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Parse one klog line (or a journal MESSAGE holding one). Returns null when `s` is not klog.
 * `time` has year and offset null, precision µs; `pid` is klog's thread id column.
 */
export function parseKlogText(s: string): ComponentLine | null {
  const n = s.length;
  if (n < 28) return null;
  const severity = klogSeverity(s.charCodeAt(0));
  if (severity < 0) return null;
  const month = d2(s, 1);
  const day = d2(s, 3);
  if (month < 1 || month > 12 || day < 1 || day > 31 || s.charCodeAt(5) !== 32) return null;
  const hour = d2(s, 6);
  const minute = d2(s, 9);
  const second = d2(s, 12);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return null;
  if (s.charCodeAt(8) !== 58 || s.charCodeAt(11) !== 58 || s.charCodeAt(14) !== 46) return null;
  for (let k = 15; k < 21; k++) if (!isDigit(s.charCodeAt(k))) return null;
  if (s.charCodeAt(21) !== 32) return null;
  let i = 22;
  while (i < n && s.charCodeAt(i) === 32) i++;
  const tidStart = i;
  while (i < n && isDigit(s.charCodeAt(i))) i++;
  if (i === tidStart || s.charCodeAt(i) !== 32) return null;
  const pid = digitsValue(s, tidStart, i);
  i++;
  // caller token `file:line]` (no spaces)
  const callerStart = i;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === 93 || c === 32) break; // ] or space
    i++;
  }
  if (i >= n || s.charCodeAt(i) !== 93 || i === callerStart) return null;
  const colon = s.lastIndexOf(":", i);
  if (colon <= callerStart || colon === i - 1) return null;
  for (let k = colon + 1; k < i; k++) if (!isDigit(s.charCodeAt(k))) return null;
  let m = i + 1;
  if (m < n && s.charCodeAt(m) === 32) m++;
  const time: WallTime = {
    year: null,
    month,
    day,
    hour,
    minute,
    second,
    ms: (s.charCodeAt(15) - 48) * 100 + (s.charCodeAt(16) - 48) * 10 + (s.charCodeAt(17) - 48),
    offsetMin: null,
    precision: "us",
  };
  const out: ComponentLine = { time, severity: severity as Severity, message: "", component: null, pid };
  if (m < n && s.charCodeAt(m) === 34) {
    // structured: "msg" key=value ...
    const close = findQuoteEnd(s, m);
    const msg = quotedValue(s, m, close);
    if (close < 0) {
      out.message = msg;
      return out;
    }
    const rest = close + 1;
    if (rest < n) {
      const fields: Record<string, string> = {};
      scanPairs(s, rest, fields, true);
      let r = rest;
      while (r < n && s.charCodeAt(r) === 32) r++;
      // joined into one flat string: a concatenation would be flattened by the first regular
      // expression that reads the message, and keep its two pieces and the join alive besides
      out.message = r < n ? [msg, s.slice(r)].join(" ") : msg;
      for (const _k in fields) {
        out.fields = fields;
        break;
      }
    } else {
      out.message = msg;
    }
    return out;
  }
  out.message = s.slice(m);
  return out;
}

const HEADER_RE = /^Log file created at: (\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})\s*$/;
const HEADER_REST_RE = /^(?:Running on machine|Binary|Log line format|Previous log): /;

/** The klog file header lines: `Log file created at:` → klog-header banner (year, process start); the others → header. */
export function parseKlogHeader(line: string): Banner | null {
  const c = line.charCodeAt(0);
  if (c === 76) {
    // L
    const m = HEADER_RE.exec(line);
    if (m) {
      return {
        type: "klog-header",
        time: {
          year: Number(m[1]),
          month: Number(m[2]),
          day: Number(m[3]),
          hour: Number(m[4]),
          minute: Number(m[5]),
          second: Number(m[6]),
          ms: 0,
          offsetMin: null,
          precision: "s",
        },
      };
    }
  }
  if ((c === 76 || c === 82 || c === 66 || c === 80) && HEADER_REST_RE.test(line)) return { type: "header" };
  return null;
}

/** Programs besides the kubelet that write klog files, in the order their path hints are tried. */
export const KLOG_WRITERS = [
  "flannel",
  "cni-calico",
  "cilium",
  "istio-cni",
  "kube-proxy",
  "coredns",
  "kube-router",
  "antrea",
  "kube-ovn",
  "ovn",
  "multus",
  "kindnet",
];

/**
 * Component of a standalone klog file, from its path (`kube-flannel…` → flannel, rke2
 * `agent-logs/kubelet.log` → kubelet). klog is written by many programs; default kubelet.
 */
export function klogComponentFromPath(path: string | undefined): string {
  return componentFromPath(path, KLOG_WRITERS) ?? "kubelet";
}

/**
 * The kubelet's own lines: its sandbox/sync messages, or a caller among its source files
 * (`kubelet*.go`, `kuberuntime_*.go`, `remote_runtime.go`, `pod_workers.go`). Such a line is the
 * kubelet's whatever the file is named.
 */
const KUBELET_MSG =
  /^(?:RunPodSandbox from runtime service failed|StopPodSandbox from runtime service failed|Failed to create sandbox for pod|[Cc]reatePodSandbox for pod|Error syncing pod|Container runtime network not ready|Kubelet version|Starting kubelet main sync loop|Failed to stop sandbox|killPodWithSyncResult failed)/;
const KUBELET_CALLER = /^(?:kubelet(?:_\w+)?|kuberuntime_\w+|remote_runtime|pod_workers)\.go$/;
/** Other klog programs, told by their callers or by naming themselves in a message. */
const AGENT_CALLERS: ReadonlyArray<[RegExp, string]> = [
  [
    /^(?:kube-router|network_routes_controller|network_policy_controller|network_services_controller|bgp_peers|bgp_policies|pod_egress|ecmp_vip)\.go$/,
    "kube-router",
  ],
  [/^(?:server_others|server_linux|proxier)\.go$/, "kube-proxy"],
];
const AGENT_MESSAGES: ReadonlyArray<[RegExp, string]> = [
  // the program's name, not a pod of it (`kube-router-x7k2p`)
  [/\bkube-router(?![\w-])/, "kube-router"],
  [/\bkube-proxy(?![\w-])|^Using (?:iptables|ipvs|nftables) Proxier\b/, "kube-proxy"],
  [/\bAntrea\b|\bantrea-agent\b/, "antrea"],
  // ovnkube-node's CNI server (ovn-kubernetes go-controller/pkg/cni `cni.go`): `[<ns>/<pod> <sandbox>] ADD starting CNI request …`
  [/^\[[^\]\s]+ [0-9a-f]{64}\] (?:ADD|DEL|CHECK) (?:starting|finished) CNI request\b/, "ovn"],
];
const CALLER_RE = /^\S+\s+\S+\s+\d+ ([^\s\]]+):\d+\]/;
/** Records of a file whose path says nothing that are inspected for another program's callers/messages. */
const PROBE_RECORDS = 50;
/** Records of a file whose path names another program that are inspected for the kubelet's own lines (past its flag dump). */
const KUBELET_PROBE_RECORDS = 1000;

function callerFile(line: string): string {
  const m = CALLER_RE.exec(line);
  if (!m) return "";
  const f = m[1];
  const slash = f.lastIndexOf("/");
  return slash >= 0 ? f.slice(slash + 1) : f;
}

/** `kubelet`, another program's name, or null when the record does not tell. */
function programOf(line: string, message: string): string | null {
  const caller = callerFile(line);
  if (KUBELET_CALLER.test(caller) || KUBELET_MSG.test(message)) return "kubelet";
  for (const [re, name] of AGENT_CALLERS) if (re.test(caller)) return name;
  for (const [re, name] of AGENT_MESSAGES) if (re.test(message)) return name;
  return null;
}

const MACHINE_RE = /^Running on machine: ([A-Za-z0-9][A-Za-z0-9.-]{0,252})\s*$/;

class KlogParser implements LineParser {
  readonly settled = true;
  private component: string;
  /** records left to inspect for the kubelet's own lines (the path or a record named another program) */
  private kubeletProbe: number;
  /** records left to inspect for another program (a file whose path says nothing) */
  private probe: number;
  private afterFatal = false;
  private seenRecord = false;
  /** the host of klog's `Running on machine:` header line, when the file has one */
  private machine: string | null = null;

  constructor(ctx: ParseContext) {
    this.component = klogComponentFromPath(ctx.path);
    const named = this.component !== "kubelet";
    this.kubeletProbe = named ? KUBELET_PROBE_RECORDS : 0;
    this.probe = named ? 0 : PROBE_RECORDS;
  }

  parseLine(line: string): LineResult {
    const c = line.charCodeAt(0);
    const k = parseKlogText(line);
    if (k) {
      this.seenRecord = true;
      this.afterFatal = k.severity === 4;
      if (this.kubeletProbe > 0) {
        this.kubeletProbe--;
        if (KUBELET_MSG.test(k.message) || KUBELET_CALLER.test(callerFile(line))) {
          this.component = "kubelet";
          this.kubeletProbe = 0;
        }
      } else if (this.probe > 0) {
        this.probe--;
        const who = programOf(line, k.message);
        if (who === "kubelet") this.probe = 0;
        else if (who !== null) {
          this.component = who;
          this.probe = 0;
          this.kubeletProbe = KUBELET_PROBE_RECORDS;
        }
      }
      const rec = componentRecord(k, this.component, true);
      if (this.machine) rec.host = this.machine;
      return { type: "record", record: rec };
    }
    const h = parseKlogHeader(line);
    if (h) {
      this.afterFatal = false;
      // klog's header names the host the program ran on: the node (Windows prints its name in capitals; node names are lower case)
      const m = MACHINE_RE.exec(line);
      if (m) this.machine = m[1].toLowerCase();
      return { type: "banner", banner: h };
    }
    if (this.seenRecord && (c === 32 || c === 9 || this.afterFatal)) return { type: "continuation", text: line };
    return null;
  }
}

const KLOG_SNIFF = /^[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6}\s+\d+ \S+:\d+\] /;

/** Standalone klog files (rke2 `agent-logs/kubelet.log`, flannel pod logs without timestamps). */
export const klogSpec: FormatSpec = {
  name: "klog",
  kind: "kubelet",
  sniff(_path, lines) {
    return sniffRatio(lines, KLOG_SNIFF);
  },
  createParser: (ctx) => new KlogParser(ctx),
  samples: [
    {
      // klog's file header names the machine: the node, lower-cased
      line: 'E0102 03:04:05.678901    4412 remote_runtime.go:222] "RunPodSandbox from runtime service failed" err="x"',
      context: ["Log file created at: 2023/01/02 03:00:01", "Running on machine: WIN-NODE-1"],
      path: "C:/k/kubelet.err.log",
      expect: { component: "kubelet", severity: 3, host: "win-node-1" },
    },
    {
      // the kubelet on a Windows node (`kubelet.err.log`): Windows paths in the pairs, HNS in the error
      line: 'I0102 03:04:06.001000    4412 kubelet_volumes.go:160] "Cleaned up orphaned pod volumes dir" podUID=4d65ec63 path="C:\\\\var\\\\lib\\\\kubelet\\\\pods\\\\4d65ec63\\\\volumes"',
      path: "C:/k/kubelet.err.log",
      expect: {
        time: { year: null, month: 1, day: 2, hour: 3, minute: 4, second: 6, ms: 1, offsetMin: null, precision: "us" },
        component: "kubelet",
        severity: 1,
        fields: { podUID: "4d65ec63", path: "C:\\var\\lib\\kubelet\\pods\\4d65ec63\\volumes" },
      },
    },
    {
      line: 'E0519 04:20:09.001877    2817 kubelet.go:3002] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"',
      path: "rke2/agent-logs/kubelet.log",
      expect: {
        time: { year: null, month: 5, day: 19, hour: 4, minute: 20, second: 9, ms: 1, offsetMin: null, precision: "us" },
        component: "kubelet",
        severity: 3,
        pid: 2817,
        message:
          'Container runtime network not ready networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"',
        fields: { networkReady: "NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized" },
      },
    },
    {
      line: "I0519 04:20:10.100200       1 main.go:231] Created subnet manager: Kubernetes Subnet Manager - node-p",
      path: "podlogs/kube-flannel-ds-abcde",
      expect: {
        time: { year: null, month: 5, day: 19, hour: 4, minute: 20, second: 10, ms: 100, offsetMin: null, precision: "us" },
        component: "flannel",
        severity: 1,
        pid: 1,
        message: "Created subnet manager: Kubernetes Subnet Manager - node-p",
      },
    },
    {
      // obfuscated caller (Rancher collector -o), pid >= 1,000,000 with a single space
      line: 'W0519 04:20:11.000999 1234567 sadly.walrus:2321] "Failed to stop sandbox" podSandboxID={"Type":"containerd","ID":"5f1c"}',
      expect: {
        time: { year: null, month: 5, day: 19, hour: 4, minute: 20, second: 11, ms: 0, offsetMin: null, precision: "us" },
        severity: 2,
        pid: 1234567,
        message: 'Failed to stop sandbox podSandboxID={"Type":"containerd","ID":"5f1c"}',
        fields: { podSandboxID: '{"Type":"containerd","ID":"5f1c"}' },
      },
    },
    {
      line: "Log file created at: 2025/05/19 04:20:06",
      expect: {
        banner: {
          type: "klog-header",
          time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 6, ms: 0, offsetMin: null, precision: "s" },
        },
      },
    },
    { line: "Running on machine: ip-10-20-30-40", expect: { banner: { type: "header" } } },
    {
      // kube-router's klog (`kubectl logs` of its pod): told by its caller files, whatever the path
      line: "E1107 21:14:02.660118       1 network_routes_controller.go:287] Failed to get pod CIDR from node spec: node.Spec.PodCIDR not set for node: edge-3",
      context: ["I1107 21:14:01.220431       1 version.go:21] Running /usr/local/bin/kube-router version v2.1.3, built on 2024-06-02T10:00:00Z, go1.22.3"],
      expect: { component: "kube-router", severity: 3, pid: 1, message: "Failed to get pod CIDR from node spec: node.Spec.PodCIDR not set for node: edge-3" },
    },
    {
      // a kubelet excerpt saved under an agent's name: the kubelet's own lines stay the kubelet's
      line: 'E0302 06:10:44.120334    4410 remote_runtime.go:176] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory"',
      path: "issue/calico-node-broken.log",
      expect: { component: "kubelet", severity: 3 },
    },
  ],
  notMine: [
    'May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"',
    'time="2025-05-19T04:20:05.931046219Z" level=info msg="starting containerd"',
    "2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint",
    "I0519 04:20:07 2817 kubelet.go:2321] no microseconds",
    'level=info msg="Restored endpoint" subsys=endpoint',
  ],
};
