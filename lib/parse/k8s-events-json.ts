/**
 * Kubernetes events as JSON (`kubectl get events -o json`, troubleshoot
 * `cluster-resources/events/<ns>.json`; docs/formats-events.md); upstream kubectl printers and
 * troubleshoot `pkg/collect/cluster_resources.go` (json.MarshalIndent, 2 spaces).
 *
 * An `EventList` document pretty-printed over many lines (or compact on one), a single `Event`
 * object, a top-level array of events, several documents in a row (`kubectl get events -w -o json`),
 * watch events wrapping them (`--output-watch-events`: `{"type":"ADDED","object":{…}}`), or a paste
 * cut at either end (only complete event objects become records; a paste cut inside its first
 * event is recognised by its lines all being pretty-printed JSON). Both API shapes: core/v1
 * (`involvedObject`, `message`, `source`, `firstTimestamp`/`lastTimestamp`, `count`) and
 * events.k8s.io/v1 (`regarding`, `note`, `deprecatedSource`, `deprecatedFirstTimestamp`/
 * `deprecatedLastTimestamp`, `deprecatedCount`, `eventTime`, `series`, `reportingController`,
 * `reportingInstance`). Each event is one record:
 *
 * - `epochMs` = lastTimestamp, else series.lastObservedTime, eventTime, firstTimestamp,
 *   metadata.creationTimestamp (UTC ms; precision s for the second-precision stamps, µs for MicroTime);
 * - `k8sEvent`: reason, type, count (series.count when a series is set, as kubectl prints it, else
 *   count, else 1), involved object, node (source.host, else reportingInstance when the reporter is
 *   the kubelet, else the involved Node), first/last seen (UTC ms);
 * - `fields`: reason, type, count, object (`kind/name`), pod (`namespace/name` when the object is a
 *   Pod), node, source;
 * - severity warn for `Warning`, info otherwise; component `k8s-events`.
 *
 * The parser is *deferred*: `parseLine` claims the document's lines while a character scanner (no
 * JSON.parse per line) tracks where each event object starts and ends; `end()` decodes each event's
 * own text with JSON.parse, so a truncated file still yields its complete events.
 */
