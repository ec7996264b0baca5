/**
 * `kubectl describe` output and its Events section (Rancher `kubectl/poddescribe/<ns>`,
 * `nodesdescribe`, pasted terminal output, k9s describe views). Upstream: kubectl
 * `pkg/describe/describe.go` (`DescribeEvents`; before kubectl 1.9 the same function in
 * `pkg/printers/internalversion/describe.go`).
 *
 *     Name:         web-1
 *     Namespace:    shop
 *     Node:         node-1/10.0.0.5
 *     ...
 *     Events:
 *       Type     Reason                  Age                 From                    Message
 *       ----     ------                  ----                ----                    -------
 *       Warning  FailedCreatePodSandBox  2m                  kubelet, node-p-000000  Failed to create pod sandbox: …
 *       Normal   SandboxChanged          2s (x10 over 119s)  kubelet, node-p-000000  Pod sandbox changed, …
 *
 * Row shapes:
 * - kubectl >= 1.9: `Type Reason Age From Message`; Age is the last occurrence's age and
 *   ` (xN over D)` gives the count and the first occurrence's age; From is `kubelet, <node>` up to
 *   kubectl 1.19, the bare component since.
 * - kubectl <= 1.8: `FirstSeen LastSeen Count From SubObjectPath Type Reason Message`, padded with
 *   tabs; From is `kubelet, <node>` or (<= 1.4) `{kubelet <node>}`.
 * Columns are cut at the header's positions when a row lines up with it, else read by shape (tabs,
 * collapsed spaces, rows pasted without header; a row a user wrapped in quotes, `" Warning Failed…`,
 * with its closing quote on the next line). A row cut short after its type (`  Warning`) is
 * still a record when it sits in a table. Indented lines inside a table continue the row before;
 * so does a line at column 0 right under a row that is no key line, starts no log record and
 * no event message of its own (a message a page wrapped at blanks: joined after one blank), and
 * so do column-0 lines of a row hand-wrapped inside prose (`isHandWrapPiece`), joined with a blank.
 *
 * A message copied from a page that escaped it (`&#34;`, `&quot;`) is read with its character
 * references decoded (helpers/html-entities.ts).
 *
 * Every row is one record (component `k8s-events`); times are ages against
 * `ParseContext.collectedMs`, settled once the whole file is read (`finish()`, kube-age.ts).
 * Object and node of the rows: the describe's own `Name:` / `Namespace:` / `Node:` lines (a pod's
 * `Node:  node-1/10.0.0.5`, a node's own name), else the rows' messages (`Successfully assigned
 * ns/name to node`, CNI's `pod "name_ns"`) and sources (`kubelet, <node>`); the node is set on every
 * row of the table. The describe's other lines (`Labels:`, `Containers:`, conditions, the Events
 * header and dashes, k9s frame borders, the prompt that ran kubectl) are banners (`header`); a
 * paste cut just above the Events may start at a key line only a describe prints
 * (`Tolerations:                 CriticalAddonsOnly op=Exists`), and the indented lines of a
 * multi-line value under it are banners too.
 */
import { decodeEntities } from "./helpers/html-entities";
import { type PendingAgeRecord, parseAge, parseAgeColumn, settleAges } from "./helpers/kube-age";
import {
  AGE,
  AGE_CELL,
  ASSIGNED_RE,
  CNI_POD_RE,
  EVENT_TYPE,
  isBoxBorder,
  isKubectlPrompt,
  parseSource,
  SOURCE,
  typeSeverity,
  unbox,
} from "./helpers/kubectl-paste";
import { parseK8sMessage } from "./k8s-message";
import { RECORD_START } from "./paste";
import type { FormatSpec, K8sEventInfo, LineParser, LineResult, ParseContext } from "./types";

