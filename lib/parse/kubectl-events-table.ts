/**
 * Kubernetes events as kubectl tables: `kubectl get events [-A] [-o wide] [-w]`, `kubectl events`
 * (Rancher `kubectl/events`, pasted terminal output, k9s event views). Upstream: kubernetes
 * `pkg/printers/internalversion/printers.go` (`printEvent`, `eventColumnDefinitions`), kubectl
 * `pkg/cmd/events/event_printer.go` (`printOneEvent`), and the kubectl 1.2 to 1.13 column sets.
 *
 * Column sets (header line, upper case, cells padded by tabwriter):
 *
 *     [NAMESPACE] LAST SEEN TYPE REASON OBJECT MESSAGE                                   kubectl >= 1.14, `kubectl events`
 *     [NAMESPACE] LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME   -o wide
 *     [NAMESPACE] LAST SEEN TYPE REASON KIND MESSAGE                                     kubectl 1.12-1.13
 *     [NAMESPACE] LAST SEEN FIRST SEEN COUNT NAME KIND SUBOBJECT TYPE REASON SOURCE MESSAGE   kubectl 1.11
 *     [NAMESPACE] LASTSEEN FIRSTSEEN COUNT NAME KIND SUBOBJECT TYPE REASON SOURCE MESSAGE     kubectl 1.3-1.10
 *     FIRSTSEEN LASTSEEN COUNT NAME KIND SUBOBJECT TYPE REASON SOURCE MESSAGE             kubectl 1.2
 *     EVENT ...                                                                         --output-watch-events
 *
 * - OBJECT is `kind/name`, kind lowercased by `get events`, as in the API by `kubectl events`; in
 *   the old sets NAME is the involved object's name (kubectl <= 1.8) or the event's own name
 *   `<object>.<hex>` (later, and the wide set): the object is NAME without the `.<hex>`.
 * - LAST SEEN is an age (kube-age.ts); `kubectl events` writes `2m (x3 over 10m)`: count 3, first
 *   seen 10m ago. FIRST SEEN and COUNT, when present, give the same.
 * - SOURCE is `kubelet, <node>`, or `{kubelet <node>}` before kubectl 1.5: the node. Rows naming no
 *   node take the one their pod's Scheduled row names (`Successfully assigned <ns>/<pod> to <node>`).
 * - Without a NAMESPACE column a listing is of one namespace: `-n` of the command line above it,
 *   else the one its rows' messages name for their own pods, else `default` when the command line
 *   names none (the context's namespace, assumed), else unknown (null). `fields.namespaceFrom`.
 * - A row a terminal hard-wrapped goes on at column 0 on the next lines; a message with a newline
 *   goes on the same way. Such lines continue the row; once the file is read, a piece after a line
 *   longer than every line left whole is joined as cut, any other with `\n` (`joinTails`).
 *
 * Cells are cut at the header's column starts when the row lines up with its header (tabwriter
 * pads each cell of a column to one width, so messages with spaces stay whole); rows that do not
 * line up (`-w` prints each row with its own widths, pastes collapse runs of spaces, tabs) and rows
 * with no header at all are read by their shape: age, type, reason, object, message. The column
 * header, the shell prompt line that ran kubectl and k9s frame borders are banners (`header`).
 * Times are settled after the whole file (relative ages against `ParseContext.collectedMs`).
 * A message copied from a page that escaped it (`&#34;`) is read with its character references
 * decoded (helpers/html-entities.ts).
 */
import { decodeEntities } from "./helpers/html-entities";
import { timeWatchSeries, watchSpans } from "./helpers/kube-watch";
import { type Age, keepPrintOrder, type PendingAgeRecord, parseAge, parseAgeColumn, settleAges } from "./helpers/kube-age";
import {
  AGE,
  AGE_CELL,
  ASSIGNED_RE,
  CNI_POD_RE,
  EVENT_TYPE,
  FIELD_PATH_RE,
  isBoxBorder,
  isKubectlPrompt,
  kubectlNamespace,
  parseSource,
  SOURCE,
  splitObject,
  typeSeverity,
  unbox,
} from "./helpers/kubectl-paste";
import type { FormatSpec, K8sEventInfo, LineParser, LineResult, ParseContext } from "./types";

/** A column header line of one of the sets above (after any k9s frame is removed). */
const HEADER_RE =
  /^\s*(?:EVENT\s+)?(?:NAMESPACE[↑↓]?\s+)?(?:LAST ?SEEN|FIRST ?SEEN)[↑↓]?\s+(?:.*\s)?REASON[↑↓]?\s(?:.*\s)?(?:OBJECT|KIND|MESSAGE|SOURCE|COUNT)[↑↓]?(?:\s|$)/;
