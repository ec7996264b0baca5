/**
 * Where milestone labels go, for the timeline page (components/timeline/milestones-row.tsx) and
 * the exported picture (lib/export/timeline-picture.ts) alike: each label starts at its
 * milestone's x and takes the first row whose last label ended at or before that x (greedy, left
 * to right), a new row when none has room; with `maxRows` a label that finds no row is not drawn
 * (its line still is). Pure; x and widths in the caller's units (px).
 */
import { fmtOffset } from "./format";

export interface TMilestoneLabel<M> {
  m: M;
  /** `<label> T+<s>` (one decimal) */
  text: string;
  /** where the label starts, and its estimated width */
  x: number;
  w: number;
  /** 0 = top row; null: no row had room (only with `maxRows`) */
  row: number | null;
}

/** Rows for spans placed left to right (`x` ascending): the first row free at `x`, else a new one up to `maxRows`. */
export function stackSpans(spans: ReadonlyArray<{ x: number; w: number }>, maxRows = Number.POSITIVE_INFINITY): Array<number | null> {
  const rowsEnd: number[] = [];
  return spans.map(({ x, w }) => {
    let row = rowsEnd.findIndex((end) => end <= x);
    if (row < 0) {
      if (rowsEnd.length >= maxRows) return null;
      row = rowsEnd.length;
      rowsEnd.push(0);
    }
    rowsEnd[row] = x + w;
    return row;
  });
}

/**
 * The labels of the milestones in [from, to] (UTC ms), by time. `xAt` maps a time to x; `width`
 * estimates a label's width from its text (a character width times its length plus a margin).
 */
export function layoutMilestoneLabels<M extends { label: string; ts: number }>(
  milestones: readonly M[],
  o: { from: number; to: number; t0: number; xAt(t: number): number; width(text: string): number; maxRows?: number },
): Array<TMilestoneLabel<M>> {
  const shown = milestones
    .filter((m) => m.ts >= o.from && m.ts <= o.to)
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.ts - b.m.ts || a.i - b.i)
    .map(({ m }) => {
      const text = `${m.label} ${fmtOffset(m.ts, o.t0, 1)}`;
      return { m, text, x: o.xAt(m.ts), w: o.width(text) };
    });
  const rows = stackSpans(shown, o.maxRows);
  return shown.map((l, i) => ({ ...l, row: rows[i] }));
}
