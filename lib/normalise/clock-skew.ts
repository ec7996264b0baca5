/**
 * Clock skew between the node's own log clock and Kubernetes event timestamps (docs/definitions.md
 * "Clocks": the clock offset applied to a source is added to its times and shown).
 *
 * Kubernetes events are stamped by whoever records them (kubelet, API server), with second
 * precision (`firstTimestamp`/`lastTimestamp`, docs/formats-events.md); the node logs by the
 * node's clock.
 * One sandbox failure shows up on both: the kubelet/containerd line of a failed `RunPodSandbox`
 * for a pod, and the `FailedCreatePodSandBox` event for the same pod. Pairs of the same occurrence
 * give the offset:
 *
 * - per pod, the event's first occurrence (`firstTimestamp`, earliest over the pod's events) pairs
 *   with the pod's earliest node-log failure, and its last occurrence with the latest failure;
 *   only pairs within `maxSkewS` are kept;
 * - a second-precision event stamp is floored, so the true time is on average 0.5 s later: the
 *   difference of each pair gets +500 ms;
 * - the skew is the median difference; it is used only with at least `minPairs` pairs that agree
 *   (median absolute deviation at most `maxSpreadMs`) and when it reaches `minApplyMs` (below
 *   that it is within the stamps' own precision);
 * - the offset applied to the events file is minus the skew (so its times land on the node's
 *   clock). An offset given by the user for a file (bundle option `skew`) wins over the estimate.
 *
 * Units: times UTC ms; `SkewOption` values in seconds.
 */
import type { AnalysedEvent, AnalysedFile } from "../model/event";

/**
 * User-given clock offsets (bundle option `skew`), seconds added to a file's times: a number for
 * every Kubernetes events file, or bundle path → seconds for the files named.
 */
export type SkewOption = number | Record<string, number>;

/** Thresholds of the estimate, with their defaults in `SKEW_DEFAULTS`. */
export interface SkewParams {
  /** largest skew considered, seconds (pairs further apart are different occurrences) */
  maxSkewS: number;
  /** fewest pairs for an estimate */
  minPairs: number;
  /** largest median absolute deviation of the pairs, ms */
  maxSpreadMs: number;
  /** smallest |skew| applied, ms (event stamps have second precision) */
  minApplyMs: number;
}

export const SKEW_DEFAULTS: SkewParams = { maxSkewS: 600, minPairs: 2, maxSpreadMs: 1500, minApplyMs: 1000 };

/** A node-log sandbox failure (kind `sandbox.create.failed`) of a pod. */
export interface NodeFailure {
  pod: string;
  ts: number;
}

/** A `FailedCreatePodSandBox` event of a pod: first and last occurrence, UTC ms, and whether the stamps are whole seconds. */
export interface FailureEvent {
  pod: string;
  firstMs: number;
  lastMs: number;
  secondPrecision: boolean;
}