const HEADER_TOKEN_RE = /LAST ?SEEN|FIRST ?SEEN|[A-Z]+/g;
const KNOWN = new Set(["EVENT", "NAMESPACE", "LAST SEEN", "FIRST SEEN", "COUNT", "NAME", "KIND", "SUBOBJECT", "TYPE", "REASON", "OBJECT", "SOURCE", "MESSAGE"]);

const WATCH = "(?:ADDED|MODIFIED|DELETED|BOOKMARK|ERROR)";
const NS = "[a-z0-9][-a-z0-9]{0,62}";
/** `[EVENT] [NAMESPACE] LAST-SEEN TYPE REASON OBJECT [rest]` (current and `kubectl events` rows). */
const MODERN_ROW_RE = new RegExp(`^(?:(${WATCH})\\s+)?(?:(${NS})\\s+)?(${AGE_CELL})\\s+(${EVENT_TYPE})\\s+(\\S+)\\s+(\\S+)(?:\\s+(.*?))?\\s*$`);
/** `[NAMESPACE] AGE AGE COUNT NAME KIND [SUBOBJECT] TYPE REASON SOURCE [MESSAGE]` (kubectl <= 1.11 rows). */
const OLD_ROW_RE = new RegExp(
  `^(?:(${NS})\\s+)?(${AGE})\\s+(${AGE})\\s+(\\d+)\\s+([^\\s,{}]+)\\s+([A-Z][A-Za-z]*)\\s+(?:(\\S+)\\s+)?(${EVENT_TYPE})\\s+(\\S+)\\s+(${SOURCE})(?:\\s+(.*?))?\\s*$`,
);
/** The end of a wide row: `FIRST-SEEN COUNT NAME`. */
const WIDE_TAIL_RE = new RegExp(`^(.*?)\\s*(?:^|\\s)(${AGE})\\s+(\\d+)\\s+(\\S+)$`);
/** A SOURCE cell at the start of the rest of a wide row. */
const SOURCE_HEAD_RE = new RegExp(`^(${SOURCE})(?:\\s+|$)`);
/**
 * An event object's name: the involved object's name, a dot and the hex of the first occurrence's
 * time in ns (`%v.%x` in client-go's recorder, 16 digits since 2006).
 */
const EVENT_NAME_SUFFIX_RE = /\.[0-9a-f]{12,16}$/;
/** A bare `kubectl get events` / `kubectl events` command line (no prompt), `KUBECONFIG=… sudo kubectl …` included. */
const BARE_COMMAND_RE =
  /^\s*(?:[A-Z_]+=\S*\s+)*(?:sudo\s+(?:-\S+\s+)*)?(?:(?:k3s|microk8s|minikube)\s+)?(?:kubectl|kubecolor|oc|k)(?:\.exe)?\s+(?:\S+\s+)*?(?:get\s+(?:\S+\s+)*?(?:ev|events?)(?:\.(?:v1|events\.k8s\.io))?|events)(?:\s|$)/;
/**
 * A multus message naming its pod: `[<namespace>/<pod>]`, `[<namespace>/<pod>/<uid>]` or
 * `[<namespace>/<pod>/<uid>:<network>]`.
 */
/** `kubectl get events -w` / `--watch` / `--watch-only` (also `-w=true`, `-Aw`). */
const WATCH_FLAG_RE = /(?:^|\s)(?:-[a-zA-Z]*w[a-zA-Z]*(?:=true)?|--watch(?:-only)?(?:=true)?)(?=\s|$)/;
const BRACKET_POD_RE = /\[([a-z0-9][-a-z0-9]{0,62})\/([a-z0-9][-a-z0-9.]*)(?:\/[0-9a-f-]{36})?(?:[:\]])/;
/**
 * The start of a line of another log format (journal / syslog / ISO / klog / logrus / JSON, a describe
 * row): never the tail of a wrapped row.
 */
const OTHER_RECORD_RE = new RegExp(
  `^(?:[A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d|\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:|[IWEF]\\d{4} \\d\\d:|time="|level=|\\{"|\\s+${EVENT_TYPE}\\s+\\S+\\s+${AGE})`,
);
/** Cells padded into columns (another table's header or row): not a line of an event's message. */
const PADDED_RE = /\S {3,}\S/;
/** A line starting with a padded cell: a row or header of another table (`kubectl get pods`), never a piece of a message. */
const TABLE_LINE_RE = /^\S+(?: {3,}|\t)\S/;
/** A row that fills this many columns or more is taken to have been wrapped by the terminal. */
const WRAP_MIN = 80;

