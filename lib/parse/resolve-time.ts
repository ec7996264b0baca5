/**
 * File-level time resolution (docs/definitions.md "Event time", "Zone", "Year", "Order"): turns
 * each record's `WallTime` (year and zone possibly missing) into UTC milliseconds (floored), and
 * detects newest-first files.
 *
 * Zone of a zone-less stamp: the file's stated zone (a `-- Logs begin at … PDT --` banner), else
 * `--tz`, else UTC (chosen by the caller and passed as `zone`).
 *
 * Year of a year-less stamp, first rule that applies:
 *  1. `neighbour`: records of the same file that carry a year (containerd's stamp in a journal
 *     line, an event time): the nearest one in file order, and the year that puts the stamp
 *     closest to it (so Dec 31 next to a Jan 1 stamp lands in the year before);
 *  2. `header` / `banner`: a klog `Log file created at:` header or a `Logs begin at` banner is a
 *     lower bound: the first record after it takes the earliest year at or after it, the following
 *     records walk forward (each takes the year, or the next, that is closest to the record
 *     before it: a December-to-January turn moves to the next year). Records before the first
 *     such banner walk backwards from it;
 *  3. `user`: `--year` for the first record, then the forward walk;
 *  4. `collected`: the collection time is an upper bound: the last record takes the latest year
 *     that keeps it at or before the bound (1 day of slack for a wrongly assumed zone), the others
 *     walk backwards (the year, or the one before, closest to the record after);
 *  5. `guess`: the upload's date as that bound.
 *  Without any of these the year-less records keep a null time (`none`).
 */
import type { FileRecord, TimeOptions } from "./file-types";
import { naiveMs, utcYearOf } from "./helpers/time-util";
import type { Banner, WallTime } from "./types";
import type { Zone } from "./zone";

const DAY_MS = 86_400_000;
const HALF_YEAR_MS = 182 * DAY_MS;

/** Slack on an upper bound (ms): the zone of year-less stamps may be assumed wrongly by up to a day. */
export const UPPER_BOUND_SLACK_MS = 86_400_000;

/** UTC ms of wall time `w` placed in `year` (offset from the stamp, else `zone`); NaN when the date does not exist. */
export function wallToUtc(w: WallTime, year: number, zone: Zone): number {
  const local = naiveMs(w, year);
  if (Number.isNaN(local)) return local;
  return w.offsetMin !== null ? local - w.offsetMin * 60_000 : zone.localToUtc(local);
}

const yearOf = utcYearOf;

/** Among `candidates`, the year putting `w` closest to `targetMs` (the first when no candidate exists). */
function closestYear(w: WallTime, targetMs: number, zone: Zone, candidates: number[]): number {
  // fast path: the first candidate within half a year is the closest
  const t0 = wallToUtc(w, candidates[0], zone);
  if (!Number.isNaN(t0) && Math.abs(t0 - targetMs) <= HALF_YEAR_MS) return candidates[0];
  let best = candidates[0];
  let bestD = Number.POSITIVE_INFINITY;
  for (const y of candidates) {
    const t = wallToUtc(w, y, zone);
    if (Number.isNaN(t)) continue;
    const d = Math.abs(t - targetMs);
    if (d < bestD) {
      bestD = d;
      best = y;
    }
  }
  return best;
}

function firstYearAtOrAfter(w: WallTime, boundMs: number, zone: Zone): number {
  const y0 = yearOf(boundMs);
  for (let y = y0 - 1; y <= y0 + 8; y++) {
    const t = wallToUtc(w, y, zone);
    if (!Number.isNaN(t) && t >= boundMs) return y;
  }
  return y0;
}

function latestYearAtOrBefore(w: WallTime, boundMs: number, zone: Zone): number {
  const y0 = yearOf(boundMs);
  for (let y = y0 + 1; y >= y0 - 8; y--) {
    const t = wallToUtc(w, y, zone);
    if (!Number.isNaN(t) && t <= boundMs) return y;
  }
  return y0;
}

