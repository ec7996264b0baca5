/**
 * Google Cloud Logging entries in the two text shapes people copy besides JSON (gcp-logging.ts):
 *
 * 1. The Logs Explorer's expanded entry ("Expand nested fields", copied from the page): the
 *    LogEntry as a tree, one field a line, keys unquoted, string values quoted as displayed (quotes
 *    inside NOT escaped), two spaces after the colon, trailing spaces, nested objects opened with
 *    `key: {` and closed with `}` on a line of its own:
 *
 *        {
 *         insertId:  "1x2y3z"
 *         jsonPayload: {
 *          MESSAGE:  "E0829 01:01:33.384918    1192 kuberuntime_sandbox.go:69] CreatePodSandbox for pod "web-0_default(…)" failed: …"
 *          _HOSTNAME:  "gke-prod-pool-1-0a1b2c3d-x0y1"
 *         }
 *         resource: { labels: { node_name:  "gke-…" } type:  "k8s_node" }   (one key a line as above)
 *         severity:  "ERROR"
 *         timestamp:  "2019-08-29T01:01:33.384918Z"
 *        }
 *
 *    A string value is the text between the first and the last quote of its line; numbers and
 *    booleans are unquoted; arrays open with `key: [`.
 *
 * 2. `gcloud logging read` without `--format` (YAML; gcloud's resource printer): entries as YAML
 *    documents separated by `---`, keys sorted, stamps single-quoted (`timestamp: '2024-…Z'`),
 *    long strings wrapped or quoted as YAML allows:
 *
 *        ---
 *        insertId: 1x2y3z
 *        logName: projects/p/logs/kubelet
 *        resource:
 *          labels:
 *            node_name: gke-c1-default-pool-3f2a1b0c-9xk2
 *          type: k8s_node
 *        textPayload: 'E0322 10:15:02.113201    1842 …'
 *        timestamp: '2024-03-22T10:15:02.113201Z'
 *
 * Both build the same LogEntry object as the JSON export and go through `logEntryRecord`
 * (gcp-logging.ts: payload first, node from `resource.labels.node_name`, …). Both views list newest
 * first: a file whose times never rise and fall at least once is reversed.
 */
import { isMap, isSeq, LineCounter, parseAllDocuments, type Node as YamlNode } from "yaml";
import { isLogEntry, logEntryRecord, neverRiseFallOnce, recordUtc } from "./gcp-logging";
import type { FormatSpec, LineParser, LineResult, ParsedRecord } from "./types";

type Json = Record<string, unknown>;
type Out = Array<{ line: number; record: ParsedRecord; endLine?: number }>;

// ---------------------------------------------------------------------------------------------
// 1. console expanded view

/** `key: rest` with an unquoted (or quoted) key; groups: 1 key, 2 rest */
const FIELD = /^\s*"?([A-Za-z_@$][\w.@$/-]*)"?:(?:\s+(.*?))?\s*$/;
const CLOSE = /^\s*[}\]],?\s*$/;
const ENTRY_FIELD = /^\s+(?:insertId|jsonPayload|textPayload|protoPayload|logName|receiveTimestamp):\s/;

/** A displayed scalar: quoted text (inner quotes as they are), else numbers / booleans as text. */
function scalar(rest: string): string {
  const t = rest.replace(/,\s*$/, "");
  if (t.charCodeAt(0) === 34) {
    const last = t.lastIndexOf('"');
    return last > 0 ? t.slice(1, last) : t.slice(1);
  }
  return t;
}

class ConsoleEntryParser implements LineParser {
  readonly deferred = true;
  newestFirst = false;
  private stack: Array<Json | unknown[]> = [];
  private start = 0;
  private readonly entries: Array<{ entry: Json; line: number; endLine: number }> = [];
  private lastLine = 0;

  parseLine(line: string, lineNo?: number): LineResult {
    const n = lineNo ?? this.lastLine + 1;
    this.lastLine = n;
    const t = line.trim();
    const claimed: LineResult = { type: "continuation", text: "" };
    if (this.stack.length === 0) {
      if (t === "{") {
        this.stack.push({});
        this.start = n;
        return claimed;
      }
      return t === "[" || t === "]" || t === "]," ? claimed : null;
    }
    const top = this.stack[this.stack.length - 1];
    if (CLOSE.test(line)) {
      const done = this.stack.pop() as Json;
      if (this.stack.length === 0) this.entries.push({ entry: done, line: this.start, endLine: n });
      return claimed;
    }
    if (Array.isArray(top)) {
      if (t === "{" || t === "[") {
        const child = t === "{" ? {} : [];
        top.push(child);
        this.stack.push(child);
      } else top.push(scalar(t));
      return claimed;
    }
    const m = FIELD.exec(line);
    if (!m) return claimed; // a value the page wrapped: kept in the entry's lines, not decoded
    const rest = m[2] ?? "";
    if (rest === "{" || rest === "[") {
      const child = rest === "{" ? {} : [];
      top[m[1]] = child;
      this.stack.push(child);
    } else if (rest === "{}" || rest === "[]") top[m[1]] = rest === "{}" ? {} : [];
    else top[m[1]] = scalar(rest);
    return claimed;
  }

