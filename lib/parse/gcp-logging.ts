/**
 * Google Cloud Logging entries exported as JSON (`gcloud logging read --format=json`, the Logs
 * Explorer's download, a copy of some entries): upstream LogEntry reference
 * (cloud.google.com/logging/docs/reference/v2/rest/v2/LogEntry).
 *
 *     [                                                      a JSON array (pretty-printed or not)
 *       {
 *         "insertId": "…",
 *         "jsonPayload": { "level": "info", "ts": "2021-06-04T20:11:07.449Z", "msg": "Reconciling", … },
 *         "resource": { "type": "k8s_container", "labels": { "container_name": "…", … } },
 *         "timestamp": "2021-06-04T20:11:07.449512345Z",
 *         "severity": "ERROR",
 *         "logName": "projects/p/logs/stderr",
 *         "receiveTimestamp": "…"
 *       },
 *
 * Also one entry per line, or pretty-printed entries separated by `},` without the brackets. An
 * entry carries one payload: `jsonPayload` (a structured line, or journal / fluent-bit fields
 * around a line), `textPayload` (a log line of another format), `protoPayload` (audit: method,
 * resource, status). The payload is read by cloud-payload.ts: its own stamp and level win over the
 * entry's `timestamp` (else `receiveTimestamp`) and `severity` (the collector's label, kept in
 * `fields["entry.severity"]`).
 *
 * Host: `resource.labels.node_name`, else the `compute.googleapis.com/resource_name` label (the GCE
 * instance, i.e. the GKE node), else `resource.labels.host`, else `resource.labels.instance_id`.
 * Writer: `resource.labels.container_name`, else the log name (`…/logs/kubelet`;
 * `container-runtime` → containerd; not `stdout`/`stderr`/`events`).
 *
 * Order: both `gcloud logging read` and the Logs Explorer list newest first. A file whose entry
 * times never rise and fall at least once is newest first and is reversed (`newestFirst`).
 */
import { type EntryEnvelope, payloadRecord, severityOfWord } from "./helpers/cloud-payload";
import { type JsonChunk, JsonObjectStream, parseObject } from "./helpers/json-stream";
import { isoToUtc } from "./helpers/time-util";
import type { FormatSpec, LineParser, LineResult, ParsedRecord, WallTime } from "./types";

type Json = Record<string, unknown>;

const ENTRY_KEYS = ["jsonPayload", "textPayload", "protoPayload", "insertId", "logName", "receiveTimestamp"];

function obj(v: unknown): Json {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {};
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined;
}

/** Whether a decoded object is a LogEntry. */
export function isLogEntry(o: Json): boolean {
  for (const k of ENTRY_KEYS) if (o[k] !== undefined) return true;
  return false;
}

const LOG_NAME_IDENT: Readonly<Record<string, string | null>> = {
  stdout: null,
  stderr: null,
  events: null,
  "container-runtime": "containerd",
};

/** The envelope of one LogEntry (see the module comment). */
export function entryEnvelope(e: Json): EntryEnvelope {
  const res = obj(e.resource);
  const rl = obj(res.labels);
  const labels = obj(e.labels);
  const ts = (typeof e.timestamp === "string" ? isoToUtc(e.timestamp) : null) ?? (typeof e.receiveTimestamp === "string" ? isoToUtc(e.receiveTimestamp) : null);
  const env: EntryEnvelope = { utcMs: ts ? ts.ms : null, precision: ts ? ts.precision : "s" };
  const host = str(rl.node_name) ?? str(labels["compute.googleapis.com/resource_name"]) ?? str(rl.host) ?? str(rl.instance_id);
  if (host) env.host = host;
  let ident = str(rl.container_name);
  const logName = str(e.logName);
  if (!ident && logName) {
    const tail = decodeURIComponent(logName.slice(logName.lastIndexOf("/") + 1));
    const mapped = LOG_NAME_IDENT[tail];
    ident = mapped === undefined ? (tail.includes(".googleapis.com") ? undefined : tail) : (mapped ?? undefined);
  }
  if (ident) env.ident = ident;
  const sev = severityOfWord(e.severity);
  if (sev !== undefined) env.severity = sev;
  const fields: Record<string, string> = {};
  if (typeof e.severity === "string") fields["entry.severity"] = e.severity;
  if (logName) fields.logName = logName;
  if (typeof res.type === "string") fields["resource.type"] = res.type;
  for (const k of Object.keys(rl)) {
    const v = str(rl[k]);
    if (v !== undefined) fields[`resource.labels.${k}`] = v;
  }
  for (const k of Object.keys(labels)) {
    const v = str(labels[k]);
    if (v !== undefined) fields[`labels.${k}`] = v;
  }
  env.fields = fields;
  return env;
}

