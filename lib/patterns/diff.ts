/**
 * "What changed" between two boots: per dimension (message templates, event kinds, error
 * classes, components), the values present in one boot only and those whose counts differ by
 * more than `factor`, with both counts, both first T+ (seconds after each boot's T+0) and both
 * first events. Templates are matched by merging both boots' rows (merge.ts); the other
 * dimensions by their exact value.
 */
import type { PatternStat } from "./boot-miner";
import { mergeSides } from "./merge";

/** Counts differing by more than this factor are listed (the smaller count at least 1). */
export const DIFF_FACTOR = 2;

export type TDiffDimension = "pattern" | "kind" | "errorClass" | "component";

/** One value's count in one boot, first time (UTC ms) and first event id. */
export interface ValueCount {
  count: number;
  firstTs: number | null;
  firstId: number | null;
}

export interface TDiffRow {
  dimension: TDiffDimension;
  value: string;
  /** `only-a`, `only-b`, or counts apart by more than the factor: `more-in-b`, `more-in-a` */
  change: "only-a" | "only-b" | "more-in-a" | "more-in-b";
  a: { count: number; firstT: number | null; firstId: number | null };
  b: { count: number; firstT: number | null; firstId: number | null };
}

const side = (v: ValueCount | undefined, start: number) => ({
  count: v?.count ?? 0,
  firstT: v?.firstTs == null ? null : (v.firstTs - start) / 1000,
  firstId: v?.firstId ?? null,
});

function changeOf(a: number, b: number, factor: number): TDiffRow["change"] | null {
  if (a === 0 && b === 0) return null;
  if (a === 0) return "only-b";
  if (b === 0) return "only-a";
  if (b > a * factor) return "more-in-b";
  if (a > b * factor) return "more-in-a";
  return null;
}

/** Rows of one dimension from two value maps; one-boot-only first, then by the larger count. */
export function diffValues(
  dimension: TDiffDimension,
  a: ReadonlyMap<string, ValueCount>,
  b: ReadonlyMap<string, ValueCount>,
  starts: { a: number; b: number },
  factor = DIFF_FACTOR,
): TDiffRow[] {
  const out: TDiffRow[] = [];
  for (const value of new Set([...a.keys(), ...b.keys()])) {
    const va = a.get(value);
    const vb = b.get(value);
    const change = changeOf(va?.count ?? 0, vb?.count ?? 0, factor);
    if (change) out.push({ dimension, value, change, a: side(va, starts.a), b: side(vb, starts.b) });
  }
  const rank = (r: TDiffRow) => (r.change.startsWith("only") ? 0 : 1);
  return out.sort((x, y) => rank(x) - rank(y) || Math.max(y.a.count, y.b.count) - Math.max(x.a.count, x.b.count) || x.value.localeCompare(y.value));
}

/** The template rows: both boots' stored patterns merged, each merged template a value. */
export function diffPatterns(a: PatternStat[], b: PatternStat[], starts: { a: number; b: number }, factor = DIFF_FACTOR): TDiffRow[] {
  const merged = mergeSides([a, b]);
  const ma = new Map<string, ValueCount>();
  const mb = new Map<string, ValueCount>();
  for (const p of merged) {
    if (p.sides[0].count) ma.set(p.template, p.sides[0]);
    if (p.sides[1].count) mb.set(p.template, p.sides[1]);
  }
  return diffValues("pattern", ma, mb, starts, factor);
}
