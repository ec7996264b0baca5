"use client";
/**
 * The timeline's milestones row: each milestone in view labelled with its T+ offset, labels
 * stacked in rows so none overlaps (lib/view/milestone-labels.ts, shared with the exported
 * picture); a label selects the milestone's event.
 */
import { useMemo } from "react";
import type { TMilestone } from "@/lib/queries/get-milestones";
import { fmtUtc } from "@/lib/view/format";
import { pct } from "@/lib/view/lanes-layout";
import { layoutMilestoneLabels } from "@/lib/view/milestone-labels";
import type { TTimeScale } from "@/lib/view/time-scale";

/** Height of one row of milestone labels, px. */
const MS_ROW_H = 26;
/** A label's width on the page: about 6.4 px a character and 14 px of padding. */
const labelWidth = (text: string) => text.length * 6.4 + 14;

export function MilestonesRow(p: { milestones: TMilestone[]; scale: TTimeScale; t0: number; plotWidth: number; onSelectEvent(eventId: string): void }) {
  const { scale, plotWidth } = p;
  const labels = useMemo(
    () => layoutMilestoneLabels(p.milestones, { from: scale.from, to: scale.to, t0: p.t0, xAt: (t) => scale.frac(t) * plotWidth, width: labelWidth }),
    [p.milestones, p.t0, scale, plotWidth],
  );
  const rows = Math.max(1, ...labels.map((l) => (l.row ?? 0) + 1));
  return (
    <div className="tl-row tl-ms-row" style={{ height: rows * MS_ROW_H + 6 }}>
      <div className="tl-label muted">milestones</div>
      <div className="tl-plot">
        {labels.length === 0 && <span className="tl-empty">no milestones in view</span>}
        {labels.map(({ m, text, row }) => (
          <button
            key={m.kind}
            type="button"
            className="tl-ms-label"
            data-testid={`milestone-${m.kind}`}
            style={{ left: pct(scale.frac(m.ts)), top: 3 + (row ?? 0) * MS_ROW_H }}
            title={`${m.label}: ${fmtUtc(m.ts)} UTC (${m.component}) ${m.message}`}
            onClick={() => p.onSelectEvent(m.eventId)}
          >
            {text}
          </button>
        ))}
      </div>
    </div>
  );
}
