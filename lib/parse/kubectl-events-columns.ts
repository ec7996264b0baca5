/**
 * Kubernetes events as `kubectl get events -o custom-columns=<HEADER>:<jsonpath>,...` prints them:
 * a header of the names the command line chose, then one row per event, cells padded by
 * tabwriter (kubectl `pkg/cmd/get/customcolumn.go`: each header as typed, each cell the jsonpath's
 * value or `<none>`). Times are the event's RFC 3339 stamps, not ages.
 *
 *     FIRST                  LAST                   COUNT   TYPE      REASON                   OBJECT                    MESSAGE
 *     2024-03-11T07:02:10Z   2024-03-11T07:02:40Z   7       Warning   FailedCreatePodSandBox   web-7d9c6b5f4-x2x9q       Failed to create pod sandbox: …
 *     FirstSeen:.firstTimestamp,LastSeen:.lastTimestamp,Count:.count,From:.source.component,Type:.type,Reason:.reason,Message:.message
 *
 * A column is known by its header, any case, blanks `-` and `_` ignored: the last time (`LAST
 * SEEN`, `LastTimestamp`, `TIME`, `EVENTTIME`, `CREATED`, …), the first (`FIRST SEEN`,
 * `FirstTimestamp`), `COUNT`, `TYPE`, `REASON`, the object (`OBJECT` as `kind/name`, `NAME`,
 * `POD`, `KIND`), `NAMESPACE`, the source (`SOURCE`/`FROM`/`COMPONENT`: `kubelet, <node>` or a
 * component), the node (`NODE`/`HOST`), `MESSAGE`. A listing needs a time, `REASON` and `MESSAGE`
 * columns, and its time cells are stamps (a table of ages is kubectl-events-table.ts's). Each row
 * is cut at the header's column starts and read as the event object its cells came from
 * (k8s-events-json.ts `eventRecord`); a row that does not line up is not read (skipped, counted).
 * Without a NAMESPACE column the rows take the `-n` of the command line pasted above the table.
 */
import { isKubectlPrompt, kubectlNamespace } from "./helpers/kubectl-paste";
import { eventRecord } from "./k8s-events-json";
import type { FormatSpec, LineParser, LineResult } from "./types";

/** What a column holds, by its normalised header (lower case, no blank, `-` or `_`). */
const COLUMN_MEANING: Readonly<Record<string, string>> = {
  lastseen: "last",
  last: "last",
  lasttimestamp: "last",
  lasttime: "last",
  time: "last",
  timestamp: "last",
  eventtime: "last",
  created: "last",
  creationtimestamp: "last",
  firstseen: "first",
  first: "first",
  firsttimestamp: "first",
  firsttime: "first",
  count: "count",
  type: "type",
  reason: "reason",
  object: "object",
  involvedobject: "object",
  target: "object",
  name: "name",
  pod: "pod",
  objectname: "name",
  kind: "kind",
  objectkind: "kind",
  namespace: "namespace",
  ns: "namespace",
  source: "source",
  from: "source",
  component: "source",
  reportingcomponent: "source",
  node: "node",
  host: "node",
  sourcehost: "node",
  message: "message",
  msg: "message",
  note: "message",
};

const STAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const HEADER_CELL_RE = /\S+/g;

interface Column {
  meaning: string;
  start: number;
}

/** The columns of a header line, or null when it is not a custom-columns event header. */
export function parseColumnsHeader(line: string): Column[] | null {
  if (line.length === 0 || line.charCodeAt(0) === 32 || line.indexOf("\t") >= 0) return null;
  const cols: Column[] = [];
  HEADER_CELL_RE.lastIndex = 0;
  for (let m = HEADER_CELL_RE.exec(line); m; m = HEADER_CELL_RE.exec(line)) {
    const meaning = COLUMN_MEANING[m[0].toLowerCase().replace(/[-_]/g, "")];
    if (!meaning) return null;
    cols.push({ meaning, start: m.index });
  }
  const has = (x: string) => cols.some((c) => c.meaning === x);
  return (has("last") || has("first")) && has("reason") && has("message") ? cols : null;
}

/** The cells of a row cut at the columns' starts, `<none>` as absent; null when it does not line up. */
function cutRow(line: string, cols: Column[]): Record<string, string> | null {
  const cells: Record<string, string> = {};
  for (let i = 0; i < cols.length; i++) {
    const start = cols[i].start;
    if (start > 0 && start < line.length && line.charCodeAt(start - 1) !== 32) return null;
    const end = i + 1 < cols.length ? Math.min(cols[i + 1].start, line.length) : line.length;
    const cell = start < line.length ? line.slice(start, end).trim() : "";
    // a cell with a blank in any column but the last ran past its column
    if (i + 1 < cols.length && cols[i].meaning !== "message" && cell.includes(" ") && cols[i].meaning !== "source") return null;
    if (cell !== "" && cell !== "<none>") cells[cols[i].meaning] = cell;
  }
  for (const t of ["last", "first"]) if (cells[t] !== undefined && !STAMP_RE.test(cells[t])) return null;
  // an event without either time (`<none>`) is still one: it lands untimed
  return cells.reason !== undefined || cells.last !== undefined || cells.first !== undefined ? cells : null;
}