const REASON = "[A-Za-z][\\w.:-]*";
/** `Type Reason Age From Message` row; everything after the type may be cut off. */
const ROW_RE = new RegExp(`^\\s*(?:["'] ?)?(${EVENT_TYPE})(?:\\s+(${REASON})(?:\\s+(${AGE_CELL})(?:\\s+(${SOURCE}))?(?:\\s+(.*?))?)?)?\\s*$`);
/** `FirstSeen LastSeen Count From [SubObjectPath] Type Reason Message` row (kubectl <= 1.8). */
const OLD_ROW_RE = new RegExp(
  `^\\s*(${AGE})\\s+(${AGE})\\s+(\\d+)\\s+(${SOURCE})\\s+(?:((?:spec|status|metadata)\\.\\S+|[a-z]\\w*\\{[^}]*\\})\\s+)?(${EVENT_TYPE})\\s+(${REASON})(?:\\s+(.*?))?\\s*$`,
);
const HEADER_RE = /^\s*Type\s+Reason\s+(?:Age|Last)\s+From\s+Message\s*$/;
const OLD_HEADER_RE = /^\s*FirstSeen\s+LastSeen\s+Count\s+From\s+Sub[oO]bject(?:Path)?\s+(?:Type\s+)?Reason\s+Message\s*$/;
const RULE_RE = /^\s*-{2,}(?:\s+-{2,}){3,}\s*$/;
const EVENTS_RE = /^\s*Events:\s*(?:<none>)?\s*$/;
const NAME_RE = /^Name:\s+(\S+)\s*$/;
/** A describe key line at column 0: `Namespace:    shop`, `Containers:`, `Start Time:   …`. */
const KEY_RE = /^([A-Z][A-Za-z0-9 ()/.-]{0,40}):(?:\s|$)/;
const POD_KEYS = new Set(["Node", "Start Time", "Containers", "Init Containers", "QoS Class", "Priority", "Service Account", "IPs"]);
const NODE_KEYS = new Set([
  "Roles",
  "Taints",
  "Unschedulable",
  "System Info",
  "Addresses",
  "PodCIDR",
  "PodCIDRs",
  "Non-terminated Pods",
  "Allocatable",
  "Capacity",
  "Lease",
]);
/**
 * Key lines only a pod or node describe prints, that may open a paste cut above them
 * (`Tolerations:` and its indented values). Keys other tools print too (`Labels:`, `Status:`,
 * `IP:`) open a describe only after `Name:` or `Namespace:`.
 */
const DESCRIBE_KEYS = new Set([
  ...POD_KEYS,
  ...NODE_KEYS,
  "Controlled By",
  "Conditions",
  "Volumes",
  "Node-Selectors",
  "Tolerations",
  "Priority Class Name",
  "Runtime Class Name",
  "Readiness Gates",
]);

/** A key line of a describe (`Namespace:`, `Tolerations:` …), not a piece of a wrapped message. */
function isDescribeKey(line: string): boolean {
  const k = KEY_RE.exec(line);
  return k !== null && (k[1] === "Namespace" || DESCRIBE_KEYS.has(k[1]));
}

/**
 * A line at column 0 that may go on with a row's message: no `Name:` or describe key line, no log
 * record's start (a time, a level, `{`, `<PRI>`) and no event message of its own.
 */
function isWrappedPiece(line: string): boolean {
  const c = line.charCodeAt(0);
  if (c === 123 || c === 60 || c === 91) return false; // `{` `<` `[`
  return !NAME_RE.test(line) && !isDescribeKey(line) && !RECORD_START.test(line) && parseK8sMessage(line) === null;
}

/** The line above ended a sentence and this one starts another (`… re-created.` then `Normal is …`): prose under the table, not a wrapped piece. */
function endsSentenceBefore(above: string, line: string): boolean {
  return /[.!?]\s*$/.test(above) && /^[A-Z]/.test(line);
}

/** The object a describe output is about (from its key lines). */
interface Described {
  name: string | null;
  namespace: string | null;
  node: string | null;
  kind: "Pod" | "Node" | null;
}

interface Table {
  rows: PendingAgeRecord[];
  /** row node (`kubelet, <node>`) per row, parallel to rows */
  hosts: Array<string | null>;
  described: Described | null;
  /** column starts of the modern header (Type, Reason, Age, From, Message) when it lines rows up */
  cols: number[] | null;
}

class DescribeEventsParser implements LineParser {
  private readonly collectedMs: number | null;
  private readonly fromPrintTime: boolean;
  private readonly pending: PendingAgeRecord[] = [];
  private readonly tables: Table[] = [];
  private table: Table | null = null;
  private described: Described | null = null;
  /** a describe output (or an Events section) was seen: its other lines are banners */
  private inDescribe = false;
  private inEvents = false;
  /** the last line read was a row or its continuation, and its number (blank lines are not read) */
  private underRow = false;
  private rowEnd = -1;
  private rowText = "";
  /** line number and text of the last row or hand-wrapped piece read (see isHandWrapPiece) */
  private chainLine = -2;
  private chainText = "";
  private chainEmpty = false;
  private chainHand = false;
  private inEventsBefore = false;

