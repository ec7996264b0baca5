/**
 * Kubernetes events as JSON (`kubectl get events -o json`, troubleshoot
 * `cluster-resources/events/<ns>.json`): FORMATS.md 3.14, 5b rule EJ; upstream kubectl printers and
 * troubleshoot `pkg/collect/cluster_resources.go` (json.MarshalIndent, 2 spaces).
 *
 * An `EventList` document pretty-printed over many lines (or compact on one), a single `Event`
 * object, a top-level array of events, or several documents in a row. Each event is one record:
 *
 * - `epochMs` = lastTimestamp, else series.lastObservedTime, eventTime, firstTimestamp,
 *   metadata.creationTimestamp (UTC ms; precision s for the second-precision stamps, µs for MicroTime);
 * - `k8sEvent`: reason, type, count (count, else series.count, else 1), involved object, node
 *   (source.host, else reportingInstance, else the involved Node), first/last seen (UTC ms);
 * - `fields`: reason, type, count, object (`kind/name`), pod (`namespace/name` when the object is a
 *   Pod), node, source;
 * - severity warn for `Warning`, info otherwise; component `k8s-events`.
 *
 * The parser is *deferred*: `parseLine` claims the document's lines while a character scanner (no
 * JSON.parse per line) tracks where each event object starts and ends; `end()` decodes each event's
 * own text with JSON.parse, so a truncated file still yields its complete events.
 */
import { isoToUtc } from "./time-util";
import type { FormatSpec, K8sEventInfo, LineParser, LineResult, ParsedRecord, Precision } from "./types";

interface Span {
  startLine: number;
  start: number;
  endLine: number;
  end: number;
}

type Json = Record<string, unknown>;

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

function obj(v: unknown): Json {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {};
}

function stamp(v: unknown): { ms: number; precision: Precision } | null {
  return typeof v === "string" ? isoToUtc(v) : null;
}

/** Build the record of one decoded event object; null when it is not an event. */
export function eventRecord(ev: Json): ParsedRecord | null {
  const inv = obj(ev.involvedObject ?? ev.regarding);
  const hasEventShape = ev.reason !== undefined || ev.involvedObject !== undefined || ev.regarding !== undefined;
  if (!hasEventShape || (typeof ev.kind === "string" && ev.kind !== "Event")) return null;
  const meta = obj(ev.metadata);
  const source = obj(ev.source ?? ev.deprecatedSource);
  const series = obj(ev.series);
  const last =
    stamp(ev.lastTimestamp ?? ev.deprecatedLastTimestamp) ??
    stamp(series.lastObservedTime) ??
    stamp(ev.eventTime) ??
    stamp(ev.firstTimestamp ?? ev.deprecatedFirstTimestamp) ??
    stamp(meta.creationTimestamp);
  const first = stamp(ev.firstTimestamp ?? ev.deprecatedFirstTimestamp) ?? stamp(ev.eventTime);
  const namespace = str(inv.namespace) ?? str(meta.namespace);
  const kind = str(inv.kind);
  const name = str(inv.name);
  const type = str(ev.type) ?? "Normal";
  const reason = str(ev.reason) ?? "";
  const rawCount = typeof ev.count === "number" ? ev.count : typeof ev.deprecatedCount === "number" ? ev.deprecatedCount : typeof series.count === "number" ? series.count : 1;
  const count = rawCount > 0 ? rawCount : 1;
  const node = str(source.host) ?? str(ev.reportingInstance) ?? (kind === "Node" ? name : null);
  const info: K8sEventInfo = {
    reason,
    type,
    count,
    namespace,
    objectKind: kind,
    objectName: name,
    node,
    firstMs: first ? first.ms : null,
    lastMs: last ? last.ms : null,
  };
  const fields: Record<string, string> = { reason, type, count: String(count) };
  if (kind && name) fields.object = `${kind}/${name}`;
  if (kind === "Pod" && name) fields.pod = namespace ? `${namespace}/${name}` : name;
  if (node) fields.node = node;
  const src = str(source.component) ?? str(ev.reportingComponent) ?? str(ev.reportingController);
  if (src) fields.source = src;
  return {
    time: null,
    epochMs: last ? last.ms : null,
    epochPrecision: last ? last.precision : undefined,
    component: "k8s-events",
    severity: type === "Warning" ? 2 : 1,
    message: typeof ev.note === "string" ? ev.note : typeof ev.message === "string" ? ev.message : "",
    fields,
    k8sEvent: info,
  };
}

