"use client";
/**
 * The layer over the lanes: a drag across it zooms to the range dragged (the brush), a
 * double-click zooms out, the pointer's instant shows as a crosshair with the events of its
 * bucket; with it focused, keys pan and zoom (`onKeyDown`). Bands and lines drawn over the
 * lanes come as children. Positions are fractions of the view.
 */
import { type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent, type ReactNode, useRef, useState } from "react";
import { fmtCompact, fmtDuration, fmtOffset, fmtUtc } from "@/lib/view/format";
import { clamp01, dragZoom, pct, zoomOutAround } from "@/lib/view/lanes-layout";
import type { TTimeScale } from "@/lib/view/time-scale";

export function LanesOverlay(p: {
  scale: TTimeScale;
  t0: number;
  /** height of the crosshair, px */
  height: number;
  /** events in the bucket at an instant (the lanes shown), and the bucket's length; null when the counts are not this view's */
  countAt(t: number): { n: number; bucketMs: number } | null;
  onZoom(from: number, to: number): void;
  onKeyDown?(e: ReactKeyboardEvent): void;
  keyLabel?: string;
  children: ReactNode;
}) {
  const { scale } = p;
  const ref = useRef<HTMLDivElement>(null);
  const [hoverT, setHoverT] = useState<number | null>(null);
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  const fracAt = (e: ReactPointerEvent) => {
    const r = ref.current!.getBoundingClientRect();
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
    const range = dragZoom(drag.a, fracAt(e), ref.current!.getBoundingClientRect().width, scale);
    setDrag(null);
    if (range) p.onZoom(...range);
  };
  const hover = hoverT === null ? null : p.countAt(hoverT);
  return (
    <div
      className="tl-overlay"
      ref={ref}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDrag(null)}
      onPointerLeave={() => !drag && setHoverT(null)}
      onDoubleClick={() => p.onZoom(...zoomOutAround(scale.from, scale.to))}
      title="drag to zoom · double-click to zoom out · with the lanes focused: ← → pan, + − zoom, 0 whole boot"
      tabIndex={p.onKeyDown ? 0 : undefined}
      role={p.onKeyDown ? "group" : undefined}
      aria-label={p.onKeyDown ? p.keyLabel : undefined}
      aria-keyshortcuts={p.onKeyDown ? "ArrowLeft ArrowRight + - 0" : undefined}
      onKeyDown={p.onKeyDown}
      data-testid="lanes-keys"
    >
      {p.children}
      {hoverT !== null && !drag && (
        <div className="tl-crosshair" style={{ left: pct(scale.frac(hoverT)), height: p.height }}>
          <span className="tl-crosshair-label" data-testid="crosshair-label">
            {fmtOffset(hoverT, p.t0)} · {fmtUtc(hoverT, { date: false })} UTC
            {hover ? ` · ${fmtCompact(hover.n)} events in this ${fmtDuration(hover.bucketMs)}` : ""}
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
  );
}
