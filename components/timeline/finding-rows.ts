/**
 * The timeline's findings rows: one group of rows per detector, the group with the most severe
 * finding first (critical, high, medium, low, info; then by detector name), and inside a group
 * the findings packed into as few rows as lets no two overlap on screen (greedy, by start).
 * Pure: positions are fractions of the visible range.
 */
import type { TFindingView } from "@/lib/incidents/get-incident";
import { findingSeverityRank } from "@/lib/view/lanes";

export interface TFindingBand {
  f: TFindingView;
  /** left edge and width as fractions of the plot (width at least `minFrac`) */
  a: number;
  w: number;
}

export interface TFindingGroup {
  detector: string;
  /** the group's most severe finding's severity */
  severity: string;
  /** findings of this detector in the visible range */
  count: number;
  /** packed rows, each a list of bands that do not overlap */
  rows: TFindingBand[][];
}

/**
 * Groups and packs the findings that overlap [from, to) (UTC ms); an open finding runs to
 * `dataEndMs`. `minFrac` is the smallest drawn width (a fraction of the plot, e.g. 8 px / width),
 * `gapFrac` the least room kept between two bands of one row.
 */
export function findingRows(findings: readonly TFindingView[], from: number, to: number, dataEndMs: number, minFrac: number, gapFrac = 0): TFindingGroup[] {
  const span = Math.max(1, to - from);
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const byDetector = new Map<string, TFindingView[]>();
  for (const f of findings) {
    const end = f.endMs ?? dataEndMs;
    if (end < from || f.startMs > to) continue;
    const list = byDetector.get(f.detector) ?? [];
    list.push(f);
    byDetector.set(f.detector, list);
  }
  const groups: TFindingGroup[] = [];
  for (const [detector, list] of byDetector) {
    // the most severe first inside the group too, so the first row holds them
    list.sort((x, y) => findingSeverityRank(x.severity) - findingSeverityRank(y.severity) || x.startMs - y.startMs || x.id - y.id);
    const rows: TFindingBand[][] = [];
    for (const f of list) {
      const a = clamp((f.startMs - from) / span);
      const b = clamp((Math.max(f.endMs ?? dataEndMs, f.startMs) - from) / span);
      const w = Math.max(minFrac, b - a);
      // the first row where it overlaps no band (with the gap kept on both sides)
      let r = rows.findIndex((row) => !row.some((x) => x.a < a + w + gapFrac && a < x.a + x.w + gapFrac));
      if (r < 0) {
        r = rows.length;
        rows.push([]);
      }
      rows[r].push({ f, a, w });
    }
    for (const row of rows) row.sort((x, y) => x.a - y.a);
    groups.push({ detector, severity: list[0].severity, count: list.length, rows });
  }
  return groups.sort(
    (x, y) => findingSeverityRank(x.severity) - findingSeverityRank(y.severity) || (x.detector < y.detector ? -1 : x.detector > y.detector ? 1 : 0),
  );
}