  end(): Out {
    // an entry cut at the end of the paste: what it holds so far
    if (this.stack.length > 0) this.entries.push({ entry: this.stack[0] as Json, line: this.start, endLine: this.lastLine });
    this.stack = [];
    const out: Out = [];
    for (const e of this.entries) if (isLogEntry(e.entry)) out.push({ line: e.line, record: logEntryRecord(e.entry), endLine: e.endLine });
    this.newestFirst = out.length > 1 && neverRiseFallOnce(out.map((x) => recordUtc(x.record)));
    return out;
  }
}

/** Format spec: Logs Explorer expanded entries (unquoted keys). */
export const gcpConsoleSpec: FormatSpec = {
  name: "gcp-logging-console",
  kind: "cloud-logging",
  sniff(_path, lines) {
    const first = lines.findIndex((l) => l.trim() !== "[");
    return first >= 0 && lines[first].trim() === "{" && lines.some((l) => ENTRY_FIELD.test(l));
  },
  createParser: () => new ConsoleEntryParser(),
  samples: [
    {
      line: "{",
      after: [
        ' insertId:  "q8r7s6t5u4"  ',
        " jsonPayload: {",
        '  MESSAGE:  "E0412 06:15:02.731207    1630 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"CreatePodSandbox\\"" pod="kube-system/konnectivity-agent-7d4f9""   ',
        '  SYSLOG_IDENTIFIER:  "kubelet"   ',
        '  _HOSTNAME:  "gke-dev-default-pool-5e6f7a8b-q1w2"   ',
        " }",
        ' logName:  "projects/dev-proj/logs/kubelet"  ',
        " resource: {",
        "  labels: {",
        '   node_name:  "gke-dev-default-pool-5e6f7a8b-q1w2"    ',
        "  }",
        '  type:  "k8s_node"   ',
        " }",
        ' severity:  "ERROR"  ',
        ' timestamp:  "2023-04-12T06:15:02.731207Z"  ',
        "}",
      ],
      expect: {
        time: { year: 2023, month: 4, day: 12, hour: 6, minute: 15, second: 2, ms: 731, offsetMin: 0, precision: "us" },
        host: "gke-dev-default-pool-5e6f7a8b-q1w2",
        ident: "kubelet",
        component: "kubelet",
        severity: 3,
      },
    },
  ],
  notMine: ['{"insertId":"x1","textPayload":"hello"}', "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x", "2025-05-19T04:20:09.104730000Z listening on :8080"],
};

// ---------------------------------------------------------------------------------------------
// 2. gcloud logging read (YAML)

