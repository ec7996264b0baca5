/**
 * Kubernetes events as YAML (`kubectl get events -o yaml`, must-gather
 * `namespaces/<ns>/core/events.yaml`; docs/formats-events.md).
 *
 *     apiVersion: v1
 *     items:
 *     - apiVersion: v1
 *       count: 1
 *       firstTimestamp: "2025-05-19T04:20:31Z"
 *       involvedObject:
 *         kind: Node
 *         name: ip-10-20-30-40.ec2.internal
 *       lastTimestamp: "2025-05-19T04:20:31Z"
 *       message: 'Node ip-10-20-30-40.ec2.internal has been rebooted, boot id: a91e07c2-5d3f-4b08-b6e2-f4c1d9a07e33'
 *       reason: Rebooted
 *       ...
 *     kind: List
 *
 * An `EventList`/`List` whose `items` are events, a single `Event`, a top-level sequence, or
 * several `---` documents. Each event is one record, built exactly as for JSON
 * (k8s-events-json.ts `eventRecord`). The parser is deferred: it claims the document's lines and
 * decodes the whole text at the end with the `yaml` package (YAML 1.2 core schema: timestamps stay
 * strings), taking each event's first and last line from the node ranges. go-yaml's wrapped long
 * scalars (continuation lines) are folded back by the YAML parser.
 */
import { isMap, isSeq, LineCounter, parseAllDocuments, type Node as YamlNode } from "yaml";
import { eventRecord } from "./k8s-events-json";

