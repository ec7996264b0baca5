/**
 * The incident page's "new in this boot": per boot with a baseline (the node's previous boot, or
 * the other nodes over the same T+ span), the message templates it logged that the baseline did
 * not, most events first, each linking into the boot's timeline filtered to it at its first event.
 */
import Link from "next/link";
import type { TNodeSummary } from "@/lib/incidents/get-incident";
import type { TNewInBootSummary } from "@/lib/incidents/boot-patterns";
import { fmtCount } from "@/lib/view/format";
import { bootPath } from "@/lib/view/view-state";

const fmtT = (s: number | null) => (s === null ? "no time" : `T+${s.toFixed(1)}s`);

export function NewInBoots({ incidentId, nodes, summary }: { incidentId: string; nodes: TNodeSummary[]; summary: Map<number, TNewInBootSummary> }) {
  const items = nodes.flatMap((n) => n.boots.flatMap((b) => (summary.get(b.id)?.top.length ? [{ n, b, s: summary.get(b.id)! }] : [])));
  if (!items.length) return <p className="muted">No boot logged a message template its baseline did not.</p>;
  return (
    <div data-testid="new-in-boots">
      {items.map(({ n, b, s }) => (
        <div key={b.id} className="small" data-testid="new-in-boot" data-boot={b.id}>
          <h3>
            {n.name} boot {b.index}{" "}
            <span className="muted">
              {fmtCount(s.newCount)} new
              {s.baseline === "previous" ? `, ${fmtCount(s.stoppedCount)} stopped, against the previous boot` : ", against the other nodes"}
            </span>
          </h3>
          <ul>
            {s.top.map((p) => (
              <li key={p.key}>
                <Link href={bootPath(incidentId, n.name, b.bootKey, { pat: p.key, ev: p.firstId })} className="mono">
                  {p.template}
                </Link>{" "}
                <span className="muted">
                  {fmtCount(p.count)} × from {fmtT(p.firstT)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
