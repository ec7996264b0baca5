/**
 * Bucket sizes for the lane density chart. Sizes come from a fixed "nice" ladder so
 * bucket edges sit on round times (aligned to the epoch) and stay put while panning.
 */

/** Nice bucket widths in ms, ascending. */
export const BUCKET_LADDER_MS = [
  1, 2, 5, 10, 20, 50, 100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
  7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
] as const;

/** Default number of buckets wanted over the visible range. */
export const TARGET_BUCKETS = 300;
/** Hard cap on buckets per query (the API refuses more). */
export const MAX_BUCKETS = 2_000;

export interface TBucketGrid {
  /** width of one bucket, ms */
  bucketMs: number;
  /** start of the first bucket (UTC ms, multiple of bucketMs, <= fromMs) */
  startMs: number;
  /** number of buckets covering [fromMs, toMs) */
  count: number;
}

/**
 * The grid for [fromMs, toMs): the smallest ladder width that gives at most
 * `maxBuckets` buckets (about 200-400 for the default target of 300), aligned to the epoch.
 */
export function bucketGrid(fromMs: number, toMs: number, target = TARGET_BUCKETS): TBucketGrid {
  const span = Math.max(1, toMs - fromMs);
  const want = span / Math.max(1, target);
  let bucketMs: number = BUCKET_LADDER_MS[BUCKET_LADDER_MS.length - 1];
  for (const w of BUCKET_LADDER_MS) {
    if (w >= want * 0.75) {
      bucketMs = w;
      break;
    }
  }
  // beyond the ladder: whole days
  if (span / bucketMs > MAX_BUCKETS) bucketMs = Math.ceil(span / MAX_BUCKETS / 86_400_000) * 86_400_000;
  const startMs = Math.floor(fromMs / bucketMs) * bucketMs;
  const count = Math.max(1, Math.ceil((toMs - startMs) / bucketMs));
  return { bucketMs, startMs, count };
}