  constructor(ctx: ParseContext) {
    this.collectedMs = ctx.collectedMs;
    this.fromPrintTime = ctx.agesFromPrintTime === true;
  }

  private newTable(): Table {
    const t: Table = { rows: [], hosts: [], described: this.described, cols: null };
    this.tables.push(t);
    this.table = t;
    return t;
  }

  parseLine(raw: string, lineNo = -1): LineResult {
    const under = this.underRow && (lineNo < 0 || lineNo === this.rowEnd + 1);
    this.inEventsBefore = this.inEvents && this.table !== null && this.table.rows.length > 0;
    const res = this.read(raw, lineNo, under);
    this.underRow = res !== null && res.type !== "banner";
    if (this.underRow) this.rowText = raw;
    if (lineNo >= 0) this.rowEnd = lineNo;
    if (res !== null && res.type === "record") {
      this.chainLine = lineNo;
      this.chainText = raw;
      this.chainHand = raw.length < HAND_WRAP_MAX;
      this.chainEmpty = res.record.message === "";
    } else if (res === null && lineNo >= 0 && lineNo === this.chainLine + 1 && this.inEventsBefore && !/^\s/.test(raw)) {
      // a column-0 line right under a row: the paste layer may join it as a terminal's cut piece,
      // so the table (and its indented continuations) goes on
      this.inEvents = true;
      this.chainLine = lineNo;
      this.chainText = raw;
      this.chainEmpty = false;
    } else if (res === null || res.type === "banner") this.chainLine = -2;
    return res;
  }

  /** `under`: the line right above was a row or its continuation */
  private read(raw: string, lineNo: number, under: boolean): LineResult {
    const c0 = raw.charCodeAt(0);
    const line = c0 === 32 || c0 > 0x2500 ? unbox(raw) : raw;
    if (line.length === 0 || line.trim() === "") return c0 > 0x2500 || c0 === 32 ? this.banner() : null;
    const c = line.charCodeAt(0);
    const indented = c === 32 || c === 9;

    let m = ROW_RE.exec(line);
    if (m) {
      // a row cut before its age only inside a table
      if (m[3] !== undefined || (this.inEvents && this.table !== null)) return this.row(line, m);
    }
    if (indented || c === 70 || c === 84) {
      if (HEADER_RE.test(line)) return this.header(line);
      if (OLD_HEADER_RE.test(line)) return this.header(null);
    }
    m = OLD_ROW_RE.exec(line);
    if (m) return this.oldRow(m);
    if (RULE_RE.test(line)) return this.inDescribe || this.inEvents ? this.banner() : null;
    if (EVENTS_RE.test(line)) {
      this.inDescribe = true;
      this.inEvents = true;
      this.newTable();
      return this.banner();
    }
    if (indented) {
      if (this.inEvents && this.table && this.table.rows.length > 0) return { type: "continuation", text: line.trim() };
      return this.inDescribe ? this.banner() : null;
    }
    if (isKubectlPrompt(raw) || isBoxBorder(raw)) return this.banner();
    if (lineNo >= 0 && lineNo === this.chainLine + 1 && isHandWrapPiece(line, this.chainText, this.chainHand)) {
      const glue = this.chainEmpty ? "" : " ";
      this.chainLine = lineNo;
      this.chainText = line;
      this.chainHand ||= line.length < HAND_WRAP_MAX;
      this.chainEmpty = false;
      return { type: "continuation", text: line.trim(), glue };
    }
    // a row's message a page wrapped at blanks goes on at column 0 (no key line, no record start)
    if (under && this.inEvents && this.table && this.table.rows.length > 0 && isWrappedPiece(line) && !endsSentenceBefore(this.rowText, line)) {
      return { type: "continuation", text: line.trim(), glue: " " };
    }
    const n = NAME_RE.exec(line);
    if (n) {
      this.described = { name: n[1], namespace: null, node: null, kind: null };
      this.inDescribe = true;
      this.inEvents = false;
      this.table = null;
      return this.banner();
    }
    const k = KEY_RE.exec(line);
    // an event message quoted on its own (`Failed to create pod sandbox: …`) is no key line
    if (k && (this.inDescribe || k[1] === "Namespace" || DESCRIBE_KEYS.has(k[1])) && parseK8sMessage(line) === null) {
      this.inDescribe = true;
      this.inEvents = false;
      this.key(k[1], line.slice(k[0].length).trim());
      return this.banner();
    }
    this.inEvents = false;
    return null;
  }

