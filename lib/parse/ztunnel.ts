/**
 * istio ztunnel (the ambient-mode node proxy, Rust `tracing`; upstream istio/ztunnel
 * `src/telemetry.rs`). Three layouts, all component `ztunnel`:
 *
 *     2024-08-07T08:16:27.672486Z<TAB>info<TAB>xds::client:xds{id=24}<TAB>Stream established<TAB>
 *     2024-08-07T08:16:27.676289Z<TAB>info<TAB>inpod::statemanager<TAB>pod received, starting proxy<TAB>uid="4a7f…" name="web-0" namespace="shop"
 *     2024-07-29T17:10:59.111431Z     warn    xds::client:xds{id=14}  XDS client connection error: …   (tabs expanded by a copy)
 *     info<TAB>inpod::workloadmanager<TAB>handling new stream                                        (the same with the stamp cut off)
 *     2023-07-18T14:32:50.926381Z  INFO xds{id=4}: ztunnel::xds::client: Stream established          (releases before 1.21)
 *
 * Istio layout (`IstioFormat`, 1.21 and later): the UTC stamp (6 digits, `Z`), the lowercase level
 * (trace debug info warn error), the target with the `ztunnel::` prefix cut (`inpod::statemanager`,
 * `dns::server`, `access`, `ztunnel` for the crate root) followed by the spans the event is in
 * (`:name{fields}` each), the message, a tab, then the event's fields as `key=value` (strings
 * Debug-quoted) separated by spaces; the tab after the message is written even when no field
 * follows. Older releases used tracing's default (`Full`) layout: the stamp, the uppercase level
 * padded to 5, the spans (`name{fields}:` chained), the full target, `: `, the message and its
 * fields.
 *
 * A message may hold newlines (`running with config:` followed by the YAML of the config, not
 * indented): lines after a record that are not records continue it. `fields.scope` is the target,
 * `fields.span` the span chain as printed; the event's `key=value` fields are kept unescaped.
 */
import { type ComponentLine, componentRecord } from "./helpers/component-line";
import { sniffRatio } from "./helpers/sniff-util";
import { scanPairs, splitTrailingPairs } from "./helpers/text-scan";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineResult, Severity, WallTime } from "./types";

const LEVELS: Readonly<Record<string, Severity>> = { trace: 0, debug: 0, info: 1, warn: 2, error: 3 };
const UPPER_LEVELS: Readonly<Record<string, Severity>> = { TRACE: 0, DEBUG: 0, INFO: 1, WARN: 2, ERROR: 3 };

/** tracing's `Full` layout after the level: `[spans: ]target: message` */
const FULL_RE = /^(?:([\w-]+\{[^{}]*\}(?::[\w-]+(?:\{[^{}]*\})?)*): )?([A-Za-z_]\w*(?:::\w+)*): (.*)$/;

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

/** End of the target column starting at `i` in a line without tabs: the next space outside `{…}`. */
function targetEnd(s: string, i: number): number {
  let depth = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 123) depth++;
    else if (c === 125) depth--;
    else if (depth <= 0 && isSpace(c)) break;
  }
  return i;
}

/** `key=value key=value` covering the whole of `s`, or null. */
function pairs(s: string): Record<string, string> | null {
  if (s.indexOf("=") < 0) return null;
  const out: Record<string, string> = {};
  return scanPairs(s, 0, out) === s.length ? out : null;
}

/** Target column → `scope` (target) and `span` (the span chain after the first single `:`). */
function scopeFields(col: string): Record<string, string> {
  let i = 0;
  while (true) {
    const k = col.indexOf(":", i);
    if (k < 0) return { scope: col };
    if (col.charCodeAt(k + 1) === 58) {
      i = k + 2;
      continue;
    }
    return { scope: col.slice(0, k), span: col.slice(k + 1) };
  }
}

/**
 * Parse one ztunnel line (any of the layouts in the module comment); null when `s` is not one.
 * `time` is null for a line whose stamp was cut off; stamps are UTC.
 */
