/**
 * The incident's nodes and their boots: T+0 (UTC), end, how the boot was detected, and
 * a link to each boot's timeline. A node named after the upload carries the "not named by the
 * logs" mark and an inline rename form (so does one a reviewer named, to correct it).
 */
import Link from "next/link";
import type { TNodeSummary } from "@/lib/incidents/get-incident";
import { COMPARE_FORM_ID } from "@/lib/view/compare-state";
import { fmtDuration, fmtUtc } from "@/lib/view/format";
import { bootPath } from "@/lib/view/view-state";
import { LiveNodes } from "./live-nodes";
import { NodeNameMark } from "./node-name-mark";
import { RenameNodeForm } from "./rename-node-form";

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

/** `running`: the ids of the incident's bundles still queued or parsing (their nodes show live while the table is empty). */
export function NodesBoots({
  incidentId,
  nodes,
  running = [],
  folded = {},
}: {
  incidentId: string;
  nodes: TNodeSummary[];
  running?: string[];
  /** per boot id: its folded findings counted with their parts ("1 storm, 550 pods", lib/view/finding-groups.ts `foldedCounts`) */
  folded?: Record<string, string>;
}) {
  if (nodes.length === 0 && running.length) return <LiveNodes bundleIds={running} />;
  if (nodes.length === 0) return <p className="muted">No nodes yet: nothing has been parsed into this incident.</p>;
  return (
    <table className="table" data-testid="nodes-table">
      <thead>
        <tr>
          <th>node</th>
          <th>boot</th>
          <th>T+0 (UTC)</th>
          <th>last event (UTC)</th>
          <th>span</th>
          <th>detected by</th>
          <th>findings</th>
          <th>compare</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {nodes.flatMap((n) =>
          n.boots.length === 0
            ? [
                <tr key={`n${n.id}`} data-testid="node-row" data-node={n.name}>
                  <td className="mono node-cell">
                    <NodeCell incidentId={incidentId} n={n} />
                  </td>
                  <td colSpan={8} className="muted">
                    no boots
                  </td>
                </tr>,
              ]
            : n.boots.map((b, i) => (
                <tr key={b.id} data-testid="boot-row" data-node={n.name} data-boot={b.bootKey}>
                  {i === 0 && (
                    <td className="mono node-cell" rowSpan={n.boots.length} data-testid="node-row" data-node={n.name}>
                      <NodeCell incidentId={incidentId} n={n} />
                    </td>
                  )}
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
              )),
        )}
      </tbody>
    </table>
  );
}