const TOP_KEY = /^(?:insertId|logName|receiveTimestamp|textPayload|jsonPayload|protoPayload):(?:\s|$)/;
const YAML_LINE = /^(?:---\s*$|[A-Za-z_"'][\w"'.\/-]*:(?:\s|$)|- |\s)/;

class GcloudYamlParser implements LineParser {
  readonly deferred = true;
  newestFirst = false;
  private readonly lines: string[] = [];
  private firstLineNo = 0;
  private headOnly = true;

  parseLine(line: string, lineNo = this.firstLineNo + this.lines.length): LineResult {
    if (this.lines.length === 0) {
      // the indented rest of an entry cut at the paste's start: the document's head
      if (line.charCodeAt(0) === 32 && this.headOnly && YAML_LINE.test(line)) return { type: "continuation", text: "" };
      this.headOnly = false;
      if (!YAML_LINE.test(line) || line.charCodeAt(0) === 32) return null;
      this.firstLineNo = lineNo;
    } else if (!YAML_LINE.test(line) && line.trim() !== "") return null;
    while (this.firstLineNo + this.lines.length < lineNo) this.lines.push("");
    this.lines.push(line);
    return { type: "continuation", text: "" };
  }

  end(): Out {
    if (!this.lines.length) return [];
    const lc = new LineCounter();
    const text = this.lines.join("\n");
    let docs;
    try {
      docs = parseAllDocuments(text, { lineCounter: lc, uniqueKeys: false });
    } catch {
      return [];
    }
    const out: Out = [];
    const emit = (node: YamlNode | null | undefined): void => {
      if (!node || !isMap(node) || !node.range) return;
      let v: unknown;
      try {
        v = node.toJSON();
      } catch {
        return;
      }
      if (!v || typeof v !== "object" || !isLogEntry(v as Json)) return;
      let endOff = node.range[1];
      while (endOff > node.range[0] && (text[endOff - 1] === "\n" || text[endOff - 1] === " ")) endOff--;
      out.push({
        line: this.firstLineNo + lc.linePos(node.range[0]).line - 1,
        record: logEntryRecord(v as Json),
        endLine: this.firstLineNo + lc.linePos(Math.max(node.range[0], endOff - 1)).line - 1,
      });
    };
    for (const doc of Array.isArray(docs) ? docs : [docs]) {
      const root = doc.contents as YamlNode | null;
      if (isSeq(root)) for (const it of root.items) emit(it as YamlNode);
      else emit(root);
    }
    this.newestFirst = out.length > 1 && neverRiseFallOnce(out.map((x) => recordUtc(x.record)));
    return out;
  }
}

/** Format spec: `gcloud logging read` default (YAML) output. */
export const gcloudLoggingYamlSpec: FormatSpec = {
  name: "gcp-logging-yaml",
  kind: "cloud-logging",
  sniff(_path, lines) {
    // a paste cut inside an entry starts with the indented rest of its payload
    const first = lines.find((l) => !/^---\s*$/.test(l) && l.charCodeAt(0) !== 32);
    if (first === undefined || !/^(?:- )?[A-Za-z_]\w*:(?:\s|$)/.test(first)) return false;
    let keys = 0;
    for (const l of lines) if (TOP_KEY.test(l.startsWith("- ") ? l.slice(2) : l)) keys++;
    // a long jsonPayload (a Kubernetes event) can push `timestamp:` past the sniff lines
    return keys >= 2 && lines.some((l) => /^(?:- )?(?:timestamp|receiveTimestamp|jsonPayload|protoPayload):(?:\s|$)/.test(l));
  },
  createParser: () => new GcloudYamlParser(),
  samples: [
    {
      line: "---",
      after: [
        "insertId: 9k8j7h6g5f",
        "labels:",
        "  compute.googleapis.com/resource_name: gke-dev-default-pool-5e6f7a8b-q1w2",
        "logName: projects/dev-proj/logs/container-runtime",
        "receiveTimestamp: '2023-04-12T06:15:04.112233445Z'",
        "resource:",
        "  labels:",
        "    instance_id: '5512345678901234567'",
        "    zone: us-central1-a",
        "  type: gce_instance",
        "severity: ERROR",
        `textPayload: 'time="2023-04-12T06:15:02.700112233Z" level=error msg="RunPodSandbox for &PodSandboxMetadata{Name:konnectivity-agent-7d4f9,} failed, error"'`,
        "timestamp: '2023-04-12T06:15:02.700500Z'",
      ],
      expect: {
        time: { year: 2023, month: 4, day: 12, hour: 6, minute: 15, second: 2, ms: 700, offsetMin: 0, precision: "ns" },
        host: "gke-dev-default-pool-5e6f7a8b-q1w2",
        component: "containerd",
        severity: 3,
        message: "RunPodSandbox for &PodSandboxMetadata{Name:konnectivity-agent-7d4f9,} failed, error",
      },
    },
    {
      // a GKE events entry: the Event in jsonPayload, its message folded (`>-`), `timestamp:` past the sniff lines
      line: "---",
      after: [
        "insertId: 1a2b3c4d5e6f",
        "jsonPayload:",
        "  count: 23",
        "  firstTimestamp: '2024-06-11T07:30:02Z'",
        "  involvedObject:",
        "    kind: Pod",
        "    name: checkout-7f6d5c4b3-zx9qp",
        "    namespace: shop",
        "  kind: Event",
        "  lastTimestamp: '2024-06-11T07:41:15Z'",
        "  message: >-",
        "    Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup",
        '    network for sandbox "5e4d": plugin type="cilium-cni" failed (add): unable to',
        "    connect to Cilium daemon",
        "  reason: FailedCreatePodSandBox",
        "  source:",
        "    component: kubelet",
        "    host: gke-shop-pool-2-9a8b7c6d-w3e4",
        "  type: Warning",
        "logName: projects/shop-prod/logs/events",
        "resource:",
        "  labels:",
        "    cluster_name: shop-prod",
        "  type: k8s_pod",
        "severity: WARNING",
        "timestamp: '2024-06-11T07:41:15Z'",
      ],
      expect: {
        component: "k8s-events",
        message:
          'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "5e4d": plugin type="cilium-cni" failed (add): unable to connect to Cilium daemon',
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 23,
          namespace: "shop",
          objectKind: "Pod",
          objectName: "checkout-7f6d5c4b3-zx9qp",
          node: "gke-shop-pool-2-9a8b7c6d-w3e4",
          firstMs: Date.UTC(2024, 5, 11, 7, 30, 2),
          lastMs: Date.UTC(2024, 5, 11, 7, 41, 15),
        },
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:09.104730000Z listening on :8080",
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE",
  ],
};
