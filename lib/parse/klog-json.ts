/**
 * Kubernetes components with `--logging-format=json` (klog JSON);
 * upstream kubernetes `staging/src/k8s.io/component-base/logs/json/json.go` (zap encoder).
 *
 *     {"ts":1747628407512.3442,"caller":"kubelet/kubelet.go:2321","msg":"Starting kubelet main sync loop","v":0}
 *     {"ts":1747628409001.877,"caller":"kubelet/kubelet.go:3002","msg":"Container runtime network not ready","err":"cni plugin not initialized"}
 *     {"ts":1580306777.04728,"v":4,"msg":"Pod status updated"}          (early releases: epoch seconds)
 *
 * `ts` is a number of milliseconds since the epoch (UTC), in early releases seconds: told apart by
 * magnitude (below 1e11 = seconds) and floored to the ms from the printed digits. There is no level
 * key: `InfoS` writes the verbosity `v` (info, whatever its value), `ErrorS` writes no `v` and an
 * `err` when it has one: a record with `err`, or without `v`, is an error. An object with
 * a `level` key is zap/another JSON layout, not this one. `caller`, `logger` and the structured keys
 * become fields (non-string values as JSON text). The time is the exact UTC instant (year and
 * offset 0 set; precision µs for a fractional ms stamp, else ms; seconds by their digits).
 *
 * Pasted or printed by a terminal, an object may hold raw line breaks inside its strings (a value
 * with a newline): the lines after an object left open, until it closes, are continuations of its
 * record (a break inside a string reads as `\n`). An object that never closes (cut) is still a
 * record, read as far as it goes. A file may mix in klog text lines (a few startup lines): they are
 * read as klog.
 */
import { otherFields } from "./helpers/json-fields";
import { type ComponentLine, componentRecord } from "./helpers/component-line";
import { klogComponentFromPath, parseKlogText } from "./klog";
import { sniffRatio } from "./helpers/sniff-util";
import { utcWallTime } from "./helpers/time-util";
import type { FormatSpec, LineParser, LineResult, ParseContext, ParsedRecord, Precision, Severity, WallTime } from "./types";

const PREFIX = /^\{"ts":(\d{10,14})(?:\.(\d+))?,"(?:caller|logger|msg|v)"/;

/** Epoch values below this are seconds (1e11 s is the year 5138; 1e11 ms is 1973). */
const SECONDS_BELOW = 1e11;

/**
 * The UTC instant of a `ts` as printed: `int` digits and `frac` digits (may be empty). Seconds or
 * milliseconds told apart by magnitude; floored to the ms from the digits (no float rounding).
 */
export function klogJsonTime(int: string, frac: string): WallTime {
  const v = Number(int);
  if (v < SECONDS_BELOW) {
    const ms3 = (frac + "000").slice(0, 3);
    const precision: Precision = frac.length === 0 ? "s" : frac.length <= 3 ? "ms" : frac.length <= 6 ? "us" : "ns";
    return utcWallTime(v * 1000 + Number(ms3), precision);
  }
  return utcWallTime(v, frac.length === 0 ? "ms" : "us");
}

/** The component line of a parsed klog JSON object (`obj.ts` already checked), or null when it is another JSON layout. */
function fromObject(obj: Record<string, unknown>, int: string, frac: string): ComponentLine | null {
  if (obj.level !== undefined || obj.severity !== undefined) return null; // zap / cloud JSON, not klog
  // InfoS writes `v`; ErrorS writes no `v`, and `err` when it has one
  const severity: Severity = obj.err !== undefined || obj.v === undefined ? 3 : 1;
  const out: ComponentLine = {
    time: klogJsonTime(int, frac),
    severity,
    message: typeof obj.msg === "string" ? obj.msg : "",
    component: null,
  };
  const fields = otherFields(obj, "ts", "msg", "v");
  if (fields) out.fields = fields;
  return out;
}

/** Parse one klog JSON line; null when `s` is not one (or is not a whole JSON object). */
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
  if (typeof obj.ts !== "number" || !Number.isFinite(obj.ts)) return null;
  return fromObject(obj, m[1], m[2] ?? "");
}

/** Scan state of a JSON text read in pieces: nesting depth, inside a string, after a backslash. */
interface JsonScan {
  depth: number;
  inString: boolean;
  escape: boolean;
}

function scanJson(s: string, st: JsonScan): void {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (st.inString) {
      if (st.escape) st.escape = false;
      else if (c === 92) st.escape = true;
      else if (c === 34) st.inString = false;
    } else if (c === 34) st.inString = true;
    else if (c === 123 || c === 91) st.depth++;
    else if (c === 125 || c === 93) st.depth--;
  }
}

/**
 * Best reading of an unterminated klog JSON object (cut, or open across raw line breaks): the text
 * closed where it stops (an open string and the open objects closed), else the object up to its
 * last complete member. Null when even that does not parse.
 */