  private banner(): LineResult {
    return { type: "banner", banner: { type: "header" } };
  }

  private key(key: string, value: string): void {
    const d = (this.described ??= { name: null, namespace: null, node: null, kind: null });
    if (key === "Namespace") d.namespace = value && value !== "<none>" ? value.split(/\s/)[0] : null;
    else if (key === "Node") {
      const v = value.split(/\s/)[0] ?? "";
      const slash = v.indexOf("/");
      const node = slash >= 0 ? v.slice(0, slash) : v;
      d.node = node && node !== "<none>" ? node : null;
    }
    if (d.kind === null) {
      if (POD_KEYS.has(key)) d.kind = "Pod";
      else if (NODE_KEYS.has(key)) d.kind = "Node";
    }
  }

  private header(line: string | null): LineResult {
    this.inDescribe = true;
    if (!this.inEvents || !this.table || this.table.rows.length > 0) this.newTable();
    this.inEvents = true;
    const t = this.table as Table;
    t.cols = null;
    if (line !== null && line.indexOf("\t") < 0) {
      const cols = ["Type", "Reason", /Age|Last/, "From", "Message"].map((w) => line.search(typeof w === "string" ? new RegExp(`\\b${w}\\b`) : w));
      if (cols.every((x, i) => x >= 0 && (i === 0 || x > cols[i - 1]))) t.cols = cols;
    }
    return this.banner();
  }

  /** Cells cut at the header's column starts; null when the row does not line up. */
  private cut(line: string, cols: number[]): string[] | null {
    const cells: string[] = [];
    for (let i = 0; i < cols.length; i++) {
      const s = cols[i];
      if (s > 0 && s < line.length && line.charCodeAt(s - 1) !== 32) return null;
      const e = i + 1 < cols.length ? Math.min(cols[i + 1], line.length) : line.length;
      cells.push(s < line.length ? line.slice(s, e).trim() : "");
    }
    // the Type cell must start at its column (no text before it)
    if (line.slice(0, cols[0]).trim() !== "") return null;
    return cells;
  }

  private row(line: string, m: RegExpExecArray): LineResult {
    let [, type, reason = "", ageText = "", from = "", msg = ""] = m;
    const cols = this.table?.cols;
    if (cols && ageText) {
      const cells = this.cut(line, cols);
      if (cells && cells[0] === type && cells[1] === reason && parseAgeColumn(cells[2])) {
        ageText = cells[2];
        from = cells[3];
        msg = cells[4];
      }
    }
    const age = ageText ? parseAgeColumn(ageText) : null;
    return this.push(type, reason, age ? age.last : null, age ? age.first : null, age ? age.count : 1, ageText, from, msg);
  }

  private oldRow(m: RegExpExecArray): LineResult {
    const [, a, b, count, from, sub, type, reason, msg = ""] = m;
    const aAge = parseAge(a);
    const bAge = parseAge(b);
    // FirstSeen comes first; the smaller age is the last occurrence either way
    const swap = aAge !== null && bAge !== null && aAge.ms < bAge.ms;
    const last = swap ? aAge : bAge;
    const first = swap ? bAge : aAge;
    const n = Number(count) > 0 ? Number(count) : 1;
    // the age text as current kubectl prints it: `1m (x27 over 9m)`
    const lastText = swap ? a : b;
    const firstText = swap ? b : a;
    const ageText = n > 1 ? `${lastText} (x${n} over ${firstText})` : lastText;
    const res = this.push(type, reason, last, first, n, ageText, from, msg);
    if (sub && res && res.type === "record") (res.record.fields as Record<string, string>).subobject = sub;
    return res;
  }