export function parseZtunnelText(s: string): ComponentLine | null {
  let i = 0;
  let time: WallTime | null = null;
  const c0 = s.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57) {
    while (i < s.length && !isSpace(s.charCodeAt(i))) i++;
    if (s.charCodeAt(i - 1) !== 90) return null; // `Z`
    time = parseIsoStamp(s, 0, i);
    if (!time) return null;
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  }
  const ls = i;
  while (i < s.length && !isSpace(s.charCodeAt(i))) i++;
  const word = s.slice(ls, i);
  const lower = LEVELS[word];
  if (lower === undefined) {
    const upper = UPPER_LEVELS[word];
    if (upper === undefined || time === null || s.charCodeAt(i) !== 32) return null;
    const m = FULL_RE.exec(s.slice(i + 1));
    if (!m) return null;
    const fields: Record<string, string> = { scope: m[2] };
    if (m[1] !== undefined) fields.span = m[1];
    let message = m[3];
    if (message.includes("=")) {
      const extra: Record<string, string> = {};
      const at = splitTrailingPairs(message, 0, extra);
      if (at > 0) {
        Object.assign(fields, extra);
        message = message.slice(0, at).trimEnd();
      }
    }
    return { time, severity: upper, message, fields, component: "ztunnel" };
  }
  // istio layout: level, target column, message, fields
  if (i >= s.length) return null;
  const tabbed = s.charCodeAt(i) === 9;
  if (!tabbed && !(time !== null || s.charCodeAt(i + 1) === 32)) return null; // untimed: a tab or a padded column
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  const ts = i;
  let te: number;
  if (tabbed) {
    te = s.indexOf("\t", ts);
    if (te < 0) te = s.length;
  } else te = targetEnd(s, ts);
  if (te === ts) return null;
  const fields = scopeFields(s.slice(ts, te));
  let message: string;
  if (tabbed) {
    const rest = te < s.length ? s.slice(te + 1) : "";
    const tab = rest.lastIndexOf("\t");
    message = rest;
    if (tab >= 0) {
      const tail = rest.slice(tab + 1);
      const kv = tail === "" ? {} : pairs(tail);
      if (kv) {
        Object.assign(fields, kv);
        message = rest.slice(0, tab);
      }
    }
  } else {
    let ms = te;
    while (ms < s.length && isSpace(s.charCodeAt(ms))) ms++;
    message = s.slice(ms).trimEnd();
    // fields after an expanded tab: the last run of 2+ spaces, when all that follows is pairs
    const gap = message.lastIndexOf("  ");
    if (gap > 0) {
      const kv = pairs(message.slice(gap).trimStart());
      if (kv) {
        Object.assign(fields, kv);
        message = message.slice(0, gap).trimEnd();
      }
    }
  }
  return { time, severity: lower, message, fields, component: "ztunnel" };
}

/**
 * A ztunnel line for the sniff: the istio layout (stamp optional) whose target is ztunnel's (a
 * `::` path, a span, or one of its top-level targets), or the `Full` layout of ztunnel's crate.
 */
