/**
 * Kubernetes components with `--logging-format=json` (klog JSON): FORMATS.md 3.2, 5b rule KJ;
 * upstream kubernetes `staging/src/k8s.io/component-base/logs/json/json.go`.
 *
 *     {"ts":1747628407512.3442,"caller":"kubelet/kubelet.go:2321","msg":"Starting kubelet main sync loop","v":0}
 *     {"ts":1747628409001.877,"caller":"kubelet/kubelet.go:3002","msg":"Container runtime network not ready","err":"cni plugin not initialized"}
 *
 * `ts` is a float of milliseconds since the epoch (UTC); there is no level key: a line with `err`
 * is an error, `v` > 0 debug, else info. `caller`, `logger` and the structured keys become fields
 * (non-string values as JSON text). The time is the exact UTC instant (year and offset 0 set;
 * precision µs when `ts` has a fraction, else ms). A file may mix in klog text lines (a few
 * startup lines): they are read as klog.
 */
import { type ComponentLine, componentRecord } from "./component-line";
import { klogComponentFromPath, parseKlogText } from "./klog";
import { sniffRatio } from "./sniff-util";
import { utcWallTime } from "./time-util";
import type { FormatSpec, LineParser, LineResult, ParseContext, Severity } from "./types";

const PREFIX = /^\{"ts":(\d{10,14}(?:\.\d+)?),"(?:caller|logger|msg)"/;

/** Parse one klog JSON line; null when `s` is not one. */
export function parseKlogJson(s: string): ComponentLine | null {
  if (s.charCodeAt(0) !== 123 || s.charCodeAt(1) !== 34 || s.charCodeAt(2) !== 116) return null; // {"t
  const m = PREFIX.exec(s);
  if (!m) return null;
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(s) as Record<string, unknown>;
  } catch {
    return null;
  }
  const ts = obj.ts;
  if (typeof ts !== "number" || !Number.isFinite(ts)) return null;
  const severity: Severity = obj.err !== undefined ? 3 : typeof obj.v === "number" && obj.v > 0 ? 0 : 1;
  const out: ComponentLine = {
    time: utcWallTime(ts, m[1].includes(".") ? "us" : "ms"),
    severity,
    message: typeof obj.msg === "string" ? obj.msg : "",
    component: null,
  };
  let fields: Record<string, string> | undefined;
  for (const k in obj) {
    if (k === "ts" || k === "msg" || k === "v") continue;
    const v = obj[k];
    (fields ??= {})[k] = typeof v === "string" ? v : JSON.stringify(v);
  }
  if (fields) out.fields = fields;
  return out;
}

class KlogJsonParser implements LineParser {
  private readonly component: string;
  constructor(ctx: ParseContext) {
    this.component = klogComponentFromPath(ctx.path);
  }
  parseLine(line: string): LineResult {
    const c = parseKlogJson(line) ?? parseKlogText(line);
    return c ? { type: "record", record: componentRecord(c, this.component, c.pid !== undefined) } : null;
  }
}

const SNIFF = /^\{"ts":\d{10,14}(?:\.\d+)?,"(?:caller|logger|msg)"/;

/** Format spec: klog JSON files (kubelet `--logging-format=json`). */
export const klogJsonSpec: FormatSpec = {
  name: "klog-json",
  kind: "kubelet",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser: (ctx) => new KlogJsonParser(ctx),
  samples: [
    {
      line: '{"ts":1747628407512.3442,"caller":"kubelet/kubelet.go:2321","msg":"Starting kubelet main sync loop","v":0}',
      path: "var/log/kubelet.log",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 512, offsetMin: 0, precision: "us" },
        component: "kubelet",
        severity: 1,
        message: "Starting kubelet main sync loop",
        fields: { caller: "kubelet/kubelet.go:2321" },
      },
    },
    {
      line: '{"ts":1747628409001.877,"caller":"kubelet/kubelet.go:3002","msg":"Container runtime network not ready","networkReady":"NetworkReady=false","err":"cni plugin not initialized"}',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 9, ms: 1, offsetMin: 0, precision: "us" },
        severity: 3,
        message: "Container runtime network not ready",
        fields: { caller: "kubelet/kubelet.go:3002", networkReady: "NetworkReady=false", err: "cni plugin not initialized" },
      },
    },
  ],
  notMine: [
    '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
    '{"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"x"}',
    '{"ts":"2025-05-19T04:20:08Z","msg":"string ts"}',
  ],
};