function obj(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
import type { FormatSpec, LineParser, LineResult, ParsedRecord } from "./types";

class EventsYamlParser implements LineParser {
  readonly deferred = true;
  private readonly lines: string[] = [];
  private firstLineNo = 0;
  private started = false;

  parseLine(line: string, lineNo = this.lines.length + 1): LineResult {
    if (!this.started) {
      if (!START_RE.test(line) || /^---\s*\S/.test(line)) return null;
      this.started = true;
      this.firstLineNo = lineNo;
    }
    // keep line positions: blank lines are not passed in, so pad to the physical line
    while (this.firstLineNo + this.lines.length < lineNo) this.lines.push("");
    this.lines.push(line);
    return { type: "continuation", text: "" };
  }

  end(): Array<{ line: number; record: ParsedRecord; endLine?: number }> {
    if (!this.lines.length) return [];
    const lc = new LineCounter();
    const text = this.lines.join("\n");
    let docs;
    try {
      docs = parseAllDocuments(text, { lineCounter: lc, uniqueKeys: false });
    } catch {
      return [];
    }
    let textEnd = text.length;
    while (textEnd > 0 && (text[textEnd - 1] === "\n" || text[textEnd - 1] === " ")) textEnd--;
    const out: Array<{ line: number; record: ParsedRecord; endLine?: number }> = [];
    const docList = Array.isArray(docs) ? docs : [docs];
    const emit = (node: YamlNode | null | undefined) => {
      if (!node || !isMap(node) || !node.range) return;
      let value: unknown;
      try {
        value = node.toJSON();
      } catch {
        return;
      }
      const ev = (value ?? {}) as Record<string, unknown>;
      const rec = eventRecord(ev);
      if (!rec) return;
      const start = lc.linePos(node.range[0]).line;
      // range[1] is the end of the value: back off trailing newlines to the event's last line
      let endOff = node.range[1];
      while (endOff > node.range[0] && (text[endOff - 1] === "\n" || text[endOff - 1] === " ")) endOff--;
      const end = lc.linePos(Math.max(node.range[0], endOff - 1)).line;
      // an event running to the end of a cut paste may have lost its last keys: kubectl writes them
      // sorted, so an event without its `type` (the last key) was cut short and is left out
      if (endOff >= textEnd && ev.type === undefined && (ev.object === undefined || obj(ev.object).type === undefined)) return;
      out.push({ line: this.firstLineNo + start - 1, record: rec, endLine: this.firstLineNo + end - 1 });
    };
    for (const doc of docList) {
      const root = doc.contents as YamlNode | null;
      if (!root) continue;
      if (isSeq(root)) for (const it of root.items) emit(it as YamlNode);
      else if (isMap(root)) {
        const items = root.get("items", true) as YamlNode | undefined;
        if (items && isSeq(items)) for (const it of items.items) emit(it as YamlNode);
        else emit(root);
      }
    }
    return out;
  }
}

const KIND = /^kind:\s*(?:EventList|Event)\s*$/;
/** A line that may open a YAML events document: `---`, a top-level key, or a top-level sequence item. */
const START_RE = /^(?:---|[A-Za-z_"][\w"-]*:(?:\s|$)|- )/;

/** Format spec: Kubernetes events as YAML documents. */
export const k8sEventsYamlSpec: FormatSpec = {
  name: "k8s-events-yaml",
  kind: "k8s-events",
  sniff(path, lines) {
    // a paste cut inside an item starts with that item's indented lines
    const start = lines.findIndex((l) => l.charCodeAt(0) !== 32);
    if (start < 0 || !START_RE.test(lines[start])) return false;
    if (start > 0 && !lines.slice(0, start).every((l) => /^\s+(?:- )?[\w"-]+:(?:\s|$)/.test(l) || /^\s+- /.test(l))) return false;
    if (lines.some((l) => KIND.test(l))) return true;
    const list = lines.some((l) => /^items:\s*$/.test(l) || /^- /.test(l));
    return (
      list && (lines.some((l) => /^\s*(?:- )?involvedObject:\s*$/.test(l) || /^\s*(?:- )?kind:\s*Event\s*$/.test(l)) || /(?:^|\/)events\.ya?ml$/.test(path))
    );
  },
  createParser: () => new EventsYamlParser(),
  samples: [
    {
      context: [
        "apiVersion: v1",
        "items:",
        "- apiVersion: v1",
        "  count: 1",
        "  eventTime: null",
        '  firstTimestamp: "2025-05-19T04:20:31Z"',
        "  involvedObject:",
        "    kind: Node",
        "    name: ip-10-20-30-40.ec2.internal",
        "    uid: ip-10-20-30-40.ec2.internal",
        "  kind: Event",
        '  lastTimestamp: "2025-05-19T04:20:31Z"',
      ],
      line: "  message: 'Node ip-10-20-30-40.ec2.internal has been rebooted, boot id: a91e07c2-5d3f-4b08-b6e2-f4c1d9a07e33'",
      after: [
        "  metadata:",
        "    name: ip-10-20-30-40.ec2.internal.183f0c2a9b1e4d77",
        "    namespace: default",
        "  reason: Rebooted",
        "  source:",
        "    component: kubelet",
        "    host: ip-10-20-30-40.ec2.internal",
        "  type: Warning",
        "kind: List",
        "metadata:",
        '  resourceVersion: ""',
      ],
      expect: {
        time: null,
        epochMs: Date.UTC(2025, 4, 19, 4, 20, 31),
        epochPrecision: "s",
        component: "k8s-events",
        severity: 2,
        message: "Node ip-10-20-30-40.ec2.internal has been rebooted, boot id: a91e07c2-5d3f-4b08-b6e2-f4c1d9a07e33",
        fields: {
          reason: "Rebooted",
          type: "Warning",
          count: "1",
          object: "Node/ip-10-20-30-40.ec2.internal",
          node: "ip-10-20-30-40.ec2.internal",
          source: "kubelet",
        },
      },
    },
    {
      // a single Event document; go-yaml wrapped the long message over two lines
      context: [
        "apiVersion: v1",
        "count: 3",
        'firstTimestamp: "2025-05-19T04:20:11Z"',
        "involvedObject:",
        "  kind: Pod",
        "  name: web-7d9c6b5f4-x2x9q",
        "  namespace: default",
        "kind: Event",
        'lastTimestamp: "2025-05-19T04:20:41Z"',
      ],
      line: "message: 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to",
      after: [
        '  setup network for sandbox "5f1c": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory\'',
        "reason: FailedCreatePodSandBox",
        "source:",
        "  component: kubelet",
        "  host: ip-10-20-30-40",
        "type: Warning",
      ],
      expect: {
        epochMs: Date.UTC(2025, 4, 19, 4, 20, 41),
        message:
          'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "5f1c": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory',
        fields: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: "3",
          object: "Pod/web-7d9c6b5f4-x2x9q",
          pod: "default/web-7d9c6b5f4-x2x9q",
          node: "ip-10-20-30-40",
          source: "kubelet",
        },
      },
    },
  ],
  notMine: [
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    '{"kind":"EventList","apiVersion":"v1","items":[]}',
    "LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE",
  ],
};
