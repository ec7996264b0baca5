/**
 * Timing helpers of the bench scripts: `time` (one call's result and its milliseconds) and
 * `quantile` (the p-quantile of a list of milliseconds, nearest rank: the value at
 * floor(p * n) of the sorted list, the last for p = 1).
 */

/** `fn`'s result and how long it took, ms (performance.now). */
export async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
}

/** The p-quantile (0..1) of `xs` (see the module comment); `xs` is not changed. */
export function quantile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}
