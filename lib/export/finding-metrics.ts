/**
 * A finding's metrics (lib/detect/*.ts `Finding.metrics`) as lines for people: a label in words,
 * the value with its unit (`T+12.103 s`, `33.319 s`, `117 / min`), lists as lists (`items`), and
 * the metrics that say "not applicable" left out (a zero count of something the finding does not
 * have, an empty map, a null median, a UTC copy of a T+ time shown next to it). Shared by the
 * finding card and the Markdown export. Pure.
 *
 * Keys no entry knows fall back to `metricLabel` / `fmtMetric` (lib/view/format.ts), so a new
 * detector metric still shows; lib/export/finding-metrics.test.ts fails until it has an entry.
 */
import { partsOf, partWord } from "@/lib/detect/parts";
import { fmtMetric, metricLabel } from "@/lib/view/format";

/** One metric as shown. */
export interface TMetricLine {
  key: string;
  label: string;
  /** the value on one line (a list joined with `, `) */
  text: string;
  /** a list value, one entry per item; null for a single value */
  items: string[] | null;
  /** the value is quoted from the logs (an error class, a pod, a path): monospace on the card, a code span in Markdown */
  code: boolean;
}

type Metrics = Record<string, unknown>;

interface Spec {
  label: string | ((m: Metrics, detector: string) => string);
  /** how the value reads */
  as: "count" | "seconds" | "afterBoot" | "perMin" | "perS" | "code" | "text" | "codes" | "countsBy" | "secondsList" | "signals" | "rhythm" | "closedAt";
  /** true: not applicable for this finding, left out */
  hide?: (v: unknown, m: Metrics) => boolean;
}

const zero = (v: unknown) => v === 0 || v === null || v === undefined;
const empty = (v: unknown) => v === null || v === undefined || (typeof v === "object" && Object.keys(v as object).length === 0);
const never = () => true;

/** What each runtime health signal (lib/detect/runtime-degradation.ts `SignalName`) is, in words. */
const SIGNAL_WORDS: Record<string, [string, string]> = {
  "sandbox-stop-timeout": ["sandbox stop timed out", "sandbox stops timed out"],
  "task-exit-event": ["TaskExit event error", "TaskExit event errors"],
  ttrpc: ["ttrpc/shim error", "ttrpc/shim errors"],
  "event-stream": ["event stream error", "event stream errors"],
  "runtime-restart": ["runtime restart", "runtime restarts"],
  "pleg-unhealthy": ["PLEG not healthy report", "PLEG not healthy reports"],
  "runtime-down": ["runtime down report", "runtime down reports"],
  "network-not-ready": ["network not ready report", "network not ready reports"],
};

const RHYTHM_WORDS: Record<string, string> = {
  steady: "steady",
  growing: "growing backoff",
  irregular: "irregular",
  averaged: "averaged from Kubernetes event counts",
  few: "too few attempts to judge",
};

