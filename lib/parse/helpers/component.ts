/**
 * Two-level parsing: the component line inside an envelope's MESSAGE (journal,
 * syslog, CRI). The component format is picked by the message's first character (a cheap
 * dispatch, no trial of every regex): klog (`I0519 …`), logrus/logfmt (`time=` / `level=`), Calico,
 * zap console (istio and others), Multus and seelog-era AWS VPC CNI (a leading date), zap console
 * with epoch seconds (`1.65e+09`), JSON (`{`: istio, klog JSON, zap, Cilium slog), Weave Net
 * (`INFO: 2023/…`), logrus's terminal layout (`FATA[0000] …`) after a klog-like first letter, and
 * Open vSwitch's syslog and file layouts (`ovs|00001|…`, `2024-…Z|00001|…`). A supervisor's logrus line wrapping a child's line
 * (k0s: `msg="<klog line>" component=kubelet stream=stderr`) is unwrapped (`unwrapSupervised`).
 * The component *name* comes from the line when it names it (`component=` of a wrapped line;
 * Calico's layout, which only Calico writes, also under a runtime's or the kubelet's identifier), else
 * from the identifier when it is known (kubelet/kubenswrapper/k3s/rke2 → kubelet for klog lines,
 * containerd's CRI messages under k3s/rke2 → containerd, a name or alias of the component table:
 * `kube-flannel` → flannel, `kindnet-cni` → kindnet, …), else from the format
 * when it implies one (Calico → cni-calico), else it is the identifier itself.
 *
 * The record's time is the component's own stamp when there is one (docs/definitions.md "Event
 * time"); a component stamp without year or zone takes them from a complete envelope stamp
 * (syslog/short-iso), choosing the year that puts the two stamps closest.
 */
import { parseCalicoText } from "../calico-cni";
import { parseCiliumJson } from "../cilium-json";
import { parseLogrusJson } from "../logrus-json";
import { parseCiliumText } from "../cilium-logfmt";
import { type ComponentLine, isContainerdMessage } from "./component-line";
import { parseContainerdText } from "../containerd-logrus";
import { parseCrioText } from "../crio-logrus";
import { parseIstioJson } from "../istio-cni-json";
import { parseKlogText } from "../klog";
import { parseKlogJson } from "../klog-json";
import { parseMultusText } from "../multus";
import { parseZapJson } from "../zap-json";
import { parseZapConsole } from "../zap-console";
import { parseLogrusTerminal } from "../logrus-text";
import { parseWeaveText } from "../weave";
import { parseAwsSeelog } from "../aws-vpc-cni";
import { parseOvsText } from "../ovs-log";
import { findQuoteEnd, unquoteGo } from "./text-scan";
import { naiveMs } from "./time-util";
import { componentNamed } from "../../model/components";
import type { ParsedRecord, Severity, WallTime } from "../types";

/**
 * Parse the component line in `msg`, whichever known component format it is; null when none.
 * Cost: one or two charCode checks for messages that are no component line.
 */
export function parseComponentMessage(msg: string): ComponentLine | null {
  const c = msg.charCodeAt(0);
  switch (c) {
    case 73: // I
    case 87: // W
    case 69: // E
    case 70: {
      // F
      const k = parseKlogText(msg);
      if (k) {
        k.format = "klog";
        return k;
      }
      return upperCaseLevel(msg);
    }
    case 68: // D  DEBU
    case 80: // P  PANI
    case 84: // T  TRAC
    case 27: // ESC: a coloured logrus level
      return upperCaseLevel(msg);
    case 116: {
      // t  time=
      if (msg.charCodeAt(4) !== 61) return null;
      const l = parseContainerdText(msg) ?? parseCrioText(msg) ?? parseCiliumText(msg);
      return l !== null && l.fields?.component !== undefined ? unwrapSupervised(l, msg) : l;
    }
    case 111: // o  ovs|00001|… (Open vSwitch's syslog layout)
      return msg.charCodeAt(3) === 124 ? parseOvsText(msg) : null;
    case 108: // l  level=
      return msg.charCodeAt(5) === 61 ? parseCiliumText(msg) : null;
    case 123: // {
      return parseIstioJson(msg) ?? parseKlogJson(msg) ?? parseZapJson(msg) ?? parseLogrusJson(msg) ?? parseCiliumJson(msg);
    default:
      if (c >= 48 && c <= 57) {
        if (msg.charCodeAt(4) === 45) {
          const t = msg.charCodeAt(10);
          if (t === 32) return parseCalicoText(msg);
          if (t === 84) {
            // Open vSwitch's file layout (`…Z|00031|binding|INFO|…`: what ovn-kubernetes' and kube-ovn's OVS/OVN containers tail to stdout)
            if (isOvsStamped(msg)) return parseOvsText(msg);
            return parseZapConsole(msg) ?? parseMultusText(msg) ?? parseAwsSeelog(msg);
          }
        } else if (msg.charCodeAt(1) === 46 || msg.charCodeAt(10) === 46) {
          return parseZapConsole(msg); // epoch seconds
        }
      }
      return null;
  }
}

