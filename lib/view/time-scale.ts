/**
 * Pure helpers for the timeline's x axis: a linear time scale over the visible range and
 * "nice" tick steps in T+ seconds.
 */

export interface TTimeScale {
  from: number;
  to: number;
  /** fraction 0..1 of the plot width for a time (may be outside 0..1) */
  frac(t: number): number;
  /** time for a fraction of the plot width */
  time(f: number): number;
}

export function timeScale(from: number, to: number): TTimeScale {
  const span = Math.max(1, to - from);
  return { from, to, frac: (t) => (t - from) / span, time: (f) => from + f * span };
}

const TICK_STEPS_MS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000,
  10_800_000, 21_600_000, 43_200_000, 86_400_000,
];

export interface TTick {
  t: number;
  /** `T+10s`, `T+1.5s`, `T+5m`, `T+2h` */
  offsetLabel: string;
  /** `02:10:10` or `02:10:10.500` (UTC) */
  wallLabel: string;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** Ticks at multiples of a nice step from T+0, at most about `maxTicks` over [from, to]. */
export function timeTicks(from: number, to: number, t0: number, maxTicks = 10): TTick[] {
  const span = Math.max(1, to - from);
  const step = TICK_STEPS_MS.find((s) => span / s <= maxTicks) ?? Math.ceil(span / maxTicks / 86_400_000) * 86_400_000;
  const first = Math.ceil((from - t0) / step) * step + t0;
  const out: TTick[] = [];
  const decimals = step < 10 ? 3 : step < 100 ? 2 : step < 1000 ? 1 : 0;
  for (let t = first; t <= to && out.length < 200; t += step) {
    const off = t - t0;
    let offsetLabel: string;
    const sign = off < 0 ? "-" : "+";
    const a = Math.abs(off);
    if (step >= 3_600_000 && a % 3_600_000 === 0) offsetLabel = `T${sign}${a / 3_600_000}h`;
    else if (step >= 60_000 && a % 60_000 === 0) offsetLabel = `T${sign}${a / 60_000}m`;
    else offsetLabel = `T${sign}${(a / 1000).toFixed(decimals)}s`;
    const d = new Date(t);
    const wall = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    out.push({ t, offsetLabel, wallLabel: step < 1000 ? `${wall}.${pad(d.getUTCMilliseconds(), 3)}` : wall });
  }
  return out;
}

/** Zooms [from, to] by `factor` around `center` (factor 2 = twice the span), kept inside [min, max]. */
export function zoomRange(from: number, to: number, factor: number, min: number, max: number, center = (from + to) / 2): [number, number] {
  const span = Math.min(Math.max((to - from) * factor, 10), max - min);
  let a = center - (center - from) * (span / (to - from));
  let b = a + span;
  if (a < min) {
    a = min;
    b = min + span;
  }
  if (b > max) {
    b = max;
    a = max - span;
  }
  return [Math.round(a), Math.round(b)];
}

/** Shifts [from, to] by `fraction` of its span, kept inside [min, max]. */
export function panRange(from: number, to: number, fraction: number, min: number, max: number): [number, number] {
  const span = to - from;
  let a = from + span * fraction;
  a = Math.max(min, Math.min(a, max - span));
  return [Math.round(a), Math.round(a + span)];
}
