"use client";
/**
 * The incident's nodes and their boots: T+0 (UTC), end, how the boot was detected, findings,
 * failed sandbox attempts in failure windows, and a link to each boot's timeline. A node named
 * after the upload carries the "not named by the logs" mark and an inline rename form (so does
 * one a reviewer named, to correct it). Every column sorts (a click or Enter on its head, again
 * for the other way; lib/view/boot-sort.ts), the sort in the URL (`sort=attempts-desc`) so a
 * permalink keeps it; consecutive boots of one node share its cell.
 */
import Link from "next/link";
import { parseAsString, useQueryState } from "nuqs";
import { useMemo } from "react";
import type { TBootSummary, TNodeSummary } from "@/lib/incidents/get-incident";
import {
  bootSortParam,
  DEFAULT_BOOT_SORT,
  nextBootSort,
  nodeRuns,
  parseBootSort,
  sortBootRows,
  type TBootSort,
  type TBootSortColumn,
} from "@/lib/view/boot-sort";
import { COMPARE_FORM_ID } from "@/lib/view/compare-state";
import { fmtDuration, fmtUtc } from "@/lib/view/format";
import { bootPath } from "@/lib/view/view-state";
import { LiveNodes } from "./live-nodes";
import { NodeNameMark } from "./node-name-mark";
import { RenameNodeForm } from "./rename-node-form";

/** The sortable heads: column, label, what its tooltip says. */
const HEADS: Array<[TBootSortColumn, string, string]> = [
  ["node", "node", "node name"],
  ["boot", "boot", "the boot's place among the node's boots"],
  ["start", "T+0 (UTC)", "the boot's T+0"],
  ["end", "last event (UTC)", "the boot's last event"],
  ["span", "span", "from T+0 to the last event"],
  ["detected", "detected by", "how the boot was found"],
  ["findings", "findings", "findings on the boot"],
  ["attempts", "failed attempts", "failed sandbox attempts in the boot's failure windows"],
];

/** The node cell: name, mark, other names, rename form. */
function NodeCell({ incidentId, n }: { incidentId: string; n: TNodeSummary }) {
  return (
    <>
      <span data-testid="node-name">{n.name}</span>
      {n.nameSource === "reviewer" && (
        <span className="muted small" title="named by a reviewer">
          {" "}
          (renamed)
        </span>
      )}
      <div>
        <NodeNameMark nameSource={n.nameSource} />
      </div>
      {n.aliases.length > 0 && (
        <div className="muted small" title="other names of this node (old names still work in links)">
          also {n.aliases.join(", ")}
        </div>
      )}
      {(n.nameSource === "upload" || n.nameSource === "reviewer") && <RenameNodeForm incidentId={incidentId} nodeId={n.id} name={n.name} />}
    </>
  );
}

/** One row of the table: a node's boot, or a node with no boots (`boot` null). */
interface TRow {
  node: TNodeSummary;
  nodeName: string;
  boot: (TBootSummary & { attempts: number }) | null;
}

/** A column head: a button that sorts by the column, `aria-sort` on the cell. */
function SortHead(p: { column: TBootSortColumn; label: string; tip: string; sort: TBootSort; onSort(s: TBootSort): void }) {
  const on = p.sort.column === p.column;
  const next = nextBootSort(p.sort, p.column);
  return (
    <th aria-sort={on ? (p.sort.desc ? "descending" : "ascending") : "none"}>
      <button
        type="button"
        className="th-sort"
        data-testid="boot-sort"
        data-column={p.column}
        onClick={() => p.onSort(next)}
        title={`${p.tip}: sort ${next.desc ? "largest or last first" : "smallest or first first"}`}
      >
        {p.label}
        <span aria-hidden="true">{on ? (p.sort.desc ? " ▾" : " ▴") : ""}</span>
      </button>
    </th>
  );
}

/**
 * `running`: the ids of the incident's bundles still queued or parsing (their nodes show live while the table is empty).
 * `attempts`: per boot id, failed sandbox attempts in its failure windows (lib/view/boot-sort.ts `windowAttempts`; absent: 0).
 */