/**
 * Character scanner over the document lines: finds the spans of event objects (items of an
 * `"items"` array of a top-level object, elements of a top-level array, or top-level objects).
 */
class EventsJsonParser implements LineParser {
  readonly deferred = true;
  private readonly lines: string[] = [];
  private readonly lineNos: number[] = [];
  private offset = 0; // offset of the current line in lines.join("\n")
  private stack: number[] = []; // 123 { or 91 [
  private keys: Array<string | null> = []; // key each container was opened under
  private inString = false;
  private escaped = false;
  private strStart = -1; // offset in the current line of the string being read (top level only)
  private lastString: string | null = null;
  private pendingKey: string | null = null;
  private itemStart: { line: number; off: number; depth: number } | null = null;
  private topStart: { line: number; off: number; items: number } | null = null;
  private readonly spans: Span[] = [];
  private broken = false;

  parseLine(line: string, lineNo = this.lines.length + 1): LineResult {
    if (this.broken) return null;
    if (this.stack.length === 0 && !this.inString) {
      // outside a document only `{` / `[` may start one (after blanks)
      const t = line.trimStart();
      const c = t.charCodeAt(0);
      if (c !== 123 && c !== 91 && t !== "," && t !== "") return null;
    }
    this.lines.push(line);
    this.lineNos.push(lineNo);
    this.scan(line, lineNo);
    this.offset += line.length + 1;
    return { type: "continuation", text: "" };
  }

  private scan(s: string, lineNo: number): void {
    const n = s.length;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 92) this.escaped = true;
        else if (c === 34) {
          this.inString = false;
          if (this.strStart >= 0) {
            this.lastString = s.slice(this.strStart, i);
            this.strStart = -1;
          }
        }
        continue;
      }
      switch (c) {
        case 34: // "
          this.inString = true;
          this.strStart = this.stack.length === 1 ? i + 1 : -1;
          this.lastString = null;
          break;
        case 58: // :
          if (this.stack.length === 1) this.pendingKey = this.lastString;
          break;
        case 44: // ,
          this.pendingKey = null;
          break;
        case 123: // {
        case 91: {
          // [
          const depth = this.stack.length;
          const abs = this.offset + i;
          if (c === 123) {
            if (depth === 0) this.topStart = { line: lineNo, off: abs, items: 0 };
            else if (
              this.itemStart === null &&
              ((depth === 1 && this.stack[0] === 91) || (depth === 2 && this.stack[1] === 91 && this.keys[1] === "items"))
            ) {
              this.itemStart = { line: lineNo, off: abs, depth };
            }
          } else if (depth === 0) {
            this.topStart = { line: lineNo, off: abs, items: 0 };
          }
          this.stack.push(c);
          this.keys.push(depth === 1 ? this.pendingKey : null);
          this.pendingKey = null;
          break;
        }
        case 125: // }
        case 93: {
          // ]
          if (this.stack.length === 0) {
            this.broken = true;
            return;
          }
          this.stack.pop();
          this.keys.pop();
          const depth = this.stack.length;
          const abs = this.offset + i + 1;
          if (this.itemStart && depth === this.itemStart.depth) {
            this.spans.push({ startLine: this.itemStart.line, start: this.itemStart.off, endLine: lineNo, end: abs });
            this.itemStart = null;
            if (this.topStart) this.topStart.items++;
          }
          if (depth === 0 && this.topStart) {
            if (this.topStart.items === 0 && c === 125) {
              this.spans.push({ startLine: this.topStart.line, start: this.topStart.off, endLine: lineNo, end: abs });
            }
            this.topStart = null;
          }
          break;
        }
        default:
          break;
      }
    }
  }

  end(): Array<{ line: number; record: ParsedRecord; endLine?: number }> {
    if (this.spans.length === 0) return [];
    const text = this.lines.join("\n");
    const out: Array<{ line: number; record: ParsedRecord; endLine?: number }> = [];
    for (const sp of this.spans) {
      let ev: unknown;
      try {
        ev = JSON.parse(text.slice(sp.start, sp.end));
      } catch {
        continue;
      }
      const rec = eventRecord(obj(ev));
      if (rec) out.push({ line: sp.startLine, record: rec, endLine: sp.endLine });
    }
    return out;
  }
}

