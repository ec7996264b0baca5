"use client";
/**
 * Two or more node boots stacked in T+ seconds: for each boot its density lanes (aggregated
 * in SQL for the boot's own absolute range [T+0 + from, T+0 + to)), its sandbox failure
 * windows shaded and its milestones marked. By default each boot is framed on its own range
 * with its own axis (a short boot beside a long one keeps the full width); a zoom, or "one T+
 * axis", puts every boot on one T+ range so "the window opened 6 s later on node B" reads
 * straight off the page. Drag across a boot (or the stack) to zoom; the range (as T+ seconds),
 * the alignment, the boots and the lanes live in the URL.
 */
import Link from "next/link";
import { useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { useLaneDensityQuery } from "@/components/data/use-lane-density-query";
import { densify, LANE_COLORS, LaneSparkline } from "@/components/timeline/lane-sparkline";
import { plural } from "@/lib/detect/numbers";
import { fmtDuration, fmtOffset, fmtUtc } from "@/lib/view/format";
import type { TCompareBoot, TCompareView } from "@/lib/queries/get-compare-view";
import { LANE_LABELS, LANES, type TLane } from "@/lib/view/lanes";
import { timeTicks } from "@/lib/view/time-scale";
import { bootPath } from "@/lib/view/view-state";
import { useCompareState } from "./use-compare-state";
import "@/components/timeline/timeline.css";

const LANE_H = 26;
const BUCKETS = 200;
const clamp01 = (f: number) => Math.min(1, Math.max(0, f));
const pct = (f: number) => `${(clamp01(f) * 100).toFixed(4)}%`;
/** T+ offset (ms) as seconds: `T+9.035s` */
const tPlus = (ms: number, d = 3) => fmtOffset(ms, 0, d);

export function CompareView({ view }: { view: TCompareView }) {
  const { state, shared, setRange, setLanes, setShared } = useCompareState();
  const from = state.from ?? view.extent.fromOffset;
  const to = state.to ?? view.extent.toOffset;
  const zoomed = state.from !== null || state.to !== null;
  const ticks = useMemo(() => timeTicks(from, to, 0, 10), [from, to]);
  const overlayRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  const frac = (t: number) => (t - from) / Math.max(1, to - from);

  const zoomTo = (a: number, b: number) => {
    const lo = Math.max(view.extent.fromOffset, Math.floor(Math.min(a, b)));
    const hi = Math.min(view.extent.toOffset, Math.ceil(Math.max(a, b)));
    if (hi - lo < 1) return;
    if (lo <= view.extent.fromOffset && hi >= view.extent.toOffset) setRange(null, null);
    else setRange(lo, hi);
  };
  const fracAt = (e: ReactPointerEvent) => {
    const r = overlayRef.current!.getBoundingClientRect();
    return clamp01((e.clientX - r.left) / Math.max(1, r.width));
  };
  const windows = view.boots.flatMap((b) => b.windows.map((w) => ({ start: w.start, end: w.end ?? b.dataEnd })));
  const toggleLane = (l: TLane) => setLanes(state.lanes.includes(l) ? state.lanes.filter((x) => x !== l) : [...state.lanes, l]);

  return (
    <div className="compare-page">
      <div className="tl-toolbar panel" role="toolbar" aria-label="compare view">
        <div className="tl-range" data-testid="compare-range" data-from={from} data-to={to}>
          <b className="mono">
            {tPlus(from)} → {tPlus(to)}
          </b>
          <span className="muted">
            {shared
              ? `${plural(view.boots.length, "boot")} on one T+ axis · ${fmtDuration(to - from)}`
              : `${plural(view.boots.length, "boot")}, each on its own range (T+ since each boot)`}
          </span>
        </div>
        <span className="spacer" />
        <div className="compare-lanes" aria-label="lanes">
          {LANES.map((l) => (
            <label key={l} className="compare-lane-toggle">
              <input type="checkbox" checked={state.lanes.includes(l)} onChange={() => toggleLane(l)} aria-label={`lane ${LANE_LABELS[l]}`} />
              <span className="tl-swatch" style={{ background: LANE_COLORS[l] }} />
              {LANE_LABELS[l]}
            </label>
          ))}
        </div>
        {windows.length > 0 && (
          <button
            type="button"
            className="btn"
            onClick={() => {
              const a = Math.min(...windows.map((w) => w.start));
              const b = Math.max(...windows.map((w) => w.end));
              const pad = Math.max(1000, (b - a) * 0.15);
              zoomTo(a - pad, b + pad);
            }}
          >
            failure windows
          </button>
        )}
        <button type="button" className="btn" onClick={() => setRange(null, null)} disabled={!zoomed}>
          reset zoom
        </button>
        {!zoomed && view.boots.length > 1 && (
          <button
            type="button"
            className="btn"
            onClick={() => setShared(!shared)}
            aria-pressed={shared}
            data-testid="compare-align"
            title="every boot on one T+ range, or each on its own"
          >
            {shared ? "each boot on its own range" : "one T+ axis for all"}
          </button>
        )}
      </div>

      <section className="panel tl-panel" aria-label="boots compared">
        {shared && (
          <div className="tl-row tl-axis" data-testid="compare-axis">
            <div className="tl-label tl-axis-label">
              <span>T+ since each boot</span>
            </div>
            <div className="tl-plot">
              {ticks.map((t) => (
                <div key={t.t} className="tl-tick" style={{ left: pct(frac(t.t)) }}>
                  <span className="tl-tick-off">{t.offsetLabel}</span>
                </div>
              ))}
            </div>
          </div>
        )}
        <div className="compare-stack">
          {view.boots.map((b) =>
            shared ? (
              <CompareBootBlock key={b.id} incidentId={view.incident.id} boot={b} from={from} to={to} lanes={state.lanes} frac={frac} />
            ) : (
              <CompareBootBlock
                key={b.id}
                incidentId={view.incident.id}
                boot={b}
                from={b.fromOffset}
                to={b.toOffset}
                lanes={state.lanes}
                frac={(t) => (t - b.fromOffset) / Math.max(1, b.toOffset - b.fromOffset)}
                ownAxis
                onZoom={zoomTo}
              />
            ),
          )}
          {shared && (
            <div
              className="tl-overlay compare-overlay"
              ref={overlayRef}
              onPointerDown={(e) => {
                if (e.button !== 0 || (e.target as HTMLElement).closest("a,button")) return;
                (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
                const f = fracAt(e);
                setDrag({ a: f, b: f });
              }}
              onPointerMove={(e) => drag && setDrag({ ...drag, b: fracAt(e) })}
              onPointerUp={(e) => {
                if (!drag) return;
                const f = fracAt(e);
                const w = overlayRef.current!.getBoundingClientRect().width;
                setDrag(null);
                if (Math.abs(f - drag.a) * w >= 4) zoomTo(from + Math.min(f, drag.a) * (to - from), from + Math.max(f, drag.a) * (to - from));
              }}
              onPointerCancel={() => setDrag(null)}
              onDoubleClick={() => zoomTo(from - (to - from) / 2, to + (to - from) / 2)}
              title="drag to zoom · double-click to zoom out"
            >
              {drag && Math.abs(drag.b - drag.a) > 0 && (
                <div className="tl-selection" style={{ left: pct(Math.min(drag.a, drag.b)), width: pct(Math.abs(drag.b - drag.a)) }}>
                  <span>
                    {tPlus(from + Math.min(drag.a, drag.b) * (to - from))} → {tPlus(from + Math.max(drag.a, drag.b) * (to - from))}
                  </span>
                </div>
              )}
            </div>
          )}
        </div>
        <div className="tl-foot muted">
          {shared
            ? "drag across the boots to zoom · double-click to zoom out · every boot is drawn from its own T+0"
            : "each boot on its own range and axis · drag across a boot to zoom (every boot then shows that T+ range)"}
        </div>
      </section>
    </div>
  );
}

function CompareBootBlock(p: {
  incidentId: string;
  boot: TCompareBoot;
  /** visible range as T+ offsets, ms */
  from: number;
  to: number;
  lanes: TLane[];
  frac(t: number): number;
  /** framed on its own range: draws its own axis and takes drags itself */
  ownAxis?: boolean;
  onZoom?(from: number, to: number): void;
}) {
  const b = p.boot;
  const ticks = useMemo(() => (p.ownAxis ? timeTicks(p.from, p.to, 0, 8) : []), [p.ownAxis, p.from, p.to]);
  const boxRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  const fracAt = (e: ReactPointerEvent) => {
    const r = boxRef.current!.getBoundingClientRect();
    return clamp01((e.clientX - r.left) / Math.max(1, r.width));
  };
  const density = useLaneDensityQuery({ incidentId: p.incidentId, bootId: b.id, from: b.t0 + p.from, to: b.t0 + p.to, lanes: p.lanes, buckets: BUCKETS });
  const series = useMemo(() => {
    const d = density.data;
    if (!d) return new Map<string, { data: ReturnType<typeof densify>; max: number; total: number }>();
    return new Map(d.lanes.map((s) => [s.lane, { data: densify(s.buckets, d.startMs, d.bucketMs, d.count), max: s.max, total: s.total }]));
  }, [density.data]);
  const first = b.windows[0];
  // `other` gets a row only when this boot has some in view (as on the timeline page)
  const rows = p.lanes.filter((l) => l !== "other" || (series.get("other")?.total ?? 0) > 0);
  const height = rows.length * LANE_H;
  // milestone labels only where they do not run into the previous one (all keep their line and tooltip)
  const labelled = useMemo(() => {
    const out = new Set<string>();
    let last = -1;
    for (const m of [...b.milestones].sort((x, y) => x.at - y.at)) {
      if (m.at < p.from || m.at > p.to) continue;
      const f = p.frac(m.at);
      if (last < 0 || f - last > 0.09) {
        out.add(m.kind);
        last = f;
      }
    }
    return out;
  }, [b.milestones, p]);
  // loading until this boot's lanes for this range are in: an empty lane then means no events, not "not yet"
  const status = density.isError ? "error" : density.data === undefined || density.isPlaceholderData ? "loading" : "ready";
  return (
    <div className="compare-boot" data-testid="compare-boot" data-boot-id={b.id} data-node={b.node} data-status={status} aria-busy={status === "loading"}>
      <div className="compare-boot-head">
        <b className="mono">{b.node}</b>
        <span>
          boot {b.index} of {b.count}
        </span>
        <span className="muted mono" title={b.bootKey}>
          T+0 {fmtUtc(b.t0)} UTC{b.startApprox ? " ≈" : ""}
        </span>
        {first ? (
          <span className="bad small" data-testid="compare-window-summary">
            failure window {tPlus(first.start)} → {first.end === null ? "open" : tPlus(first.end)}
            {first.end !== null ? ` (${fmtDuration(first.end - first.start)})` : ""}
            {first.attempts !== undefined ? `, ${plural(first.attempts, "attempt")}` : ""}
            {first.pods !== undefined ? `, ${plural(first.pods, "pod")}` : ""}
            {first.errorClass ? `, ${first.errorClass}` : ""}
          </span>
        ) : (
          <span className="muted small">no failure window</span>
        )}
        <span className="spacer" />
        <Link className="btn small" href={bootPath(p.incidentId, b.node, b.bootKey, { from: b.t0 + p.from, to: b.t0 + p.to })}>
          open timeline →
        </Link>
      </div>
      {p.ownAxis && (
        <div className="tl-row tl-axis compare-boot-axis" data-testid="compare-boot-axis">
          <div className="tl-label muted small">T+ of this boot</div>
          <div className="tl-plot">
            {ticks.map((t) => (
              <div key={t.t} className="tl-tick" style={{ left: pct(p.frac(t.t)) }}>
                <span className="tl-tick-off">{t.offsetLabel}</span>
              </div>
            ))}
          </div>
        </div>
      )}
      <div className="compare-lanes-box" data-from={p.from} data-to={p.to}>
        {status === "loading" && (
          <div className="compare-loading" role="status" data-testid="compare-boot-loading">
            loading…
          </div>
        )}
        {status === "error" && (
          <p className="warn-box small" role="alert" data-testid="compare-boot-error">
            The lanes of this boot did not load: {density.error instanceof Error ? density.error.message : String(density.error)}
          </p>
        )}
        {rows.map((lane) => {
          const s = series.get(lane);
          return (
            <div key={lane} className="tl-row compare-lane" style={{ height: LANE_H }} data-lane={lane} data-total={s?.total ?? 0}>
              <div className="tl-label muted">
                <span className="tl-swatch" style={{ background: LANE_COLORS[lane] }} />
                {LANE_LABELS[lane]}
                <span className="tl-lane-stats">{s ? s.total : ""}</span>
              </div>
              <div className="tl-plot">
                {s && s.total > 0 && (
                  <LaneSparkline data={s.data} from={b.t0 + p.from} to={b.t0 + p.to} max={s.max} color={LANE_COLORS[lane]} height={LANE_H} />
                )}
              </div>
            </div>
          );
        })}
        <div className="compare-marks" style={{ height }}>
          {b.windows.map((w) => {
            const end = w.end ?? b.dataEnd;
            if (end < p.from || w.start > p.to) return null;
            const a = clamp01(p.frac(w.start));
            const z = clamp01(p.frac(Math.max(end, w.start)));
            return (
              <div
                key={w.id}
                className={`tl-band tl-band-window${w.end === null ? " open" : ""}`}
                data-testid="compare-window"
                data-start={w.start}
                data-end={w.end ?? ""}
                style={{ left: pct(a), width: `max(2px, ${((z - a) * 100).toFixed(4)}%)`, top: 0, height }}
              />
            );
          })}
          {b.milestones.map((m) =>
            m.at >= p.from && m.at <= p.to ? (
              <div key={m.kind} className="tl-ms-line compare-ms" style={{ left: pct(p.frac(m.at)), height }} title={`${m.label} ${tPlus(m.at, 1)}`}>
                {labelled.has(m.kind) && <span>{m.label}</span>}
              </div>
            ) : null,
          )}
        </div>
        {p.ownAxis && p.onZoom && (
          <div
            className="tl-overlay compare-overlay"
            ref={boxRef}
            style={{ height }}
            onPointerDown={(e) => {
              if (e.button !== 0) return;
              (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
              const f = fracAt(e);
              setDrag({ a: f, b: f });
            }}
            onPointerMove={(e) => drag && setDrag({ ...drag, b: fracAt(e) })}
            onPointerUp={(e) => {
              if (!drag) return;
              const f = fracAt(e);
              const w = boxRef.current!.getBoundingClientRect().width;
              setDrag(null);
              const span = p.to - p.from;
              if (Math.abs(f - drag.a) * w >= 4) p.onZoom!(p.from + Math.min(f, drag.a) * span, p.from + Math.max(f, drag.a) * span);
            }}
            onPointerCancel={() => setDrag(null)}
            title="drag to zoom (every boot then shows that T+ range)"
          >
            {drag && Math.abs(drag.b - drag.a) > 0 && (
              <div className="tl-selection" style={{ left: pct(Math.min(drag.a, drag.b)), width: pct(Math.abs(drag.b - drag.a)) }} />
            )}
          </div>
        )}
      </div>
    </div>
  );
}