const SNIFF_ISTIO =
  /^(?:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z[\t ]+)?(?:trace|debug|info|warn|error)(?:\t| {2,})(?:[a-z_]\w*::\w|[a-z_]\w*:[\w-]+\{|(?:access|readiness|app|admin|stats|hyper_util|telemetry|drain|signal)(?:\t| {2,})|ztunnel(?:\t| {2,})(?:version: |running with config|set file descriptor limits))/;
const SNIFF_FULL =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+Z {1,2}(?:TRACE|DEBUG|INFO|WARN|ERROR) (?:[\w-]+\{[^{}]*\}(?::[\w-]+(?:\{[^{}]*\})?)*: )?ztunnel(?:::\w+)*: /;

/** Whether `l` is a ztunnel line by the sniff's rule (istio-cni and zap-console refuse those files). */
export function isZtunnelSniffLine(l: string): boolean {
  return SNIFF_ISTIO.test(l) || SNIFF_FULL.test(l);
}

/** Format spec: istio ztunnel logs (see the module comment). */
export const ztunnelSpec: FormatSpec = {
  name: "ztunnel",
  kind: "ztunnel",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF_ISTIO, isZtunnelSniffLine),
  createParser() {
    let seen = false;
    return {
      settled: true,
      parseLine(line: string): LineResult {
        const c = parseZtunnelText(line);
        if (!c) return seen ? { type: "continuation", text: line } : null;
        seen = true;
        return { type: "record", record: componentRecord(c, "ztunnel") };
      },
    };
  },
  before: {
    // ztunnel's older layout, `<stamp> LEVEL span: target: msg`, reads as a journal `<stamp> host ident: msg`
    "journal-short-iso": [
      "2024-03-01T10:00:00.123456Z DEBUG xds{id=3}: ztunnel::xds::client: received response type=Address",
      "2024-03-01T10:00:00.223456Z  INFO xds{id=3}: ztunnel::xds::client: received response type=Address",
    ],
  },
  samples: [
    {
      line: '2025-02-11T09:30:14.208113Z\tinfo\tinpod::statemanager\tpod received, starting proxy\tuid="0c1d2e3f-aaaa-4bbb-8ccc-123456789abc" name="cart-6d5f7c8b9-k2m4p" namespace="shop"',
      expect: {
        time: { year: 2025, month: 2, day: 11, hour: 9, minute: 30, second: 14, ms: 208, offsetMin: 0, precision: "us" },
        component: "ztunnel",
        severity: 1,
        message: "pod received, starting proxy",
        fields: { scope: "inpod::statemanager", uid: "0c1d2e3f-aaaa-4bbb-8ccc-123456789abc", name: "cart-6d5f7c8b9-k2m4p", namespace: "shop" },
      },
    },
    {
      // a span after the target; the tab after the message with no field following
      line: "2025-02-11T09:30:15.001422Z\twarn\txds::client:xds{id=3}\tXDS client connection error: gRPC connection error: status: Unknown, retrying in 80ms\t",
      expect: {
        severity: 2,
        message: "XDS client connection error: gRPC connection error: status: Unknown, retrying in 80ms",
        fields: { scope: "xds::client", span: "xds{id=3}" },
      },
    },
    {
      // tabs expanded to spaces by a copy
      line: "2025-02-11T09:30:15.001422Z     error   inpod::workloadmanager  failed to start proxy: Bind([::1]:15053, Os { code: 99 })",
      expect: { severity: 3, message: "failed to start proxy: Bind([::1]:15053, Os { code: 99 })", fields: { scope: "inpod::workloadmanager" } },
    },
    {
      // the stamp cut off
      line: 'info\tdns::server\tstarting local DNS server\taddress=localhost:15053 component="dns"',
      expect: {
        time: null,
        component: "ztunnel",
        severity: 1,
        message: "starting local DNS server",
        fields: { scope: "dns::server", address: "localhost:15053", component: "dns" },
      },
    },
    {
      // releases before 1.21: tracing's default layout
      line: "2023-06-02T10:41:07.118532Z  WARN xds{id=2}: ztunnel::xds::client: XDS client error: gRPC error (Unknown error): broken pipe, retrying",
      expect: {
        time: { year: 2023, month: 6, day: 2, hour: 10, minute: 41, second: 7, ms: 118, offsetMin: 0, precision: "us" },
        severity: 2,
        message: "XDS client error: gRPC error (Unknown error): broken pipe, retrying",
        fields: { scope: "ztunnel::xds::client", span: "xds{id=2}" },
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:07.512401+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "I0519 04:20:10.100200       1 main.go:231] Created subnet manager",
    '{"level":"info","time":"2025-02-11T09:30:14.208113Z","scope":"inpod::statemanager","message":"pod received"}',
    "INFO: 2024/03/11 07:02:40.518220 Discovered local MAC 6a:1e:22:90:0d:41",
  ],
};