  private push(
    type: string,
    reason: string,
    last: PendingAgeRecord["last"],
    first: PendingAgeRecord["first"],
    count: number,
    ageText: string,
    from: string,
    msg: string,
  ): LineResult {
    const table = this.inEvents && this.table ? this.table : this.newTable();
    this.inEvents = true;
    const src = parseSource(from);
    const info: K8sEventInfo = {
      reason,
      type,
      count,
      namespace: null,
      objectKind: null,
      objectName: null,
      node: null,
      firstMs: null,
      lastMs: null,
    };
    const fields: Record<string, string> = { reason, type, count: String(count) };
    if (ageText) fields.age = ageText;
    if (src) fields.source = src.component;
    const record = {
      time: null,
      epochMs: null,
      component: "k8s-events",
      severity: typeSeverity(type),
      message: decodeEntities(msg),
      fields,
      k8sEvent: info,
    };
    const p: PendingAgeRecord = { record, last, first };
    this.pending.push(p);
    table.rows.push(p);
    table.hosts.push(src?.host ?? null);
    return { type: "record", record };
  }

  finish(): void {
    for (const t of this.tables) settleTable(t);
    settleAges(this.pending, this.collectedMs, this.fromPrintTime);
  }
}

/** Object, namespace and node of a table's rows, from the describe and the rows themselves. */
function settleTable(t: Table): void {
  const d = t.described;
  let kind: string | null = null;
  let name: string | null = null;
  let namespace: string | null = null;
  let node: string | null = null;
  if (d && d.name && (d.kind === "Pod" || (d.kind === null && d.namespace !== null && d.node !== null))) {
    kind = "Pod";
    name = d.name;
    namespace = d.namespace;
    node = d.node;
  } else if (d && d.name && d.kind === "Node") {
    kind = "Node";
    name = d.name;
    node = d.name;
  } else if (d && d.name) {
    name = d.name;
    namespace = d.namespace;
  }
  let msgNode: string | null = null;
  let hostNode: string | null = null;
  for (let i = 0; i < t.rows.length; i++) {
    hostNode ??= t.hosts[i];
    const msg = t.rows[i].record.message;
    const a = ASSIGNED_RE.exec(msg);
    if (a) {
      msgNode ??= a[3];
      if (kind === null && name === null) {
        kind = "Pod";
        name = a[2];
        namespace = a[1] ?? null;
      }
    }
  }
  if (kind === null && name === null) {
    for (const p of t.rows) {
      const cni = CNI_POD_RE.exec(p.record.message);
      if (cni) {
        kind = "Pod";
        name = cni[1];
        namespace = cni[2];
        break;
      }
    }
  }
  node ??= hostNode ?? msgNode;
  for (let i = 0; i < t.rows.length; i++) {
    const ev = t.rows[i].record.k8sEvent;
    const fields = t.rows[i].record.fields as Record<string, string>;
    ev.objectKind = kind;
    ev.objectName = name;
    ev.namespace = namespace;
    if (kind && name) fields.object = `${kind}/${name}`;
    if (kind === "Pod" && name) fields.pod = namespace ? `${namespace}/${name}` : name;
    ev.node = t.hosts[i] ?? node;
    if (ev.node) fields.node = ev.node;
  }
}

const ROW_SNIFF = new RegExp(`^\\s*(?:["'] ?)?${EVENT_TYPE}\\s+${REASON}\\s+${AGE_CELL}(?:\\s|$)`);
/**
 * Hand-wrapped rows: a row copied into prose (an issue body, a commit message) and broken by hand
 * or by an editor at about 72 columns, the pieces at column 0 (`Warning  FailedCreatePodSandBox
 * 2m48s (x194 over 88m)  kubelet, node1` / `(combined from similar events): Failed to create pod
 * sandbox: rpc error:` / `code = Unknown desc = …`). A piece follows the row or piece right above
 * it (no blank line between) when that line is shorter than `HAND_WRAP_MAX`, or up to
 * `HAND_WRAP_LONGEST` long, broken between words with no blank kept, in a row whose first line
 * or an earlier piece was shorter than `HAND_WRAP_MAX` (a terminal's hard wrap
 * fills 80+ columns, cut inside a word or keeping the blank, and is joined by the paste layer with
 * nothing between), and it does not start
 * another record, a padded table cell or a describe key, and the line above did not end a sentence.
 * Its text joins the message after one blank.
 */
