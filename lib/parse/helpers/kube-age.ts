/**
 * kubectl relative ages (`45s`, `3m2s`, `12m`, `2h10m`, `3d4h`, `2y30d`, `<unknown>`), resolved
 * against the bundle's collection time (docs/formats-events.md "Ages"); upstream
 * `k8s.io/apimachinery/pkg/util/duration` (`HumanDuration`, the long form of current kubectl, and
 * `ShortHumanDuration`, the single-unit short form of older kubectl).
 *
 * An age printed as N units means the true age lies in [N, N+1) of the last unit printed, so the
 * event's time lies in `(collected - age - uncertainty, collected - age]`. The uncertainty depends
 * on the form:
 *
 * - long form: 1 s below 10 min (seconds are printed whenever non-zero), 1 min below 8 h, 1 h below
 *   8 days, 1 day below 8 years, then 1 year;
 * - short form: the single unit printed (`1m` = 60 to 119 s).
 *
 * A table is in the long form when any of its ages could only be written by `HumanDuration`: two
 * units (`3m2s`), or a value the short form would have carried over (`119s`, `90m`, `30h`, `400d`).
 */

const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  y: 365 * 86_400_000,
};

/** A printed age: total ms and its parts. */
export interface Age {
  ms: number;
  parts: Array<{ n: number; unit: string }>;
}

const AGE_RE = /^(?:(\d+)y)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;
const UNITS = ["y", "d", "h", "m", "s"];

/** Parse a kubectl age; null for `<unknown>`, `<invalid>` or anything else. */
export function parseAge(s: string): Age | null {
  if (s === "" || s.charCodeAt(0) === 60) return null;
  const m = AGE_RE.exec(s);
  if (!m) return null;
  const parts: Array<{ n: number; unit: string }> = [];
  let ms = 0;
  for (let k = 0; k < 5; k++) {
    const v = m[k + 1];
    if (v === undefined) continue;
    const n = Number(v);
    parts.push({ n, unit: UNITS[k] });
    ms += n * UNIT_MS[UNITS[k]];
  }
  return parts.length ? { ms, parts } : null;
}

/** true when only the long form (`HumanDuration`) prints this age. */
export function isLongFormAge(a: Age): boolean {
  if (a.parts.length > 1) return true;
  const { n, unit } = a.parts[0];
  return (unit === "s" && n >= 60) || (unit === "m" && n >= 60) || (unit === "h" && n >= 24) || (unit === "d" && n >= 365);
}

/** How much older than printed the true age may be (ms), for the given form. */
export function ageUncertaintyMs(a: Age, longForm: boolean): number {
  if (!longForm) return UNIT_MS[a.parts[a.parts.length - 1].unit];
  const d = a.ms;
  if (d < 10 * UNIT_MS.m) return UNIT_MS.s;
  if (d < 8 * UNIT_MS.h) return UNIT_MS.m;
  if (d < 8 * UNIT_MS.d) return UNIT_MS.h;
  if (d < 8 * UNIT_MS.y) return UNIT_MS.d;
  return UNIT_MS.y;
}

/**
 * `3m2s (x5 over 10m)` / `12m` / `<unknown>`: the last-seen age, the count, and the first-seen age
 * (kubectl 1.7 printed `from` / `starting` in place of `over`).
 */
export interface AgeColumn {
  last: Age | null;
  count: number;
  first: Age | null;
  text: string;
}

const COLUMN_RE = /^(\S+)(?:\s+\(x(\d+) (?:over|from|starting) (\S+)\))?$/;

/** Parse an Age / LAST SEEN cell; null when the cell is not an age at all. */
export function parseAgeColumn(cell: string): AgeColumn | null {
  const text = cell.trim();
  const m = COLUMN_RE.exec(text);
  if (!m) return null;
  const last = parseAge(m[1]);
  if (!last && m[1] !== "<unknown>" && m[1] !== "<invalid>") return null;
  const first = m[3] !== undefined ? parseAge(m[3]) : last;
  return { last, count: m[2] !== undefined ? Number(m[2]) : 1, first, text };
}

/** An age resolved to a UTC ms time with its uncertainty. */
export interface ResolvedAge {
  ms: number;
  uncertaintyMs: number;
}

/** `collectedMs - age`, with the uncertainty of the form; null when either is missing. */
export function resolveAge(a: Age | null, collectedMs: number | null, longForm: boolean): ResolvedAge | null {
  if (!a || collectedMs === null) return null;
  return { ms: collectedMs - a.ms, uncertaintyMs: ageUncertaintyMs(a, longForm) };
}

/** A record from a kubectl table whose times wait for the whole table to be seen. */
export interface PendingAgeRecord {
  record: import("../types").ParsedRecord & { k8sEvent: import("../types").K8sEventInfo };
  last: Age | null;
  first: Age | null;
}

/**
 * Settle the times of table records once the file is read: pick the form (long when any age in the
 * file is long-form only), then set `epochMs` (= last seen), `epochPrecision` (`s` when the
 * uncertainty is at most a second, else `age`) and the k8sEvent first/last times and uncertainties.
 */
export function settleAges(pending: PendingAgeRecord[], collectedMs: number | null): void {
  let longForm = false;
  for (const p of pending) {
    if ((p.last && isLongFormAge(p.last)) || (p.first && isLongFormAge(p.first))) {
      longForm = true;
      break;
    }
  }
  for (const p of pending) {
    const last = resolveAge(p.last, collectedMs, longForm);
    const first = resolveAge(p.first, collectedMs, longForm);
    const ev = p.record.k8sEvent;
    p.record.epochMs = last ? last.ms : null;
    if (last) p.record.epochPrecision = last.uncertaintyMs <= 1000 ? "s" : "age";
    else delete p.record.epochPrecision;
    ev.lastMs = last ? last.ms : null;
    ev.firstMs = first ? first.ms : null;
    if (last) ev.lastUncertaintyMs = last.uncertaintyMs;
    else delete ev.lastUncertaintyMs;
    if (first) ev.firstUncertaintyMs = first.uncertaintyMs;
    else delete ev.firstUncertaintyMs;
  }
}
