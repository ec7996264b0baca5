/**
 * The views the SQL page reads (schema `ask`, migration `ask_views`), with their columns and what
 * each holds: shown on the page and in docs/sql.md, and checked against the database by
 * tests/sql-page.suite.ts. Each view holds the rows of one incident only. Times are UTC
 * (`timestamptz`, ms precision).
 */
export interface AskColumn {
  name: string;
  type: string;
  about: string;
}

export interface AskView {
  name: string;
  about: string;
  columns: AskColumn[];
}

const c = (name: string, type: string, about: string): AskColumn => ({ name, type, about });

export const ASK_VIEWS: AskView[] = [
  {
    name: "incident",
    about: "the incident (one row)",
    columns: [c("id", "text", "incident id"), c("title", "text", "title"), c("created_at", "timestamptz", "created"), c("notes", "text", "notes")],
  },
  {
    name: "bundles",
    about: "uploads of the incident",
    columns: [
      c("id", "text", "bundle id"),
      c("file_name", "text", "uploaded file name"),
      c("sha256", "text", "hash of the upload"),
      c("byte_size", "bigint", "bytes uploaded"),
      c("status", "text", "queued | parsing | ready | failed"),
      c("phase", "text", "unpack | parse | store | detect | done"),
      c("error", "text", "why it failed"),
      c("collector", "text", "collector layout recognised"),
      c("options", "jsonb", "facts given with the upload: node, tz, year, collected"),
      c("counts", "jsonb", "totals: files, lines, events, skipped"),
      c("created_at", "timestamptz", "received"),
      c("started_at", "timestamptz", "ingest started"),
      c("finished_at", "timestamptz", "ingest finished"),
      c("duplicate_of", "text", "the bundle it repeats (same sha256), else null"),
    ],
  },
  {
    name: "files",
    about: "files of the bundles (read, skipped or duplicate)",
    columns: [
      c("id", "integer", "file id (events.file_id)"),
      c("bundle_id", "text", "bundle"),
      c("ord", "integer", "order within the bundle"),
      c("path", "text", "path inside the upload"),
      c("status", "text", "read | skipped | duplicate"),
      c("reason", "text", "why skipped"),
      c("kind", "text", "journal, container, kubelet, cni, k8s-events, …"),
      c("format", "text", "log format read"),
      c("node_name", "text", "node the file belongs to"),
      c("byte_size", "bigint", "bytes"),
      c("lines", "integer", "physical lines"),
      c("parsed", "integer", "lines parsed"),
      c("skipped", "integer", "lines skipped"),
      c("records", "integer", "records (events) made"),
      c("first_ts", "timestamptz", "first event time"),
      c("last_ts", "timestamptz", "last event time"),
      c("clock_offset_ms", "integer", "clock offset applied, ms"),
      c("time_zone", "text", "zone of zone-less stamps"),
      c("year_source", "text", "where the year of year-less stamps came from"),
    ],
  },
  {
    name: "nodes",
    about: "nodes (Kubernetes node names)",
    columns: [
      c("id", "integer", "node id"),
      c("name", "text", "node name"),
      c("aliases", "text[]", "other names seen"),
      c("name_source", "text", "logs | upload | reviewer"),
    ],
  },
  {
    name: "boots",
    about: "boots of the nodes",
    columns: [
      c("id", "integer", "boot id (events.boot_id)"),
      c("node_id", "integer", "node"),
      c("node", "text", "node name"),
      c("boot_key", "text", "journal boot id or inferred-<n>"),
      c("start_ts", "timestamptz", "T+0"),
      c("end_ts", "timestamptz", "the boot's last event"),
      c("detected_by", "text", "separator | boot-id | kubelet-start | runtime-start | first-event"),
      c("start_approx", "boolean", "T+0 is approximate"),
    ],
  },
  {
    name: "events",
    about: "log records and Kubernetes events, normalised",
    columns: [
      c("id", "bigint", "event id"),
      c("bundle_id", "text", "bundle"),
      c("file_id", "integer", "file (files.id)"),
      c("node_id", "integer", "node, or null"),
      c("boot_id", "integer", "boot, or null"),
      c("line", "integer", "1-based line of the record in its file"),
      c("span", "integer", "lines the record spans"),
      c("ts", "timestamptz", "event time, or null"),
      c("t_plus_ms", "bigint", "ms since the boot's T+0 (null off a boot)"),
      c("precision", "text", "s | ms | us | ns | age"),
      c("flags", "integer", "1 year inferred, 2 zone assumed, 4 out of order, 8 truncated"),
      c("component", "text", "kubelet, containerd, cni-calico, kernel, …"),
      c("lane", "text", "kernel, runtime, kubelet, cni-plugin, cni-agent, events, other"),
      c("severity", "integer", "0 debug, 1 info, 2 warn, 3 error, 4 fatal"),
      c("kind", "text", "normalised kind: sandbox.create.failed, …; log for plain lines"),
      c("pod", "text", "pod, or null"),
      c("sandbox_id", "text", "sandbox id, or null"),
      c("error_class", "text", "error class, or null"),
      c("message", "text", "the component's message"),
      c("fields", "text", "parsed fields as JSON text (null for klog lines, whose fields are in the message)"),
    ],
  },
  {
    name: "findings",
    about: "what the detectors found",
    columns: [
      c("id", "integer", "finding id"),
      c("node_id", "integer", "node"),
      c("boot_id", "integer", "boot"),
      c("detector", "text", "detector name"),
      c("severity", "text", "info | low | medium | high | critical"),
      c("start_ts", "timestamptz", "start of the finding's window"),
      c("end_ts", "timestamptz", "end of the window"),
      c("title", "text", "title"),
      c("explanation", "text", "explanation"),
      c("metrics", "jsonb", "the detector's figures"),
      c("evidence", "bigint[]", "ids of evidence events"),
    ],
  },
  {
    name: "patterns",
    about: "message templates per boot and bundle",
    columns: [
      c("id", "integer", "pattern id"),
      c("boot_id", "integer", "boot"),
      c("bundle_id", "text", "bundle"),
      c("template", "text", "tokens, variable ones as <*>"),
      c("count", "integer", "events"),
      c("first_ts", "timestamptz", "first event time"),
      c("last_ts", "timestamptz", "last event time"),
      c("first_event_id", "bigint", "the template's earliest event"),
      c("lanes", "text", "lanes, comma-separated"),
      c("components", "text", "components, comma-separated"),
    ],
  },
  {
    name: "annotations",
    about: "reviewers' notes on the timeline",
    columns: [
      c("id", "integer", "note id"),
      c("boot_id", "integer", "boot"),
      c("ts", "timestamptz", "pinned instant"),
      c("event_id", "bigint", "event the note is about, or null"),
      c("text", "text", "the note"),
      c("created_at", "timestamptz", "written"),
    ],
  },
];