const HAND_WRAP_MAX = 80;
/** a line this long is a row as kubectl printed it, not a hand-wrapped one */
const HAND_WRAP_LONGEST = 200;

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
const PIECE_STOP_RE = new RegExp(
  String.raw`^(?:\s|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d|\d{4}-\d\d-\d\d[T ]\d\d:|\d\d?:\d\d:\d\d|[IWEF]\d{4} \d\d:|time="|level=|\{"|\[\s*\d+\.\d+\]|[A-Z][A-Za-z ]{0,30}:\s|\d+[smhd]\S*\s+${EVENT_TYPE}\s|[$#%>] |\S+(?: {3,}|\t)\S)`,
);

/**
 * Can `line` be a hand-wrapped piece of the row message whose last line was `prev`? `hand`: the
 * row or a piece before was shorter than `HAND_WRAP_MAX` (the row was wrapped by hand, not by a
 * terminal).
 */
function isHandWrapPiece(line: string, prev: string, hand: boolean): boolean {
  const n = prev.length;
  if (n === 0 || n > HAND_WRAP_LONGEST || line.length === 0) return false;
  // 80+ columns: a terminal's cut (inside a word, or at a blank it kept) is joined by the paste layer
  if (n >= HAND_WRAP_MAX && (!hand || prev.charCodeAt(n - 1) === 32 || (isAlnum(prev.charCodeAt(n - 1)) && isAlnum(line.charCodeAt(0))))) return false;
  if (/[.!?]["')]?\s*$/.test(prev) && !/\.\.\.$/.test(prev)) return false;
  return !PIECE_STOP_RE.test(line) && !ROW_SNIFF.test(line) && !HEADER_RE.test(line) && !EVENTS_RE.test(line);
}

const DESCRIBE_KEY_SNIFF =
  /^(?:Namespace|Labels|Annotations|Node|Priority|Start Time|Status|IP|Roles|CreationTimestamp|Selector|Controlled By|Taints|Containers):(?:\s|$)/;

/** Format spec: `kubectl describe` output with its Events section (relative ages settled against the collection time). */
export const describeEventsSpec: FormatSpec = {
  name: "describe-events",
  kind: "k8s-events",
  sniff(_path, lines) {
    let rows = 0;
    let total = 0;
    let keys = 0;
    // pieces of hand-wrapped rows (see isHandWrapPiece): the line above, when it is a row or piece
    let pieces = 0;
    let chain: string | null = null;
    let hand = false;
    for (const raw of lines) {
      if (isKubectlPrompt(raw) || isBoxBorder(raw)) continue;
      const l = unbox(raw);
      if (EVENTS_RE.test(l) || HEADER_RE.test(l) || OLD_HEADER_RE.test(l)) return true;
      total++;
      if (ROW_SNIFF.test(l) || OLD_ROW_RE.test(l)) {
        rows++;
        chain = l;
        hand = l.length < HAND_WRAP_MAX;
      } else if (chain !== null && isHandWrapPiece(l, chain, hand)) {
        pieces++;
        chain = l;
        hand ||= l.length < HAND_WRAP_MAX;
      } else chain = null;
      if (DESCRIBE_KEY_SNIFF.test(l)) keys++;
    }
    if (rows > 0 && (rows * 2 >= total || (pieces >= 2 && (rows + pieces) * 2 >= total))) return true;
    const first = lines.find((l) => !isKubectlPrompt(l) && !isBoxBorder(l));
    return first !== undefined && NAME_RE.test(unbox(first)) && keys >= 2;
  },
  createParser: (ctx) => new DescribeEventsParser(ctx),
  samples: [
    {
      line: "  Normal   SandboxChanged          2s (x10 over 119s)  kubelet, node-p-000000  Pod sandbox changed, it will be killed and re-created.",
      collectedMs: Date.UTC(2020, 6, 8, 10, 0, 0),
      expect: {
        time: null,
        epochMs: Date.UTC(2020, 6, 8, 9, 59, 58),
        epochPrecision: "s",
        component: "k8s-events",
        severity: 1,
        message: "Pod sandbox changed, it will be killed and re-created.",
        k8sEvent: {
          reason: "SandboxChanged",
          type: "Normal",
          count: 10,
          namespace: null,
          objectKind: null,
          objectName: null,
          node: "node-p-000000",
          firstMs: Date.UTC(2020, 6, 8, 9, 58, 1),
          lastMs: Date.UTC(2020, 6, 8, 9, 59, 58),
          firstUncertaintyMs: 1000,
          lastUncertaintyMs: 1000,
        },
      },
    },
    {
      // short (old) form: `1m` = 60 to 119 s ago
      line: '  Warning  FailedCreatePodSandBox  1m (x158 over 6m)  kubelet, node-p-0  Failed create pod sandbox: rpc error: code = Unknown desc = NetworkPlugin cni failed to set up pod "kube-dns-86f4d74b45-kgjbk_kube-system" network: stat /var/lib/calico/nodename: no such file or directory',
      collectedMs: Date.UTC(2018, 3, 12, 8, 0, 0),
      expect: {
        epochMs: Date.UTC(2018, 3, 12, 7, 59, 0),
        epochPrecision: "age",
        severity: 2,
        fields: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: "158",
          age: "1m (x158 over 6m)",
          source: "kubelet",
          pod: "kube-system/kube-dns-86f4d74b45-kgjbk",
          object: "Pod/kube-dns-86f4d74b45-kgjbk",
          node: "node-p-0",
        },
      },
    },
    {
      // current kubectl: bare `kubelet` source, the node and pod from the describe's own lines
      context: [
        "Name:             coredns-6f6b679f8f-4mq2d",
        "Namespace:        kube-system",
        "Priority:         2000000000",
        "Node:             worker-2/10.0.0.12",
        "Events:",
        "  Type     Reason                  Age                   From     Message",
        "  ----     ------                  ----                  ----     -------",
      ],
      line: '  Warning  FailedCreatePodSandBox  41s (x4 over 2m50s)   kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "9d1f": plugin type="flannel" failed (add): open /run/flannel/subnet.env: no such file or directory',
      collectedMs: Date.UTC(2024, 2, 1, 6, 0, 0),
      expect: {
        epochMs: Date.UTC(2024, 2, 1, 5, 59, 19),
        epochPrecision: "s",
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 4,
          namespace: "kube-system",
          objectKind: "Pod",
          objectName: "coredns-6f6b679f8f-4mq2d",
          node: "worker-2",
          firstMs: Date.UTC(2024, 2, 1, 5, 57, 10),
          lastMs: Date.UTC(2024, 2, 1, 5, 59, 19),
          firstUncertaintyMs: 1000,
          lastUncertaintyMs: 1000,
        },
      },
    },
    {
      // kubectl <= 1.8: FirstSeen LastSeen Count From SubObjectPath Type Reason Message, tab-padded
      context: [
        "Events:",
        "  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubObjectPath\tType\t\tReason\t\t\tMessage",
        "  ---------\t--------\t-----\t----\t\t\t-------------\t--------\t------\t\t\t-------",
      ],
      line: "  9m\t\t1m\t\t27\tkubelet, worker-1\t\t\tWarning\t\tFailedCreatePodSandBox\tFailed create pod sandbox.",
      collectedMs: Date.UTC(2017, 10, 20, 12, 0, 0),
      expect: {
        epochMs: Date.UTC(2017, 10, 20, 11, 59, 0),
        epochPrecision: "age",
        message: "Failed create pod sandbox.",
        fields: { reason: "FailedCreatePodSandBox", type: "Warning", count: "27", age: "1m (x27 over 9m)", source: "kubelet", node: "worker-1" },
      },
    },
    {
      // a row copied into prose and wrapped by hand: it ends at its source, the message follows at column 0
      line: "Warning  FailedCreatePodSandBox  2m51s (x194 over 88m)  kubelet, ovn-worker3",
      after: ["(combined from similar events): Failed to create pod sandbox: rpc error:", "code = Unknown desc = failed to set up sandbox container"],
      collectedMs: Date.UTC(2023, 4, 10, 9, 0, 0),
      expect: {
        epochMs: Date.UTC(2023, 4, 10, 8, 57, 9),
        message: "",
        fields: { reason: "FailedCreatePodSandBox", type: "Warning", count: "194", age: "2m51s (x194 over 88m)", source: "kubelet", node: "ovn-worker3" },
      },
    },
    { line: "Events:", expect: { banner: { type: "header" } } },
    {
      line: "  Type     Reason   Age   From     Message",
      expect: { banner: { type: "header" } },
    },
  ],
  notMine: [
    "NAMESPACE   LAST SEEN   TYPE      REASON      OBJECT                             MESSAGE",
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "  Normal   Starting",
    "Labels:       app=web",
    "36m         Normal    Starting   node/node-1   Starting kubelet.",
  ],
};