/** The metrics in the order they are shown (the ones reviewers quote first). */
export const METRIC_SPECS: Record<string, Spec> = {
  // sandbox-failure-window (and shared counts)
  attempts: { label: (_m, d) => (d === "cni-bootstrap-deadlock" ? "failed attempts naming the file" : "failed attempts"), as: "count" },
  pods: { label: "pods", as: "count" },
  errorClass: { label: "cause (error class)", as: "code" },
  openedAfterBootS: { label: "opened", as: "afterBoot" },
  closedAfterBootS: { label: "closed", as: "closedAt" },
  closedBy: { label: "closed by", as: "text", hide: (v) => v === null },
  durationS: { label: "lasted", as: "seconds", hide: (v) => v === null },
  lastAttemptAfterBootS: { label: "last failure", as: "afterBoot", hide: (v, m) => v === m.closedAfterBootS },
  attemptsFromEvents: { label: "attempts counted from Kubernetes events", as: "count", hide: zero },
  errorClasses: {
    label: "attempts by error class",
    as: "countsBy",
    hide: (v, m) => empty(v) || (Object.keys(v as object).length === 1 && Object.keys(v as object)[0] === m.errorClass),
  },
  // retry-storm
  scope: { label: "scope", as: "text", hide: never },
  ratePerMin: { label: "peak failure rate", as: "perMin" },
  peakCount: { label: (m) => `failures in the busiest ${typeof m.rateWindowS === "number" ? m.rateWindowS : 60} s`, as: "count" },
  peakAfterBootS: { label: "busiest interval from", as: "afterBoot" },
  peakAt: { label: "busiest interval from (UTC)", as: "text", hide: (_v, m) => typeof m.peakAfterBootS === "number" },
  rateWindowS: { label: "rate counted over", as: "seconds", hide: (_v, m) => "peakCount" in m },
  steadyPods: { label: "pods retrying at a steady interval", as: "count", hide: zero },
  steadyMedianIntervalS: { label: "their median interval", as: "seconds", hide: (v) => v === null },
  growingPods: { label: "pods backing off (growing intervals)", as: "count", hide: zero },
  irregularPods: { label: "pods retrying irregularly", as: "count", hide: zero },
  // folded findings (lib/detect/parts.ts): the parts are a table of their own (`partTable`)
  partsOf: { label: "parts", as: "text", hide: never },
  parts: { label: "parts", as: "text", hide: never },
  // cni-bootstrap-deadlock
  missingPath: { label: "missing file", as: "code" },
  writerPod: { label: "pod that writes it", as: "code" },
  agent: { label: "CNI agent", as: "text" },
  blockedPods: { label: "pods blocked", as: "count" },
  writerAttempts: { label: "failed attempts of the writer pod", as: "count" },
  sinceS: { label: "failing since", as: "afterBoot" },
  since: { label: "failing since (UTC)", as: "text", hide: (_v, m) => typeof m.sinceS === "number" },
  lastFailureAfterBootS: { label: "last failure", as: "afterBoot" },
  // conflist-rewrite-loop
  path: { label: "file", as: "code" },
  writes: { label: "writes", as: "count" },
  writers: { label: "writers", as: "codes" },
  writesPerS: { label: "write rate (all writers together)", as: "perS", hide: (v) => v === null },
  writesByWriter: { label: "writes by writer", as: "countsBy", hide: (v) => empty(v) || Object.keys(v as object).length < 2 },
  turns: {
    label: "turns (changes of writer between writes)",
    as: "count",
    hide: (_v, m) => ((m.writers as unknown[] | undefined)?.length ?? 0) < 2,
  },
  unattributedWrites: { label: "writes a file watch saw without a writer (in the rate)", as: "count", hide: zero },
  removals: { label: "writes that removed an entry", as: "count", hide: zero },
  untimedWrites: { label: "writes without a time (not counted)", as: "countsBy", hide: (v, m) => empty(v) || m.ordering === "line" },
  ordering: { label: "writes counted in (no times)", as: "text", hide: (v) => v !== "line" },
  // runtime-degradation
  signals: { label: "runtime health signals", as: "signals" },
  healthSignals: { label: "health signals in all", as: "count" },
  stormStartAfterBootS: { label: "storm began", as: "afterBoot" },
  stormAttempts: { label: "failed attempts in the storm", as: "count" },
  // rules (lib/detect/rules/run.ts)
  matches: { label: "matching lines", as: "count" },
  matchedValues: { label: "matched values (lines)", as: "codes", hide: empty },
  minCount: { label: "fires at (matching lines)", as: "count" },
  withinS: { label: "counted within", as: "seconds", hide: (v) => v === null },
  peakMatches: { label: (m) => `matching lines in the busiest ${typeof m.withinS === "number" ? m.withinS : ""} s`, as: "count", hide: (v) => v === null },
  sinceBootS: { label: "counted only in the first", as: "seconds", hide: (v) => v === null },
  afterMilestone: { label: "counted only after the first", as: "code", hide: (v) => v === null },
  clearedAfterBootS: { label: "cleared", as: "closedAt" },
  ruleSet: { label: "rule set", as: "code" },
  // image-pull-storm
  failedPulls: { label: "failed image pulls", as: "count" },
  images: { label: "images", as: "count" },
  peakPulls: { label: (m) => `failed pulls in the busiest ${typeof m.withinS === "number" ? m.withinS : ""} s`, as: "count" },
  pullCause: { label: "cause", as: "code", hide: (v) => v === null },
  pullCauses: {
    label: "pulls by cause",
    as: "countsBy",
    hide: (v) => empty(v) || Object.keys(v as object).length < 2,
  },
  // shared
  firstAfterBootS: {
    label: (_m, d) => (d === "conflist-rewrite-loop" ? "first write" : d.startsWith("rule:") ? "first match" : "first failure"),
    as: "afterBoot",
    hide: (v) => v === null,
  },
  lastAfterBootS: {
    label: (_m, d) => (d === "conflist-rewrite-loop" ? "last write" : d.startsWith("rule:") ? "last match" : "last failure"),
    as: "afterBoot",
    hide: (v) => v === null,
  },
  approximate: { label: "approximate", as: "text", hide: never },
};

