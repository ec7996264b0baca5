/**
 * Stamp helpers shared by the format specs: hand-written ISO-8601/RFC3339 parsing (hot path:
 * containerd and CRI lines carry one per line), month names, fractions and offsets, and the small
 * table of zone abbreviations journald prints in its `-- Logs begin at … PDT --` banner.
 *
 * All functions are pure. A `WallTime` is the stamp as printed; year and zone
 * inference happen in lib/parse/resolve-time.ts.
 */
import type { Precision, WallTime } from "../types";

const C0 = 48; // '0'

/** `Jan`..`Dec` (C locale, as journalctl/rsyslog/dmesg print them) → 1..12, 0 when not a month. */
export function monthFromAbbrev(s: string, i = 0): number {
  const a = s.charCodeAt(i);
  const b = s.charCodeAt(i + 1);
  const c = s.charCodeAt(i + 2);
  switch (a) {
    case 74: // J
      if (b === 97 && c === 110) return 1; // Jan
      if (b === 117 && c === 110) return 6; // Jun
      if (b === 117 && c === 108) return 7; // Jul
      return 0;
    case 70: // F
      return b === 101 && c === 98 ? 2 : 0; // Feb
    case 77: // M
      if (b === 97 && c === 114) return 3; // Mar
      if (b === 97 && c === 121) return 5; // May
      return 0;
    case 65: // A
      if (b === 112 && c === 114) return 4; // Apr
      if (b === 117 && c === 103) return 8; // Aug
      return 0;
    case 83: // S
      return b === 101 && c === 112 ? 9 : 0; // Sep
    case 79: // O
      return b === 99 && c === 116 ? 10 : 0; // Oct
    case 78: // N
      return b === 111 && c === 118 ? 11 : 0; // Nov
    case 68: // D
      return b === 101 && c === 99 ? 12 : 0; // Dec
    default:
      return 0;
  }
}

/** Two ASCII digits at `i` as a number, or -1. */
export function d2(s: string, i: number): number {
  const a = s.charCodeAt(i) - C0;
  const b = s.charCodeAt(i + 1) - C0;
  if (a < 0 || a > 9 || b < 0 || b > 9) return -1;
  return a * 10 + b;
}

/** Four ASCII digits at `i` as a number, or -1. */
export function d4(s: string, i: number): number {
  const hi = d2(s, i);
  const lo = d2(s, i + 2);
  return hi < 0 || lo < 0 ? -1 : hi * 100 + lo;
}

/**
 * Value of the ASCII digits s[start..end) (the caller has checked they are digits), as
 * `Number(s.slice(start, end))` reads them, without the substring: exact up to 15 digits, longer
 * runs go through `Number`.
 */
export function digitsValue(s: string, start: number, end: number): number {
  if (end - start > 15) return Number(s.slice(start, end));
  let v = 0;
  for (let i = start; i < end; i++) v = v * 10 + (s.charCodeAt(i) - C0);
  return v;
}

/** Precision implied by the number of fractional digits printed (0 → s, 1-3 → ms, 4-6 → µs, 7+ → ns). */
export function precisionOfDigits(n: number): Precision {
  return n === 0 ? "s" : n <= 3 ? "ms" : n <= 6 ? "us" : "ns";
}

/** Milliseconds (floored) of a fraction written as `digits` characters s[i..i+digits). */
export function fractionMs(s: string, i: number, digits: number): number {
  let ms = 0;
  for (let k = 0; k < 3; k++) {
    ms *= 10;
    if (k < digits) ms += s.charCodeAt(i + k) - C0;
  }
  return ms;
}

/** Plausible calendar/clock values (leap seconds allowed, day-of-month checked against 31 only). */
export function validClock(month: number, day: number, hour: number, minute: number, second: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 60;
}

/**
 * Parse an ISO-8601 / RFC3339 stamp occupying s[start..end): `YYYY-MM-DD`, `T` or one space, `hh:mm:ss`,
 * an optional `.fraction` (0-9 digits, `,` accepted), then optional `Z`, `±hh:mm`, `±hhmm`, `±hh`, or
 * CRI-O's broken `±hh:ssss` (minutes printed as seconds, e.g. `+05:1800` = +05:30).
 * Returns null unless the whole range is consumed.
 */