/** Outcome of `estimateSkew`. */
export interface SkewEstimate {
  /** event clock minus node clock, ms (positive: events are stamped later than the node logs) */
  skewMs: number;
  pairs: number;
  /** median absolute deviation of the pair differences, ms */
  spreadMs: number;
  /** the estimate passed `minPairs`, `maxSpreadMs` and `minApplyMs` */
  usable: boolean;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Estimate the skew of an events source against the node logs from pairs of the same failures
 * (see the module comment). Null when no pair is found.
 */
export function estimateSkew(failures: readonly NodeFailure[], events: readonly FailureEvent[], params: Partial<SkewParams> = {}): SkewEstimate | null {
  return estimateFromSpans(failureSpans(failures), events, params);
}

/** Earliest and latest node-log failure per pod, UTC ms. */
function failureSpans(failures: readonly NodeFailure[]): Map<string, { min: number; max: number }> {
  const byPod = new Map<string, { min: number; max: number }>();
  for (const f of failures) {
    const r = byPod.get(f.pod);
    if (!r) byPod.set(f.pod, { min: f.ts, max: f.ts });
    else {
      r.min = Math.min(r.min, f.ts);
      r.max = Math.max(r.max, f.ts);
    }
  }
  return byPod;
}

/** `estimateSkew` on the failures' per-pod spans (built once for every events file of a bundle). */
function estimateFromSpans(
  byPod: ReadonlyMap<string, { min: number; max: number }>,
  events: readonly FailureEvent[],
  params: Partial<SkewParams>,
): SkewEstimate | null {
  const p = { ...SKEW_DEFAULTS, ...params };
  const evByPod = new Map<string, { first: number; last: number; sec: boolean }>();
  for (const e of events) {
    const r = evByPod.get(e.pod);
    if (!r) evByPod.set(e.pod, { first: e.firstMs, last: e.lastMs, sec: e.secondPrecision });
    else {
      r.first = Math.min(r.first, e.firstMs);
      r.last = Math.max(r.last, e.lastMs);
      r.sec = r.sec || e.secondPrecision;
    }
  }
  const diffs: number[] = [];
  const max = p.maxSkewS * 1000;
  for (const [pod, ev] of evByPod) {
    const f = byPod.get(pod);
    if (!f) continue;
    const corr = ev.sec ? 500 : 0;
    const d1 = ev.first + corr - f.min;
    if (Math.abs(d1) <= max) diffs.push(d1);
    if (ev.last !== ev.first || f.max !== f.min) {
      const d2 = ev.last + corr - f.max;
      if (Math.abs(d2) <= max) diffs.push(d2);
    }
  }
  if (diffs.length === 0) return null;
  const skew = median(diffs);
  const spread = median(diffs.map((d) => Math.abs(d - skew)));
  const usable = diffs.length >= p.minPairs && spread <= p.maxSpreadMs && Math.abs(skew) >= p.minApplyMs;
  return { skewMs: Math.round(skew), pairs: diffs.length, spreadMs: Math.round(spread), usable };
}

/** The offset (ms) the user gave for a file (`skew` option: a number for every Kubernetes events file, or by path), or undefined. */
export function userOffset(skew: SkewOption | null, f: Pick<AnalysedFile, "path" | "kind">): number | undefined {
  if (skew === null || skew === undefined) return undefined;
  if (typeof skew === "number") return f.kind === "k8s-events" ? Math.round(skew * 1000) : undefined;
  const v = skew[f.path];
  return typeof v === "number" && Number.isFinite(v) ? Math.round(v * 1000) : undefined;
}

/**
 * What the skew estimate needs of one file, reduced per pod so it stays small whatever the file's
 * size (`estimateSkew` only uses each pod's earliest and latest failure and each pod's first and
 * last event occurrence): at most two `failures` and one `events` entry per pod.
 */
export interface SkewInput {
  failures: NodeFailure[];
  events: FailureEvent[];
}

/** `SkewInput` of one file (`kind` is the file's kind) from its events. */
export function skewInputOf(kind: string, events: Iterable<Pick<AnalysedEvent, "ts" | "pod" | "kind" | "fields" | "precision">>): SkewInput {
  const fail = new Map<string, { min: number; max: number }>();
  const ev = new Map<string, FailureEvent>();
  for (const e of events) {
    if (!e.pod || e.ts === null) continue;
    if (kind === "k8s-events") {
      const k8s = (e.fields?.k8s ?? null) as { reason?: string; firstMs?: number | null; lastMs?: number | null } | null;
      if (k8s?.reason !== "FailedCreatePodSandBox") continue;
      const first = k8s.firstMs ?? e.ts;
      const last = k8s.lastMs ?? e.ts;
      const r = ev.get(e.pod);
      if (!r) ev.set(e.pod, { pod: e.pod, firstMs: first, lastMs: last, secondPrecision: e.precision === "s" });
      else {
        r.firstMs = Math.min(r.firstMs, first);
        r.lastMs = Math.max(r.lastMs, last);
        r.secondPrecision = r.secondPrecision || e.precision === "s";
      }
    } else if (e.kind === "sandbox.create.failed") {
      const r = fail.get(e.pod);
      if (!r) fail.set(e.pod, { min: e.ts, max: e.ts });
      else {
        r.min = Math.min(r.min, e.ts);
        r.max = Math.max(r.max, e.ts);
      }
    }
  }
  const failures: NodeFailure[] = [];
  for (const [pod, r] of fail) {
    failures.push({ pod, ts: r.min });
    if (r.max !== r.min) failures.push({ pod, ts: r.max });
  }
  return { failures, events: [...ev.values()] };
}

/**
 * The clock offset of each file (ms, by index into `files`; files without one are absent): for
 * every Kubernetes events file the estimate against the node-log failures of the `inputs` in its
 * scope, unless `skew` gives one (for any file). `scopes[i]`: the node file `i` is on (its
 * estimate takes the failures of the files on that node only), or null (every file's; the
 * default for all). Returns the estimates per file path too (for notes and tests).
 */
export function clockOffsets(
  files: ReadonlyArray<Pick<AnalysedFile, "path" | "kind">>,
  inputs: ReadonlyArray<SkewInput | null>,
  skew: SkewOption | null,
  params: Partial<SkewParams> = {},
  scopes: ReadonlyArray<string | null> = [],
): { offsets: Map<number, number>; estimates: Map<string, SkewEstimate | null> } {
  const estimates = new Map<string, SkewEstimate | null>();
  const offsets = new Map<number, number>();
  const spansOf = new Map<string | null, ReturnType<typeof failureSpans>>();
  const spans = (scope: string | null) => {
    let s = spansOf.get(scope);
    if (!s) {
      const mine = (i: number) => scope === null || (scopes[i] ?? null) === scope;
      s = failureSpans(inputs.flatMap((x, i) => (x && files[i].kind !== "k8s-events" && mine(i) ? x.failures : [])));
      spansOf.set(scope, s);
    }
    return s;
  };
  files.forEach((f, i) => {
    const u = userOffset(skew, f);
    if (u !== undefined) {
      offsets.set(i, u);
      return;
    }
    if (f.kind !== "k8s-events") return;
    const est = estimateFromSpans(spans(scopes[i] ?? null), inputs[i]?.events ?? [], params);
    estimates.set(f.path, est);
    if (est?.usable) offsets.set(i, -est.skewMs);
  });
  return { offsets, estimates };
}

/** Shifts one event's time (and `fields.k8s.firstMs/lastMs`) by `off` ms, in place. */
export function shiftEvent(e: Pick<AnalysedEvent, "ts" | "fields">, off: number): void {
  if (!off) return;
  if (e.ts !== null) e.ts += off;
  const k8s = e.fields?.k8s as { firstMs?: number | null; lastMs?: number | null } | undefined;
  if (k8s) {
    e.fields = {
      ...e.fields,
      k8s: { ...k8s, firstMs: k8s.firstMs == null ? k8s.firstMs : k8s.firstMs + off, lastMs: k8s.lastMs == null ? k8s.lastMs : k8s.lastMs + off },
    };
  }
}

/**
 * Estimate and apply clock offsets in place (`clockOffsets` over every file, `shiftEvent` on
 * their events): shifts the events' `ts` (and `fields.k8s.firstMs/lastMs`), the file's
 * `firstTs/lastTs`, and sets `clockOffsetMs`. Returns the estimates per file path (for notes and tests).
 */
export function applyClockSkew(
  files: AnalysedFile[],
  events: AnalysedEvent[],
  skew: SkewOption | null,
  params: Partial<SkewParams> = {},
): Map<string, SkewEstimate | null> {
  const byFile = new Map<number, AnalysedEvent[]>();
  for (const e of events) {
    if (!files[e.fileIdx]) continue;
    let list = byFile.get(e.fileIdx);
    if (!list) byFile.set(e.fileIdx, (list = []));
    list.push(e);
  }
  const inputs = files.map((f, i) => skewInputOf(f.kind, byFile.get(i) ?? []));
  const { offsets, estimates } = clockOffsets(files, inputs, skew, params);
  if (offsets.size === 0) return estimates;
  for (const e of events) shiftEvent(e, offsets.get(e.fileIdx) ?? 0);
  for (const [i, off] of offsets) shiftFile(files[i], off);
  return estimates;
}

/** Records clock offset `off` (ms) on a file and shifts its first and last times. */
export function shiftFile(f: Pick<AnalysedFile, "clockOffsetMs" | "firstTs" | "lastTs">, off: number): void {
  f.clockOffsetMs = off;
  if (f.firstTs !== null) f.firstTs += off;
  if (f.lastTs !== null) f.lastTs += off;
}
