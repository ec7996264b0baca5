"use client";
/** The timeline's time axis: ticks labelled T+ since boot and UTC wall clock; `plotRef` measures the plot's width for the rows below. */
import type { Ref } from "react";
import { pct, tickEdge } from "@/lib/view/lanes-layout";
import type { TTick, TTimeScale } from "@/lib/view/time-scale";

export function ChartAxis(p: { ticks: TTick[]; scale: TTimeScale; plotWidth: number; plotRef: Ref<HTMLDivElement> }) {
  return (
    <div className="tl-row tl-axis">
      <div className="tl-label tl-axis-label">
        <span>T+ since boot</span>
        <span className="muted">UTC</span>
      </div>
      <div className="tl-plot" ref={p.plotRef}>
        {p.ticks.map((t) => (
          <div key={t.t} className={`tl-tick${tickEdge(p.scale.frac(t.t), p.plotWidth)}`} style={{ left: pct(p.scale.frac(t.t)) }}>
            <span className="tl-tick-off">{t.offsetLabel}</span>
            <span className="tl-tick-wall">{t.wallLabel}</span>
          </div>
        ))}
      </div>
    </div>
  );
}