/** The record of one LogEntry. */
export function logEntryRecord(e: Json): ParsedRecord {
  const env = entryEnvelope(e);
  if (e.protoPayload !== undefined) {
    const p = obj(e.protoPayload);
    const status = obj(p.status);
    const parts = [str(p.methodName), str(p.resourceName)].filter((x): x is string => x !== undefined);
    let message = parts.join(" ");
    if (typeof status.message === "string" && status.message) message += `: ${status.message}`;
    const rec = payloadRecord({ message, serviceName: str(p.serviceName) ?? "", principal: str(obj(p.authenticationInfo).principalEmail) ?? "" }, env);
    if (typeof p.serviceName === "string" && rec.component === "unknown") rec.component = p.serviceName === "k8s.io" ? "kube-apiserver" : p.serviceName;
    return rec;
  }
  const payload = e.jsonPayload ?? e.textPayload;
  return payloadRecord(payload === undefined ? "" : payload, env);
}

/** UTC ms of a record's time when it is complete, else null. */
export function recordUtc(r: ParsedRecord): number | null {
  if (r.epochMs !== undefined && r.epochMs !== null) return r.epochMs;
  const t: WallTime | null = r.time;
  if (!t || t.year === null || t.offsetMin === null) return null;
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.ms) - t.offsetMin * 60_000;
}

/** Times that never rise and fall at least once: a newest-first listing. */
export function neverRiseFallOnce(times: ReadonlyArray<number | null>): boolean {
  let prev: number | null = null;
  let falls = 0;
  for (const t of times) {
    if (t === null) continue;
    if (prev !== null) {
      if (t > prev) return false;
      if (t < prev) falls++;
    }
    prev = t;
  }
  return falls >= 1;
}

/** Deferred parser over a JSON stream of entries; `toRecord` builds each record (null: not one). */
export class JsonEntriesParser implements LineParser {
  readonly deferred = true;
  /** the entries' times never rise and fall at least once (set by `end()` when the order is judged) */
  newestFirst = false;
  private readonly stream = new JsonObjectStream();
  private lastLine = 0;
  constructor(
    private readonly toRecords: (chunk: JsonChunk, o: Json) => ParsedRecord[] | null,
    private readonly judgeOrder: boolean,
  ) {}
  parseLine(line: string, lineNo?: number): LineResult {
    const n = lineNo ?? this.lastLine + 1;
    this.lastLine = n;
    return this.stream.feed(line, n) ? { type: "continuation", text: "" } : null;
  }
  end(): Array<{ line: number; record: ParsedRecord; endLine?: number }> {
    this.stream.flush(this.lastLine);
    const out: Array<{ line: number; record: ParsedRecord; endLine?: number }> = [];
    for (const chunk of this.stream.chunks) {
      const o = parseObject(chunk.text);
      if (!o) continue;
      const recs = this.toRecords(chunk, o);
      if (!recs) continue;
      for (const record of recs) out.push({ line: chunk.line, record, endLine: chunk.endLine });
    }
    if (this.judgeOrder) this.newestFirst = out.length > 1 && neverRiseFallOnce(out.map((x) => recordUtc(x.record)));
    return out;
  }
}

