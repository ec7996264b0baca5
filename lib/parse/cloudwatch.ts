/**
 * AWS CloudWatch Logs events as people copy them out of AWS: three shapes of the same event
 * (`timestamp` in UTC ms, `message`, `logStreamName`; upstream CloudWatch Logs API `OutputLogEvent`
 * / `FilteredLogEvent`, AWS CLI v2 `awscli/customizations/logs/tail.py`).
 *
 * 1. Logs Insights results downloaded as CSV (console "Export results → Download table (CSV)"):
 *
 *        @timestamp,@message,@logStream,@log
 *        2024-05-14 08:12:03.412,"May 14 08:12:03 ip-10-0-1-2.ec2.internal kubelet[3102]: E0514 …",i-0abc…,123456789012:/aws/eks/prod/nodes
 *
 *    RFC 4180 CSV: a header naming the query's fields (`@timestamp,@message` by default, then what
 *    the query asked for), fields holding a comma, quote or newline quoted, quotes inside doubled
 *    (`""`). `@timestamp` is `YYYY-MM-DD hh:mm:ss.mmm` in UTC. Insights sorts newest first by default.
 *
 * 2. `aws logs filter-log-events` / `get-log-events` JSON (the CLI's default output), pretty-printed
 *    or on one line, or the events alone (`--query events`, `jq -c '.events[]'`):
 *
 *        { "events": [ { "logStreamName": "i-0abc…", "timestamp": 1715674293199, "message": "E0514 …",
 *                        "ingestionTime": 1715674294001, "eventId": "3791…" } ], "searchedLogStreams": [] }
 *
 *    and the same with `--output text`: one `EVENTS` row per event, the keys' values in key order
 *    separated by tabs (`EVENTS<TAB>eventId<TAB>ingestionTime<TAB>logStreamName<TAB>message<TAB>timestamp`;
 *    get-log-events has no eventId / logStreamName).
 *
 * 3. `aws logs tail` (cloudwatch-tail.ts; `--format detailed`, the default): `<ISO stamp>
 *    <log stream> <message>`, the stamp Python's `isoformat()` of the UTC instant
 *    (`2024-05-14T08:11:33.199000+00:00`, no fraction when the ms are 0). A message of several
 *    lines (`--format json` pretty-prints JSON messages) continues on the following lines.
 *
 * Each message is read like a Cloud Logging payload (cloud-payload.ts): a journal / syslog line
 * (its host, identifier and the component line inside), a component line (klog, logrus, Calico, …),
 * or a JSON object (fluent-bit's journal fields or `log` + `kubernetes`, zap JSON). The component's
 * own stamp wins; the event's timestamp places it (year, zone) and stands in when it has none.
 *
 * Host: the host the message names (journal host column, `_HOSTNAME`, `kubernetes.host`); else a
 * host column of the Insights query (`hostname`, `host`, `kubernetes.host`); else the log stream
 * name when it is a node's name: an EC2 instance id (`i-0abc…`, the CloudWatch agent's default
 * stream) or an EC2 private DNS name (`ip-10-0-12-34.ec2.internal`,
 * `ip-10-0-12-34.us-west-2.compute.internal`), also as the head of a longer stream name (Container
 * Insights: `<host>-<log>`). Any other stream name (`kube-apiserver-…`, a pod's) is only kept as
 * `fields.logStream`. The unit after the host in such a stream (`<host>-kubelet.service`,
 * `<host>-containerd`) is the writer's identifier when the component table names it, so a klog or
 * logrus line without an envelope of its own is the kubelet's or containerd's. The group (`@log`, `account:group`) is `fields.logGroup`.
 */
import { type EntryEnvelope, payloadRecord } from "./helpers/cloud-payload";
import { neverRiseFallOnce, recordUtc } from "./gcp-logging";
import { JsonObjectStream } from "./helpers/json-stream";
import { isoToUtc } from "./helpers/time-util";
import { componentNamed } from "../model/components";
import type { FormatSpec, LineParser, LineResult, ParsedRecord, Precision } from "./types";

/** One CloudWatch event (see the module comment). */
export interface CloudWatchEvent {
  /** UTC ms; null when the copy lost it */
  utcMs: number | null;
  precision: Precision;
  message: string;
  stream?: string;
  group?: string;
  /** a host the export names besides the stream (an Insights `hostname` column) */
  host?: string;
  /** other columns / keys kept as fields */
  extra?: Record<string, string>;
}

