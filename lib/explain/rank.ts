/**
 * "Explain a range": which values (message templates, pods, components, error classes) are
 * over-represented in a time range of a boot against a baseline (the span before it, or the rest
 * of the boot). Pure: counts in, ranked rows out.
 *
 * The test is the one significant-terms analyses use (Elasticsearch's `significant_terms` with
 * its `p_value` heuristic, which Kibana's log rate analysis runs to find the field values behind a
 * spike): per value, a 2 × 2 table of events with and without the value, in the range and in the
 * baseline, and how unlikely that table is if the value were as frequent in both. Here the
 * statistic is the log-likelihood ratio G (Dunning 1993, "Accurate Methods for the Statistics of
 * Surprise and Coincidence", Computational Linguistics 19(1)), χ² with one degree of freedom
 * under the null, so the p-value is `erfc(√(G/2))`. Rows are ranked by G (the p-value's order;
 * G stays finite and ordered where p underflows), only values more frequent in the range than in
 * the baseline are kept, and `logRatio` (log2 of the shares' ratio, each smoothed by adding half
 * an event, so a value absent from the baseline gets a finite ratio) says by how much.
 *
 * An empty baseline (a range at the start of the boot, "before" it) tests nothing: rows are then
 * ranked by their count in the range, with `pValue` null.
 */

export const EXPLAIN_DIMENSIONS = ["pattern", "pod", "component", "errorClass"] as const;
export type TExplainDimension = (typeof EXPLAIN_DIMENSIONS)[number];

/** One value's events in the range and in the baseline. */
export interface RangeCount {
  range: number;
  baseline: number;
}

export interface TExplainRow {
  dimension: TExplainDimension;
  value: string;
  /** events with the value, and their share of all events of the side (0..1) */
  range: { count: number; share: number };
  baseline: { count: number; share: number };
  /** log2 of range share over baseline share, each smoothed by half an event (> 0: over-represented) */
  logRatio: number;
  /** the log-likelihood ratio statistic (0 when the baseline is empty) */
  g: number;
  /** chance of a table at least this uneven if the value were as frequent on both sides (null: no baseline) */
  pValue: number | null;
}

/** Rows kept per dimension. */
export const EXPLAIN_TOP = 20;
/** p-value under which a row counts as significant (Kibana's log rate analysis keeps field values under 0.02). */
export const SIGNIFICANT_P = 0.02;

const xlogx = (x: number) => (x > 0 ? x * Math.log(x) : 0);

/**
 * G of the table [[a, r − a], [b, n − b]] (a of r range events hold the value, b of n baseline
 * events): 2 · (Σ cells x ln x − Σ margins x ln x + total ln total).
 */
export function gStatistic(a: number, r: number, b: number, n: number): number {
  const cells = xlogx(a) + xlogx(r - a) + xlogx(b) + xlogx(n - b);
  const margins = xlogx(a + b) + xlogx(r - a + n - b) + xlogx(r) + xlogx(n);
  return Math.max(0, 2 * (cells - margins + xlogx(r + n)));
}

/**
 * The complementary error function, |error| < 1.2e-7 everywhere (Numerical Recipes, 2nd ed.,
 * section 6.2, `erfcc`: a Chebyshev fit).
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** p-value of χ² with one degree of freedom at `g`. */
export const chiSquare1P = (g: number) => Math.min(1, erfc(Math.sqrt(g / 2)));

/**
 * The over-represented values of one dimension, most significant first (at most `top`).
 * `totals`: all events of the range and of the baseline (a value's counts are part of these).
 */
export function rankOverRepresented(
  dimension: TExplainDimension,
  counts: ReadonlyMap<string, RangeCount>,
  totals: RangeCount,
  top = EXPLAIN_TOP,
): TExplainRow[] {
  const r = totals.range;
  const n = totals.baseline;
  const rows: TExplainRow[] = [];
  for (const [value, c] of counts) {
    if (c.range <= 0 || r <= 0) continue;
    const a = Math.min(c.range, r);
    const b = Math.min(Math.max(0, c.baseline), n);
    const share = { range: a / r, baseline: n > 0 ? b / n : 0 };
    if (n > 0 && share.range <= share.baseline) continue;
    const logRatio = Math.log2((a + 0.5) / (r + 1) / ((b + 0.5) / (n + 1)));
    const g = n > 0 ? gStatistic(a, r, b, n) : 0;
    rows.push({
      dimension,
      value,
      range: { count: a, share: share.range },
      baseline: { count: b, share: share.baseline },
      logRatio,
      g,
      pValue: n > 0 ? chiSquare1P(g) : null,
    });
  }
  rows.sort((x, y) => y.g - x.g || y.range.count - x.range.count || y.logRatio - x.logRatio || x.value.localeCompare(y.value));
  return rows.slice(0, top);
}

/**
 * A stored histogram's events in [fromMs, toMs): each bucket [k · bucketMs, (k + 1) · bucketMs)
 * counts in proportion to its overlap with the range (so a range narrower than a bucket gets the
 * bucket's events spread evenly over it). Not rounded.
 */
export function histogramCount(p: { bucketMs: number; buckets: ReadonlyArray<readonly [number, number]> }, fromMs: number, toMs: number): number {
  let sum = 0;
  const w = p.bucketMs;
  for (const [k, n] of p.buckets) {
    const lo = Math.max(fromMs, k * w);
    const hi = Math.min(toMs, (k + 1) * w);
    if (hi > lo) sum += (n * (hi - lo)) / w;
  }
  return sum;
}