/** Outcome of `resolveTimes`. */
export interface TimeResolution {
  /** stamp | neighbour | header | banner | user | collected | guess | none */
  yearSource: string;
  errors: Array<{ line: number; message: string }>;
}

/**
 * Set `ts`, `precision`, `yearInferred`, `zoneAssumed` on every record, visiting them in `order`
 * (indices into `recs` in time order: file order, or reversed for a newest-first file).
 * `zoneStated`: the zone came from the file itself (then zone-less stamps are not "assumed").
 */
export function resolveTimes(
  recs: FileRecord[],
  order: number[],
  banners: Array<{ line: number; banner: Banner }>,
  opts: TimeOptions,
  zone: Zone,
  zoneStated: boolean,
  reversed: boolean,
): TimeResolution {
  const yearless: number[] = []; // positions in `order`
  const anchorPos: number[] = []; // positions in `order` of records with an absolute time
  let anyTimed = false;
  for (let p = 0; p < order.length; p++) {
    const r = recs[order[p]];
    r.yearInferred = false;
    r.zoneAssumed = false;
    if (r.epochMs !== undefined && r.epochMs !== null) {
      r.ts = Math.floor(r.epochMs);
      r.precision = r.epochPrecision ?? "ms";
      anchorPos.push(p);
      anyTimed = true;
      continue;
    }
    const w = r.time;
    if (!w) {
      r.ts = null;
      continue;
    }
    anyTimed = true;
    r.precision = w.precision;
    r.zoneAssumed = w.offsetMin === null && !zoneStated;
    if (w.year !== null) {
      const t = wallToUtc(w, w.year, zone);
      r.ts = Number.isNaN(t) ? null : t;
      if (r.ts !== null) anchorPos.push(p);
    } else {
      r.ts = null;
      r.yearInferred = true;
      yearless.push(p);
    }
  }
  const errors: Array<{ line: number; message: string }> = [];
  if (yearless.length === 0) return { yearSource: anyTimed ? "stamp" : "none", errors };

  // rule 1: neighbours that carry a year
  if (anchorPos.length > 0) {
    let a = 0; // index into anchorPos of the first anchor after p
    for (const p of yearless) {
      while (a < anchorPos.length && anchorPos[a] < p) a++;
      const prev = a > 0 ? anchorPos[a - 1] : -1;
      const next = a < anchorPos.length ? anchorPos[a] : -1;
      const use = prev >= 0 && (next < 0 || p - prev <= next - p) ? prev : next;
      const target = recs[order[use]].ts as number;
      const w = recs[order[p]].time as WallTime;
      const y = yearOf(target);
      recs[order[p]].ts = wallToUtc(w, closestYear(w, target, zone, [y, y - 1, y + 1]), zone);
    }
    return { yearSource: "neighbour", errors };
  }

  // rule 2: klog header / Logs begin at banners (lower bounds)
  const bounds: Array<{ line: number; ms: number; type: string }> = [];
  for (const { line, banner } of banners) {
    if ((banner.type === "klog-header" || banner.type === "logs-begin") && banner.time && banner.time.year !== null) {
      const t = wallToUtc(banner.time, banner.time.year, zone);
      if (!Number.isNaN(t)) bounds.push({ line, ms: t, type: banner.type });
    }
  }
  if (bounds.length > 0) {
    const source = bounds[0].type === "klog-header" ? "header" : "banner";
    if (reversed) {
      walkForward(recs, order, yearless, zone, bounds[0].ms, null);
      return { yearSource: source, errors };
    }
    // records before the first bound walk backwards from it; then segments walk forward from each bound
    const before = yearless.filter((p) => recs[order[p]].line < bounds[0].line);
    if (before.length) walkBackward(recs, order, before, zone, bounds[0].ms, 0);
    for (let b = 0; b < bounds.length; b++) {
      const from = bounds[b].line;
      const to = b + 1 < bounds.length ? bounds[b + 1].line : Number.POSITIVE_INFINITY;
      const seg = yearless.filter((p) => {
        const l = recs[order[p]].line;
        return l > from && l < to;
      });
      if (seg.length) walkForward(recs, order, seg, zone, bounds[b].ms, null);
    }
    return { yearSource: source, errors };
  }

  // rule 3: --year
  if (opts.year !== undefined && opts.year !== null) {
    walkForward(recs, order, yearless, zone, null, opts.year);
    return { yearSource: "user", errors };
  }
  // rules 4 and 5: an upper bound
  const upper = opts.collectedMs ?? null;
  if (upper !== null) {
    walkBackward(recs, order, yearless, zone, upper, UPPER_BOUND_SLACK_MS);
    return { yearSource: "collected", errors };
  }
  if (opts.uploadMs !== undefined && opts.uploadMs !== null) {
    walkBackward(recs, order, yearless, zone, opts.uploadMs, UPPER_BOUND_SLACK_MS);
    errors.push({
      line: 0,
      message:
        "year not stated: guessed from the upload date (give the year or the collection time: 'Year of year-less stamps' or 'Collected at' when uploading, --year or --collected on the CLI)",
    });
    return { yearSource: "guess", errors };
  }
  errors.push({
    line: recs[order[yearless[0]]].line,
    message:
      "year unknown: stamps without a year keep no time (give the year or the collection time: 'Year of year-less stamps' or 'Collected at' when uploading, --year or --collected on the CLI)",
  });
  return { yearSource: "none", errors };
}