/** Example queries shown on the page. */
export const ASK_EXAMPLES: Array<{ title: string; sql: string }> = [
  {
    title: "top error classes per boot",
    sql: "SELECT b.node, b.boot_key, e.error_class, count(*) AS events\nFROM events e JOIN boots b ON b.id = e.boot_id\nWHERE e.error_class IS NOT NULL\nGROUP BY 1, 2, 3\nORDER BY events DESC\nLIMIT 20",
  },
  {
    title: "events in the failure window of each finding",
    sql: "SELECT f.title, e.ts, e.component, e.kind, e.message\nFROM findings f JOIN events e ON e.boot_id = f.boot_id\n  AND e.ts BETWEEN f.start_ts AND coalesce(f.end_ts, f.start_ts)\nWHERE e.severity >= 3\nORDER BY e.ts\nLIMIT 200",
  },
  {
    title: "first minute after T+0, by lane",
    sql: "SELECT lane, count(*) AS events, min(t_plus_ms) AS first_ms\nFROM events\nWHERE t_plus_ms BETWEEN 0 AND 60000\nGROUP BY lane\nORDER BY first_ms",
  },
  {
    title: "templates of a boot, most frequent first",
    sql: "SELECT boot_id, template, sum(count) AS events\nFROM patterns\nGROUP BY 1, 2\nORDER BY events DESC\nLIMIT 50",
  },
];