const HEAD = /^\s*[[{]/;
const ENTRY_KEY_RE = /"(?:jsonPayload|textPayload|protoPayload|insertId|logName|receiveTimestamp)"\s*:/;

/** Format spec: Cloud Logging LogEntry JSON (array, one per line, or bare pretty-printed objects). */
export const gcpLoggingJsonSpec: FormatSpec = {
  name: "gcp-logging-json",
  kind: "cloud-logging",
  sniff: (_path, lines) => lines.length > 0 && HEAD.test(lines[0]) && lines.some((l) => ENTRY_KEY_RE.test(l)),
  createParser: () => new JsonEntriesParser((_c, o) => (isLogEntry(o) ? [logEntryRecord(o)] : null), true),
  before: {
    // a GKE events export holds whole Event objects in each entry's jsonPayload
    "k8s-events-json": [
      '[{"insertId":"1a2b","jsonPayload":{"kind":"Event","reason":"FailedCreatePodSandBox","involvedObject":{"kind":"Pod","name":"web-0"}},"logName":"projects/p/logs/events","timestamp":"2024-01-01T00:00:00Z"}]',
    ],
  },
  samples: [
    {
      line: '{"insertId":"x1","jsonPayload":{"MESSAGE":"E0604 20:11:07.449123    1820 pod_workers.go:1298] \\"Error syncing pod, skipping\\" pod=\\"default/web-0\\"","_HOSTNAME":"gke-c-pool-1-a","SYSLOG_IDENTIFIER":"kubelet","_PID":"1820","PRIORITY":"6"},"resource":{"type":"k8s_node","labels":{"node_name":"gke-c-pool-1-a","project_id":"p"}},"timestamp":"2021-06-04T20:11:07.449876Z","severity":"INFO","logName":"projects/p/logs/kubelet","receiveTimestamp":"2021-06-04T20:11:09.1Z"}',
      expect: {
        time: { year: 2021, month: 6, day: 4, hour: 20, minute: 11, second: 7, ms: 449, offsetMin: 0, precision: "us" },
        host: "gke-c-pool-1-a",
        component: "kubelet",
        severity: 3,
        message: 'Error syncing pod, skipping pod="default/web-0"',
      },
    },
    {
      // pretty-printed, no array brackets: the payload's own level wins over the entry's severity
      line: "{",
      after: [
        '  "jsonPayload": { "level": "warn", "ts": "2022-01-10T08:00:01.250Z", "caller": "ipamd/ipamd.go:700", "msg": "Unable to get IP address from CIDR" },',
        '  "resource": { "type": "k8s_container", "labels": { "container_name": "aws-node", "namespace_name": "kube-system" } },',
        '  "severity": "ERROR",',
        '  "timestamp": "2022-01-10T08:00:01.251Z"',
        "},",
      ],
      expect: {
        time: { year: 2022, month: 1, day: 10, hour: 8, minute: 0, second: 1, ms: 250, offsetMin: 0, precision: "ms" },
        component: "aws-vpc-cni",
        severity: 2,
        message: "Unable to get IP address from CIDR",
      },
    },
    {
      // textPayload: a containerd line; no stamp of its own would leave the entry's
      line: '{"textPayload":"time=\\"2023-03-01T10:00:00.123456789Z\\" level=error msg=\\"RunPodSandbox for &PodSandboxMetadata{Name:web-0,} failed\\"\\n","resource":{"type":"gce_instance","labels":{"instance_id":"4412"}},"labels":{"compute.googleapis.com/resource_name":"gke-c-pool-1-b"},"timestamp":"2023-03-01T10:00:00.2Z","severity":"ERROR","logName":"projects/p/logs/container-runtime"}',
      expect: {
        time: { year: 2023, month: 3, day: 1, hour: 10, minute: 0, second: 0, ms: 123, offsetMin: 0, precision: "ns" },
        host: "gke-c-pool-1-b",
        component: "containerd",
        severity: 3,
        message: "RunPodSandbox for &PodSandboxMetadata{Name:web-0,} failed",
      },
    },
  ],
  notMine: [
    '{"kind":"EventList","apiVersion":"v1","items":[]}',
    '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
  ],
};