import { isoToUtc } from "./helpers/time-util";
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
export function eventRecord(doc: Json): ParsedRecord | null {
  // a watch event (`kubectl get events -w -o json --output-watch-events`): {"type":"ADDED","object":{…}}
  const ev = doc.object !== null && typeof doc.object === "object" && doc.involvedObject === undefined && doc.regarding === undefined ? obj(doc.object) : doc;
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
  // kubectl prints series.count whenever a series is set (printers.go printEvent)
  const rawCount =
    typeof series.count === "number" ? series.count : typeof ev.count === "number" ? ev.count : typeof ev.deprecatedCount === "number" ? ev.deprecatedCount : 1;
  const count = rawCount > 0 ? rawCount : 1;
  const controller = str(source.component) ?? str(ev.reportingComponent) ?? str(ev.reportingController);
  // reportingInstance names the node only for the kubelet (the scheduler's is `default-scheduler-<host>`)
  const kubeletInstance = controller !== null && /(?:^|\/)kubelet$/.test(controller) ? str(ev.reportingInstance) : null;
  const node = str(source.host) ?? kubeletInstance ?? (kind === "Node" ? name : null);
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
  if (controller) fields.source = controller;
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
  /** no line was refused and no document opened yet: JSON fragments are the rest of a cut event */
  private headOnly = true;

  parseLine(line: string, lineNo = this.lines.length + 1): LineResult {
    if (this.broken) return null;
    if (this.stack.length === 0 && !this.inString) {
      // outside a document only `{` / `[` may start one (after blanks)
      const t = line.trimStart();
      const c = t.charCodeAt(0);
      if (c !== 123 && c !== 91 && t !== "," && t !== "") {
        // a paste cut inside an event: its rest, before any document opens, is the file's head
        if (this.lines.length === 0 && this.headOnly && (JSON_LINE_RE.test(line) || CUT_TAIL_RE.test(line))) return { type: "continuation", text: "" };
        this.headOnly = false;
        return null;
      }
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
      if (this.inString) {
        // the string's body in one loop: to its closing quote, the character after a backslash skipped
        let esc = this.escaped;
        let j = i;
        for (; j < n; j++) {
          const b = s.charCodeAt(j);
          if (esc) esc = false;
          else if (b === 92) esc = true;
          else if (b === 34) break;
        }
        this.escaped = esc;
        if (j >= n) return; // the line ends inside the string
        this.inString = false;
        if (this.strStart >= 0) {
          this.lastString = s.slice(this.strStart, j);
          this.strStart = -1;
        }
        i = j;
        continue;
      }
      const c = s.charCodeAt(i);
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
            else if (this.itemStart === null && ((depth === 1 && this.stack[0] === 91) || (depth === 2 && this.stack[1] === 91 && this.keys[1] === "items"))) {
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
/** A line of pretty-printed JSON: a member, a bracket, or a scalar in an array. */
/** The rest of a compact object cut at its start: members, then its closing brace (`…Z", "type": "Warning"}`). */
const CUT_TAIL_RE = /"\s*:\s*(?:"|\d|\{|\[|null|true|false)[\s\S]*[}\]],?\s*$/;
const JSON_LINE_RE = /^\s*(?:"(?:[^"\\]|\\.)*"\s*(?::|,?\s*$)|[{}[\]]|-?\d|true\b|false\b|null\b)/;

/** Format spec: Kubernetes events as JSON documents (`kubectl get events -o json`, troubleshoot). */
export const k8sEventsJsonSpec: FormatSpec = {
  name: "k8s-events-json",
  kind: "k8s-events",
  sniff(_path, lines) {
    if (lines.length === 0) return false;
    const c = lines[0].trimStart().charCodeAt(0);
    let events = false;
    for (const l of lines) if (KIND_RE.test(l) || INVOLVED_RE.test(l)) events = true;
    if (!events) return false;
    if (c === 123 || c === 91) return true;
    // objects one per line (`-o json` through `jq -c`, a watch) with the first one cut at its start
    let opens = 0;
    for (const l of lines) {
      const o = l.trimStart().charCodeAt(0);
      if (o === 123 || o === 91) opens++;
    }
    if (opens > 0 && opens * 2 >= lines.length && CUT_TAIL_RE.test(lines[0])) return true;
    // a paste cut inside a pretty-printed list: every line is a JSON member, value or bracket
    let json = 0;
    for (const l of lines) if (JSON_LINE_RE.test(l)) json++;
    return json * 10 >= lines.length * 9;
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
    {
      // events.k8s.io/v1 as `kubectl get events.v1.events.k8s.io -o json` prints it
      line: '{"kind":"Event","apiVersion":"events.k8s.io/v1","metadata":{"name":"calico-node-8x2kq.17d2a6b0c1e3f4a5","namespace":"kube-system"},"eventTime":null,"reportingController":"kubelet","reportingInstance":"worker-4","action":"","reason":"FailedCreatePodSandBox","regarding":{"kind":"Pod","namespace":"kube-system","name":"csi-node-7tq5w"},"note":"Failed to create pod sandbox: plugin type=\\"calico\\" failed (add)","type":"Warning","deprecatedSource":{"component":"kubelet","host":"worker-4"},"deprecatedFirstTimestamp":"2024-06-30T22:10:04Z","deprecatedLastTimestamp":"2024-06-30T22:14:51Z","deprecatedCount":23}',
      expect: {
        epochMs: Date.UTC(2024, 5, 30, 22, 14, 51),
        epochPrecision: "s",
        message: 'Failed to create pod sandbox: plugin type=\"calico\" failed (add)',
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 23,
          namespace: "kube-system",
          objectKind: "Pod",
          objectName: "csi-node-7tq5w",
          node: "worker-4",
          firstMs: Date.UTC(2024, 5, 30, 22, 10, 4),
          lastMs: Date.UTC(2024, 5, 30, 22, 14, 51),
        },
      },
    },
    {
      // a watch event of `kubectl get events -w -o json --output-watch-events`; the scheduler's reportingInstance is no node
      line: '{"type":"ADDED","object":{"kind":"Event","apiVersion":"v1","metadata":{"name":"web-1.1","namespace":"shop"},"involvedObject":{"kind":"Pod","namespace":"shop","name":"web-1"},"reason":"Scheduled","message":"Successfully assigned shop/web-1 to worker-4","source":{},"firstTimestamp":null,"lastTimestamp":null,"type":"Normal","eventTime":"2024-06-30T22:10:01.518733Z","reportingComponent":"default-scheduler","reportingInstance":"default-scheduler-master-1"}}',
      expect: {
        epochMs: Date.UTC(2024, 5, 30, 22, 10, 1, 518),
        epochPrecision: "us",
        fields: { reason: "Scheduled", type: "Normal", count: "1", object: "Pod/web-1", pod: "shop/web-1", source: "default-scheduler" },
      },
    },
  ],
  notMine: [
    '{"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"x"}',
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE",
  ],
};