export function NodesBoots({
  incidentId,
  nodes,
  running = [],
  folded = {},
  attempts = {},
}: {
  incidentId: string;
  nodes: TNodeSummary[];
  running?: string[];
  /** per boot id: its folded findings counted with their parts ("1 storm, 550 pods", lib/view/finding-groups.ts `foldedCounts`) */
  folded?: Record<string, string>;
  attempts?: Record<string, number>;
}) {
  const [sortText, setSortText] = useQueryState("sort", parseAsString);
  const sort = useMemo(() => parseBootSort(sortText) ?? DEFAULT_BOOT_SORT, [sortText]);
  const rows = useMemo(() => {
    const flat = nodes.flatMap<TRow>((n) =>
      n.boots.length === 0
        ? [{ node: n, nodeName: n.name, boot: null }]
        : n.boots.map((b) => ({ node: n, nodeName: n.name, boot: { ...b, attempts: attempts[b.id] ?? 0 } })),
    );
    return sortBootRows(flat, sort);
  }, [nodes, attempts, sort]);
  const runs = useMemo(() => nodeRuns(rows), [rows]);
  if (nodes.length === 0 && running.length) return <LiveNodes bundleIds={running} />;
  if (nodes.length === 0) return <p className="muted">No nodes yet: nothing has been parsed into this incident.</p>;
  // a node's full cell (mark, rename form) in its first run only; a later run names it
  const seen = new Set<number>();
  return (
    <table className="table" data-testid="nodes-table" data-sort={bootSortParam(sort) ?? ""}>
      <thead>
        <tr>
          {HEADS.map(([column, label, tip]) => (
            <SortHead key={column} column={column} label={label} tip={tip} sort={sort} onSort={(s) => void setSortText(bootSortParam(s))} />
          ))}
          <th>compare</th>
          <th>
            <span className="sr-only">timeline</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => {
          const n = r.node;
          const b = r.boot;
          let nodeCell = null;
          if (runs[i] > 0) {
            const first = !seen.has(n.id);
            seen.add(n.id);
            nodeCell = (
              <td
                className="mono node-cell"
                rowSpan={runs[i] > 1 ? runs[i] : undefined}
                data-testid={!b ? undefined : first ? "node-row" : "node-row-again"}
                data-node={n.name}
              >
                {first ? <NodeCell incidentId={incidentId} n={n} /> : <span data-testid="node-name">{n.name}</span>}
              </td>
            );
          }
          if (!b)
            return (
              <tr key={`n${n.id}`} data-testid="node-row" data-node={n.name}>
                {nodeCell}
                <td colSpan={9} className="muted">
                  no boots
                </td>
              </tr>
            );
          return (
            <tr key={b.id} data-testid="boot-row" data-node={n.name} data-boot={b.bootKey}>
              {nodeCell}
              <td>
                {b.index} of {n.boots.length}{" "}
                <span className="muted mono small" title={b.bootKey}>
                  {b.bootKey.length > 14 ? `${b.bootKey.slice(0, 8)}…` : b.bootKey}
                </span>
              </td>
              <td className="mono">
                {fmtUtc(b.startMs)}
                {b.startApprox && (
                  <span className="warn" title="approximate: the boot's earliest event">
                    {" "}
                    ≈
                  </span>
                )}
              </td>
              <td className="mono">{b.endMs === null ? "—" : fmtUtc(b.endMs)}</td>
              <td className="num">{b.endMs === null ? "—" : fmtDuration(b.endMs - b.startMs)}</td>
              <td>{b.detectedBy}</td>
              <td className="num" data-testid="boot-findings">
                {b.findings || ""}
                {folded[b.id] && <span className="muted small"> ({folded[b.id]})</span>}
              </td>
              <td className="num" data-testid="boot-attempts">
                {b.attempts ? b.attempts.toLocaleString("en-US") : ""}
              </td>
              <td>
                <input
                  type="checkbox"
                  form={COMPARE_FORM_ID}
                  name="boot"
                  value={b.id}
                  data-testid="compare-check"
                  aria-label={`compare ${n.name} boot ${b.index}`}
                />
              </td>
              <td>
                <Link className="btn small" href={bootPath(incidentId, n.name, b.bootKey)} aria-label={`timeline of ${n.name} boot ${b.index}`}>
                  timeline →
                </Link>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