/** `…:SSZ|` or `…:SS.fffZ|` (up to 9 fraction digits) after a `YYYY-MM-DDTHH:MM:SS` stamp: an Open vSwitch file-layout line. */
function isOvsStamped(msg: string): boolean {
  for (let i = 19; i <= 29; i++) {
    const ch = msg.charCodeAt(i);
    if (ch === 90) return msg.charCodeAt(i + 1) === 124;
    if (ch !== 46 && (ch < 48 || ch > 57)) return false;
  }
  return false;
}

/** Names a supervisor may give its children in `component=` (a process name, `.exe` on Windows; no spaces or quotes). */
const SUPERVISED_NAME_RE = /^[a-z][a-z0-9-]{1,40}(?:\.exe)?$/;

/**
 * A supervisor's logrus line around one line of a child's output (k0s `pkg/supervisor`: each line
 * of the child's stdout/stderr logged as `msg` with `component=<child>` and `stream=stdout|stderr`):
 *
 *     time="2024-03-05 08:01:12" level=info msg="E0305 08:01:12.113344    1088 remote_runtime.go:193] \"RunPodSandbox …\" err=…" component=kubelet stream=stderr
 *
 * When `msg` is a component line (klog, containerd logrus, …) it is parsed and is the record: its
 * own stamp (year and zone taken from the supervisor's stamp), its level, its message; the
 * component is the `component=` name (mapped as an identifier: `calico-node` → cni-calico, …; a
 * Windows node's `kubelet.exe` is `kubelet`). A
 * line with `stream=` whose `msg` is plain text keeps the supervisor's stamp and level, with the
 * child's name as component. Other lines with a `component=` key (the supervisor's own messages
 * about a child, `Starting to supervise`) are returned as they are.
 */
export function unwrapSupervised(outer: ComponentLine, line: string): ComponentLine {
  const f = outer.fields;
  const name = f?.component;
  if (f === undefined || name === undefined || !SUPERVISED_NAME_RE.test(name)) return outer;
  const inner = parseComponentMessage(childLine(line) ?? outer.message);
  const base = name.endsWith(".exe") ? name.slice(0, -4) : name;
  const component = identComponent(base) ?? base;
  if (inner === null) {
    if (f.stream === undefined) return outer;
    const out: ComponentLine = { time: outer.time, severity: outer.severity, message: outer.message, component, named: true };
    const rest = withoutKeys(f);
    if (rest) out.fields = rest;
    return out;
  }
  const time = inner.time ? completedBy(inner.time, outer.time) : outer.time;
  const out: ComponentLine = { time, severity: inner.severity, message: inner.message, component, named: true };
  if (inner.fields) out.fields = inner.fields;
  if (inner.pid !== undefined) out.pid = inner.pid;
  if (inner.format !== undefined) out.format = inner.format;
  return out;
}

/**
 * The child's line as it wrote it: the `msg` value of `line` unquoted once (the parsed `msg` field
 * has its nested quotes unescaped too, which would break the child's own quoting). Null when
 * `msg` is not quoted.
 */
function childLine(line: string): string | null {
  const at = line.indexOf(' msg="');
  if (at < 0) return null;
  const open = at + 5;
  const close = findQuoteEnd(line, open);
  return close < 0 ? null : unquoteGo(line, open + 1, close);
}

/** `fields` without the supervisor's `component` and `stream` keys; undefined when nothing is left. */
function withoutKeys(f: Record<string, string>): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const k in f) if (k !== "component" && k !== "stream") (out ??= {})[k] = f[k];
  return out;
}

/** Lines led by an uppercase level word: Weave Net (`INFO: `) or logrus's terminal layout (`INFO[`). */
function upperCaseLevel(msg: string): ComponentLine | null {
  if (msg.charCodeAt(4) === 58) return parseWeaveText(msg);
  const b = msg.indexOf("[");
  return b > 0 && b <= 12 ? parseLogrusTerminal(msg) : null;
}