/** Forward walk over `positions` (ascending): first from a lower bound (or a given year), then closest of Y / Y+1 to the record before. */
function walkForward(recs: FileRecord[], order: number[], positions: number[], zone: Zone, lowerMs: number | null, firstYear: number | null): void {
  let prevMs = Number.NaN;
  let prevYear = 0;
  for (const p of positions) {
    const r = recs[order[p]];
    const w = r.time as WallTime;
    let y: number;
    if (Number.isNaN(prevMs)) {
      y = firstYear ?? firstYearAtOrAfter(w, lowerMs as number, zone);
    } else {
      y = closestYear(w, prevMs, zone, [prevYear, prevYear + 1, prevYear + 2]);
    }
    const t = wallToUtc(w, y, zone);
    r.ts = Number.isNaN(t) ? null : t;
    if (r.ts !== null) {
      prevMs = r.ts;
      prevYear = y;
    }
  }
}

/** Backward walk over `positions` (from the last): first at or before the upper bound, then closest of Y / Y-1 to the record after. */
function walkBackward(recs: FileRecord[], order: number[], positions: number[], zone: Zone, upperMs: number, slackMs: number): void {
  let nextMs = Number.NaN;
  let nextYear = 0;
  for (let k = positions.length - 1; k >= 0; k--) {
    const r = recs[order[positions[k]]];
    const w = r.time as WallTime;
    const y = Number.isNaN(nextMs) ? latestYearAtOrBefore(w, upperMs + slackMs, zone) : closestYear(w, nextMs, zone, [nextYear, nextYear - 1, nextYear - 2]);
    const t = wallToUtc(w, y, zone);
    r.ts = Number.isNaN(t) ? null : t;
    if (r.ts !== null) {
      nextMs = r.ts;
      nextYear = y;
    }
  }
}

/**
 * Newest-first detection (`journalctl -r`, troubleshoot `reverse: true`): times fall through the
 * whole file: at least two falls, more falls than rises overall (first time later than the last)
 * and rises at most a tenth of the falls (clock jitter). `ts` in file order, nulls ignored.
 * `yearless[i]` marks a year-less stamp: steps between such stamps are taken modulo a year, so a
 * provisional year chosen in the wrong direction does not hide the fall.
 */
export function isNewestFirst(ts: Array<number | null>, yearless?: boolean[]): boolean {
  return fallsThrough(
    ts.length,
    (i) => ts[i],
    (i) => (yearless ? yearless[i] : false),
  );
}

/**
 * `isNewestFirst` over records in file order (their `ts` and `yearInferred`), without copying them
 * out. Records in the same millisecond are compared at their stamp's own finer precision (µs, ns:
 * `subMsOf`), so a burst logged within one millisecond still shows which way the file runs.
 */
