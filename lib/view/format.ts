/**
 * Time formatting shared by server and client. Everything is UTC so that the server's
 * HTML and the browser's render agree whatever the viewer's zone. Times are ms since
 * the epoch (UTC); offsets are ms relative to a boot's T+0.
 */

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** `2026-03-14 02:10:09.285` (UTC, ms). */
export function fmtUtc(ms: number, opts: { date?: boolean; ms?: boolean } = {}): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return "—";
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const frac = opts.ms === false ? "" : `.${pad(d.getUTCMilliseconds(), 3)}`;
  return opts.date === false ? `${time}${frac}` : `${date} ${time}${frac}`;
}

/** Seconds since T+0 with `decimals` places, signed: `T+9.035s`, `T-1.200s`. */
export function fmtOffset(ms: number, t0: number, decimals = 3): string {
  const s = (ms - t0) / 1000;
  const sign = s < 0 ? "-" : "+";
  return `T${sign}${Math.abs(s).toFixed(decimals)}s`;
}

/** A boot key for labels: journal boot ids (32 hex) cut to their first 12 characters and `…`; shorter keys as they are. */
export function fmtBootKey(key: string): string {
  return key.length > 14 ? `${key.slice(0, 12)}…` : key;
}

/** A duration in ms as a short text: `850 ms`, `19.3 s`, `4 m 05 s`, `2 h 03 m`. */
export function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  const a = Math.abs(ms);
  if (a < 1000) return `${Math.round(ms)} ms`;
  if (a < 120_000) return `${(ms / 1000).toFixed(a < 10_000 ? 2 : 1)} s`;
  const s = Math.round(a / 1000);
  if (s < 7200) return `${ms < 0 ? "-" : ""}${Math.floor(s / 60)} m ${pad(s % 60)} s`;
  return `${ms < 0 ? "-" : ""}${Math.floor(s / 3600)} h ${pad(Math.floor(s / 60) % 60)} m`;
}

/** Integer with thousands separators, locale-independent: `1,204`. */
export function fmtCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A count in at most 4 characters for tight labels: `950`, `12.3k`, `720k`, `1.09M`. */
export function fmtCompact(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n));
  const [v, u] = a < 1e6 ? [n / 1e3, "k"] : a < 1e9 ? [n / 1e6, "M"] : [n / 1e9, "G"];
  const av = Math.abs(v);
  return `${av < 10 ? v.toFixed(2) : av < 100 ? v.toFixed(1) : Math.round(v)}${u}`;
}

/** Bytes as `12.3 MB`. */
export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/**
 * A detector's metric key (camelCase, units as suffixes: lib/detect/*.ts `metrics`) as a label for
 * people: words in lower case, `...AfterBootS` as `(T+ s)`, `...PerS` / `...PerMin` as `/ s` and
 * `/ min`, a trailing `S` (seconds) as `(s)`. `steadyMedianIntervalS` -> `steady median interval (s)`.
 */
export function metricLabel(key: string): string {
  let unit = "";
  let k = key;
  if (/AfterBootS$/.test(k)) [k, unit] = [k.slice(0, -"AfterBootS".length), " (T+ s)"];
  else if (/PerS$/.test(k)) [k, unit] = [k.slice(0, -"PerS".length), " / s"];
  else if (/PerMin$/.test(k)) [k, unit] = [k.slice(0, -"PerMin".length), " / min"];
  else if (/[a-z]S$/.test(k)) [k, unit] = [k.slice(0, -1), " (s)"];
  return k.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase() + unit;
}

/** A finding metric as short text: integers as is, fractions to 3 places, lists and objects flattened. */
export function fmtMetric(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/\.?0+$/, "");
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(fmtMetric).join(", ");
  if (typeof v === "object")
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k} ${fmtMetric(x)}`)
      .join(", ");
  return String(v);
}
