"use client";
/**
 * The node boot timeline: a time axis (T+seconds and UTC wall clock), one density lane
 * per source, the sandbox failure window shaded across the lanes with its start and end
 * labelled, other findings as bands in rows by detector (most severe first, none hidden:
 * a detector with many rows folds them behind a "show all"), milestones as labelled vertical
 * lines, and a drag selection on the lanes to zoom. Lane counts are the visible range's totals
 * (shown once the density of that range is in); the bucket under the pointer is counted in the
 * crosshair's label. All positions are fractions of the visible range
 * [from, to) (UTC ms), so the HTML overlays line up with the Recharts plots below them.
 *
 * One component per row (axis, lane, failure window, findings of a detector, the selected part,
 * milestones, notes) and the brush over the lanes (lanes-overlay.tsx); the layout math is pure in
 * lib/view/lanes-layout.ts and lib/view/milestone-labels.ts.
 */
import { Fragment, type KeyboardEvent as ReactKeyboardEvent, useMemo, useState } from "react";
import type { TAnnotation } from "@/lib/annotations/annotation";
import type { TFindingView } from "@/lib/incidents/get-incident";
import type { TLaneDensity } from "@/lib/queries/get-lane-density";
import type { TMilestone } from "@/lib/queries/get-milestones";
import { fmtDuration } from "@/lib/view/format";
import { bucketAt, lanesHeight, pct } from "@/lib/view/lanes-layout";
import type { TLane } from "@/lib/view/lanes";
import { timeScale, timeTicks } from "@/lib/view/time-scale";
import { ChartAxis } from "./chart-axis";
import { FindingGroupRow, PartRow } from "./finding-group-row";
import { findingRows } from "./finding-rows";
import { densify } from "./lane-sparkline";
import { LaneRow, type TLaneSeries } from "./lane-row";
import { LanesOverlay } from "./lanes-overlay";
import { MilestonesRow } from "./milestones-row";
import { NotesRow } from "./notes-row";
import { useElementWidth } from "./use-element-width";
import { FailureWindowBand, FailureWindowRow, WINDOW_ROW_H } from "./window-row";

export interface TLanesChartProps {
  /** T+0, UTC ms */
  t0: number;
  /** visible range, UTC ms */
  from: number;
  to: number;
  /** lanes that get a row (checked or not) */
  rows: TLane[];
  /** lanes shown (checked) */
  lanes: TLane[];
  density: TLaneDensity | undefined;
  fetching: boolean;
  /** sandbox failure windows of the boot */
  windows: TFindingView[];
  /** other findings, drawn as bands below the lanes */
  findings: TFindingView[];
  /** end of the boot's data (an open window runs to here), UTC ms */
  dataEndMs: number;
  milestones: TMilestone[];
  /** the finding selected in the URL (its band is outlined) */
  selectedFindingId?: number | null;
  /** the part (pod) selected in the URL: when the selected finding has it, it gets a row of its own under the finding's */
  selectedPart?: string | null;
  /** reviewers' notes of the boot, by time (numbered in this order) */
  notes?: TAnnotation[];
  /** a click on an empty spot of the notes row: the instant there (UTC ms) */
  onPickNoteTime?(t: number): void;
  onShowNote?(n: TAnnotation): void;
  onZoom(from: number, to: number): void;
  /** a finding band was clicked: select it and show its window */
  onSelectFinding?(f: TFindingView): void;
  onToggleLane(lane: TLane): void;
  onSelectEvent(eventId: string): void;
  /** keys on the focused lanes (pan and zoom); `keyLabel` names the chart and its keys to assistive technology */
  onKeyDown?(e: ReactKeyboardEvent): void;
  keyLabel?: string;
}