interface Column {
  name: string;
  start: number;
}

/** A table header: its columns in order, and whether rows can be cut at their starts. */
interface Layout {
  cols: Column[];
  names: Set<string>;
  positional: boolean;
  /** kubectl <= 1.11: COUNT, NAME, KIND before TYPE */
  old: boolean;
  /** -o wide: SOURCE, FIRST SEEN, COUNT, NAME after OBJECT / MESSAGE */
  wide: boolean;
}

/** The layout of a header line (already unboxed), or null when it is not one. */
export function parseHeader(line: string): Layout | null {
  if (!HEADER_RE.test(line)) return null;
  const cols: Column[] = [];
  HEADER_TOKEN_RE.lastIndex = 0;
  for (let m = HEADER_TOKEN_RE.exec(line); m; m = HEADER_TOKEN_RE.exec(line)) {
    const name = m[0] === "LASTSEEN" ? "LAST SEEN" : m[0] === "FIRSTSEEN" ? "FIRST SEEN" : m[0];
    if (!KNOWN.has(name)) return null;
    cols.push({ name, start: m.index });
  }
  const names = new Set(cols.map((c) => c.name));
  const at = (n: string) => cols.findIndex((c) => c.name === n);
  const old = names.has("COUNT") && names.has("TYPE") ? at("COUNT") < at("TYPE") : names.has("KIND") && names.has("NAME") && at("NAME") < at("KIND");
  return {
    cols,
    names,
    positional: line.indexOf("\t") < 0,
    old,
    wide: !old && names.has("FIRST SEEN"),
  };
}

/** Cells of a row cut at the header's column starts; null when the row does not line up. */
function cutCells(line: string, layout: Layout): Record<string, string> | null {
  const cols = layout.cols;
  const cells: Record<string, string> = {};
  for (let i = 0; i < cols.length; i++) {
    const start = cols[i].start;
    if (start > 0 && start < line.length) {
      const before = line.charCodeAt(start - 1);
      if (before !== 32) return null; // a cell runs into the next column
    }
    const end = i + 1 < cols.length ? Math.min(cols[i + 1].start, line.length) : line.length;
    cells[cols[i].name] = start < line.length ? line.slice(start, end).trim() : "";
  }
  return cells;
}