/** Identifiers whose klog lines are the kubelet (embedded in k3s/rke2, OpenShift's wrapper, snap). */
const KUBELET_IDENTS = new Set(["kubelet", "kubenswrapper", "hyperkube", "kubelet-eks.daemon", "snap.kubelet.daemon"]);
/** Supervisors embedding the kubelet: klog lines → kubelet, their own logrus lines keep the identifier. */
const EMBEDDING_IDENTS = new Set(["k3s", "rke2", "k3s-agent", "k3s-server", "rke2-agent", "rke2-server", "kubelite", "k0s", "k0sworker"]);

/**
 * Identifiers whose lines are another entry's than the one the component table names by them:
 * Calico's node agent writes the CNI plugin's texts too (`calico-node`, lane by its agent texts),
 * Cilium's CNI plugin logs as the agent. Every other identifier that is a name or an alias in the
 * table (lib/model/components.ts) is stored as that name. `install-cni` is neither: calico-node and
 * istio-cni-node both run a container of that name, and the payload's format decides.
 */
const IDENT_OVERRIDES: Readonly<Record<string, string>> = { "calico-node": "cni-calico", "cilium-cni": "cilium" };

/** The component an identifier stands for (an override, else a name or alias of the table), or undefined. */
function identComponent(ident: string): string | undefined {
  return IDENT_OVERRIDES[ident] ?? componentNamed(ident)?.name;
}

/**
 * Component name for a line written under `ident` whose message parsed as `parsed` (null: no
 * component format). See the module comment for the rules.
 */
export function componentFor(identIn: string | undefined, parsed: ComponentLine | null): string {
  if (parsed !== null && parsed.component === "kata") return "kata"; // the kata shim logs under containerd's name
  if (parsed !== null && parsed.named === true && parsed.component) return parsed.component;
  const ident = identIn === undefined ? undefined : serviceProgram(identIn);
  if (ident) {
    if (KUBELET_IDENTS.has(ident)) return "kubelet";
    if (EMBEDDING_IDENTS.has(ident)) {
      if (parsed === null) return identIn ?? ident;
      if (parsed.format === "klog") return "kubelet";
      return isContainerdMessage(parsed.message) ? "containerd" : (identIn ?? ident);
    }
    const known = identComponent(ident);
    if (known) return known;
    if (ident.startsWith("systemd-")) return "systemd";
    if (ident.startsWith("kubelet")) return "kubelet";
  }
  if (parsed && parsed.component) return parsed.component;
  // a supervisor that runs containerd and passes on its output under its own name (PouchContainer's pouchd, ...)
  if (parsed?.fields?.module === "containerd") return "containerd";
  return identIn || "unknown";
}

/**
 * Identifier prefixes of snap services, whose program name follows them: MicroK8s's daemons log
 * as `microk8s.daemon-<program>` (`microk8s.daemon-containerd`, `-kubelite`, `-kubelet`,
 * `-flanneld`; unit `snap.microk8s.daemon-<program>.service`, canonical/microk8s `snap/snapcraft.yaml`).
 */
const SERVICE_PREFIXES: readonly string[] = ["snap.microk8s.daemon-", "microk8s.daemon-"];

/** The program a service identifier names (`microk8s.daemon-containerd` → `containerd`), else the identifier. */
function serviceProgram(ident: string): string {
  for (const p of SERVICE_PREFIXES) if (ident.startsWith(p) && ident.length > p.length) return ident.slice(p.length);
  return ident;
}

/**
 * A component's stamp completed by the stamp around it (a journal, syslog or supervisor line): a
 * missing year is the envelope's year closest to it, a missing offset the envelope's. The stamp
 * itself when the envelope has no year or there is nothing to complete. A stamp coarser than the
 * envelope's (logrus `time="…T04:49:10Z"` to the second behind a `docker logs --timestamps`
 * `…T04:49:10.523388650Z`) takes the envelope's finer digits when the envelope lies inside the
 * stamp's own second (or minute): the component's time, told more precisely; otherwise the
 * component's stamp stands as it is.
 */
function completedBy(t: WallTime, env: WallTime | null): WallTime {
  return finerBy(completedYearZone(t, env), env);
}

const PRECISION_RANK: Readonly<Record<string, number>> = { min: 0, s: 1, ms: 2, us: 3, ns: 4 };

