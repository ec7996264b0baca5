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
 */
import { Fragment, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from "react";
import type { TAnnotation } from "@/lib/annotations/annotation";
import type { TFindingView } from "@/lib/incidents/get-incident";
import type { TLaneDensity } from "@/lib/queries/get-lane-density";
import type { TMilestone } from "@/lib/queries/get-milestones";
import { fmtCompact, fmtDuration, fmtOffset, fmtUtc } from "@/lib/view/format";
import { LANE_LABELS, type TLane } from "@/lib/view/lanes";
import { densify, LANE_COLORS, LaneSparkline, type TSparkPoint } from "./lane-sparkline";
import { timeScale, timeTicks } from "@/lib/view/time-scale";
import { findingRows } from "./finding-rows";
import { partsOf } from "@/lib/detect/parts";
import { useElementWidth } from "./use-element-width";

export const LANE_H = 44;
const WINDOW_ROW_H = 26;
const MS_ROW_H = 26;
const MIN_DRAG_PX = 4;
/** height of one row of finding bands, px */
const FINDING_ROW_H = 24;
/** rows of one detector shown before "show all" */
const FINDING_ROWS_FOLDED = 3;

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

const clamp01 = (f: number) => Math.min(1, Math.max(0, f));
const pct = (f: number) => `${(f * 100).toFixed(4)}%`;

export function LanesChart(p: TLanesChartProps) {
  const scale = useMemo(() => timeScale(p.from, p.to), [p.from, p.to]);
  const ticks = useMemo(() => timeTicks(p.from, p.to, p.t0), [p.from, p.to, p.t0]);
  const [plotRef, plotWidth] = useElementWidth<HTMLDivElement>();
  const overlayRef = useRef<HTMLDivElement>(null);
  const [hoverT, setHoverT] = useState<number | null>(null);
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);

  // dense series per lane from the sparse density (only when density changes)
  const series = useMemo(() => {
    const out = new Map<string, { data: TSparkPoint[]; max: number; total: number; errors: number }>();
    if (!p.density) return out;
    for (const s of p.density.lanes) {
      out.set(s.lane, { data: densify(s.buckets, p.density.startMs, p.density.bucketMs, p.density.count), max: s.max, total: s.total, errors: s.errors });
    }
    return out;
  }, [p.density]);

  // the density answers this range (while a new range loads, the previous one's stays drawn but its
  // counts are not shown as this range's)
  const ready = !!p.density && p.density.fromMs === p.from && p.density.toMs === p.to;
  const hoverBucket = hoverT !== null && p.density && ready ? Math.floor((hoverT - p.density.startMs) / p.density.bucketMs) : null;
  const hoverCount = hoverBucket === null ? null : p.rows.reduce((n, l) => n + (p.lanes.includes(l) ? (series.get(l)?.data[hoverBucket]?.n ?? 0) : 0), 0);
  const [findingsOpen, setFindingsOpen] = useState<ReadonlySet<string>>(new Set());
  const findingGroups = useMemo(
    () => findingRows(p.findings, p.from, p.to, p.dataEndMs, 8 / Math.max(1, plotWidth), 2 / Math.max(1, plotWidth)),
    [p.findings, p.from, p.to, p.dataEndMs, plotWidth],
  );

  // the selected part's own row (a pod of a storm, opened from its row in the pod table)
  const partRow = (f: TFindingView | undefined) => {
    const part = f && p.selectedPart ? partsOf(f.metrics).find((x) => x.key === p.selectedPart) : undefined;
    if (!f || !part) return null;
    const a = clamp01((part.startMs - p.from) / Math.max(1, p.to - p.from));
    const b = clamp01((Math.max(part.endMs ?? p.dataEndMs, part.startMs) - p.from) / Math.max(1, p.to - p.from));
    const w = Math.max(8 / Math.max(1, plotWidth), b - a);
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
            style={{ left: pct(a), width: pct(w), top: 2 }}
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
  };

  const fracAt = (e: ReactPointerEvent) => {
    const r = overlayRef.current!.getBoundingClientRect();
    return clamp01((e.clientX - r.left) / Math.max(1, r.width));
  };
  const onPointerDown = (e: ReactPointerEvent) => {
    if (e.button !== 0) return;
    (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
    const f = fracAt(e);
    setDrag({ a: f, b: f });
  };
  const onPointerMove = (e: ReactPointerEvent) => {
    const f = fracAt(e);
    setHoverT(scale.time(f));
    if (drag) setDrag({ ...drag, b: f });
  };
  const onPointerUp = (e: ReactPointerEvent) => {
    if (!drag) return;
    const f = fracAt(e);
    const w = overlayRef.current!.getBoundingClientRect().width;
    setDrag(null);
    if (Math.abs(f - drag.a) * w >= MIN_DRAG_PX) {
      const a = scale.time(Math.min(f, drag.a));
      const b = scale.time(Math.max(f, drag.a));
      if (b - a >= 1) p.onZoom(a, b);
    }
  };

  const lanesHeight = p.rows.reduce((h, l) => h + (p.lanes.includes(l) ? LANE_H : 22), 0);
  const bucketText = p.density ? `bucket ${fmtDuration(p.density.bucketMs)}` : "";

  // milestone labels staggered into rows so they do not overlap
  const msLayout = useMemo(() => {
    const rowsEnd: number[] = [];
    return p.milestones
      .filter((m) => m.ts >= p.from && m.ts <= p.to)
      .map((m) => {
        const text = `${m.label} ${fmtOffset(m.ts, p.t0, 1)}`;
        const x = scale.frac(m.ts) * plotWidth;
        const w = text.length * 6.4 + 14;
        let row = rowsEnd.findIndex((end) => end < x);
        if (row < 0) {
          row = rowsEnd.length;
          rowsEnd.push(0);
        }
        rowsEnd[row] = x + w;
        return { m, text, row };
      });
  }, [p.milestones, p.from, p.to, p.t0, scale, plotWidth]);
  const msRows = Math.max(1, ...msLayout.map((l) => l.row + 1));

  return (
    <div className="tl" aria-busy={p.fetching || !ready} data-testid="lanes-chart" data-ready={ready || undefined}>
      {/* axis */}
      <div className="tl-row tl-axis">
        <div className="tl-label tl-axis-label">
          <span>T+ since boot</span>
          <span className="muted">UTC</span>
        </div>
        <div className="tl-plot" ref={plotRef}>
          {ticks.map((t) => (
            <div key={t.t} className={`tl-tick${tickEdge(scale.frac(t.t), plotWidth)}`} style={{ left: pct(scale.frac(t.t)) }}>
              <span className="tl-tick-off">{t.offsetLabel}</span>
              <span className="tl-tick-wall">{t.wallLabel}</span>
            </div>
          ))}
        </div>
      </div>

      {/* lanes, with the overlay for bands, milestones and the drag selection */}
      <div className="tl-lanes">
        {p.rows.map((lane) => {
          const on = p.lanes.includes(lane);
          const s = series.get(lane);
          return (
            <div
              key={lane}
              className={`tl-row tl-lane${on ? "" : " tl-lane-off"}`}
              style={{ height: on ? LANE_H : 22 }}
              data-testid={`lane-${lane}`}
              data-lane={lane}
              data-total={ready ? (s?.total ?? 0) : undefined}
            >
              <label className="tl-label tl-lane-label" title={on ? "hide this lane" : "show this lane"}>
                <input type="checkbox" checked={on} onChange={() => p.onToggleLane(lane)} aria-label={`lane ${LANE_LABELS[lane]}`} />
                <span className="tl-swatch" style={{ background: LANE_COLORS[lane] }} />
                <span className="tl-lane-name">{LANE_LABELS[lane]}</span>
                {on && s && (
                  <span
                    className="tl-lane-stats"
                    data-testid="lane-total"
                    title={
                      ready ? `${s.total.toLocaleString("en-US")} events in view${s.errors ? `, ${s.errors.toLocaleString("en-US")} errors` : ""}` : "counting"
                    }
                  >
                    {ready ? (
                      <>
                        {fmtCompact(s.total)}
                        {s.errors ? <b className="bad"> {fmtCompact(s.errors)}E</b> : null}
                      </>
                    ) : (
                      "…"
                    )}
                  </span>
                )}
              </label>
              <div className="tl-plot">
                {on && s && <LaneSparkline data={s.data} from={p.from} to={p.to} max={s.max} color={LANE_COLORS[lane]} height={LANE_H} />}
                {on && s && ready && s.total === 0 && <span className="tl-empty">no events in view</span>}
                {/* an empty lane never means "still loading": it says so until its first counts are in */}
                {on && !s && (
                  <span className="tl-empty" data-testid="lane-loading" aria-live="polite">
                    loading events…
                  </span>
                )}
              </div>
            </div>
          );
        })}
        <div className="tl-row tl-window-row" style={{ height: WINDOW_ROW_H }}>
          <div className="tl-label muted">failure window</div>
          <div className="tl-plot">
            {p.windows.length === 0 && <span className="tl-empty">no sandbox failure window</span>}
            {p.windows.map((w) => {
              const end = w.endMs ?? p.dataEndMs;
              if (end >= p.from && w.startMs <= p.to) return null;
              const left = end < p.from;
              return (
                <button
                  key={w.id}
                  type="button"
                  className={`tl-offscreen ${left ? "left" : "right"}`}
                  data-testid="failure-window-offscreen"
                  onClick={() => p.onZoom(w.startMs - (end - w.startMs) * 0.1 - 500, end + (end - w.startMs) * 0.1 + 500)}
                >
                  {left ? "◀ " : ""}failure window {fmtOffset(w.startMs, p.t0)} → {w.endMs === null ? "open" : fmtOffset(w.endMs, p.t0)}
                  {left ? "" : " ▶"}
                </button>
              );
            })}
          </div>
        </div>

        <div
          className="tl-overlay"
          ref={overlayRef}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setDrag(null)}
          onPointerLeave={() => !drag && setHoverT(null)}
          onDoubleClick={() => {
            const [a, b] = [p.from - (p.to - p.from) / 2, p.to + (p.to - p.from) / 2];
            p.onZoom(a, b);
          }}
          title="drag to zoom · double-click to zoom out · with the lanes focused: ← → pan, + − zoom, 0 whole boot"
          tabIndex={p.onKeyDown ? 0 : undefined}
          role={p.onKeyDown ? "group" : undefined}
          aria-label={p.onKeyDown ? p.keyLabel : undefined}
          aria-keyshortcuts={p.onKeyDown ? "ArrowLeft ArrowRight + - 0" : undefined}
          onKeyDown={p.onKeyDown}
          data-testid="lanes-keys"
        >
          {p.windows.map((w) => {
            const end = w.endMs ?? p.dataEndMs;
            if (end < p.from || w.startMs > p.to) return null;
            const a = clamp01(scale.frac(w.startMs));
            const b = clamp01(scale.frac(Math.max(end, w.startMs)));
            return (
              <div
                key={w.id}
                className={`tl-band tl-band-window${w.endMs === null ? " open" : ""}`}
                data-testid="failure-window"
                data-start={w.startMs}
                data-end={w.endMs ?? ""}
                style={{ left: pct(a), width: `max(2px, ${pct(b - a)})`, top: 0, height: lanesHeight + WINDOW_ROW_H }}
              >
                <div className={`tl-band-label${a > 0.6 ? " right" : ""}`} data-testid="failure-window-label">
                  <b>sandbox failure window</b> <span data-testid="failure-window-start">{fmtOffset(w.startMs, p.t0)}</span> →{" "}
                  <span data-testid="failure-window-end">{w.endMs === null ? "open (end of data)" : fmtOffset(w.endMs, p.t0)}</span>
                  <span className="muted">
                    {" "}
                    · {fmtUtc(w.startMs, { date: false })}–{w.endMs === null ? "…" : fmtUtc(w.endMs, { date: false })} UTC · {fmtDuration(end - w.startMs)}
                  </span>
                </div>
              </div>
            );
          })}
          {p.milestones.map((m) =>
            m.ts >= p.from && m.ts <= p.to ? <div key={m.kind} className="tl-ms-line" style={{ left: pct(scale.frac(m.ts)), height: lanesHeight }} /> : null,
          )}
          {(p.notes ?? []).map((n) =>
            n.ts >= p.from && n.ts <= p.to ? <div key={n.id} className="tl-note-line" style={{ left: pct(scale.frac(n.ts)), height: lanesHeight }} /> : null,
          )}
          {hoverT !== null && !drag && (
            <div className="tl-crosshair" style={{ left: pct(scale.frac(hoverT)), height: lanesHeight + WINDOW_ROW_H }}>
              <span className="tl-crosshair-label" data-testid="crosshair-label">
                {fmtOffset(hoverT, p.t0)} · {fmtUtc(hoverT, { date: false })} UTC
                {hoverCount !== null && p.density ? ` · ${fmtCompact(hoverCount)} events in this ${fmtDuration(p.density.bucketMs)}` : ""}
              </span>
            </div>
          )}
          {drag && Math.abs(drag.b - drag.a) > 0 && (
            <div className="tl-selection" style={{ left: pct(Math.min(drag.a, drag.b)), width: pct(Math.abs(drag.b - drag.a)) }}>
              <span>
                {fmtOffset(scale.time(Math.min(drag.a, drag.b)), p.t0)} → {fmtOffset(scale.time(Math.max(drag.a, drag.b)), p.t0)}
              </span>
            </div>
          )}
        </div>
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
          {findingGroups.map((g) => {
            const open = findingsOpen.has(g.detector);
            const folded = !open && g.rows.length > FINDING_ROWS_FOLDED;
            const rows = folded ? g.rows.slice(0, FINDING_ROWS_FOLDED) : g.rows;
            const hidden = g.rows.slice(rows.length).reduce((n, r) => n + r.length, 0);
            return (
              <Fragment key={g.detector}>
                <div className="tl-row tl-finding-group" data-testid="finding-group" data-detector={g.detector} data-severity={g.severity}>
                  <div className="tl-label tl-finding-label">
                    <span className={`sev-badge sev-${g.severity}`}>{g.severity}</span>
                    <span className="tl-lane-name mono" title={g.detector}>
                      {g.detector}
                    </span>
                    <span className="tl-lane-stats">{g.count > 1 ? `×${fmtCompact(g.count)}` : ""}</span>
                  </div>
                  <div
                    className={`tl-plot tl-finding-plot${open && g.rows.length > 12 ? " scroll" : ""}`}
                    style={{ height: rows.length * FINDING_ROW_H + 4 + (folded || (open && g.rows.length > FINDING_ROWS_FOLDED) ? FINDING_ROW_H : 0) }}
                  >
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
                          onClick={() => (p.onSelectFinding ? p.onSelectFinding(f) : p.onZoom(f.startMs - 1000, (f.endMs ?? p.dataEndMs) + 1000))}
                        >
                          <span>{f.title}</span>
                        </button>
                      )),
                    )}
                    {(folded || (open && g.rows.length > FINDING_ROWS_FOLDED)) && (
                      <button
                        type="button"
                        className="btn small tl-finding-more"
                        style={{ top: 2 + rows.length * FINDING_ROW_H }}
                        aria-expanded={open}
                        onClick={() =>
                          setFindingsOpen((prev) => {
                            const next = new Set(prev);
                            if (next.has(g.detector)) next.delete(g.detector);
                            else next.add(g.detector);
                            return next;
                          })
                        }
                      >
                        {open
                          ? "fold rows"
                          : `show all: ${fmtCompact(hidden)} more ${g.detector} finding${hidden === 1 ? "" : "s"} on ${g.rows.length - rows.length} more row${g.rows.length - rows.length === 1 ? "" : "s"}`}
                      </button>
                    )}
                  </div>
                </div>
                {partRow(g.rows.flat().find((b) => b.f.id === p.selectedFindingId)?.f)}
              </Fragment>
            );
          })}
        </div>
      )}

      {/* milestones */}
      <div className="tl-row tl-ms-row" style={{ height: msRows * MS_ROW_H + 6 }}>
        <div className="tl-label muted">milestones</div>
        <div className="tl-plot">
          {msLayout.length === 0 && <span className="tl-empty">no milestones in view</span>}
          {msLayout.map(({ m, text, row }) => (
            <button
              key={m.kind}
              type="button"
              className="tl-ms-label"
              data-testid={`milestone-${m.kind}`}
              style={{ left: pct(scale.frac(m.ts)), top: 3 + row * MS_ROW_H }}
              title={`${m.label}: ${fmtUtc(m.ts)} UTC (${m.component}) ${m.message}`}
              onClick={() => p.onSelectEvent(m.eventId)}
            >
              {text}
            </button>
          ))}
        </div>
      </div>
      {/* reviewers' notes */}
      <div className="tl-row tl-notes-row">
        <div className="tl-label muted">notes</div>
        <div
          className="tl-plot tl-notes-plot"
          data-testid="notes-row"
          title="click to pin a note at this time"
          onClick={(e) => {
            if (e.target !== e.currentTarget || !p.onPickNoteTime) return;
            const r = e.currentTarget.getBoundingClientRect();
            p.onPickNoteTime(scale.time(clamp01((e.clientX - r.left) / Math.max(1, r.width))));
          }}
        >
          {(p.notes ?? []).length === 0 && <span className="tl-empty">no notes · click here to pin one at a time</span>}
          {(p.notes ?? []).map((n, i) =>
            n.ts >= p.from && n.ts <= p.to ? (
              <button
                key={n.id}
                type="button"
                className="tl-note-pin"
                data-testid="note-marker"
                data-note-id={n.id}
                style={{ left: pct(scale.frac(n.ts)) }}
                title={`note ${i + 1} at ${fmtOffset(n.ts, p.t0)} (${fmtUtc(n.ts)} UTC): ${n.text.length > 200 ? `${n.text.slice(0, 200)}…` : n.text}`}
                onClick={() => p.onShowNote?.(n)}
              >
                {i + 1}
              </button>
            ) : null,
          )}
        </div>
      </div>
      <div className="tl-foot muted">{bucketText} · drag across the lanes to zoom · double-click to zoom out</div>
    </div>
  );
}

/** Tick labels at the plot's edges are aligned inwards so the last one is not cut off. */
function tickEdge(frac: number, width: number): string {
  const px = frac * width;
  if (width > 0 && px < 40) return " edge-left";
  if (width > 0 && width - px < 40) return " edge-right";
  return "";
}