export function LanesChart(p: TLanesChartProps) {
  const scale = useMemo(() => timeScale(p.from, p.to), [p.from, p.to]);
  const ticks = useMemo(() => timeTicks(p.from, p.to, p.t0), [p.from, p.to, p.t0]);
  const [plotRef, plotWidth] = useElementWidth<HTMLDivElement>();

  // dense series per lane from the sparse density (only when density changes)
  const series = useMemo(() => {
    const out = new Map<string, TLaneSeries>();
    if (!p.density) return out;
    for (const s of p.density.lanes) {
      out.set(s.lane, { data: densify(s.buckets, p.density.startMs, p.density.bucketMs, p.density.count), max: s.max, total: s.total, errors: s.errors });
    }
    return out;
  }, [p.density]);

  // the density answers this range (while a new range loads, the previous one's stays drawn but its
  // counts are not shown as this range's)
  const ready = !!p.density && p.density.fromMs === p.from && p.density.toMs === p.to;
  const countAt = (t: number) => {
    if (!p.density || !ready) return null;
    const b = bucketAt(t, p.density);
    const n = p.rows.reduce((sum, l) => sum + (p.lanes.includes(l) ? (series.get(l)?.data[b]?.n ?? 0) : 0), 0);
    return { n, bucketMs: p.density.bucketMs };
  };
  const [findingsOpen, setFindingsOpen] = useState<ReadonlySet<string>>(new Set());
  const toggleOpen = (detector: string) =>
    setFindingsOpen((prev) => {
      const next = new Set(prev);
      if (next.has(detector)) next.delete(detector);
      else next.add(detector);
      return next;
    });
  const findingGroups = useMemo(
    () => findingRows(p.findings, p.from, p.to, p.dataEndMs, 8 / Math.max(1, plotWidth), 2 / Math.max(1, plotWidth)),
    [p.findings, p.from, p.to, p.dataEndMs, plotWidth],
  );
  const selectFinding = (f: TFindingView) => (p.onSelectFinding ? p.onSelectFinding(f) : p.onZoom(f.startMs - 1000, (f.endMs ?? p.dataEndMs) + 1000));

  const lanesH = lanesHeight(p.rows, p.lanes);
  const bucketText = p.density ? `bucket ${fmtDuration(p.density.bucketMs)}` : "";
  const inView = (t: number) => t >= p.from && t <= p.to;

  return (
    <div className="tl" aria-busy={p.fetching || !ready} data-testid="lanes-chart" data-ready={ready || undefined}>
      <ChartAxis ticks={ticks} scale={scale} plotWidth={plotWidth} plotRef={plotRef} />

      {/* lanes, with the overlay for bands, milestones and the drag selection */}
      <div className="tl-lanes">
        {p.rows.map((lane) => (
          <LaneRow
            key={lane}
            lane={lane}
            on={p.lanes.includes(lane)}
            series={series.get(lane)}
            ready={ready}
            from={p.from}
            to={p.to}
            onToggle={() => p.onToggleLane(lane)}
          />
        ))}
        <FailureWindowRow windows={p.windows} from={p.from} to={p.to} t0={p.t0} dataEndMs={p.dataEndMs} onZoom={p.onZoom} />
        <LanesOverlay scale={scale} t0={p.t0} height={lanesH + WINDOW_ROW_H} countAt={countAt} onZoom={p.onZoom} onKeyDown={p.onKeyDown} keyLabel={p.keyLabel}>
          {p.windows.map((w) => (
            <FailureWindowBand key={w.id} w={w} from={p.from} to={p.to} t0={p.t0} dataEndMs={p.dataEndMs} height={lanesH + WINDOW_ROW_H} />
          ))}
          {p.milestones.map((m) => (inView(m.ts) ? <div key={m.kind} className="tl-ms-line" style={{ left: pct(scale.frac(m.ts)), height: lanesH }} /> : null))}
          {(p.notes ?? []).map((n) =>
            inView(n.ts) ? <div key={n.id} className="tl-note-line" style={{ left: pct(scale.frac(n.ts)), height: lanesH }} /> : null,
          )}
        </LanesOverlay>
      </div>

      {/* other findings: one group of rows per detector, the most severe group first */}
      {findingGroups.length === 0 ? (
        <div className="tl-row tl-findings-row">
          <div className="tl-label muted">findings</div>
          <div className="tl-plot">
            <span className="tl-empty">{p.findings.length === 0 ? "no other findings" : "no other findings in view"}</span>
          </div>
        </div>
      ) : (
        <div className="tl-findings" role="group" aria-label="findings by detector, most severe first">
          {findingGroups.map((g) => (
            <Fragment key={g.detector}>
              <FindingGroupRow
                g={g}
                t0={p.t0}
                dataEndMs={p.dataEndMs}
                open={findingsOpen.has(g.detector)}
                onToggleOpen={() => toggleOpen(g.detector)}
                selectedFindingId={p.selectedFindingId}
                onSelect={selectFinding}
              />
              <PartRow
                f={g.rows.flat().find((b) => b.f.id === p.selectedFindingId)?.f}
                part={p.selectedPart}
                from={p.from}
                to={p.to}
                t0={p.t0}
                dataEndMs={p.dataEndMs}
                plotWidth={plotWidth}
              />
            </Fragment>
          ))}
        </div>
      )}

      <MilestonesRow milestones={p.milestones} scale={scale} t0={p.t0} plotWidth={plotWidth} onSelectEvent={p.onSelectEvent} />
      <NotesRow notes={p.notes ?? []} scale={scale} t0={p.t0} onPickTime={p.onPickNoteTime} onShow={p.onShowNote} />
      <div className="tl-foot muted">{bucketText} · drag across the lanes to zoom · double-click to zoom out</div>
    </div>
  );
}