export function parseIsoStamp(s: string, start = 0, end = s.length): WallTime | null {
  if (end - start < 19) return null;
  const year = d4(s, start);
  if (year < 0 || s.charCodeAt(start + 4) !== 45 || s.charCodeAt(start + 7) !== 45) return null;
  const month = d2(s, start + 5);
  const day = d2(s, start + 8);
  const sep = s.charCodeAt(start + 10);
  if (sep !== 84 && sep !== 32 && sep !== 116) return null; // T, space, t
  const hour = d2(s, start + 11);
  const minute = d2(s, start + 14);
  const second = d2(s, start + 17);
  if (s.charCodeAt(start + 13) !== 58 || s.charCodeAt(start + 16) !== 58) return null;
  if (month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return null;
  if (!validClock(month, day, hour, minute, second)) return null;
  let i = start + 19;
  let ms = 0;
  let precision: Precision = "s";
  let c = s.charCodeAt(i);
  if (i < end && (c === 46 || c === 44)) {
    const f = i + 1;
    let j = f;
    while (j < end) {
      const cc = s.charCodeAt(j);
      if (cc < 48 || cc > 57) break;
      j++;
    }
    const digits = j - f;
    if (digits === 0) return null;
    ms = fractionMs(s, f, digits);
    precision = precisionOfDigits(digits);
    i = j;
    c = s.charCodeAt(i);
  }
  let offsetMin: number | null = null;
  if (i < end) {
    if (c === 90 || c === 122) {
      offsetMin = 0;
      i++;
    } else if (c === 43 || c === 45) {
      const sign = c === 45 ? -1 : 1;
      const hh = d2(s, i + 1);
      if (hh < 0) return null;
      i += 3;
      let mins = 0;
      if (i < end) {
        if (s.charCodeAt(i) === 58) i++;
        let j = i;
        while (j < end && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57) j++;
        const n = j - i;
        if (n === 2) mins = d2(s, i);
        else if (n === 4)
          mins = Math.floor(d4(s, i) / 60); // CRI-O: seconds printed as minutes
        else return null;
        i = j;
      }
      offsetMin = sign * (hh * 60 + mins);
    } else {
      return null;
    }
  }
  if (i !== end) return null;
  return { year, month, day, hour, minute, second, ms, offsetMin, precision };
}

/** Days in a month of a given year (Gregorian). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`): plain
 * arithmetic, several times faster than `Date.UTC` on the hot path.
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** UTC year of a UTC ms instant (arithmetic, no Date object). */
export function utcYearOf(ms: number): number {
  const z = Math.floor(ms / 86_400_000) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  return yoe + era * 400 + (mp >= 10 ? 1 : 0);
}

/** Wall clock of `w` in year `year` as if it were UTC (ms), NaN when the date does not exist that year (Feb 29). */
export function naiveMs(w: WallTime, year: number): number {
  if (w.day > 28 && w.day > daysInMonth(year, w.month)) return Number.NaN;
  return daysFromCivil(year, w.month, w.day) * 86_400_000 + w.hour * 3_600_000 + w.minute * 60_000 + w.second * 1000 + w.ms;
}

/** `±hh:mm` for minutes east of UTC (`+00:00` for 0). */
export function formatOffset(min: number): string {
  const sign = min < 0 ? "-" : "+";
  const a = Math.abs(min);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, "0")}:${String(a % 60).padStart(2, "0")}`;
}

/** A zone abbreviation: its offset (minutes east of UTC) and, for DST pairs, the IANA zone it most likely names. */
export interface ZoneAbbrev {
  offsetMin: number;
  iana?: string;
}

/**
 * Common zone abbreviations as journald prints them (strftime `%Z`). Ambiguous ones take their most
 * common reading in server logs: CST = US Central (not China), IST = India, BST = British Summer.
 * DST pairs name an IANA zone so that records on the other side of a DST change get their own offset.
 */
export const ZONE_ABBREVIATIONS: Readonly<Record<string, ZoneAbbrev>> = {
  UTC: { offsetMin: 0 },
  GMT: { offsetMin: 0 },
  Z: { offsetMin: 0 },
  UT: { offsetMin: 0 },
  PST: { offsetMin: -480, iana: "America/Los_Angeles" },
  PDT: { offsetMin: -420, iana: "America/Los_Angeles" },
  MST: { offsetMin: -420, iana: "America/Denver" },
  MDT: { offsetMin: -360, iana: "America/Denver" },
  CST: { offsetMin: -360, iana: "America/Chicago" },
  CDT: { offsetMin: -300, iana: "America/Chicago" },
  EST: { offsetMin: -300, iana: "America/New_York" },
  EDT: { offsetMin: -240, iana: "America/New_York" },
  AKST: { offsetMin: -540, iana: "America/Anchorage" },
  AKDT: { offsetMin: -480, iana: "America/Anchorage" },
  HST: { offsetMin: -600 },
  WET: { offsetMin: 0, iana: "Europe/Lisbon" },
  WEST: { offsetMin: 60, iana: "Europe/Lisbon" },
  BST: { offsetMin: 60, iana: "Europe/London" },
  CET: { offsetMin: 60, iana: "Europe/Berlin" },
  CEST: { offsetMin: 120, iana: "Europe/Berlin" },
  EET: { offsetMin: 120, iana: "Europe/Helsinki" },
  EEST: { offsetMin: 180, iana: "Europe/Helsinki" },
  MSK: { offsetMin: 180 },
  IST: { offsetMin: 330 },
  PKT: { offsetMin: 300 },
  ICT: { offsetMin: 420 },
  WIB: { offsetMin: 420 },
  HKT: { offsetMin: 480 },
  SGT: { offsetMin: 480 },
  AWST: { offsetMin: 480 },
  KST: { offsetMin: 540 },
  JST: { offsetMin: 540 },
  ACST: { offsetMin: 570, iana: "Australia/Adelaide" },
  ACDT: { offsetMin: 630, iana: "Australia/Adelaide" },
  AEST: { offsetMin: 600, iana: "Australia/Sydney" },
  AEDT: { offsetMin: 660, iana: "Australia/Sydney" },
  NZST: { offsetMin: 720, iana: "Pacific/Auckland" },
  NZDT: { offsetMin: 780, iana: "Pacific/Auckland" },
};

/**
 * Zone token as journald/strftime prints it: an abbreviation from `ZONE_ABBREVIATIONS`, or a numeric
 * `+09`, `+0530`, `-07:00` (tzdata writes numeric names for zones without an abbreviation).
 * Returns null when unknown.
 */
export function zoneFromToken(tok: string): ZoneAbbrev | null {
  const a = ZONE_ABBREVIATIONS[tok.toUpperCase()];
  if (a) return a;
  const m = /^([+-])(\d{2})(?::?(\d{2}))?$/.exec(tok);
  if (!m) return null;
  const min = Number(m[2]) * 60 + (m[3] ? Number(m[3]) : 0);
  return { offsetMin: m[1] === "-" ? -min : min };
}

/** ISO string (UTC, ms) of a UTC ms value; for messages and tests. */
export function isoOf(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** UTC ms of a complete ISO stamp (zone-less stamps read as UTC), with its precision; null when unparsable. */
export function isoToUtc(s: string): { ms: number; precision: Precision } | null {
  const w = parseIsoStamp(s);
  if (!w || w.year === null) return null;
  const local = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.ms);
  return { ms: local - (w.offsetMin ?? 0) * 60_000, precision: w.precision };
}

/** The UTC wall time of a UTC ms instant (year and offset 0 set), with the given precision. */
export function utcWallTime(ms: number, precision: Precision): WallTime {
  const d = new Date(Math.floor(ms));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    ms: d.getUTCMilliseconds(),
    offsetMin: 0,
    precision,
  };
}

/**
 * Place a component stamp printed in the writer's local time without year or zone (klog) next to
 * an exact UTC instant of the same entry (a journal `__REALTIME_TIMESTAMP`, `short-unix` stamp):
 * the year that puts them closest, and the zone offset their difference shows (rounded to 15
 * minutes, at most 14 h). Returns a completed copy, or null when they are too far apart to be the
 * same moment.
 */
export function completeFromInstant(w: WallTime, utcMs: number): WallTime | null {
  const y0 = utcYearOf(utcMs);
  let best: WallTime | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const y of [y0 - 1, y0, y0 + 1]) {
    const local = naiveMs(w, y);
    if (Number.isNaN(local)) continue;
    const diff = local - utcMs;
    const off = Math.round(diff / 900_000) * 15 + 0; // + 0: no -0
    const rest = Math.abs(diff - off * 60_000);
    if (Math.abs(off) > 14 * 60 || rest > 5 * 60_000) continue;
    if (rest < bestD) {
      bestD = rest;
      best = { ...w, year: w.year ?? y, offsetMin: w.offsetMin ?? off };
    }
  }
  return best;
}
