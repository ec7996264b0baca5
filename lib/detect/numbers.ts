/**
 * Number and text helpers shared by the detectors (pure). Times are UTC ms; offsets and
 * durations in findings are seconds with 3 decimals (docs/definitions.md "The report").
 */

/** ms -> s with 3 decimals (`1234` -> `1.234`). */
export const sec = (ms: number): number => Number((ms / 1000).toFixed(3));

/** A number with 3 decimals (rates, ratios). */
export const round3 = (x: number): number => Number(x.toFixed(3));

/** `T+12.345 s` for an offset in seconds. */
export const fmtT = (s: number): string => `T+${s.toFixed(3)} s`;

/** UTC ms -> ISO 8601 with ms. */
export const isoOf = (ms: number): string => new Date(ms).toISOString();

/** Median of a non-empty list (mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** `n thing` / `n things`; `format` writes the number (`String`; `fmtCount` for thousands separators). */
export const plural = (n: number, one: string, many = `${one}s`, format: (n: number) => string = String): string => `${format(n)} ${n === 1 ? one : many}`;

/** Latest event time among `events` (UTC ms), null when none has a time. */
export function lastTs(events: ReadonlyArray<{ ts: number | null }>): number | null {
  let m: number | null = null;
  for (const e of events) if (e.ts !== null && (m === null || e.ts > m)) m = e.ts;
  return m;
}