function parseOpen(text: string, st: JsonScan, int: string, frac: string): ComponentLine | null {
  let body = text;
  if (st.escape) body = body.slice(0, -1);
  const closers = "}".repeat(Math.max(1, st.depth));
  const tries = [body + (st.inString ? '"' : "") + closers];
  const lastComma = body.lastIndexOf(',"');
  if (lastComma > 0) tries.push(body.slice(0, lastComma) + closers);
  for (const t of tries) {
    try {
      const obj = JSON.parse(t) as Record<string, unknown>;
      if (obj && typeof obj === "object") return fromObject(obj, int, frac);
    } catch {
      // next try
    }
  }
  return null;
}

/** An object still open at the end of its line: its text so far, scan state and record. */
interface OpenObject {
  text: string;
  st: JsonScan;
  int: string;
  frac: string;
  rec: ParsedRecord;
}

class KlogJsonParser implements LineParser {
  private readonly component: string;
  private open: OpenObject | null = null;
  /** records opened across lines are completed by later lines */
  readonly settled = false;

  constructor(ctx: ParseContext) {
    this.component = klogComponentFromPath(ctx.path);
  }

  parseLine(line: string): LineResult {
    const open = this.open;
    if (open !== null) {
      // a new object starts: the open one was cut
      if (line.charCodeAt(0) === 123 && PREFIX.test(line)) this.open = null;
      else {
        // a raw line break inside a string is `\n` there; between tokens it is white space
        open.text += (open.st.inString ? "\\n" : " ") + line;
        scanJson(line, open.st);
        const done = open.st.depth <= 0 && !open.st.inString;
        const c = done ? parseKlogJsonWhole(open.text, open.int, open.frac) : parseOpen(open.text, open.st, open.int, open.frac);
        if (c) this.update(open.rec, c);
        if (done) this.open = null;
        return { type: "continuation", text: "" };
      }
    }
    const whole = parseKlogJson(line);
    if (whole) return { type: "record", record: componentRecord(whole, this.component, false) };
    if (line.charCodeAt(0) === 123) {
      const m = PREFIX.exec(line);
      if (m) {
        const st: JsonScan = { depth: 0, inString: false, escape: false };
        scanJson(line, st);
        if (st.depth > 0) {
          const c = parseOpen(line, st, m[1], m[2] ?? "");
          if (c) {
            const rec = componentRecord(c, this.component, false);
            this.open = { text: line, st, int: m[1], frac: m[2] ?? "", rec };
            return { type: "record", record: rec };
          }
        }
      }
      return null;
    }
    const k = parseKlogText(line);
    return k ? { type: "record", record: componentRecord(k, this.component, k.pid !== undefined) } : null;
  }

  /** Refill a record returned earlier from the object read further. */
  private update(rec: ParsedRecord, c: ComponentLine): void {
    rec.severity = c.severity;
    rec.message = c.message;
    if (c.fields) {
      const f = rec.fields ?? (rec.fields = {});
      Object.assign(f, c.fields);
    }
  }
}

/** A whole object joined from several lines. */
function parseKlogJsonWhole(text: string, int: string, frac: string): ComponentLine | null {
  try {
    const obj = JSON.parse(text) as Record<string, unknown>;
    return obj && typeof obj === "object" ? fromObject(obj, int, frac) : null;
  } catch {
    return null;
  }
}

const SNIFF = /^\{"ts":\d{10,14}(?:\.\d+)?,"(?:caller|logger|msg|v)"/;

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
    {
      // early JSON logging: epoch seconds
      line: '{"ts":1580306777.04728,"v":4,"msg":"Pod status updated","pod":"kube-system/coredns-6d4b75cb6d-9xk2p"}',
      expect: {
        time: { year: 2020, month: 1, day: 29, hour: 14, minute: 6, second: 17, ms: 47, offsetMin: 0, precision: "us" },
        severity: 1,
        message: "Pod status updated",
        fields: { pod: "kube-system/coredns-6d4b75cb6d-9xk2p" },
      },
    },
    {
      // a raw line break inside the msg string: the next line continues the record
      line: '{"ts":1753121301813.3005,"caller":"manager/manager.go:1116","msg":"Failed to create existing container: /kubepods/burstable/pod1f0e/abc: in namespace \\"k8s.io',
      after: ['\\": not found"}'],
      expect: {
        time: { year: 2025, month: 7, day: 21, hour: 18, minute: 8, second: 21, ms: 813, offsetMin: 0, precision: "us" },
        severity: 3,
        message: 'Failed to create existing container: /kubepods/burstable/pod1f0e/abc: in namespace "k8s.io\n": not found',
      },
    },
    {
      // cut inside err: still a record, an error
      line: '{"ts":1753121321286.6409,"caller":"internal/log.go:32","msg":"ListContainerStats with filter from runtime service failed","err":"rpc error: code = Unavailable desc = error reading from server: read unix @->/run/contai',
      expect: {
        time: { year: 2025, month: 7, day: 21, hour: 18, minute: 8, second: 41, ms: 286, offsetMin: 0, precision: "us" },
        severity: 3,
        message: "ListContainerStats with filter from runtime service failed",
        fields: { caller: "internal/log.go:32", err: "rpc error: code = Unavailable desc = error reading from server: read unix @->/run/contai" },
      },
    },
  ],
  notMine: [
    '{"level":"info","ts":1747628408.321,"caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
    '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
    '{"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"x"}',
    '{"ts":"2025-05-19T04:20:08Z","msg":"string ts"}',
  ],
};
