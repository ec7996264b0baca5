/**
 * zap's console encoder (`zapcore.NewConsoleEncoder`): istio (istio-cni agent, install-cni, repair;
 * upstream istio/istio `pkg/log/config.go`, `pkg/log/scope.go`) and other zap loggers
 * (controller-runtime operators: `sigs.k8s.io/controller-runtime/pkg/log/zap`).
 *
 *     2025-05-19T04:20:12.400120Z<TAB>info<TAB>cni-agent<TAB>Pod default/web excluded from mesh      istio
 *     2024-09-17T13:04:21.312993Z<TAB>info<TAB>file modified: /host/etc/cni/net.d/x                   istio, default scope: no scope column
 *     2023-07-11T11:19:29.414585Z    info    install    Created CNI config /host/…                      tabs turned into spaces (a copy)
 *     2023-07-18T10:34:54.346071Z     info    FLAG: --ambient-enabled="false"                          tabs expanded to tab stops
 *     2025-05-19T04:20:04.809762Z info cni-agent created CNI config /host/…                            single spaces
 *     1.652435502208323e+09<TAB>INFO<TAB>setup<TAB>starting manager                                   controller-runtime < 0.13 (epoch s)
 *     2023-06-27T09:37:39Z<TAB>ERROR<TAB>setup<TAB>unable to start manager<TAB>{"error": "…"}          controller-runtime (RFC3339)
 *
 * Columns: the stamp (istio: always UTC, 6 digits, `Z`; zap: ISO-8601 with `Z` or an offset, or
 * epoch seconds as a float, possibly in exponent form), the level (lowercase for istio, uppercase
 * for zap's development config), the optional logger name / istio scope, an optional caller
 * (`file.go:123`), the message, then optional context: a JSON object (zap) or istio's labels
 * `key=value key=value` after a tab. Every column may be padded.
 *
 * Scope rule (the trap: a message's first word looks like a scope). Split on tabs when the line
 * has them: a first column without spaces is the scope, unless it is the whole message followed by
 * nothing but labels. Without tabs: the word after the level is the scope when it is followed by
 * two or more spaces (a padded column) and is shaped like a scope (lowercase word, digits, `-`,
 * `_`, `.`, no trailing `:`), or when it is one of istio's registered scopes (`cni-agent`, `install`,
 * `cni`, `ambient`, `repair`, …) whatever follows it (single spaces, or a 7-letter scope expanded to
 * the next tab stop with one space). Otherwise the message starts right after the level.
 */
import { type ComponentLine, componentLineParser } from "./helpers/component-line";
import { LOGRUS_LEVELS } from "./helpers/logfmt";
import { sniffRatio } from "./helpers/sniff-util";
import { scanPairs } from "./helpers/text-scan";
import { parseIsoStamp, precisionOfDigits, utcWallTime } from "./helpers/time-util";
import { isZtunnelSniffLine, parseZtunnelText } from "./ztunnel";
import type { FormatSpec, WallTime } from "./types";
import { componentFromPath } from "../model/components";

/** istio log scopes seen on nodes (istio-cni agent, installer, repair, ambient; shared scopes). */
export const ISTIO_SCOPES: ReadonlySet<string> = new Set([
  "cni",
  "cni-agent",
  "cni-plugin",
  "install",
  "repair",
  "ambient",
  "default",
  "klog",
  "grpc",
  "kube",
  "controllers",
  "iptables",
  "ztunnel",
  "nodeagent",
  "cni-pod",
  "validation",
]);

const LEVEL_WORDS: Readonly<Record<string, string>> = {
  debug: "debug",
  info: "info",
  warn: "warn",
  error: "error",
  dpanic: "dpanic",
  panic: "panic",
  fatal: "fatal",
  DEBUG: "debug",
  INFO: "info",
  WARN: "warn",
  ERROR: "error",
  DPANIC: "dpanic",
  PANIC: "panic",
  FATAL: "fatal",
};

const SCOPE_RE = /^[A-Za-z][A-Za-z0-9_.\-/]*$/;
const SCOPE_LOWER_RE = /^[a-z][a-z0-9_.\-]*[a-z0-9]$|^[a-z]$/;
const CALLER_RE = /^[\w.\-/]+\.go:\d+$/;
const EPOCH_RE = /^(\d{9,10})(?:\.(\d+))?$|^(\d(?:\.\d+)?)e\+0?9$/;

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

