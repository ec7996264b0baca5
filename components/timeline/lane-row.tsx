"use client";
/**
 * One source lane of the timeline: its checkbox (shown or hidden), colour, name and the view's
 * counts (once the density of this range is in), and its density sparkline; an empty lane says
 * whether it has no events in view or is still loading.
 */
import { fmtCompact } from "@/lib/view/format";
import { LANE_H, LANE_OFF_H } from "@/lib/view/lanes-layout";
import { LANE_LABELS, type TLane } from "@/lib/view/lanes";
import { LANE_COLORS, LaneSparkline, type TSparkPoint } from "./lane-sparkline";

/** A lane's dense series over the view, its highest bucket, events and errors. */
export interface TLaneSeries {
  data: TSparkPoint[];
  max: number;
  total: number;
  errors: number;
}

export function LaneRow(p: { lane: TLane; on: boolean; series: TLaneSeries | undefined; ready: boolean; from: number; to: number; onToggle(): void }) {
  const { lane, on, series: s, ready } = p;
  return (
    <div
      className={`tl-row tl-lane${on ? "" : " tl-lane-off"}`}
      style={{ height: on ? LANE_H : LANE_OFF_H }}
      data-testid={`lane-${lane}`}
      data-lane={lane}
      data-total={ready ? (s?.total ?? 0) : undefined}
    >
      <label className="tl-label tl-lane-label" title={on ? "hide this lane" : "show this lane"}>
        <input type="checkbox" checked={on} onChange={p.onToggle} aria-label={`lane ${LANE_LABELS[lane]}`} />
        <span className="tl-swatch" style={{ background: LANE_COLORS[lane] }} />
        <span className="tl-lane-name">{LANE_LABELS[lane]}</span>
        {on && s && (
          <span
            className="tl-lane-stats"
            data-testid="lane-total"
            title={ready ? `${s.total.toLocaleString("en-US")} events in view${s.errors ? `, ${s.errors.toLocaleString("en-US")} errors` : ""}` : "counting"}
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
}
