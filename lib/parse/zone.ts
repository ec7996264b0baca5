/**
 * Time zones for zone-less stamps (docs/definitions.md "Zone"): a fixed offset (`+09:00`, `+0900`,
 * `-07`, `UTC`, `Z`) or an IANA name (`Europe/Berlin`) whose offsets come from `Intl` (no tz
 * database shipped). Offsets are minutes east of UTC; times are UTC milliseconds.
 */
import { formatOffset } from "./helpers/time-util";

/** A time zone for zone-less stamps (see `resolveZone`). */
export interface Zone {
  /** `UTC`, `+09:00`, or the IANA name */
  name: string;
  /** set for fixed-offset zones */
  fixedOffsetMin: number | null;
  /** offset in force at a UTC instant (minutes east of UTC) */
  offsetAt(utcMs: number): number;
  /** UTC ms of a local wall clock given as if it were UTC ms (`Date.UTC(local fields)`) */
  localToUtc(localMs: number): number;
}

/** A zone with a constant offset. */
export function fixedZone(offsetMin: number, name = offsetMin === 0 ? "UTC" : formatOffset(offsetMin)): Zone {
  const off = offsetMin * 60_000;
  return {
    name,
    fixedOffsetMin: offsetMin,
    offsetAt: () => offsetMin,
    localToUtc: (localMs) => localMs - off,
  };
}

/** UTC, the default zone (docs/definitions.md "Zone"). */
export const UTC_ZONE: Zone = fixedZone(0, "UTC");

const FIXED_RE = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;
const BUCKET_MS = 15 * 60_000;
const ianaCache = new Map<string, Zone>();

function ianaZone(name: string): Zone {
  const cached = ianaCache.get(name);
  if (cached) return cached;
  const fmt = new Intl.DateTimeFormat("en-US", {
    timeZone: name, // throws RangeError for an unknown zone
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  const resolved = fmt.resolvedOptions().timeZone;
  const buckets = new Map<number, number>();
  const offsetAt = (utcMs: number): number => {
    // offsets change on whole quarter hours: cache per 15-minute bucket
    const b = Math.floor(utcMs / BUCKET_MS);
    const hit = buckets.get(b);
    if (hit !== undefined) return hit;
    const t = b * BUCKET_MS;
    const p: Record<string, number> = {};
    for (const part of fmt.formatToParts(new Date(t))) {
      if (part.type !== "literal") p[part.type] = Number(part.value);
    }
    const local = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    const off = Math.round((local - t) / 60_000);
    if (buckets.size > 10_000) buckets.clear();
    buckets.set(b, off);
    return off;
  };
  const zone: Zone = {
    name: resolved,
    fixedOffsetMin: null,
    offsetAt,
    localToUtc(localMs) {
      // two passes settle all but the skipped hour of a DST change (which maps forward)
      const first = localMs - offsetAt(localMs) * 60_000;
      const second = localMs - offsetAt(first) * 60_000;
      return second;
    },
  };
  ianaCache.set(name, zone);
  return zone;
}

/**
 * Parse `--tz`: `UTC`/`Z`/`GMT`, a fixed offset (`+09:00`, `+0900`, `-7`, `UTC+9`), or an IANA zone
 * name. Throws RangeError with a readable message when the zone is unknown.
 */
export function resolveZone(tz: string): Zone {
  const t = tz.trim();
  if (t === "" || /^(?:utc|z|gmt|etc\/utc)$/i.test(t)) return UTC_ZONE;
  const m = FIXED_RE.exec(t);
  if (m) {
    const h = Number(m[2]);
    const mm = m[3] ? Number(m[3]) : 0;
    if (h > 14 || mm > 59) throw new RangeError(`time zone offset out of range: ${tz}`);
    const off = (h * 60 + mm) * (m[1] === "-" ? -1 : 1);
    return fixedZone(off);
  }
  try {
    return ianaZone(t);
  } catch {
    throw new RangeError(`unknown time zone: ${tz} (use an IANA name such as Europe/Berlin, or an offset such as +09:00)`);
  }
}
