"use client";
/** The timeline's notes row: a numbered pin per reviewer's note in view (a click shows it); a click on an empty spot picks that instant for a new note. */
import type { TAnnotation } from "@/lib/annotations/annotation";
import { fmtOffset, fmtUtc } from "@/lib/view/format";
import { clamp01, pct } from "@/lib/view/lanes-layout";
import type { TTimeScale } from "@/lib/view/time-scale";

export function NotesRow(p: { notes: TAnnotation[]; scale: TTimeScale; t0: number; onPickTime?(t: number): void; onShow?(n: TAnnotation): void }) {
  const { scale } = p;
  return (
    <div className="tl-row tl-notes-row">
      <div className="tl-label muted">notes</div>
      <div
        className="tl-plot tl-notes-plot"
        data-testid="notes-row"
        title="click to pin a note at this time"
        onClick={(e) => {
          if (e.target !== e.currentTarget || !p.onPickTime) return;
          const r = e.currentTarget.getBoundingClientRect();
          p.onPickTime(scale.time(clamp01((e.clientX - r.left) / Math.max(1, r.width))));
        }}
      >
        {p.notes.length === 0 && <span className="tl-empty">no notes · click here to pin one at a time</span>}
        {p.notes.map((n, i) =>
          n.ts >= scale.from && n.ts <= scale.to ? (
            <button
              key={n.id}
              type="button"
              className="tl-note-pin"
              data-testid="note-marker"
              data-note-id={n.id}
              style={{ left: pct(scale.frac(n.ts)) }}
              title={`note ${i + 1} at ${fmtOffset(n.ts, p.t0)} (${fmtUtc(n.ts)} UTC): ${n.text.length > 200 ? `${n.text.slice(0, 200)}…` : n.text}`}
              onClick={() => p.onShow?.(n)}
            >
              {i + 1}
            </button>
          ) : null,
        )}
      </div>
    </div>
  );
}
