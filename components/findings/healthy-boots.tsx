/**
 * The boots no detector found anything on, with what was checked and found: "sandbox failure
 * window: none", the failed sandbox attempts (0 on a healthy boot), the milestones seen with
 * their T+ times, and the detectors that ran (lib/incidents/boot-checks.ts). Server-renderable.
 */
import Link from "next/link";
import type { TNodeSummary } from "@/lib/incidents/get-incident";
import { bootCheckPhrases, CHECKED_BY, type TBootCheck } from "@/lib/incidents/boot-checks";
import { fmtBootKey } from "@/lib/view/format";
import { bootPath } from "@/lib/view/view-state";

export function HealthyBoots(p: { incidentId: string; nodes: TNodeSummary[]; checks: Map<number, TBootCheck>; showNode: boolean }) {
  const boots = p.nodes.flatMap((n) => n.boots.filter((b) => b.findings === 0).map((b) => ({ n, b })));
  if (!boots.length) return null;
  return (
    <div className="healthy-boots" data-testid="healthy-boots">
      <h3>Checked and found fine</h3>
      <p className="muted small">Checked on every boot: {CHECKED_BY.join(", ")}.</p>
      <ul>
        {boots.map(({ n, b }) => {
          const { facts, milestones } = bootCheckPhrases(p.checks.get(b.id), b.startMs);
          return (
            <li key={b.id} data-testid="healthy-boot">
              <Link href={bootPath(p.incidentId, n.name, b.bootKey)}>
                {p.showNode ? `${n.name} · ` : ""}boot {b.index} of {n.boots.length} <span className="mono">{fmtBootKey(b.bootKey)}</span>
              </Link>
              : {facts.join("; ")}; milestones seen: {milestones.length ? milestones.join(", ") : "none"}.
            </li>
          );
        })}
      </ul>
    </div>
  );
}