/** The event object a row's cells were printed from (the fields `eventRecord` reads). */
function eventOf(cells: Record<string, string>): Record<string, unknown> {
  const involved: Record<string, string> = {};
  const object = cells.object;
  if (object !== undefined) {
    const slash = object.indexOf("/");
    if (slash > 0) {
      const kind = object.slice(0, slash);
      // `get events` prints the resource (`pod`), the API the kind (`Pod`)
      involved.kind = kind.charAt(0).toUpperCase() + kind.slice(1);
      involved.name = object.slice(slash + 1);
    } else involved.name = object;
  }
  if (cells.name !== undefined) involved.name = cells.name;
  if (cells.pod !== undefined) {
    involved.name = cells.pod;
    involved.kind = "Pod";
  }
  if (cells.kind !== undefined) involved.kind = cells.kind;
  if (cells.namespace !== undefined) involved.namespace = cells.namespace;
  const source: Record<string, string> = {};
  if (cells.source !== undefined) {
    const [component, host] = cells.source.split(/,\s*/, 2);
    source.component = component;
    if (host) source.host = host;
  }
  if (cells.node !== undefined) source.host = cells.node;
  const count = cells.count !== undefined ? Number(cells.count) : Number.NaN;
  return {
    reason: cells.reason ?? "",
    type: cells.type,
    message: cells.message ?? "",
    count: Number.isInteger(count) ? count : undefined,
    firstTimestamp: cells.first,
    lastTimestamp: cells.last ?? cells.first,
    involvedObject: involved,
    source,
  };
}

class EventsColumnsParser implements LineParser {
  readonly settled = true;
  private cols: Column[] | null = null;
  /** `-n <ns>` of the command line above the table: the namespace of rows without one */
  private namespace: string | null = null;

  pasteBanner(line: string): void {
    if (isKubectlPrompt(line)) this.namespace = kubectlNamespace(line).namespace;
  }

  parseLine(line: string): LineResult {
    const header = parseColumnsHeader(line);
    if (header) {
      this.cols = header;
      return { type: "banner", banner: { type: "header" } };
    }
    if (!this.cols) return null;
    const cells = cutRow(line, this.cols);
    if (!cells) return null;
    if (cells.namespace === undefined && this.namespace !== null) cells.namespace = this.namespace;
    const record = eventRecord(eventOf(cells));
    return record ? { type: "record", record } : null;
  }
}

/** Format spec: custom-columns tables of Kubernetes events with RFC 3339 times. */
export const kubectlEventsColumnsSpec: FormatSpec = {
  name: "kubectl-events-columns",
  kind: "k8s-events",
  sniff: (_path, lines) => {
    const at = lines.findIndex((l) => l.trim() !== "");
    const cols = at >= 0 ? parseColumnsHeader(lines[at]) : null;
    const row = cols ? lines.slice(at + 1).find((l) => l.trim() !== "") : undefined;
    const cells = cols && row !== undefined ? cutRow(row, cols) : null;
    return cells !== null && (cells.last !== undefined || cells.first !== undefined);
  },
  createParser: () => new EventsColumnsParser(),
  before: {
    "kubectl-events-table": [
      "LASTSEEN               TYPE      REASON                   OBJECT                   MESSAGE",
      "2024-03-11T07:02:40Z   Warning   FailedCreatePodSandBox   pod/web-7d9c6b5f4-x2x9q  Failed to create pod sandbox: rpc error",
    ],
  },
  samples: [
    {
      line: "2024-03-11T07:02:10Z   2024-03-11T07:02:40Z   7       Warning   FailedCreatePodSandBox   pod/web-7d9c6b5f4-x2x9q   Failed to create pod sandbox: rpc error: code = Unknown",
      context: ["FIRST                  LAST                   COUNT   TYPE      REASON                   OBJECT                    MESSAGE"],
      expect: {
        epochMs: Date.UTC(2024, 2, 11, 7, 2, 40),
        component: "k8s-events",
        severity: 2,
        message: "Failed to create pod sandbox: rpc error: code = Unknown",
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 7,
          namespace: null,
          objectKind: "Pod",
          objectName: "web-7d9c6b5f4-x2x9q",
          node: null,
          firstMs: Date.UTC(2024, 2, 11, 7, 2, 10),
          lastMs: Date.UTC(2024, 2, 11, 7, 2, 40),
        },
      },
    },
    {
      line: "2019-09-20T05:41:12Z   2019-09-20T05:49:57Z   34      kubelet, ip-10-0-3-17.ec2.internal   Warning   FailedCreatePodSandBox   Failed to create pod sandbox",
      context: ["FirstSeen              LastSeen               Count   From                                 Type      Reason                   Message"],
      expect: {
        epochMs: Date.UTC(2019, 8, 20, 5, 49, 57),
        severity: 2,
        message: "Failed to create pod sandbox",
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 34,
          namespace: null,
          objectKind: null,
          objectName: null,
          node: "ip-10-0-3-17.ec2.internal",
          firstMs: Date.UTC(2019, 8, 20, 5, 41, 12),
          lastMs: Date.UTC(2019, 8, 20, 5, 49, 57),
        },
      },
    },
  ],
  notMine: [
    "LAST SEEN   TYPE      REASON                   OBJECT                    MESSAGE",
    "12m         Warning   FailedCreatePodSandBox   pod/web-7d9c6b5f4-x2x9q   Failed to create pod sandbox",
    "NAME                      READY   STATUS    RESTARTS   AGE",
  ],
};
