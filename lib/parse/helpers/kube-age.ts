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

/** UTC ms of a record's print stamp (`fields.prefixTime`, ISO 8601), or null. */
function printTimeOf(r: import("../types").ParsedRecord): number | null {
  const t = r.fields?.prefixTime;
  if (t === undefined || t.length < 20 || t.charCodeAt(4) !== 45) return null;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? null : Math.floor(ms);
}

/**
 * Settle the times of table records once the file is read: pick the form (long when any age in the
 * file is long-form only), then set `epochMs` (= last seen), `epochPrecision` (`s` when the
 * uncertainty is at most a second, else `age`) and the k8sEvent first/last times and uncertainties.
 * `fromPrintTime`: each record's ages count from its own print stamp when it has one
 * (`ParseContext.agesFromPrintTime`).
 */
export function settleAges(pending: PendingAgeRecord[], collectedMs: number | null, fromPrintTime = false): void {
  let longForm = false;
  for (const p of pending) {
    if ((p.last && isLongFormAge(p.last)) || (p.first && isLongFormAge(p.first))) {
      longForm = true;
      break;
    }
  }
  for (const p of pending) {
    const at = fromPrintTime ? (printTimeOf(p.record) ?? collectedMs) : collectedMs;
    const last = resolveAge(p.last, at, longForm);
    const first = resolveAge(p.first, at, longForm);
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

/**
 * A watch capture (`kubectl get events -w`) prints each row when its event happens, ages `0s` or
 * `1s` against that moment; with no print time on the lines, every age counts from the one
 * collection time, so a row's latest bound may fall before the row printed above it. Its events
 * cannot have happened before those printed earlier: each record's time is lowered to the next
 * record's, walking back from the last, so the records keep the order they were printed in (each
 * time is still a latest bound; how much earlier it may lie is not known beyond the age's own
 * uncertainty). Records without a time are passed over.
 */
export function keepPrintOrder(pending: readonly PendingAgeRecord[]): void {
  let limit = Number.POSITIVE_INFINITY;
  for (let i = pending.length - 1; i >= 0; i--) {
    const r = pending[i].record;
    const t = r.epochMs;
    if (t === null || t === undefined) continue;
    if (t > limit) {
      r.epochMs = limit;
      r.k8sEvent.lastMs = limit;
      if (r.k8sEvent.firstMs !== null && r.k8sEvent.firstMs > limit) r.k8sEvent.firstMs = limit;
    }
    limit = r.epochMs as number;
  }
}
