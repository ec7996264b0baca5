"use client";
/**
 * The sandbox failure windows on the timeline: the row under the lanes (a button to each window
 * off screen, or "no sandbox failure window"), and a window's shaded band across the lanes with
 * its start, end, wall clock and length.
 */
import { fmtDuration, fmtOffset, fmtUtc } from "@/lib/view/format";
import { offscreenSide, pct, spanInView, viewAround } from "@/lib/view/lanes-layout";
import type { TFindingView } from "@/lib/incidents/get-incident";

/** Height of the failure window row, px. */
export const WINDOW_ROW_H = 26;

export function FailureWindowRow(p: {
  windows: TFindingView[];
  from: number;
  to: number;
  t0: number;
  dataEndMs: number;
  onZoom(from: number, to: number): void;
}) {
  return (
    <div className="tl-row tl-window-row" style={{ height: WINDOW_ROW_H }}>
      <div className="tl-label muted">failure window</div>
      <div className="tl-plot">
        {p.windows.length === 0 && <span className="tl-empty">no sandbox failure window</span>}
        {p.windows.map((w) => {
          const side = offscreenSide(w, p.from, p.to, p.dataEndMs);
          if (side === null) return null;
          const left = side === "left";
          return (
            <button
              key={w.id}
              type="button"
              className={`tl-offscreen ${side}`}
              data-testid="failure-window-offscreen"
              onClick={() => p.onZoom(...viewAround(w, p.dataEndMs))}
            >
              {left ? "◀ " : ""}failure window {fmtOffset(w.startMs, p.t0)} → {w.endMs === null ? "open" : fmtOffset(w.endMs, p.t0)}
              {left ? "" : " ▶"}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** A window in view, shaded over `height` px (the lanes and the window row); nothing when it is off screen. */
export function FailureWindowBand(p: { w: TFindingView; from: number; to: number; t0: number; dataEndMs: number; height: number }) {
  const { w } = p;
  const span = spanInView(w, p.from, p.to, p.dataEndMs);
  if (!span) return null;
  const end = w.endMs ?? p.dataEndMs;
  return (
    <div
      className={`tl-band tl-band-window${w.endMs === null ? " open" : ""}`}
      data-testid="failure-window"
      data-start={w.startMs}
      data-end={w.endMs ?? ""}
      style={{ left: pct(span.a), width: `max(2px, ${pct(span.b - span.a)})`, top: 0, height: p.height }}
    >
      <div className={`tl-band-label${span.a > 0.6 ? " right" : ""}`} data-testid="failure-window-label">
        <b>sandbox failure window</b> <span data-testid="failure-window-start">{fmtOffset(w.startMs, p.t0)}</span> →{" "}
        <span data-testid="failure-window-end">{w.endMs === null ? "open (end of data)" : fmtOffset(w.endMs, p.t0)}</span>
        <span className="muted">
          {" "}
          · {fmtUtc(w.startMs, { date: false })}–{w.endMs === null ? "…" : fmtUtc(w.endMs, { date: false })} UTC · {fmtDuration(end - w.startMs)}
        </span>
      </div>
    </div>
  );
}