const STREAM_NODE = /^((?:ip-\d{1,3}(?:-\d{1,3}){3}|i-[0-9a-f]{8,17})(?:\.(?:[a-z0-9-]+\.)*?(?:ec2|compute)\.internal)?)(?=$|[-_/.])/;

/** The node a log stream name names (see the module comment), or undefined. */
export function nodeOfStream(stream: string | undefined): string | undefined {
  if (!stream) return undefined;
  const m = STREAM_NODE.exec(stream);
  return m ? m[1] : undefined;
}

/** the unit or program after a node's name in a stream name: `-kubelet`, `-containerd.service`, `-dataplane.systemd.kubelet.service` */
const STREAM_UNIT = /^[-_/.](?:dataplane\.)?(?:systemd\.)?([a-z][\w.-]*?)(?:\.service)?$/;

/**
 * The writer a stream name names after its node (Container Insights' dataplane streams
 * `<host>-<unit>`), when the component table knows it: `ip-10-0-1-2.ec2.internal-containerd.service`
 * → `containerd`; else undefined (the message's own format then names the writer).
 */
export function identOfStream(stream: string | undefined): string | undefined {
  if (!stream) return undefined;
  const m = STREAM_NODE.exec(stream);
  if (!m) return undefined;
  const u = STREAM_UNIT.exec(stream.slice(m[1].length));
  return u && componentNamed(u[1]) ? u[1] : undefined;
}

/** The record of one event: its message read as a payload, placed at the event's instant. */
export function cloudWatchRecord(ev: CloudWatchEvent): ParsedRecord {
  const fields: Record<string, string> = {};
  if (ev.extra) for (const k of Object.keys(ev.extra)) fields[k] = ev.extra[k];
  if (ev.stream) fields.logStream = ev.stream;
  if (ev.group) fields.logGroup = ev.group;
  const env: EntryEnvelope = { utcMs: ev.utcMs, precision: ev.precision, fields, ident: identOfStream(ev.stream) };
  const rec = payloadRecord(ev.message, env);
  if (rec.host === undefined) {
    const host = ev.host ?? nodeOfStream(ev.stream);
    if (host) rec.host = host;
  }
  return rec;
}

function epochField(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^\d{10,16}$/.test(v)) return Number(v);
  return null;
}

// ---------------------------------------------------------------------------------------------
// 1. Logs Insights CSV

const CSV_STAMP = /^"?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?"?,/;
const CSV_HEADER = /^"?@(?:timestamp|message|logStream|log|ingestionTime)"?(?:,|$)/;