/** Cells of a row read by its shape (no header, or a row that does not line up with it). */
function shapeCells(line: string, layout: Layout | null): Record<string, string> | null {
  const t = line.trim();
  if (!layout || !layout.old) {
    const m = MODERN_ROW_RE.exec(t);
    if (m) {
      const cells: Record<string, string> = { "LAST SEEN": m[3], TYPE: m[4], REASON: m[5] };
      if (m[1]) cells.EVENT = m[1];
      if (m[2]) cells.NAMESPACE = m[2];
      const objectCol = layout && layout.names.has("KIND") && !layout.names.has("OBJECT") ? "KIND" : "OBJECT";
      cells[objectCol] = m[6];
      let rest = m[7] ?? "";
      const wide = layout ? layout.wide : false;
      const tail = wide || !layout ? WIDE_TAIL_RE.exec(rest) : null;
      if (tail && (wide || /, |^\{/.test(rest))) {
        cells["FIRST SEEN"] = tail[2];
        cells.COUNT = tail[3];
        cells.NAME = tail[4];
        rest = tail[1];
        // SUBOBJECT (a field path) and SOURCE come before the message
        const sp = rest.indexOf(" ");
        const tok = sp < 0 ? rest : rest.slice(0, sp);
        if (FIELD_PATH_RE.test(tok)) {
          cells.SUBOBJECT = tok;
          rest = sp < 0 ? "" : rest.slice(sp).trimStart();
        }
        const src = SOURCE_HEAD_RE.exec(rest);
        if (src) {
          cells.SOURCE = src[1];
          rest = rest.slice(src[0].length);
        }
      }
      cells.MESSAGE = rest;
      return cells;
    }
  }
  const o = OLD_ROW_RE.exec(t);
  if (!o) return null;
  const a = o[2];
  const b = o[3];
  // the last occurrence is never older than the first: the smaller age is LAST SEEN
  const aAge = parseAge(a);
  const bAge = parseAge(b);
  const aFirst = aAge !== null && bAge !== null && aAge.ms > bAge.ms;
  const cells: Record<string, string> = {
    "LAST SEEN": aFirst ? b : a,
    "FIRST SEEN": aFirst ? a : b,
    COUNT: o[4],
    NAME: o[5],
    KIND: o[6],
    TYPE: o[8],
    REASON: o[9],
    SOURCE: o[10],
    MESSAGE: o[11] ?? "",
  };
  if (o[1]) cells.NAMESPACE = o[1];
  if (o[7]) cells.SUBOBJECT = o[7];
  return cells;
}

function validCells(cells: Record<string, string>, layout: Layout | null): boolean {
  const type = cells.TYPE;
  if (type !== undefined ? type !== "Normal" && type !== "Warning" : !layout) return false;
  return parseAgeColumn(cells["LAST SEEN"] ?? "") !== null;
}

/** A row's record as kept until the file is read (its namespace may come from a later row). */
type RowRecord = PendingAgeRecord["record"];

/**
 * The rows printed by one command: everything after a `kubectl get events` / `kubectl events`
 * command line (prompt or bare), up to the next one. Without a NAMESPACE column kubectl lists one
 * namespace, so a namespace any row's message gives for its own pod is every row's.
 */
interface Listing {
  /** namespace of `-n X` on the command line; null when the line names none or was not seen */
  namespace: string | null;
  /** a command line was seen and it has neither `-n` nor `-A`: the context's namespace */
  contextNamespace: boolean;
  /** rows without a NAMESPACE cell */
  rows: RowRecord[];
}

class EventsTableParser implements LineParser {
  private readonly collectedMs: number | null;
  private readonly fromPrintTime: boolean;
  /** a watch (`-w`, `--watch`, `--output-watch-events`): rows were printed as they happened, in order */
  private watch = false;
  private readonly pending: PendingAgeRecord[] = [];
  private readonly listings: Listing[] = [];
  private listing: Listing | null = null;
  private layout: Layout | null = null;
  /** the last row's record while the lines after it may still be its wrapped tail */
  private open: RowRecord | null = null;
  /** length of the row or tail line before this one */
  private openLen = 0;
  /** every row line (text null) and tail line, in order; `head`: a tail follows it */
  private readonly pieces: Array<{ record: RowRecord; text: string | null; len: number; head: boolean }> = [];

  constructor(ctx: ParseContext) {
    this.collectedMs = ctx.collectedMs;
    this.fromPrintTime = ctx.agesFromPrintTime === true;
  }

  parseLine(raw: string): LineResult {
    const c0 = raw.charCodeAt(0);
    const line = c0 === 32 || c0 > 0x2500 ? unbox(raw) : raw;
    const c = line.charCodeAt(0);
    if ((c === 78 || c === 76 || c === 70 || c === 69 || c === 32) && HEADER_RE.test(line)) {
      const layout = parseHeader(line);
      if (layout) {
        this.layout = layout;
        this.open = null;
        return { type: "banner", banner: { type: "header" } };
      }
    }
    let cells: Record<string, string> | null = null;
    const layout = this.layout;
    if (layout && layout.positional) {
      cells = cutCells(line, layout);
      if (cells && !validCells(cells, layout)) cells = null;
    }
    if (!cells) {
      cells = shapeCells(line, layout);
      if (cells && !validCells(cells, null)) cells = null;
    }
    if (cells) {
      const res = this.row(cells);
      this.open = res.record;
      this.openLen = line.length;
      this.pieces.push({ record: res.record, text: null, len: line.length, head: false });
      return res;
    }
    if (isKubectlPrompt(raw) || BARE_COMMAND_RE.test(raw)) {
      this.pasteBanner(raw);
      return { type: "banner", banner: { type: "header" } };
    }
    if (isBoxBorder(raw)) {
      this.open = null;
      return { type: "banner", banner: { type: "header" } };
    }
    return this.tail(line);
  }

  /**
   * A line after a row that is not a row: the row's message went on, because a terminal wrapped
   * the row or because the message has a newline in it. Which one is told once the file is read
   * (`joinTails`); the text is added to the message then.
   */
  private tail(line: string): LineResult {
    const open = this.open;
    if (open === null || line.trim() === "" || OTHER_RECORD_RE.test(line)) {
      this.open = null;
      return null;
    }
    if (TABLE_LINE_RE.test(line) || (this.openLen < WRAP_MIN && PADDED_RE.test(line))) {
      this.open = null;
      return null;
    }
    this.pieces[this.pieces.length - 1].head = true;
    this.pieces.push({ record: open, text: line, len: line.length, head: false });
    this.openLen = line.length;
    return { type: "continuation", text: "" };
  }

  /**
   * Add the tails to their rows' messages. A terminal cuts every line longer than its width at
   * that width, so a line cut by it (followed by a tail) is longer than every line it left whole
   * (the last line of each row): its tail is joined as it is, often mid-word or mid-id. Any other
   * tail is the next line of a message with a newline in it, joined with `\n`.
   */
  private joinTails(): void {
    let longestWhole = 0;
    for (const p of this.pieces) if (!p.head && p.len > longestWhole) longestWhole = p.len;
    for (let i = 0; i < this.pieces.length; i++) {
      const p = this.pieces[i];
      if (p.text === null) continue;
      const head = this.pieces[i - 1];
      const cut = head.len >= WRAP_MIN && head.len > longestWhole;
      p.record.message += cut ? p.text.trimEnd() : `\n${p.text.trim()}`;
    }
  }

  /**
   * A shell prompt or bare command line that ran kubectl (also as `parseFile` hands over the paste
   * banners it takes before the format sees them): the rows after it are that command's.
   */
  pasteBanner(line: string): void {
    this.open = null;
    if (!isKubectlPrompt(line) && !BARE_COMMAND_RE.test(line)) return;
    if (WATCH_FLAG_RE.test(line)) this.watch = true;
    const ns = kubectlNamespace(line);
    this.listing = { namespace: ns.namespace, contextNamespace: ns.namespace === null && !ns.all, rows: [] };
    this.listings.push(this.listing);
  }

  private row(cells: Record<string, string>): { type: "record"; record: RowRecord } {
    const age = parseAgeColumn(cells["LAST SEEN"] ?? "") as NonNullable<ReturnType<typeof parseAgeColumn>>;
    const type = cells.TYPE ?? "Normal";
    const reason = cells.REASON ?? "";
    let kind: string | null = null;
    let name: string | null = null;
    if (cells.OBJECT !== undefined) ({ kind, name } = splitObject(cells.OBJECT));
    else if (cells.KIND !== undefined) {
      kind = splitObject(cells.KIND).kind;
      const n = cells.NAME || null;
      // NAME is the involved object's name (kubectl <= 1.8) or the event's, `<object>.<hex>`
      name = n ? n.replace(EVENT_NAME_SUFFIX_RE, "") : n;
    }
    const namespace = cells.NAMESPACE || null;
    const src = cells.SOURCE !== undefined ? parseSource(cells.SOURCE) : null;
    const node = src?.host ?? (kind === "Node" ? name : null);
    if (cells.EVENT !== undefined) this.watch = true;
    const countCell = cells.COUNT;
    const count = countCell && /^\d+$/.test(countCell) && Number(countCell) > 0 ? Number(countCell) : age.count;
    let first: Age | null = age.first;
    if (cells["FIRST SEEN"] !== undefined) first = parseAge(cells["FIRST SEEN"]) ?? first;
    const info: K8sEventInfo = {
      reason,
      type,
      count,
      namespace,
      objectKind: kind,
      objectName: name,
      node,
      firstMs: null,
      lastMs: null,
    };
    const fields: Record<string, string> = { reason, type, count: String(count), age: age.text };
    if (kind && name) fields.object = `${kind}/${name}`;
    if (node) fields.node = node;
    if (src) fields.source = src.component;
    if (cells.SUBOBJECT) fields.subobject = cells.SUBOBJECT;
    if (cells.EVENT) fields.watchEvent = cells.EVENT;
    const record: RowRecord = {
      time: null,
      epochMs: null,
      component: "k8s-events",
      severity: typeSeverity(type),
      message: decodeEntities(cells.MESSAGE ?? ""),
      fields,
      k8sEvent: info,
    };
    if (!namespace) {
      if (!this.listing) {
        this.listing = { namespace: null, contextNamespace: false, rows: [] };
        this.listings.push(this.listing);
      }
      this.listing.rows.push(record);
    }
    this.pending.push({ record, last: age.last, first });
    return { type: "record", record };
  }

  finish(): void {
    this.joinTails();
    for (const l of this.listings) settleNamespace(l);
    assignedNodes(this.pending);
    for (const p of this.pending) {
      const ev = p.record.k8sEvent;
      if (ev.objectKind === "Pod" && ev.objectName)
        (p.record.fields as Record<string, string>).pod = ev.namespace ? `${ev.namespace}/${ev.objectName}` : ev.objectName;
    }
    settleAges(this.pending, this.collectedMs, this.fromPrintTime);
    if (this.watch && !this.fromPrintTime) {
      // every row at its latest bound in print order, then each event's rows from its last printing back by their spans
      const spans = watchSpans(this.pending);
      keepPrintOrder(this.pending);
      timeWatchSeries(this.pending, spans);
      keepPrintOrder(this.pending);
    }
  }
}

/**
 * The node of a pod's rows that name none (no SOURCE host): the one its Scheduled row's message
 * names (`Successfully assigned <ns>/<pod> to <node>`). A pod scheduled to two nodes (a paste of
 * two pods of one name) gives no node.
 */
function assignedNodes(pending: ReadonlyArray<{ record: RowRecord }>): void {
  // pod name → its namespace (null: not known) and node (null: two nodes named)
  let nodes: Map<string, { ns: string | null; node: string | null }> | null = null;
  for (const p of pending) {
    const r = p.record;
    const ev = r.k8sEvent;
    if (ev.reason !== "Scheduled" || (ev.objectKind !== null && ev.objectKind !== "Pod")) continue;
    const a = ASSIGNED_RE.exec(r.message);
    if (!a || (ev.objectName !== null && a[2] !== ev.objectName)) continue;
    const ns = a[1] ?? ev.namespace ?? null;
    nodes ??= new Map();
    const had = nodes.get(a[2]);
    if (had === undefined) nodes.set(a[2], { ns, node: a[3] });
    else if (had.node !== a[3] || had.ns !== ns) had.node = null;
  }
  if (nodes === null) return;
  for (const p of pending) {
    const r = p.record;
    const ev = r.k8sEvent;
    if (ev.node !== null || ev.objectName === null || (ev.objectKind !== null && ev.objectKind !== "Pod")) continue;
    const at = nodes.get(ev.objectName);
    if (!at || at.node === null || (at.ns !== null && ev.namespace !== null && at.ns !== ev.namespace)) continue;
    ev.node = at.node;
    (r.fields as Record<string, string>).node = at.node;
  }
}

/** The namespace a row's message gives for the row's own pod (scheduler, CNI and multus wording), or null. */
function messageNamespace(r: RowRecord): string | null {
  const ev = r.k8sEvent;
  const name = ev.objectName;
  if (!name || (ev.objectKind !== null && ev.objectKind !== "Pod")) return null;
  const msg = r.message;
  const a = ASSIGNED_RE.exec(msg);
  if (a && a[1] && a[2] === name) return a[1];
  const c = CNI_POD_RE.exec(msg);
  if (c && c[1] === name) return c[2];
  const b = BRACKET_POD_RE.exec(msg);
  if (b && b[2] === name) return b[1];
  return null;
}

/**
 * Namespace of the rows of one listing that have no NAMESPACE cell: `-n` of its command line, else
 * the one namespace its rows' messages give (several: each pod its own), else `default` when the
 * command line named none (the context's namespace, assumed), else unknown (null).
 */
function settleNamespace(l: Listing): void {
  let ns: string | null = l.namespace;
  let from = "command";
  const byPod = new Map<string, string>();
  if (ns === null) {
    const seen = new Set<string>();
    for (const r of l.rows) {
      const m = messageNamespace(r);
      if (m) {
        seen.add(m);
        byPod.set(r.k8sEvent.objectName as string, m);
      }
    }
    from = "message";
    if (seen.size === 1) ns = [...seen][0];
    else if (seen.size === 0 && l.contextNamespace) {
      ns = "default";
      from = "assumed";
    }
  }
  for (const r of l.rows) {
    const v = ns ?? byPod.get(r.k8sEvent.objectName ?? "") ?? null;
    if (v === null) continue;
    r.k8sEvent.namespace = v;
    (r.fields as Record<string, string>).namespaceFrom = from;
  }
}

/** true when the (unboxed) line is an event table row by its shape. */
function isRowShape(line: string): boolean {
  const t = line.trim();
  return MODERN_ROW_RE.test(t) || OLD_ROW_RE.test(t);
}

/** Format spec: `kubectl get events` (all column sets, `-A`, `-o wide`, `-w`) and `kubectl events` tables. */
export const kubectlEventsTableSpec: FormatSpec = {
  name: "kubectl-events-table",
  kind: "k8s-events",
  sniff(_path, lines) {
    // rows, and the tails of rows a terminal wrapped (lines after a row or tail that filled the
    // screen): a row with a long message wraps into several tails
    let rows = 0;
    let tails = 0;
    let total = 0;
    let prevLen = -1;
    for (const raw of lines) {
      if (isKubectlPrompt(raw) || isBoxBorder(raw) || BARE_COMMAND_RE.test(raw)) continue;
      const l = unbox(raw);
      if (parseHeader(l)) return true;
      total++;
      if (isRowShape(l)) {
        rows++;
        prevLen = l.length;
      } else if (prevLen >= WRAP_MIN && !OTHER_RECORD_RE.test(l) && !TABLE_LINE_RE.test(l)) {
        tails++;
        prevLen = l.length;
      } else prevLen = -1;
    }
    return rows > 0 && rows * 2 >= total - tails;
  },
  createParser: (ctx) => new EventsTableParser(ctx),
  samples: [
    {
      context: ["NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE"],
      line: "default     11m         Warning   Rebooted    node/ip-10-20-30-40.ec2.internal   Node ip-10-20-30-40.ec2.internal has been rebooted, boot id: a91e07c2-5d3f-4b08-b6e2-f4c1d9a07e33",
      collectedMs: Date.UTC(2025, 4, 19, 4, 31, 0),
      expect: {
        time: null,
        epochMs: Date.UTC(2025, 4, 19, 4, 20, 0),
        epochPrecision: "age",
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
          firstMs: Date.UTC(2025, 4, 19, 4, 20, 0),
          lastMs: Date.UTC(2025, 4, 19, 4, 20, 0),
          firstUncertaintyMs: 60_000,
          lastUncertaintyMs: 60_000,
        },
      },
    },
    {
      // `kubectl events`: the kind as in the API, and the count and first age in the LAST SEEN cell
      context: ["LAST SEEN            TYPE      REASON                   OBJECT                    MESSAGE"],
      line: '3m2s (x5 over 10m)   Warning   FailedCreatePodSandBox   Pod/web-7d9c6b5f4-x2x9q   Failed to create pod sandbox: plugin type="calico" failed (add)',
      collectedMs: Date.UTC(2025, 4, 19, 4, 31, 0),
      expect: {
        epochMs: Date.UTC(2025, 4, 19, 4, 27, 58),
        epochPrecision: "s",
        fields: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: "5",
          age: "3m2s (x5 over 10m)",
          object: "Pod/web-7d9c6b5f4-x2x9q",
          pod: "web-7d9c6b5f4-x2x9q",
        },
      },
    },
    {
      // -o wide: SOURCE names the node, FIRST SEEN and COUNT the series
      context: [
        "LAST SEEN   TYPE      REASON                   OBJECT              SUBOBJECT   SOURCE            MESSAGE                        FIRST SEEN   COUNT   NAME",
      ],
      line: "40s         Warning   FailedCreatePodSandBox   pod/coredns-7c9f4               kubelet, node-b   Failed to create pod sandbox   4m20s        9       coredns-7c9f4.17d2a6b0c1e3f4a5",
      collectedMs: Date.UTC(2024, 10, 2, 12, 0, 0),
      expect: {
        epochMs: Date.UTC(2024, 10, 2, 11, 59, 20),
        message: "Failed to create pod sandbox",
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 9,
          namespace: null,
          objectKind: "Pod",
          objectName: "coredns-7c9f4",
          node: "node-b",
          firstMs: Date.UTC(2024, 10, 2, 11, 55, 40),
          lastMs: Date.UTC(2024, 10, 2, 11, 59, 20),
          firstUncertaintyMs: 1000,
          lastUncertaintyMs: 1000,
        },
      },
    },
    {
      // kubectl 1.3-1.10: LASTSEEN FIRSTSEEN COUNT NAME KIND SUBOBJECT TYPE REASON SOURCE MESSAGE, `{component host}` source
      context: ["LASTSEEN   FIRSTSEEN   COUNT   NAME          KIND   SUBOBJECT   TYPE      REASON                   SOURCE               MESSAGE"],
      line: "2m         7m          31      web-5d8f9-q   Pod                Warning   FailedCreatePodSandBox   {kubelet worker-3}   Failed create pod sandbox.",
      collectedMs: Date.UTC(2018, 0, 5, 9, 0, 0),
      expect: {
        epochMs: Date.UTC(2018, 0, 5, 8, 58, 0),
        epochPrecision: "age",
        fields: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: "31",
          age: "2m",
          object: "Pod/web-5d8f9-q",
          pod: "web-5d8f9-q",
          node: "worker-3",
          source: "kubelet",
        },
      },
    },
    {
      // `kubectl get events -w` row pasted with its spaces collapsed, no header: the namespace from the scheduler's message
      line: "0s Normal Scheduled pod/web-5d8f9-q Successfully assigned shop/web-5d8f9-q to worker-3",
      collectedMs: Date.UTC(2018, 0, 5, 9, 0, 0),
      expect: {
        epochMs: Date.UTC(2018, 0, 5, 9, 0, 0),
        message: "Successfully assigned shop/web-5d8f9-q to worker-3",
        // the Scheduled row names its pod's node
        fields: {
          reason: "Scheduled",
          type: "Normal",
          count: "1",
          age: "0s",
          object: "Pod/web-5d8f9-q",
          pod: "shop/web-5d8f9-q",
          namespaceFrom: "message",
          node: "worker-3",
        },
      },
    },
    {
      // kubectl 1.9-1.10: NAME is the event's own name, `<object>.<hex>`; COUNT occurrences between the two ages
      context: [
        "LASTSEEN   FIRSTSEEN   COUNT     NAME                              KIND      SUBOBJECT   TYPE      REASON                   SOURCE                 MESSAGE",
      ],
      line: '4m         12m         22        calico-node-7xq2m.15b3c0e9d4f1a2b7   Pod                   Warning   FailedCreatePodSandBox   kubelet, worker-9.lab   Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod "calico-node-7xq2m_kube-system" network: stat /var/lib/calico/nodename: no such file or directory',
      collectedMs: Date.UTC(2018, 5, 1, 12, 0, 0),
      expect: {
        epochMs: Date.UTC(2018, 5, 1, 11, 56, 0),
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 22,
          namespace: "kube-system",
          objectKind: "Pod",
          objectName: "calico-node-7xq2m",
          node: "worker-9.lab",
          firstMs: Date.UTC(2018, 5, 1, 11, 48, 0),
          lastMs: Date.UTC(2018, 5, 1, 11, 56, 0),
          firstUncertaintyMs: 60_000,
          lastUncertaintyMs: 60_000,
        },
      },
    },
    {
      // the namespace a command line names (`-n`) is every row's when the table has no NAMESPACE column
      context: ["$ kubectl events -n ingress", "LAST SEEN              TYPE      REASON                   OBJECT                 MESSAGE"],
      line: '45s (x19 over 7m12s)   Warning   FailedCreatePodSandBox   Pod/edge-6f7d8-k2l9p   Failed to create pod sandbox: plugin type="cilium-cni" failed (add): unable to connect to Cilium daemon',
      collectedMs: Date.UTC(2025, 1, 3, 8, 0, 0),
      expect: {
        epochMs: Date.UTC(2025, 1, 3, 7, 59, 15),
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 19,
          namespace: "ingress",
          objectKind: "Pod",
          objectName: "edge-6f7d8-k2l9p",
          node: null,
          firstMs: Date.UTC(2025, 1, 3, 7, 52, 48),
          lastMs: Date.UTC(2025, 1, 3, 7, 59, 15),
          firstUncertaintyMs: 1000,
          lastUncertaintyMs: 1000,
        },
      },
    },
    {
      line: "NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE",
      expect: { banner: { type: "header" } },
    },
    {
      line: "[root@master-1 ~]# kubectl get events -A",
      expect: { banner: { type: "header" } },
    },
    {
      // a watch: rows printed live, `0s` each; the `1s` row printed after them bounds them all
      context: ["$ kubectl get events -n shop -w", "LAST SEEN   TYPE      REASON                   OBJECT                MESSAGE"],
      line: '0s          Warning   FailedCreatePodSandBox   pod/web-5f7c9-abcde   Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "aa11"',
      after: ['1s          Normal    Pulled                   pod/web-5f7c9-abcde   Container image "nginx:1.25" already present on machine'],
      collectedMs: Date.UTC(2023, 0, 2, 3, 10, 0),
      expect: {
        epochMs: Date.UTC(2023, 0, 2, 3, 9, 59),
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 1,
          namespace: "shop",
          objectKind: "Pod",
          objectName: "web-5f7c9-abcde",
          node: null,
          firstMs: Date.UTC(2023, 0, 2, 3, 9, 59),
          lastMs: Date.UTC(2023, 0, 2, 3, 9, 59),
          firstUncertaintyMs: 1000,
          lastUncertaintyMs: 1000,
        },
      },
    },
  ],
  notMine: [
    "  Warning  FailedCreatePodSandBox  2m  kubelet, node-p-000000  Failed to create pod sandbox",
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "NAME                     READY   STATUS              RESTARTS   AGE",
    "coredns-5d78c9869d-8xk2p 0/1     ContainerCreating   0          12m",
    "Events:  <none>",
  ],
};