export function recordsNewestFirst(
  recs: ReadonlyArray<{ ts: number | null; yearInferred: boolean; time?: WallTime | null; precision?: string; raw?: string }>,
): boolean {
  return fallsThrough(
    recs.length,
    (i) => recs[i].ts,
    (i) => recs[i].yearInferred,
    (i) => subMsOf(recs[i]),
  );
}

const FRACTION = /:(\d{2})[.,](\d{3})(\d{1,6})/g;

/**
 * The digits below the millisecond of a record's stamp as printed (`.693335` → 0.335 ms), read from
 * its raw text: the first `:ss.ffffff` whose seconds and milliseconds are the record's own. NaN
 * when the stamp is no finer than ms or is not found.
 */
export function subMsOf(r: { time?: WallTime | null; precision?: string; raw?: string }): number {
  const w = r.time;
  if (!w || !r.raw || (r.precision !== "us" && r.precision !== "ns")) return Number.NaN;
  FRACTION.lastIndex = 0;
  for (let m = FRACTION.exec(r.raw); m !== null; m = FRACTION.exec(r.raw)) {
    if (Number(m[1]) === w.second && Number(m[2]) === w.ms) return Number(`0.${m[3]}`);
  }
  return Number.NaN;
}

function fallsThrough(n: number, tsAt: (i: number) => number | null, yearlessAt: (i: number) => boolean, subMsAt?: (i: number) => number): boolean {
  let prev: number | null = null;
  let prevIndex = -1;
  let prevYearless = false;
  let rises = 0;
  let falls = 0;
  let sum = 0;
  // sub-ms value of the last index asked (a run of equal stamps asks each record twice)
  let subIndex = -1;
  let subValue = Number.NaN;
  for (let i = 0; i < n; i++) {
    const t = tsAt(i);
    if (t === null) continue;
    const yl = yearlessAt(i);
    if (prev !== null) {
      let d = t - prev;
      if ((yl || prevYearless) && Math.abs(d) > HALF_YEAR_MS) d = wrapYear(d);
      if (d === 0 && subMsAt) {
        const before = subIndex === prevIndex ? subValue : subMsAt(prevIndex);
        subValue = subMsAt(i);
        subIndex = i;
        const f = subValue - before;
        if (!Number.isNaN(f)) d = f;
      }
      if (d < 0) falls++;
      else if (d > 0) rises++;
      sum += d;
      // the answer is already no: even if every step left were a fall, rises * 10 would stay above falls
      if (rises * 10 > falls + (n - 1 - i)) return false;
    }
    prev = t;
    prevIndex = i;
    prevYearless = yl;
  }
  return falls >= 2 && sum < 0 && rises * 10 <= falls;
}

/** The smallest step equivalent to `d` when either stamp may be a year off (365 or 366 days). */
function wrapYear(d: number): number {
  let best = d;
  for (const y of [365, 366, -365, -366]) {
    const c = d - y * DAY_MS;
    if (Math.abs(c) < Math.abs(best)) best = c;
  }
  return best;
}

/**
 * The zone a file's own stamps state for its zone-less ones: when records that carry an offset
 * (containerd's `time="…+09:00"` inside a journal or syslog line whose prefix has none) all carry
 * the same non-zero offset, the node's clock runs in that offset, and the zone-less stamps of the
 * same file (the prefix of the lines around them, the kubelet's klog) are read in it. Null when no
 * record carries an offset, when they disagree, or when they say UTC (the default anyway).
 * `records`: the parsed records (only `time.offsetMin` is read).
 */
export function zoneFromStamps(records: ReadonlyArray<{ time: WallTime | null }>): number | null {
  let offset: number | null = null;
  let zoneless = false;
  for (const r of records) {
    const o = r.time?.offsetMin;
    if (o === undefined) continue;
    if (o === null) {
      zoneless = true;
      continue;
    }
    if (offset === null) offset = o;
    else if (o !== offset) return null;
  }
  return zoneless && offset !== null && offset !== 0 ? offset : null;
}