/**
 * The columns of a folded finding's part table, by what a part is (`metrics.partsOf`), in the
 * order shown; keys of a part not listed here (its times in UTC ms, its intervals) stay out of
 * the table. A retry storm's pods: attempts, median interval, rhythm, first and last T+.
 */
export const PART_COLUMNS: Record<string, Array<{ key: string } & Spec>> = {
  pod: [
    { key: "pod", label: "pod", as: "code" },
    { key: "attempts", label: "attempts", as: "count" },
    { key: "intervalS", label: "median interval", as: "seconds" },
    { key: "jitterS", label: "largest gap from the median", as: "seconds" },
    { key: "rhythm", label: "rhythm", as: "rhythm" },
    { key: "firstAfterBootS", label: "first failure", as: "afterBoot" },
    { key: "lastAfterBootS", label: "last failure", as: "afterBoot" },
  ],
  image: [
    { key: "image", label: "image", as: "code" },
    { key: "pulls", label: "failed pulls", as: "count" },
    { key: "pods", label: "pods named", as: "count" },
    { key: "cause", label: "cause", as: "code" },
    { key: "firstAfterBootS", label: "first failure", as: "afterBoot" },
    { key: "lastAfterBootS", label: "last failure", as: "afterBoot" },
  ],
};

/** One cell of a part table: the text shown and the value it sorts by (number or text; null sorts last). */
export interface TPartCell {
  text: string;
  sort: number | string | null;
  code: boolean;
}

/** A folded finding's parts as a table: `word` is what a part is ("pod"), rows in the detector's order. */
export interface TPartTable {
  word: string;
  columns: Array<{ key: string; label: string; numeric: boolean }>;
  rows: Array<{ key: string; startMs: number; endMs: number | null; cells: TPartCell[] }>;
}

/** The part table of `metrics` (lib/detect/parts.ts), null when the finding has no parts. */
export function partTable(metrics: Metrics): TPartTable | null {
  const parts = partsOf(metrics);
  if (!parts.length) return null;
  const word = partWord(metrics);
  const cols = PART_COLUMNS[word] ?? [{ key: "key", label: word, as: "code" as const }];
  return {
    word,
    columns: cols.map((c) => ({
      key: c.key,
      label: typeof c.label === "function" ? c.label(metrics, "") : c.label,
      numeric: c.as !== "code" && c.as !== "text" && c.as !== "rhythm",
    })),
    rows: parts.map((p) => ({
      key: p.key,
      startMs: p.startMs,
      endMs: p.endMs,
      cells: cols.map((c) => {
        const v = p[c.key];
        return {
          text: v === null || v === undefined ? "–" : valueOf(c, v).text,
          sort: typeof v === "number" ? v : typeof v === "string" ? v : null,
          code: c.as === "code",
        };
      }),
    })),
  };
}

/** `550 pods` / `1 pod`: a folded finding's parts counted, null without parts. */
export function partsCount(metrics: Metrics): string | null {
  const n = partsOf(metrics).length;
  if (!n) return null;
  const w = partWord(metrics);
  return `${n.toLocaleString("en-US")} ${n === 1 ? w : `${w}s`}`;
}

