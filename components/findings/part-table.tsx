"use client";
/**
 * A folded finding's parts as a table (lib/export/finding-metrics.ts `partTable`: a retry storm's
 * pods with their attempts, median interval, rhythm, first and last T+), folded under a summary
 * that counts them ("550 pods"). Every column sorts (a click on its head; again for the other
 * way); every row has an anchor (`#part-<finding>-<pod>`) and a link to the boot's timeline that
 * opens the part's own row (`?finding=<id>&pod=<key>`, the events filtered to the pod).
 */
import { useMemo, useState } from "react";
import type { TPartTable } from "@/lib/export/finding-metrics";
import { bootPath, findingView } from "@/lib/view/view-state";

/** Rows shown before "show all" (a 550-pod storm keeps the page readable). */
const FIRST_ROWS = 25;

/** The anchor id of one part's row. */
export const partAnchor = (findingId: number, key: string) => `part-${findingId}-${key.replace(/[^A-Za-z0-9_-]/g, "_")}`;

export function PartTable(p: {
  table: TPartTable;
  count: string;
  findingId: number;
  incidentId: string;
  nodeName: string;
  bootKey: string;
  /** the part selected in the URL (`pod`): its row is marked and the table opens on it */
  selectedKey?: string | null;
}) {
  const [sort, setSort] = useState<{ col: number; desc: boolean } | null>(null);
  const [all, setAll] = useState(false);
  const rows = useMemo(() => {
    if (!sort) return p.table.rows;
    const dir = sort.desc ? -1 : 1;
    return [...p.table.rows].sort((a, b) => {
      const x = a.cells[sort.col].sort;
      const y = b.cells[sort.col].sort;
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      return (typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y))) * dir;
    });
  }, [p.table.rows, sort]);
  const selectedAt = p.selectedKey ? rows.findIndex((r) => r.key === p.selectedKey) : -1;
  const shown = all || selectedAt >= FIRST_ROWS ? rows : rows.slice(0, FIRST_ROWS);
  return (
    <details className="part-table" data-testid="part-table" open={selectedAt >= 0 || undefined}>
      <summary>
        <b>{p.count}</b>{" "}
        <span className="muted">
          in this finding:{" "}
          {p.table.columns
            .slice(1)
            .map((c) => c.label)
            .join(", ")}
        </span>
      </summary>
      <div className="part-scroll">
        <table>
          <thead>
            <tr>
              {p.table.columns.map((c, i) => {
                const on = sort?.col === i;
                return (
                  <th key={c.key} className={c.numeric ? "num" : undefined} aria-sort={on ? (sort.desc ? "descending" : "ascending") : "none"}>
                    <button
                      type="button"
                      className="part-sort"
                      data-testid="part-sort"
                      onClick={() => setSort(on ? { col: i, desc: !sort.desc } : { col: i, desc: c.numeric })}
                      title={`sort by ${c.label}`}
                    >
                      {c.label}
                      <span aria-hidden="true">{on ? (sort.desc ? " ▾" : " ▴") : ""}</span>
                    </button>
                  </th>
                );
              })}
              <th>
                <span className="sr-only">timeline</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr
                key={r.key}
                id={partAnchor(p.findingId, r.key)}
                data-testid="part-row"
                data-part={r.key}
                className={r.key === p.selectedKey ? "selected" : undefined}
                aria-current={r.key === p.selectedKey || undefined}
              >
                {r.cells.map((c, i) => (
                  <td key={p.table.columns[i].key} className={`${c.code ? "mono" : ""}${p.table.columns[i].numeric ? " num" : ""}`.trim() || undefined}>
                    {c.text}
                  </td>
                ))}
                <td>
                  <a
                    className="btn small"
                    data-testid="part-timeline"
                    href={bootPath(p.incidentId, p.nodeName, p.bootKey, {
                      ...findingView({ id: p.findingId, startMs: r.startMs, endMs: r.endMs }),
                      // a pod opens its own row; another part (an image) filters the events to the lines naming it
                      ...(p.table.word === "pod" ? { pod: r.key } : { q: r.key }),
                    })}
                    title={`open the timeline on ${r.key}: its own row, its events`}
                  >
                    timeline →
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {shown.length < rows.length && (
        <button type="button" className="btn small" data-testid="part-show-all" onClick={() => setAll(true)}>
          show all {rows.length.toLocaleString("en-US")}
        </button>
      )}
    </details>
  );
}
