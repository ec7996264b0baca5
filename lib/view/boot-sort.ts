/**
 * The incident page's boot table sorted by one column, the sort in the URL as
 * `sort=<column>-<asc|desc>` (`sort=attempts-desc`: the boots with the most failed sandbox
 * attempts first). No `sort`, or a damaged one, is the table's own order: by node name, then the
 * node's boots by T+0 (`node-asc`).
 *
 * Pure: rows in, rows out. Ties keep the table's own order (node name, boot index), and a row
 * without the value (a node with no boots, a boot still open with no end) goes last either way.
 */

/** The sortable columns, in the table's order. */
export const BOOT_SORT_COLUMNS = ["node", "boot", "start", "end", "span", "detected", "findings", "attempts"] as const;
export type TBootSortColumn = (typeof BOOT_SORT_COLUMNS)[number];

export interface TBootSort {
  column: TBootSortColumn;
  desc: boolean;
}

/** The table's own order. */
export const DEFAULT_BOOT_SORT: TBootSort = { column: "node", desc: false };

/** Columns whose first click sorts largest first (counts and spans: "the most" is what one looks for). */
const FIRST_DESC: ReadonlySet<TBootSortColumn> = new Set(["findings", "attempts", "span"]);

/** What sorting reads of one table row: a node's boot, or a node with none (`boot` null). */
export interface TBootSortRow {
  nodeName: string;
  boot: {
    /** 1-based position among the node's boots */
    index: number;
    /** T+0, UTC ms */
    startMs: number;
    /** the last event, UTC ms; null when unknown */
    endMs: number | null;
    detectedBy: string;
    findings: number;
    /** failed sandbox attempts in the boot's failure windows */
    attempts: number;
  } | null;
}

/** `attempts-desc` → `{ column: "attempts", desc: true }`; null for a missing or damaged value. */
export function parseBootSort(s: string | null | undefined): TBootSort | null {
  const m = /^([a-z]+)-(asc|desc)$/.exec(s ?? "");
  if (!m || !(BOOT_SORT_COLUMNS as readonly string[]).includes(m[1])) return null;
  return { column: m[1] as TBootSortColumn, desc: m[2] === "desc" };
}

/** The URL value of `sort`; null for the default order (so the default leaves the URL clean). */
export function bootSortParam(s: TBootSort): string | null {
  return s.column === DEFAULT_BOOT_SORT.column && s.desc === DEFAULT_BOOT_SORT.desc ? null : `${s.column}-${s.desc ? "desc" : "asc"}`;
}

/** The sort after a click on `column`'s header: the other way when it is the sorted one, else its first way. */
export function nextBootSort(current: TBootSort, column: TBootSortColumn): TBootSort {
  if (current.column === column) return { column, desc: !current.desc };
  return { column, desc: FIRST_DESC.has(column) };
}

/** A row's value in `column`; null when it has none. */
function valueOf(r: TBootSortRow, column: TBootSortColumn): number | string | null {
  if (column === "node") return r.nodeName;
  const b = r.boot;
  if (!b) return null;
  switch (column) {
    case "boot":
      return b.index;
    case "start":
      return b.startMs;
    case "end":
      return b.endMs;
    case "span":
      return b.endMs === null ? null : b.endMs - b.startMs;
    case "detected":
      return b.detectedBy;
    case "findings":
      return b.findings;
    case "attempts":
      return b.attempts;
  }
}

/** The table's own order: node name, then boot index (a node without boots has none). */
function ownOrder(a: TBootSortRow, b: TBootSortRow): number {
  return a.nodeName.localeCompare(b.nodeName) || (a.boot?.index ?? 0) - (b.boot?.index ?? 0);
}

/**
 * Comparator of rows for `sort`: ascending or descending by the column, rows without a value
 * last, ties in the table's own order. For `Array.prototype.sort`.
 */
export function compareBootRows(sort: TBootSort): (a: TBootSortRow, b: TBootSortRow) => number {
  const dir = sort.desc ? -1 : 1;
  return (a, b) => {
    const x = valueOf(a, sort.column);
    const y = valueOf(b, sort.column);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      if (c !== 0) return c * dir;
    }
    // the node column sorts its boots in their own order either way
    return sort.column === "node" ? (a.boot?.index ?? 0) - (b.boot?.index ?? 0) : ownOrder(a, b);
  };
}

/** `rows` sorted by `sort` (a new array). */
export function sortBootRows<R extends TBootSortRow>(rows: readonly R[], sort: TBootSort): R[] {
  return [...rows].sort(compareBootRows(sort));
}

/**
 * Runs of consecutive rows of one node in sorted rows, for the node cell's `rowSpan`: per row,
 * the run's length at its first row and 0 at the others (`[2, 0, 1]`).
 */
export function nodeRuns(rows: readonly TBootSortRow[]): number[] {
  const out = rows.map(() => 0);
  for (let i = 0; i < rows.length; ) {
    let j = i + 1;
    while (j < rows.length && rows[j].nodeName === rows[i].nodeName && rows[j].boot && rows[i].boot) j++;
    out[i] = j - i;
    i = j;
  }
  return out;
}

/** Failed sandbox attempts in the failure windows among `findings` (one boot's): the sum of the sandbox failure windows' `metrics.attempts`. */
export function windowAttempts(findings: ReadonlyArray<{ detector: string; metrics: Record<string, unknown> }>): number {
  let n = 0;
  for (const f of findings) if (f.detector === "sandbox-failure-window" && typeof f.metrics.attempts === "number") n += f.metrics.attempts;
  return n;
}