/** `t` with the envelope's finer second and fraction when the envelope falls inside `t`'s precision (see `completedBy`). */
function finerBy(t: WallTime, env: WallTime | null): WallTime {
  if (!env || (t.precision !== "s" && t.precision !== "min")) return t;
  const rank = PRECISION_RANK[env.precision];
  if (rank === undefined || rank <= PRECISION_RANK[t.precision]) return t;
  if (t.offsetMin !== env.offsetMin || (env.year !== null && t.year !== env.year)) return t;
  if (t.month !== env.month || t.day !== env.day || t.hour !== env.hour || t.minute !== env.minute) return t;
  if (t.precision === "s" && (t.second !== env.second || t.ms !== 0)) return t;
  return { ...t, second: env.second, ms: env.ms, precision: env.precision };
}

function completedYearZone(t: WallTime, env: WallTime | null): WallTime {
  if (!env || env.year === null || !(t.year === null || (t.offsetMin === null && env.offsetMin !== null))) return t;
  return {
    year: t.year ?? closestYear(t, env),
    month: t.month,
    day: t.day,
    hour: t.hour,
    minute: t.minute,
    second: t.second,
    ms: t.ms,
    offsetMin: t.offsetMin ?? env.offsetMin,
    precision: t.precision,
  };
}

/** Year for a year-less component stamp that is closest to a complete envelope stamp. */
function closestYear(w: WallTime, env: WallTime): number {
  const envYear = env.year as number;
  const target = naiveMs(env, envYear);
  let best = envYear;
  let bestD = Number.POSITIVE_INFINITY;
  for (let y = envYear - 1; y <= envYear + 1; y++) {
    const t = naiveMs(w, y);
    if (Number.isNaN(t)) continue;
    const d = Math.abs(t - target);
    if (d < bestD) {
      bestD = d;
      best = y;
    }
  }
  return best;
}

let lastWasKlog = false;

/** Whether the MESSAGE of the last record built by `envelopeRecordOf` was a klog line (journal continuation rule). */
export function lastEnvelopeWasKlog(): boolean {
  return lastWasKlog;
}

/** Envelope fields (journal / syslog / CRI) around a MESSAGE. */
export interface Envelope {
  time: WallTime | null;
  host?: string;
  ident?: string;
  pid?: number;
  /** severity when the message carries none (journal short shows no priority) */
  severity?: Severity;
}

/**
 * Host columns a reviewer blanked out before pasting (moby/moby#49653: `Dec  4 23:16:08 [Redacted]
 * kernel: …`): a token in brackets, angle brackets or braces (`[Redacted]`, `<hostname>`,
 * `{node}`), a run of `*` or `x`, or a word saying so. Such a column names no node.
 */
const PLACEHOLDER_HOST =
  /^(?:\[[^\]]*\]|<[^>]*>|\{[^}]*\}|\*+|[xX]{3,}|(?:redacted|masked|hidden|anonymi[sz]ed|censored|removed)(?:[-_]?(?:host(?:name)?|node))?)$/i;

/** Is `host` a redaction placeholder rather than a host name (`PLACEHOLDER_HOST`)? */
export function isPlaceholderHost(host: string): boolean {
  return PLACEHOLDER_HOST.test(host);
}

/**
 * Build the record for an envelope line: the component's stamp, severity, message and fields when
 * the MESSAGE is a component line, else the envelope's time and the raw MESSAGE.
 */
export function envelopeRecord(env: Envelope, msg: string): ParsedRecord {
  return envelopeRecordOf(env, msg, parseComponentMessage(msg));
}

/** `envelopeRecord` with the MESSAGE already parsed (`parsed` from `parseComponentMessage`). */
export function envelopeRecordOf(env: Envelope, msg: string, parsed: ComponentLine | null): ParsedRecord {
  lastWasKlog = parsed !== null && parsed.format === "klog";
  const rec: ParsedRecord = {
    time: env.time,
    component: componentFor(env.ident, parsed),
    severity: env.severity ?? 1,
    message: msg,
  };
  if (env.host !== undefined && !isPlaceholderHost(env.host)) rec.host = env.host;
  if (env.ident !== undefined) rec.ident = env.ident;
  if (env.pid !== undefined) rec.pid = env.pid;
  if (parsed) {
    rec.severity = parsed.severity;
    rec.message = parsed.message;
    if (parsed.fields) rec.fields = parsed.fields;
    if (parsed.time) rec.time = completedBy(parsed.time, env.time);
  }
  return rec;
}