/** Seconds with up to 3 decimals, trailing zeros dropped: `33.319`, `15`, `0.5`. */
function secs(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/0+$/, "").replace(/\.$/, "");
}

const count = (v: unknown) => (typeof v === "number" ? String(Math.round(v * 1000) / 1000).replace(/\B(?=(\d{3})+(?!\d))/g, ",") : fmtMetric(v));
const offset = (v: unknown) => (typeof v === "number" ? `T${v < 0 ? "-" : "+"}${Math.abs(v).toFixed(3)} s` : fmtMetric(v));

function valueOf(spec: Spec, v: unknown): { text: string; items: string[] | null } {
  const one = (text: string) => ({ text, items: null });
  const list = (items: string[]) => ({ text: items.join(", "), items });
  switch (spec.as) {
    case "count":
      return one(count(v));
    case "seconds":
      return one(typeof v === "number" ? `${secs(v)} s` : fmtMetric(v));
    case "afterBoot":
      return one(offset(v));
    case "closedAt":
      return one(v === null ? "still open at the end of the data" : offset(v));
    case "perMin":
      return one(typeof v === "number" ? `${secs(v)} / min` : fmtMetric(v));
    case "perS":
      return one(typeof v === "number" ? `${secs(v)} / s` : fmtMetric(v));
    case "rhythm":
      return one(RHYTHM_WORDS[String(v)] ?? fmtMetric(v));
    case "codes":
      return Array.isArray(v) ? list(v.map((x) => fmtMetric(x))) : one(fmtMetric(v));
    case "secondsList":
      return Array.isArray(v) ? one(`${v.map((x) => (typeof x === "number" ? secs(x) : fmtMetric(x))).join(", ")} s`) : one(fmtMetric(v));
    case "countsBy":
      return v && typeof v === "object" && !Array.isArray(v)
        ? list(
            Object.entries(v as Record<string, unknown>)
              .sort((a, b) => Number(b[1]) - Number(a[1]))
              .map(([k, n]) => `${k}: ${count(n)}`),
          )
        : one(fmtMetric(v));
    case "signals":
      return Array.isArray(v)
        ? list(
            v.map((s) => {
              const x = s as { signal?: string; count?: number; firstAfterBootS?: number; lastAfterBootS?: number };
              const n = x.count ?? 0;
              const words = SIGNAL_WORDS[String(x.signal)] ?? [String(x.signal), String(x.signal)];
              const when =
                x.firstAfterBootS === x.lastAfterBootS ? `at ${offset(x.firstAfterBootS)}` : `${offset(x.firstAfterBootS)} to ${offset(x.lastAfterBootS)}`;
              return `${n} ${n === 1 ? words[0] : words[1]}, ${when}`;
            }),
          )
        : one(fmtMetric(v));
    default:
      return one(fmtMetric(v));
  }
}

/**
 * The metrics of one finding of `detector` as lines, in the order of `METRIC_SPECS` (then
 * unknown keys in their own order), the not-applicable ones left out.
 */
export function metricLines(detector: string, metrics: Metrics): TMetricLine[] {
  const out: TMetricLine[] = [];
  const known = Object.keys(METRIC_SPECS).filter((k) => k in metrics);
  const unknown = Object.keys(metrics).filter((k) => !(k in METRIC_SPECS));
  for (const key of known) {
    const spec = METRIC_SPECS[key];
    const v = metrics[key];
    if (spec.hide?.(v, metrics)) continue;
    const label = typeof spec.label === "function" ? spec.label(metrics, detector) : spec.label;
    const code = spec.as === "code" || spec.as === "codes" || (spec.as === "countsBy" && key !== "writesByWriter" && key !== "untimedWrites");
    out.push({ key, label, code, ...valueOf(spec, v) });
  }
  for (const key of unknown) {
    const v = metrics[key];
    const items = Array.isArray(v) ? v.map((x) => fmtMetric(x)) : null;
    out.push({ key, label: metricLabel(key), text: fmtMetric(v), items, code: false });
  }
  return out;
}