const KIND_RE = /"kind"\s*:\s*"Event(?:List)?"/;
const INVOLVED_RE = /"(?:involvedObject|regarding)"\s*:\s*\{/;

/** Format spec: Kubernetes events as JSON documents (`kubectl get events -o json`, troubleshoot). */
export const k8sEventsJsonSpec: FormatSpec = {
  name: "k8s-events-json",
  kind: "k8s-events",
  sniff(_path, lines) {
    if (lines.length === 0) return false;
    const c = lines[0].trimStart().charCodeAt(0);
    if (c !== 123 && c !== 91) return false;
    for (const l of lines) if (KIND_RE.test(l) || INVOLVED_RE.test(l)) return true;
    return false;
  },
  createParser: () => new EventsJsonParser(),
  samples: [
    {
      line: '{"kind":"EventList","apiVersion":"v1","items":[{"kind":"Event","apiVersion":"v1","metadata":{"name":"ip-10-20-30-40.ec2.internal.183f0c2a9b1e4d77","namespace":"default","creationTimestamp":"2025-05-19T04:20:31Z"},"involvedObject":{"kind":"Node","name":"ip-10-20-30-40.ec2.internal","uid":"ip-10-20-30-40.ec2.internal"},"reason":"Rebooted","message":"Node ip-10-20-30-40.ec2.internal has been rebooted, boot id: a91e07c2-5d3f-4b08-b6e2-f4c1d9a07e33","source":{"component":"kubelet","host":"ip-10-20-30-40.ec2.internal"},"firstTimestamp":"2025-05-19T04:20:31Z","lastTimestamp":"2025-05-19T04:20:31Z","count":1,"type":"Warning","eventTime":null,"reportingComponent":"kubelet","reportingInstance":"ip-10-20-30-40.ec2.internal"}]}',
      expect: {
        time: null,
        epochMs: Date.UTC(2025, 4, 19, 4, 20, 31),
        epochPrecision: "s",
        component: "k8s-events",
        severity: 2,
        message: "Node ip-10-20-30-40.ec2.internal has been rebooted, boot id: a91e07c2-5d3f-4b08-b6e2-f4c1d9a07e33",
        k8sEvent: {
          reason: "Rebooted",
          type: "Warning",
          count: 1,
          namespace: "default",
          objectKind: "Node",
          objectName: "ip-10-20-30-40.ec2.internal",
          node: "ip-10-20-30-40.ec2.internal",
          firstMs: Date.UTC(2025, 4, 19, 4, 20, 31),
          lastMs: Date.UTC(2025, 4, 19, 4, 20, 31),
        },
      },
    },
    {
      // events.k8s.io-style: eventTime + series, no first/last timestamps
      line: '{"kind":"Event","apiVersion":"v1","metadata":{"name":"web.1","namespace":"default"},"involvedObject":{"kind":"Pod","namespace":"default","name":"web-7d9c6b5f4-x2x9q"},"reason":"FailedCreatePodSandBox","message":"Failed to create pod sandbox","source":{},"firstTimestamp":null,"lastTimestamp":null,"type":"Warning","eventTime":"2025-05-19T04:20:11.204518Z","series":{"count":7,"lastObservedTime":"2025-05-19T04:21:02.000001Z"},"reportingComponent":"kubelet","reportingInstance":"ip-10-20-30-40"}',
      expect: {
        epochMs: Date.UTC(2025, 4, 19, 4, 21, 2),
        epochPrecision: "us",
        fields: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: "7",
          object: "Pod/web-7d9c6b5f4-x2x9q",
          pod: "default/web-7d9c6b5f4-x2x9q",
          node: "ip-10-20-30-40",
          source: "kubelet",
        },
      },
    },
  ],
  notMine: [
    '{"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"x"}',
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE",
  ],
};