/** RFC 4180 fields of one row (quotes removed, `""` → `"`). */
export function csvFields(row: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = row.length;
  for (;;) {
    if (row.charCodeAt(i) === 34) {
      let v = "";
      let j = i + 1;
      for (;;) {
        const q = row.indexOf('"', j);
        if (q < 0) {
          v += row.slice(j);
          j = n;
          break;
        }
        v += row.slice(j, q);
        if (row.charCodeAt(q + 1) === 34) {
          v += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      out.push(v);
      const c = row.indexOf(",", j);
      if (c < 0) return out;
      i = c + 1;
    } else {
      const c = row.indexOf(",", i);
      if (c < 0) {
        out.push(row.slice(i));
        return out;
      }
      out.push(row.slice(i, c));
      i = c + 1;
    }
  }
}

/** Whether a CSV row text ends inside a quoted field (an odd number of quotes). */
function openQuote(s: string, open: boolean): boolean {
  let q = open;
  for (let i = s.indexOf('"'); i >= 0; i = s.indexOf('"', i + 1)) q = !q;
  return q;
}

/** UTC instant of an Insights `@timestamp` (zone-less: UTC). */
function insightsStamp(s: string): { ms: number; precision: Precision } | null {
  return isoToUtc(s.trim());
}

const HOST_COLUMNS = ["hostname", "host", "kubernetes.host", "_HOSTNAME", "instance_id"];

class InsightsCsvParser implements LineParser {
  readonly deferred = true;
  newestFirst = false;
  private columns: string[] | null = null;
  private rows: Array<{ text: string; line: number; endLine: number }> = [];
  private inQuote = false;

  parseLine(line: string, lineNo = 0): LineResult {
    if (this.inQuote) {
      const last = this.rows[this.rows.length - 1];
      last.text += `\n${line}`;
      last.endLine = lineNo;
      this.inQuote = openQuote(line, true);
      return { type: "continuation", text: "" };
    }
    if (this.columns === null && this.rows.length === 0 && CSV_HEADER.test(line)) {
      this.columns = csvFields(line).map((c) => c.trim());
      return { type: "continuation", text: "" };
    }
    if (!CSV_STAMP.test(line)) return null;
    this.rows.push({ text: line, line: lineNo, endLine: lineNo });
    this.inQuote = openQuote(line, false);
    return { type: "continuation", text: "" };
  }

  end(): Array<{ line: number; record: ParsedRecord; endLine?: number }> {
    const cols = this.columns ?? ["@timestamp", "@message", "@logStream", "@log"];
    const out: Array<{ line: number; record: ParsedRecord; endLine?: number }> = [];
    for (const row of this.rows) {
      const f = csvFields(row.text);
      const ev: CloudWatchEvent = { utcMs: null, precision: "ms", message: "" };
      const extra: Record<string, string> = {};
      for (let k = 0; k < f.length && k < cols.length; k++) {
        const name = cols[k];
        const v = f[k];
        if (name === "@timestamp") {
          const t = insightsStamp(v);
          if (t) {
            ev.utcMs = t.ms;
            ev.precision = t.precision;
          }
        } else if (name === "@message") ev.message = v;
        else if (name === "@logStream") ev.stream = v;
        else if (name === "@log") ev.group = v;
        else if (v !== "") {
          if (ev.host === undefined && HOST_COLUMNS.includes(name)) ev.host = v;
          extra[name] = v;
        }
      }
      ev.extra = extra;
      out.push({ line: row.line, record: cloudWatchRecord(ev), endLine: row.endLine });
    }
    this.newestFirst = out.length > 1 && neverRiseFallOnce(out.map((x) => recordUtc(x.record)));
    return out;
  }
}

/** Format spec: CloudWatch Logs Insights results as CSV. */
export const cloudwatchInsightsCsvSpec: FormatSpec = {
  name: "cloudwatch-insights-csv",
  kind: "cloudwatch",
  sniff(_path, lines) {
    if (lines.length === 0) return false;
    const head = CSV_HEADER.test(lines[0]) && /@message/.test(lines[0]);
    const rows = lines.slice(head ? 1 : 0).filter((l) => CSV_STAMP.test(l));
    // without a header, the rows' message must be quoted text or a second column of a known shape
    return rows.length > 0 && (head || (CSV_STAMP.test(lines[0]) && rows.length * 2 >= lines.length && rows.every((l) => /^[^,]+,"/.test(l))));
  },
  createParser: () => new InsightsCsvParser(),
  samples: [
    {
      context: ["@timestamp,@message,@logStream,@log"],
      line: '2023-11-02 17:40:21.530,"Nov  2 17:40:21 ip-172-31-5-9.us-west-2.compute.internal kubelet[2214]: E1102 17:40:21.530114    2214 pod_workers.go:1300] ""Error syncing pod, skipping"" err=""network is not ready: container runtime network not ready"" pod=""kube-system/coredns-5d78c9869d-8l2xw""",i-07f3c1d2e4a5b6978,210987654321:/aws/eks/dev/nodes',
      expect: {
        time: { year: 2023, month: 11, day: 2, hour: 17, minute: 40, second: 21, ms: 530, offsetMin: 0, precision: "us" },
        host: "ip-172-31-5-9.us-west-2.compute.internal",
        ident: "kubelet",
        component: "kubelet",
        severity: 3,
        message: 'Error syncing pod, skipping err="network is not ready: container runtime network not ready" pod="kube-system/coredns-5d78c9869d-8l2xw"',
      },
    },
    {
      // a bare klog message: the stream (an instance id) names the node; a quoted field spans two lines
      context: ["@timestamp,@message,@logStream"],
      line: '2023-11-02 17:40:22.001,"I1102 17:40:22.001203    2214 kubelet.go:2440] ""SyncLoop (PLEG): event for pod"" pod=""default/web-0""',
      after: ['second line",i-07f3c1d2e4a5b6978'],
      expect: {
        time: { year: 2023, month: 11, day: 2, hour: 17, minute: 40, second: 22, ms: 1, offsetMin: 0, precision: "us" },
        host: "i-07f3c1d2e4a5b6978",
        severity: 1,
      },
    },
  ],
  notMine: [
    "2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint",
    "LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE",
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
  ],
};

// ---------------------------------------------------------------------------------------------
// 2. filter-log-events / get-log-events JSON and text output

/** Innermost objects (no object inside) of a JSON text, with the line each starts on (0-based offset). */
function innermostObjects(text: string): Array<{ start: number; end: number; lineOffset: number }> {
  const out: Array<{ start: number; end: number; lineOffset: number }> = [];
  const stack: Array<{ start: number; line: number; child: boolean }> = [];
  let inStr = false;
  let esc = false;
  let line = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inStr) {
      if (esc) esc = false;
      else if (c === 92) esc = true;
      else if (c === 34) inStr = false;
      continue;
    }
    if (c === 34) inStr = true;
    else if (c === 123) {
      if (stack.length) stack[stack.length - 1].child = true;
      stack.push({ start: i, line, child: false });
    } else if (c === 125) {
      const o = stack.pop();
      if (o && !o.child) out.push({ start: o.start, end: i + 1, lineOffset: o.line });
    }
  }
  return out;
}

function eventOfObject(o: Record<string, unknown>): CloudWatchEvent | null {
  const ts = epochField(o.timestamp);
  if (typeof o.message !== "string" || ts === null) return null;
  const ev: CloudWatchEvent = { utcMs: ts, precision: "ms", message: o.message };
  if (typeof o.logStreamName === "string") ev.stream = o.logStreamName;
  if (typeof o.logGroupName === "string") ev.group = o.logGroupName;
  return ev;
}

/** An `aws logs …` command line copied above its output. */
const AWS_COMMAND = /^(?:\$ |# )?aws logs [a-z-]+(?: |$)/;

class EventsJsonParser implements LineParser {
  readonly deferred = true;
  newestFirst = false;
  private readonly stream = new JsonObjectStream();
  private lastLine = 0;
  private started = false;

  parseLine(line: string, lineNo?: number): LineResult {
    const n = lineNo ?? this.lastLine + 1;
    this.lastLine = n;
    if (!this.started && !this.stream.open && AWS_COMMAND.test(line)) return { type: "continuation", text: "" };
    if (this.stream.feed(line, n)) {
      this.started = true;
      return { type: "continuation", text: "" };
    }
    return null;
  }

  end(): Array<{ line: number; record: ParsedRecord; endLine?: number }> {
    this.stream.flush(this.lastLine);
    const out: Array<{ line: number; record: ParsedRecord; endLine?: number }> = [];
    for (const chunk of this.stream.chunks) {
      for (const o of innermostObjects(chunk.text)) {
        let v: unknown;
        try {
          v = JSON.parse(chunk.text.slice(o.start, o.end));
        } catch {
          continue;
        }
        if (!v || typeof v !== "object" || Array.isArray(v)) continue;
        const ev = eventOfObject(v as Record<string, unknown>);
        if (ev) out.push({ line: chunk.lines[o.lineOffset] ?? chunk.line, record: cloudWatchRecord(ev) });
      }
    }
    return out;
  }
}

const EVENT_KEY = /"(?:logStreamName|ingestionTime|eventId|nextForwardToken|searchedLogStreams)"\s*:|^\s*"events"\s*:\s*\[|^\{\s*"events"\s*:/;
const JSON_HEAD = /^\s*[[{]/;

/** Format spec: CloudWatch Logs events as the AWS CLI prints them in JSON. */
export const cloudwatchEventsJsonSpec: FormatSpec = {
  name: "cloudwatch-events-json",
  kind: "cloudwatch",
  sniff(_path, lines) {
    const start = lines.findIndex((l) => !AWS_COMMAND.test(l));
    if (start < 0 || start > 1 || !JSON_HEAD.test(lines[start])) return false;
    return lines.some((l) => EVENT_KEY.test(l)) && lines.some((l) => /"timestamp"\s*:\s*\d{12,14}\b/.test(l));
  },
  createParser: () => new EventsJsonParser(),
  samples: [
    {
      line: "{",
      after: [
        '    "events": [',
        "        {",
        '            "logStreamName": "ip-192-168-40-7.eu-west-1.compute.internal-kubelet",',
        '            "timestamp": 1699000000123,',
        '            "message": "W1103 08:26:40.123456    1990 cni.go:237] Unable to update cni config: no networks found in /etc/cni/net.d",',
        '            "ingestionTime": 1699000001456,',
        '            "eventId": "37900000000000000000000000000000000000000000000000000000"',
        "        }",
        "    ],",
        '    "searchedLogStreams": []',
        "}",
      ],
      expect: {
        time: { year: 2023, month: 11, day: 3, hour: 8, minute: 26, second: 40, ms: 123, offsetMin: 0, precision: "us" },
        host: "ip-192-168-40-7.eu-west-1.compute.internal",
        ident: "kubelet",
        component: "kubelet",
        severity: 2,
        message: "Unable to update cni config: no networks found in /etc/cni/net.d",
      },
    },
    {
      // events alone, one per line; a message without a stamp of its own takes the event's
      line: '{"timestamp":1699000002000,"message":"Successfully copied CNI plugin binary and config file.","ingestionTime":1699000002500,"logStreamName":"aws-node-7xq2p_kube-system_aws-node-0123abcd"}',
      expect: { time: null, epochMs: 1699000002000, epochPrecision: "ms", severity: 1, message: "Successfully copied CNI plugin binary and config file." },
    },
  ],
  notMine: [
    '{"kind":"EventList","apiVersion":"v1","items":[]}',
    '{"insertId":"x1","textPayload":"hello","timestamp":"2021-06-04T20:11:07.449876Z"}',
    '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
  ],
};

/** `--output text` rows: `EVENTS` then the event's values in key order. */
const TEXT_ROW = /^EVENTS\t/;

/** The event of one `EVENTS` row, or null. */
export function eventOfTextRow(line: string): CloudWatchEvent | null {
  if (!TEXT_ROW.test(line)) return null;
  const cells = line.split("\t");
  if (cells.length < 4) return null;
  const ts = epochField(cells[cells.length - 1]);
  if (ts === null) return null;
  // get-log-events: EVENTS ingestionTime message timestamp; filter-log-events: EVENTS eventId ingestionTime logStreamName message timestamp
  if (/^\d{10,16}$/.test(cells[1])) return { utcMs: ts, precision: "ms", message: cells.slice(2, -1).join("\t") };
  if (cells.length < 6 || !/^\d{10,16}$/.test(cells[2])) return null;
  return { utcMs: ts, precision: "ms", stream: cells[3], message: cells.slice(4, -1).join("\t") };
}

/** Format spec: CloudWatch Logs events as the AWS CLI prints them with `--output text`. */
export const cloudwatchEventsTextSpec: FormatSpec = {
  name: "cloudwatch-events-text",
  kind: "cloudwatch",
  sniff: (_path, lines) => {
    const rows = lines.filter((l) => !AWS_COMMAND.test(l));
    return rows.length > 0 && rows.filter((l) => eventOfTextRow(l) !== null).length * 2 >= rows.length;
  },
  createParser() {
    let seen = false;
    return {
      settled: true,
      parseLine(line: string): LineResult {
        const ev = eventOfTextRow(line);
        if (ev) {
          seen = true;
          return { type: "record", record: cloudWatchRecord(ev) };
        }
        if (!seen && AWS_COMMAND.test(line)) return { type: "banner", banner: { type: "header" } };
        // the token line of get-log-events, the searched streams of filter-log-events
        if (/^(?:SEARCHEDLOGSTREAMS\t|[bf]\/\d+\t)/.test(line)) return { type: "banner", banner: { type: "header" } };
        return seen ? { type: "continuation", text: line } : null;
      },
    };
  },
  samples: [
    {
      line: 'EVENTS\t37900000000000000000000000000000000000000000000000000001\t1699000001456\ti-07f3c1d2e4a5b6978\tE1103 08:26:41.200311    1990 kuberuntime_manager.go:1172] "CreatePodSandbox for pod failed" err="rpc error: code = Unknown desc = failed to setup network for sandbox"\t1699000001200',
      expect: {
        time: { year: 2023, month: 11, day: 3, hour: 8, minute: 26, second: 41, ms: 200, offsetMin: 0, precision: "us" },
        host: "i-07f3c1d2e4a5b6978",
        severity: 3,
        message: 'CreatePodSandbox for pod failed err="rpc error: code = Unknown desc = failed to setup network for sandbox"',
      },
    },
    {
      line: "EVENTS\t1699000001456\tSuccessfully copied CNI plugin binary and config file.\t1699000001200",
      expect: { time: null, epochMs: 1699000001200, severity: 1, message: "Successfully copied CNI plugin binary and config file." },
    },
  ],
  notMine: ["LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE", "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x"],
};