/** End of the run of spaces/tabs starting at `i`. */
function skipSpace(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** End of the token starting at `i` (next space or tab). */
function tokenEnd(s: string, i: number): number {
  while (i < s.length && !isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** Stamp of the first column: ISO-8601 / RFC3339, or epoch seconds (plain or `1.6e+09`). */
function parseStamp(tok: string): WallTime | null {
  if (tok.length >= 19 && tok.charCodeAt(4) === 45) return parseIsoStamp(tok);
  const m = EPOCH_RE.exec(tok);
  if (!m) return null;
  if (m[1] !== undefined) return utcWallTime(Number(tok) * 1000, precisionOfDigits(m[2]?.length ?? 0));
  const digits = (m[3].length > 1 ? m[3].length - 2 : 0) - 9;
  return utcWallTime(Number(tok) * 1000, precisionOfDigits(Math.max(0, digits)));
}

/** JSON object context at the end of `s` (after a tab or two spaces): `{ at, fields }`, or null. */
function trailingJson(s: string): { at: number; fields: Record<string, string> } | null {
  if (s.charCodeAt(s.length - 1) !== 125) return null;
  let i = s.lastIndexOf("{");
  while (i > 0) {
    const before = s.charCodeAt(i - 1);
    if (before === 9 || (before === 32 && i > 1 && s.charCodeAt(i - 2) === 32)) {
      try {
        const obj = JSON.parse(s.slice(i)) as unknown;
        if (obj && typeof obj === "object" && !Array.isArray(obj)) {
          const fields: Record<string, string> = {};
          for (const [k, v] of Object.entries(obj as Record<string, unknown>)) fields[k] = typeof v === "string" ? v : JSON.stringify(v);
          let at = i - 1;
          while (at > 0 && isSpace(s.charCodeAt(at - 1))) at--;
          return { at, fields };
        }
      } catch {
        // not the context object: look further left
      }
    }
    i = s.lastIndexOf("{", i - 1);
  }
  return null;
}

/** istio labels (`key=value key=value`, the whole text), or null. */
function labels(s: string): Record<string, string> | null {
  if (s.indexOf("=") < 0) return null;
  const out: Record<string, string> = {};
  return scanPairs(s, 0, out) === s.length ? out : null;
}

/**
 * Parse one zap console line; null when `s` is not one. `component` is `istio-cni` for istio's
 * shape (6-digit UTC stamp, lowercase level), `ztunnel` when that shape's tab-separated scope
 * column is a ztunnel target (`::` path or span: parsed by ztunnel.ts), else null (the caller
 * decides: logger name, path).
 * `fields`: `scope` (istio) or `logger` (others), `caller`, JSON context keys, istio labels.
 */
export function parseZapConsole(s: string): ComponentLine | null {
  const c0 = s.charCodeAt(0);
  if (c0 < 48 || c0 > 57) return null;
  const te = tokenEnd(s, 0);
  if (te >= s.length) return null;
  const time = parseStamp(s.slice(0, te));
  if (!time) return null;
  const tabbed = s.charCodeAt(te) === 9;
  const ls = skipSpace(s, te);
  const le = tokenEnd(s, ls);
  const level = LEVEL_WORDS[s.slice(ls, le)];
  if (level === undefined) return null;
  const istioShape = te === 27 && s.charCodeAt(26) === 90 && s.charCodeAt(ls) >= 97;
  const severity = LOGRUS_LEVELS[level];
  const rs = skipSpace(s, le);
  let rest = s.slice(rs);
  let fields: Record<string, string> | undefined;
  let scope: string | null = null;

  if (tabbed) {
    const parts = rest.split("\t");
    // ztunnel's target column (`inpod::statemanager`, `xds::client:xds{id=3}`): its own layout
    if (istioShape && parts.length >= 2 && (parts[0].includes("::") || parts[0].includes("{"))) return parseZtunnelText(s);
    let k = 0;
    if (parts.length >= 2 && SCOPE_RE.test(parts[0])) {
      const onlyLabels = parts.length === 2 && !ISTIO_SCOPES.has(parts[0]) && labels(parts[1]) !== null;
      if (!onlyLabels) {
        scope = parts[0];
        k = 1;
      }
    }
    if (k + 1 < parts.length && CALLER_RE.test(parts[k])) {
      (fields ??= {}).caller = parts[k];
      k++;
    }
    let msgParts = parts.slice(k);
    if (msgParts.length >= 2) {
      const last = msgParts[msgParts.length - 1];
      let ctx: Record<string, string> | null = null;
      if (last.charCodeAt(0) === 123 && last.charCodeAt(last.length - 1) === 125) {
        try {
          const obj = JSON.parse(last) as unknown;
          if (obj && typeof obj === "object" && !Array.isArray(obj)) {
            ctx = {};
            for (const [key, v] of Object.entries(obj as Record<string, unknown>)) ctx[key] = typeof v === "string" ? v : JSON.stringify(v);
          }
        } catch {
          ctx = null;
        }
      } else {
        ctx = labels(last);
      }
      if (ctx) {
        fields = Object.assign(fields ?? {}, ctx);
        msgParts = msgParts.slice(0, -1);
      }
    }
    rest = msgParts.join("\t");
  } else {
    const we = tokenEnd(rest, 0);
    if (we > 0 && we < rest.length) {
      const word = rest.slice(0, we);
      const ns = skipSpace(rest, we);
      const gap = ns - we;
      if (
        ISTIO_SCOPES.has(word) ||
        (gap >= 2 && SCOPE_LOWER_RE.test(word)) ||
        (gap >= 2 && !istioShape && SCOPE_RE.test(word) && word.charCodeAt(word.length - 1) !== 58)
      ) {
        scope = word;
        rest = rest.slice(ns);
      }
    }
    const ce = tokenEnd(rest, 0);
    if (ce > 0 && ce < rest.length && CALLER_RE.test(rest.slice(0, ce))) {
      (fields ??= {}).caller = rest.slice(0, ce);
      rest = rest.slice(skipSpace(rest, ce));
    }
    const j = trailingJson(rest);
    if (j) {
      fields = Object.assign(fields ?? {}, j.fields);
      rest = rest.slice(0, j.at);
    }
  }
  if (scope !== null) {
    const key = istioShape ? "scope" : "logger";
    fields = fields ? Object.assign({ [key]: scope }, fields) : { [key]: scope };
  }
  const out: ComponentLine = { time, severity, message: rest, component: istioShape ? "istio-cni" : null };
  if (fields) out.fields = fields;
  return out;
}

/** Component of a zap console file from its path, or null. */
const fileComponent = (path: string | undefined): string | null => componentFromPath(path, ["istio-cni", "multus", "aws-vpc-cni", "linkerd-cni"]);

/** Rust `tracing` targets of linkerd's CNI helpers (the repair controller, the network validator): their lines are linkerd-cni's. */
const LINKERD_TARGET_RE = /^linkerd_(?:cni_repair_controller|network_validator)\b/;

const SNIFF =
  /^(?:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})|\d{10}(?:\.\d+)?|\d\.\d+e\+0?9)[\t ]+(?:DEBUG|INFO|WARN|ERROR|DPANIC|PANIC|FATAL|debug|info|warn|error|dpanic|panic|fatal)(?:[\t ]|$)/;

/** istio's shape (istio-cni.ts claims those files) */
const ISTIO_STAMP_LEVEL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z[\t ]+[a-z]/;

/**
 * Format spec: zap console files of other zap loggers (controller-runtime operators). istio's shape
 * is claimed first by `istio-cni` (istio-cni.ts). Lines that are no record continue the record
 * before them (multi-line messages, stack traces).
 */
export const zapConsoleSpec: FormatSpec = {
  name: "zap-console",
  kind: "zap",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => SNIFF.test(l) && !ISTIO_STAMP_LEVEL.test(l) && !isZtunnelSniffLine(l)),
  createParser: componentLineParser({
    parse: parseZapConsole,
    writer: fileComponent,
    // istio's shape names istio-cni; linkerd's Rust helpers name themselves by their target
    componentOf: (c, file) => c.component ?? file ?? (LINKERD_TARGET_RE.test(c.message) ? "linkerd-cni" : "zap"),
    continuation: "any",
  }),
  samples: [
    {
      // linkerd-cni's repair controller (Rust tracing, the layout this spec reads): told by its target
      line: "2024-05-06T07:08:19.223456Z  INFO linkerd_cni_repair_controller::repair: Deleting pod pod=default/web-1",
      expect: {
        time: { year: 2024, month: 5, day: 6, hour: 7, minute: 8, second: 19, ms: 223, offsetMin: 0, precision: "us" },
        component: "linkerd-cni",
        severity: 1,
        message: "linkerd_cni_repair_controller::repair: Deleting pod pod=default/web-1",
      },
    },
    {
      line: '1.6524355022083e+09\tINFO\tcontroller-runtime.metrics\tMetrics server is starting to listen\t{"addr": ":8080"}',
      expect: {
        time: { year: 2022, month: 5, day: 13, hour: 9, minute: 51, second: 42, ms: 208, offsetMin: 0, precision: "us" },
        component: "zap",
        severity: 1,
        message: "Metrics server is starting to listen",
        fields: { logger: "controller-runtime.metrics", addr: ":8080" },
      },
    },
    {
      // no logger name: the message is the third column
      line: '2023-06-27T09:37:39Z\tERROR\tStarting server failed\t{"kind": "health probe", "error": "listen tcp :8081: bind: address already in use"}',
      expect: {
        time: { year: 2023, month: 6, day: 27, hour: 9, minute: 37, second: 39, ms: 0, offsetMin: 0, precision: "s" },
        severity: 3,
        message: "Starting server failed",
        fields: { kind: "health probe", error: "listen tcp :8081: bind: address already in use" },
      },
    },
    {
      // zap production console: ISO-8601 with a colon-less offset, a caller column
      line: "2024-03-02T10:11:12.345+0100\tWARN\tipam\tallocator/pool.go:88\tpool nearly exhausted",
      path: "operator/manager.log",
      expect: {
        time: { year: 2024, month: 3, day: 2, hour: 10, minute: 11, second: 12, ms: 345, offsetMin: 60, precision: "ms" },
        component: "zap",
        severity: 2,
        message: "pool nearly exhausted",
        fields: { logger: "ipam", caller: "allocator/pool.go:88" },
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:14Z [verbose] ADD starting CNI request",
    "2025-05-19T04:20:09.10473Z stderr F I0519 04:20:09.104500       1 main.go:88] x",
    "2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint",
    '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
  ],
};
