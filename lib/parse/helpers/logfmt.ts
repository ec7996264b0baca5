/**
 * logrus / logfmt text lines (`time="…" level=… msg="…" key=value`), shared by containerd,
 * CRI-O, k3s/rke2 supervisors and cilium. Upstream: logrus `text_formatter.go` (keys time,
 * level, msg, then the rest sorted; values `%q`-quoted when needed).
 */
import type { ComponentLine } from "./component-line";
import { type SpecialKeys, scanPairs } from "./text-scan";
import { parseIsoStamp } from "./time-util";
import type { Severity } from "../types";

/** logrus / slog / zap level names → severity. */
export const LOGRUS_LEVELS: Readonly<Record<string, Severity>> = {
  trace: 0,
  debug: 0,
  info: 1,
  warning: 2,
  warn: 2,
  error: 3,
  fatal: 4,
  panic: 4,
  dpanic: 4,
};

/** A logfmt line split into its well-known keys and the rest. */
export interface LogfmtLine {
  time: string | undefined;
  level: string;
  msg: string | undefined;
  /** every key except time, level, msg (values unescaped) */
  fields: Record<string, string>;
  hasFields: boolean;
}

/**
 * Scan a whole line of `key=value` pairs. Null unless every token is a pair, a `level` key is present
 * and the line starts with `time=` or `level=`.
 */
export function scanLogfmt(s: string): LogfmtLine | null {
  const c0 = s.charCodeAt(0);
  if (c0 !== 116 && c0 !== 108) return null; // t, l
  if (!s.startsWith("time=") && !s.startsWith("level=")) return null;
  const fields: Record<string, string> = {};
  const special: SpecialKeys = { time: undefined, level: undefined, msg: undefined };
  if (scanPairs(s, 0, fields, false, special) !== s.length) return null;
  if (special.level === undefined) return null;
  let hasFields = false;
  for (const _k in fields) {
    hasFields = true;
    break;
  }
  return { time: special.time, level: special.level, msg: special.msg, fields, hasFields };
}

/**
 * logrus text with a quoted RFC3339 `time` (containerd: `T`, 9 digits, `Z` or offset; CRI-O: a space
 * instead of `T`). `sep` is the character required between date and time. Null when `s` is not that
 * layout (so containerd and CRI-O lines refuse each other).
 */
export function parseLogrusText(s: string, sep: "T" | " "): ComponentLine | null {
  // time="2025-05-19T04:20:05.931046219Z" → the separator sits at index 16
  if (s.charCodeAt(5) !== 34 || s.charCodeAt(16) !== sep.charCodeAt(0)) return null;
  const l = scanLogfmt(s);
  if (!l || l.time === undefined) return null;
  const sev = LOGRUS_LEVELS[l.level];
  if (sev === undefined) return null;
  const time = parseIsoStamp(l.time);
  if (!time) return null;
  const out: ComponentLine = { time, severity: sev, message: l.msg ?? "", component: null };
  if (l.hasFields) out.fields = l.fields;
  return out;
}
