/**
 * The node boot timeline's layout math (components/timeline/lanes-chart.tsx and its rows), pure:
 * positions are fractions of the visible range [from, to) (UTC ms) so HTML overlays line up with
 * the plots under them; pixel figures are the plot's.
 */
import type { TTimeScale } from "./time-scale";

/** Height of a lane shown, and of one hidden (its label only), px. */
export const LANE_H = 44;
export const LANE_OFF_H = 22;
/** Least drag across the lanes that zooms, px. */
export const MIN_DRAG_PX = 4;
/** Height of one row of finding bands, px; rows of one detector shown before "show all". */
export const FINDING_ROW_H = 24;
export const FINDING_ROWS_FOLDED = 3;

export const clamp01 = (f: number) => Math.min(1, Math.max(0, f));
/** A fraction as a CSS percentage. */
export const pct = (f: number) => `${(f * 100).toFixed(4)}%`;

/** Height of the lanes, px: `LANE_H` for each lane shown, `LANE_OFF_H` for each hidden. */
export function lanesHeight(rows: readonly string[], shown: readonly string[]): number {
  return rows.reduce((h, l) => h + (shown.includes(l) ? LANE_H : LANE_OFF_H), 0);
}

/** A span [startMs, endMs] (open: to `dataEndMs`) as fractions of the view, clamped: null when it is all outside. */
export function spanInView(s: { startMs: number; endMs: number | null }, from: number, to: number, dataEndMs: number): { a: number; b: number } | null {
  const end = s.endMs ?? dataEndMs;
  if (end < from || s.startMs > to) return null;
  const span = Math.max(1, to - from);
  return { a: clamp01((s.startMs - from) / span), b: clamp01((Math.max(end, s.startMs) - from) / span) };
}

/** Which side of the view a span outside it lies on (null: in view). */
export function offscreenSide(s: { startMs: number; endMs: number | null }, from: number, to: number, dataEndMs: number): "left" | "right" | null {
  const end = s.endMs ?? dataEndMs;
  if (end >= from && s.startMs <= to) return null;
  return end < from ? "left" : "right";
}

/** The view that shows a span off screen: the span with a tenth of its length and 500 ms on each side. */
export function viewAround(s: { startMs: number; endMs: number | null }, dataEndMs: number): [number, number] {
  const end = s.endMs ?? dataEndMs;
  const pad = (end - s.startMs) * 0.1 + 500;
  return [s.startMs - pad, end + pad];
}

/** A band at least `minFrac` wide: its left edge and width as fractions of the view. */
export function bandOf(s: { startMs: number; endMs: number | null }, from: number, to: number, dataEndMs: number, minFrac: number): { a: number; w: number } {
  const span = Math.max(1, to - from);
  const a = clamp01((s.startMs - from) / span);
  const b = clamp01((Math.max(s.endMs ?? dataEndMs, s.startMs) - from) / span);
  return { a, w: Math.max(minFrac, b - a) };
}

/** The range a drag from fraction `a` to `b` zooms to, or null for a click (under `MIN_DRAG_PX` of a `widthPx` plot) or less than 1 ms. */
export function dragZoom(a: number, b: number, widthPx: number, scale: TTimeScale): [number, number] | null {
  if (Math.abs(b - a) * widthPx < MIN_DRAG_PX) return null;
  const lo = scale.time(Math.min(a, b));
  const hi = scale.time(Math.max(a, b));
  return hi - lo >= 1 ? [lo, hi] : null;
}

/** The view twice as long around the same middle (a double-click). */
export function zoomOutAround(from: number, to: number): [number, number] {
  const half = (to - from) / 2;
  return [from - half, to + half];
}

/** The density bucket an instant falls in (may be outside 0..count-1). */
export function bucketAt(t: number, d: { startMs: number; bucketMs: number }): number {
  return Math.floor((t - d.startMs) / d.bucketMs);
}

/** Tick labels at the plot's edges (40 px) are aligned inwards so the last one is not cut off: the class to add. */
export function tickEdge(frac: number, width: number): "" | " edge-left" | " edge-right" {
  const px = frac * width;
  if (width > 0 && px < 40) return " edge-left";
  if (width > 0 && width - px < 40) return " edge-right";
  return "";
}

/**
 * One detector's rows of finding bands: how many are drawn (`FINDING_ROWS_FOLDED` while folded),
 * whether the "show all" / "fold rows" button shows, the findings and rows hidden, and the
 * plot's height, px (the rows, 4 px of margin, a row for the button).
 */
export function findingGroupFold(
  rowLengths: readonly number[],
  open: boolean,
): { shown: number; button: boolean; hiddenFindings: number; hiddenRows: number; height: number } {
  const folded = !open && rowLengths.length > FINDING_ROWS_FOLDED;
  const shown = folded ? FINDING_ROWS_FOLDED : rowLengths.length;
  const button = folded || (open && rowLengths.length > FINDING_ROWS_FOLDED);
  const hiddenFindings = rowLengths.slice(shown).reduce((n, r) => n + r, 0);
  return { shown, button, hiddenFindings, hiddenRows: rowLengths.length - shown, height: shown * FINDING_ROW_H + 4 + (button ? FINDING_ROW_H : 0) };
}
