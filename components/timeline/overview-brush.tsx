"use client";
/**
 * The whole boot in one strip (all lanes summed), with the visible range highlighted:
 * drag on it to choose a new range, click to centre the current span there. Failure
 * windows are marked so the way back to them is always visible.
 */
import { useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from "react";
import { Area, AreaChart, ResponsiveContainer, XAxis, YAxis } from "recharts";
import type { TFindingView } from "@/lib/incidents/get-incident";
import type { TLaneDensity } from "@/lib/queries/get-lane-density";
import { fmtOffset } from "@/lib/view/format";
import { densify } from "./lane-sparkline";
import { timeScale } from "@/lib/view/time-scale";

const H = 40;

export function OverviewBrush(p: {
  t0: number;
  /** whole boot range, UTC ms */
  min: number;
  max: number;
  /** visible range */
  from: number;
  to: number;
  density: TLaneDensity | undefined;
  windows: TFindingView[];
  dataEndMs: number;
  onRange(from: number, to: number): void;
  /** keys on the focused strip (pan and zoom); `keyLabel` names it and its keys to assistive technology */
  onKeyDown?(e: ReactKeyboardEvent): void;
  keyLabel?: string;
}) {
  const scale = useMemo(() => timeScale(p.min, p.max), [p.min, p.max]);
  const ref = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  const data = useMemo(() => {
    if (!p.density) return [];
    const all = p.density.lanes.flatMap((s) => s.buckets);
    return densify(all, p.density.startMs, p.density.bucketMs, p.density.count);
  }, [p.density]);
  const max = useMemo(() => data.reduce((m, d) => Math.max(m, d.n), 1), [data]);

  const fracAt = (e: ReactPointerEvent) => {
    const r = ref.current!.getBoundingClientRect();
    return Math.min(1, Math.max(0, (e.clientX - r.left) / Math.max(1, r.width)));
  };
  const up = (e: ReactPointerEvent) => {
    if (!drag) return;
    const f = fracAt(e);
    const w = ref.current!.getBoundingClientRect().width;
    setDrag(null);
    if (Math.abs(f - drag.a) * w >= 4) {
      p.onRange(scale.time(Math.min(f, drag.a)), scale.time(Math.max(f, drag.a)));
    } else {
      const c = scale.time(f);
      const half = (p.to - p.from) / 2;
      p.onRange(c - half, c + half);
    }
  };
  const a = Math.max(0, scale.frac(p.from));
  const b = Math.min(1, scale.frac(p.to));
  return (
    <div className="tl-row tl-overview" data-testid="overview">
      <div className="tl-label muted">
        whole boot
        <span className="tl-overview-range">
          {fmtOffset(p.min, p.t0, 0)} … {fmtOffset(p.max, p.t0, 0)}
        </span>
      </div>
      <div
        className="tl-plot"
        ref={ref}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
          const f = fracAt(e);
          setDrag({ a: f, b: f });
        }}
        onPointerMove={(e) => drag && setDrag({ ...drag, b: fracAt(e) })}
        onPointerUp={up}
        onPointerCancel={() => setDrag(null)}
        title="drag to choose a range · click to move the view · with the strip focused: ← → pan, + − zoom, 0 whole boot"
        tabIndex={p.onKeyDown ? 0 : undefined}
        role={p.onKeyDown ? "group" : undefined}
        aria-label={p.onKeyDown ? p.keyLabel : undefined}
        aria-keyshortcuts={p.onKeyDown ? "ArrowLeft ArrowRight + - 0" : undefined}
        onKeyDown={p.onKeyDown}
        data-testid="overview-keys"
      >
        <ResponsiveContainer width="100%" height={H} minWidth={10}>
          <AreaChart data={data} margin={{ top: 2, right: 0, bottom: 0, left: 0 }}>
            <XAxis type="number" dataKey="t" domain={[p.min, p.max]} hide allowDataOverflow />
            <YAxis type="number" hide domain={[0, max]} />
            <Area type="stepAfter" dataKey="n" stroke="#7a8599" fill="#7a8599" fillOpacity={0.35} isAnimationActive={false} dot={false} activeDot={false} />
            <Area type="stepAfter" dataKey="e" stroke="none" fill="#ff5d5d" fillOpacity={0.5} isAnimationActive={false} dot={false} activeDot={false} />
          </AreaChart>
        </ResponsiveContainer>
        {p.windows.map((w) => {
          const s = Math.max(0, scale.frac(w.startMs));
          const e = Math.min(1, scale.frac(w.endMs ?? p.dataEndMs));
          return <div key={w.id} className="tl-overview-window" style={{ left: `${s * 100}%`, width: `max(2px, ${(e - s) * 100}%)` }} />;
        })}
        <div className="tl-overview-view" data-testid="overview-view" style={{ left: `${a * 100}%`, width: `max(2px, ${(b - a) * 100}%)` }} />
        {drag && Math.abs(drag.b - drag.a) > 0 && (
          <div className="tl-selection" style={{ left: `${Math.min(drag.a, drag.b) * 100}%`, width: `${Math.abs(drag.b - drag.a) * 100}%` }} />
        )}
      </div>
    </div>
  );
}
