"use client";
/**
 * One detector's findings on the timeline: its severity, name and count, its bands packed in
 * rows (components/timeline/finding-rows.ts), folded past a few rows behind "show all"; and the
 * row of the selected part (a pod of a storm) under the finding that has it.
 */
import { partsOf } from "@/lib/detect/parts";
import type { TFindingView } from "@/lib/incidents/get-incident";
import { fmtCompact, fmtOffset } from "@/lib/view/format";
import { bandOf, FINDING_ROW_H, findingGroupFold, pct } from "@/lib/view/lanes-layout";
import type { TFindingGroup } from "./finding-rows";

export function FindingGroupRow(p: {
  g: TFindingGroup;
  t0: number;
  dataEndMs: number;
  open: boolean;
  onToggleOpen(): void;
  selectedFindingId?: number | null;
  onSelect(f: TFindingView): void;
}) {
  const { g, open } = p;
  const fold = findingGroupFold(
    g.rows.map((r) => r.length),
    open,
  );
  const rows = g.rows.slice(0, fold.shown);
  return (
    <div className="tl-row tl-finding-group" data-testid="finding-group" data-detector={g.detector} data-severity={g.severity}>
      <div className="tl-label tl-finding-label">
        <span className={`sev-badge sev-${g.severity}`}>{g.severity}</span>
        <span className="tl-lane-name mono" title={g.detector}>
          {g.detector}
        </span>
        <span className="tl-lane-stats">{g.count > 1 ? `×${fmtCompact(g.count)}` : ""}</span>
      </div>
      <div className={`tl-plot tl-finding-plot${open && g.rows.length > 12 ? " scroll" : ""}`} style={{ height: fold.height }}>
        {rows.map((row, ri) =>
          row.map(({ f, a, w }) => (
            <button
              key={f.id}
              type="button"
              className={`tl-finding-band sev-${f.severity}${f.id === p.selectedFindingId ? " selected" : ""}`}
              data-testid="finding-band"
              data-finding-id={f.id}
              style={{ left: pct(a), width: pct(w), top: 2 + ri * FINDING_ROW_H }}
              title={`${f.severity.toUpperCase()} ${f.title} (${fmtOffset(f.startMs, p.t0)} → ${f.endMs === null ? "open" : fmtOffset(f.endMs, p.t0)}); click to zoom`}
              aria-label={`${f.severity} ${f.detector}: ${f.title}`}
              onClick={() => p.onSelect(f)}
            >
              <span>{f.title}</span>
            </button>
          )),
        )}
        {fold.button && (
          <button
            type="button"
            className="btn small tl-finding-more"
            style={{ top: 2 + rows.length * FINDING_ROW_H }}
            aria-expanded={open}
            onClick={p.onToggleOpen}
          >
            {open
              ? "fold rows"
              : `show all: ${fmtCompact(fold.hiddenFindings)} more ${g.detector} finding${fold.hiddenFindings === 1 ? "" : "s"} on ${fold.hiddenRows} more row${fold.hiddenRows === 1 ? "" : "s"}`}
          </button>
        )}
      </div>
    </div>
  );
}

/** The selected part's own row under its finding; nothing when the finding has no such part. */
export function PartRow(p: {
  f: TFindingView | undefined;
  part: string | null | undefined;
  from: number;
  to: number;
  t0: number;
  dataEndMs: number;
  plotWidth: number;
}) {
  const { f } = p;
  const part = f && p.part ? partsOf(f.metrics).find((x) => x.key === p.part) : undefined;
  if (!f || !part) return null;
  const band = bandOf(part, p.from, p.to, p.dataEndMs, 8 / Math.max(1, p.plotWidth));
  return (
    <div className="tl-row tl-finding-group tl-part-row" data-testid="part-row-band" data-part={part.key}>
      <div className="tl-label tl-finding-label">
        <span className="tl-lane-name mono" title={part.key}>
          {part.key}
        </span>
      </div>
      <div className="tl-plot tl-finding-plot" style={{ height: FINDING_ROW_H + 4 }}>
        <span
          className={`tl-finding-band sev-${f.severity} selected`}
          style={{ left: pct(band.a), width: pct(band.w), top: 2 }}
          title={`${part.key}: ${fmtOffset(part.startMs, p.t0)} → ${part.endMs === null ? "open" : fmtOffset(part.endMs, p.t0)}`}
        >
          <span>
            {part.key} · {typeof part.attempts === "number" ? `${part.attempts} attempts` : ""}
            {typeof part.intervalS === "number" ? ` every ${part.intervalS} s` : ""}
          </span>
        </span>
      </div>
    </div>
  );
}
