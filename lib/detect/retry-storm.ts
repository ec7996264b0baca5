/**
 * Detector `retry-storm` (docs/detectors.md, pattern 2: DaemonSet pods that tolerate the
 * network-unavailable taint retry at a steady interval, around 15 s, dozens of them on a busy
 * node).
 *
 * Input: one node boot's events (BootEvent, UTC ms), sorted by (ts, fileId, line). The
 * attempts are the ones `sandbox-failure-window` counts (`collectAttempts`: one failed
 * RunPodSandbox, its kubelet/runtime/event lines joined; docs/definitions.md "Attempt"), from T+0 on.
 *
 * Findings, folded (lib/detect/parts.ts): one per storm, its pods inside, never one per pod.
 *  - scope "node", one per sandbox failure window (`computeWindows`) whose peak failure
 *    rate reaches `minNodeRatePerMin`: `ratePerMin` is the largest number of attempts in
 *    any `rateWindowS`-long interval [t, t + rateWindowS) that starts at an attempt,
 *    scaled to one minute; `peakAt` the start of the first such interval. Where the attempts
 *    of two or more error classes each reach that rate in one window, one finding per class
 *    (`errorClass`). `metrics.parts` holds one row per pod of the storm (`PodPart`: attempts,
 *    median interval, rhythm, first and last T+).
 *  - a pod's rhythm, judged from `minPodAttempts` attempts on: "steady" when every interval
 *    lies within the tolerance of their median (max(`steadyJitterS`, `steadyJitterRatio` x
 *    median)); "growing" (a backoff that lengthens, such as the kubelet's doubling) when the
 *    intervals never shrink by more than that tolerance and the last is at least
 *    `growthRatio` times the first. A growing backoff keeps its real intervals (`intervalsS`),
 *    never read as a steady storm. Neither is "irregular"; fewer attempts are "few". A pod
 *    whose attempts were counted from Kubernetes event counts (`(xN over D)`, spread evenly)
 *    has no observed rhythm: "averaged", with its average interval.
 *  - scope "pods", one per boot at most: the pods with a rhythm (not irregular) that no storm
 *    holds (the node rate stayed below a storm's), as parts.
 *
 * A part's `endMs`: the pod's last failed attempt when a sandbox of that pod succeeded after it;
 * null when the pod was still failing when the data ended.
 *
 * Pure: no I/O, no clock reads.
 */
import type { BootEvent, BootInfo, Detector, Finding, FindingSeverity } from "./types";
import { attemptEvidence, distinctPods, type Attempt } from "./attempts";
import { computeWindows } from "./failure-windows";
import { attemptsOf } from "./attempts-cache";
import { fmtT, isoOf, median, plural, round3, sec } from "./numbers";
import type { FindingPart } from "./parts";

/** Thresholds, with units in their names. */
export interface RetryStormParams extends Record<string, number> {
  /** attempts of one pod from which its rhythm is judged: 3 equal gaps are the fewest that show one (2 may be chance) */
  minPodAttempts: number;
  /** absolute tolerance of a steady rhythm, s: the kubelet's pod sync adds up to ~1 s either way (calico scenario ±0.8 s; case 009: 5 s rhythm within 4 ms) */
  steadyJitterS: number;
  /** relative tolerance of a steady rhythm (fraction of the median interval) for long intervals */
  steadyJitterRatio: number;
  /** a growing backoff's last interval is at least this many times its first (kubelet backoff doubles: 10 s, 20 s, 40 s ... 300 s) */
  growthRatio: number;
  /** length of the sliding interval the node rate is counted in, s (a rate "per minute": 60 s) */
  rateWindowS: number;
  /** node failure rate from which a window is a storm, per min: 10/min is one failure every 6 s, above what a few pods starting after boot produce; case 044: 31/min for one pod */
  minNodeRatePerMin: number;
  /** node failure rate from which the storm is high severity, per min (50 pods retrying every 15 s make 200/min, a load that stalls containerd) */
  highRatePerMin: number;
  /** quiet time that closes a window, s (as sandbox-failure-window) */
  quietS: number;
  /** lines of one failure lie within this of each other, s */
  joinS: number;
  /** tolerance when matching Kubernetes events to node logs, s (as sandbox-failure-window) */
  eventSlackS: number;
}

/** Default thresholds (sources on `RetryStormParams`). */
export const defaults: RetryStormParams = {
  minPodAttempts: 4,
  steadyJitterS: 2,
  steadyJitterRatio: 0.2,
  growthRatio: 1.5,
  rateWindowS: 60,
  minNodeRatePerMin: 10,
  highRatePerMin: 100,
  quietS: 60,
  joinS: 1,
  eventSlackS: 2,
};

/** Slug stored on findings and used in URLs. */
export const name = "retry-storm";
/** Display name. */
export const title = "Retry storm";

/** Plain-words description quoting the thresholds in force. */
export function describe(p: RetryStormParams): string {
  return (
    `Failed sandbox attempts repeating: per node, the peak number of failures in any ${p.rateWindowS} s (reported per minute; a storm from ${p.minNodeRatePerMin}/min, high from ${p.highRatePerMin}/min); ` +
    `per pod with ${p.minPodAttempts}+ attempts, the retry rhythm: steady when every interval is within max(${p.steadyJitterS} s, ${p.steadyJitterRatio * 100}% of the median) of the median, ` +
    `growing (backoff) when intervals never shrink beyond that tolerance and the last is at least ${p.growthRatio}x the first; growing backoffs are reported with their real intervals.`
  );
}

/** The rhythm of one pod's retries. */
/** `averaged`: the pod's attempts were counted from Kubernetes event counts and spread evenly, so only their average interval is known. */
export type Rhythm = "steady" | "growing" | "irregular" | "averaged";

/** Rhythm of a list of intervals (s) under the thresholds. Exported for tests. */
export function rhythmOf(
  intervalsS: number[],
  p: Pick<RetryStormParams, "steadyJitterS" | "steadyJitterRatio" | "growthRatio">,
): { rhythm: Rhythm; medianS: number; jitterS: number } {
  const med = median(intervalsS);
  const jitter = Math.max(...intervalsS.map((x) => Math.abs(x - med)));
  const tol = Math.max(p.steadyJitterS, p.steadyJitterRatio * med);
  if (jitter <= tol) return { rhythm: "steady", medianS: med, jitterS: jitter };
  let monotone = true;
  for (let i = 1; i < intervalsS.length; i++) if (intervalsS[i] < intervalsS[i - 1] - tol) monotone = false;
  const growing = monotone && intervalsS[intervalsS.length - 1] >= p.growthRatio * intervalsS[0];
  return { rhythm: growing ? "growing" : "irregular", medianS: med, jitterS: jitter };
}

/** Peak count of `times` (sorted, UTC ms) in any [t, t + windowMs) starting at one of them. */
export function peakRate(times: number[], windowMs: number): { count: number; at: number } {
  let best = { count: 0, at: times[0] ?? 0 };
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    if (j < i) j = i;
    while (j < times.length && times[j] < times[i] + windowMs) j++;
    if (j - i > best.count) best = { count: j - i, at: times[i] };
  }
  return best;
}

interface PodRhythm {
  pod: string;
  attempts: Attempt[];
  intervalsS: number[];
  rhythm: Rhythm;
  medianS: number;
  jitterS: number;
  recovered: boolean;
}

/** Run the detector on one boot. */
export function run(boot: BootInfo, events: BootEvent[], params: RetryStormParams = defaults): Finding[] {
  const p = { ...defaults, ...params };
  const t0 = boot.start;
  const attempts = attemptsOf(events, p).filter((a) => a.time >= t0);
  if (!attempts.length) return [];
  const successes = events.filter((e) => e.kind === "sandbox.created" && e.ts !== null && e.pod);

  // ---- per pod -------------------------------------------------------------------------
  const byPod = new Map<string, Attempt[]>();
  for (const a of attempts) {
    if (!a.pod) continue;
    const list = byPod.get(a.pod);
    if (list) list.push(a);
    else byPod.set(a.pod, [a]);
  }
  const rhythms: PodRhythm[] = [];
  for (const [pod, list] of byPod) {
    if (list.length < p.minPodAttempts) continue;
    const intervalsS: number[] = [];
    for (let i = 1; i < list.length; i++) intervalsS.push(sec(list[i].time - list[i - 1].time));
    // attempts spread evenly from an event's count show no rhythm of their own: their average only
    const r = list.some((a) => a.fromEvent)
      ? { rhythm: "averaged" as const, medianS: (list[list.length - 1].time - list[0].time) / 1000 / (list.length - 1), jitterS: 0 }
      : rhythmOf(intervalsS, p);
    const last = list[list.length - 1].time;
    rhythms.push({ pod, attempts: list, intervalsS, ...r, recovered: successes.some((s) => s.pod === pod && s.ts! > last) });
  }

  // ---- per node: one finding per failure window whose peak rate is a storm (per cause where two causes storm)
  const out: Finding[] = [];
  const windowMs = p.rateWindowS * 1000;
  const folded = new Set<string>();
  for (const w of computeWindows(attempts, events, p.quietS)) {
    const rateOf = (list: Attempt[]) => {
      const peak = peakRate(
        list.map((a) => a.time),
        windowMs,
      );
      return { peak, ratePerMin: round3((peak.count * 60) / p.rateWindowS) };
    };
    if (rateOf(w.attempts).ratePerMin < p.minNodeRatePerMin) continue;
    const byCause = new Map<string, Attempt[]>();
    for (const a of w.attempts) {
      const k = a.errorClass ?? "";
      const list = byCause.get(k);
      if (list) list.push(a);
      else byCause.set(k, [a]);
    }
    const storming = [...byCause].filter(([, list]) => rateOf(list).ratePerMin >= p.minNodeRatePerMin);
    const groups: Array<{ cause: string | null; attempts: Attempt[] }> =
      storming.length >= 2 ? storming.map(([k, list]) => ({ cause: k || null, attempts: list })) : [{ cause: null, attempts: w.attempts }];
    for (const g of groups) {
      const f = stormFinding(boot, w, g.cause, g.attempts, rhythms, successes, rateOf(g.attempts), p);
      for (const part of f.metrics.parts as PodPart[]) folded.add(part.pod);
      out.push(f);
    }
  }

  // ---- pods with a rhythm outside every storm: one finding, its pods inside -------------------
  const rest = rhythms.filter((r) => r.rhythm !== "irregular" && !folded.has(r.pod));
  if (rest.length) out.push(rhythmFinding(boot, rest, p));
  return out;
}

/** One row of a storm's pod table (`metrics.parts`, lib/detect/parts.ts). */
export interface PodPart extends FindingPart {
  pod: string;
  attempts: number;
  /** median interval between the pod's attempts, s (null with one attempt) */
  intervalS: number | null;
  /** largest distance of an interval from the median, s (null with one attempt) */
  jitterS: number | null;
  /** `few`: fewer than `minPodAttempts` attempts, no rhythm judged */
  rhythm: Rhythm | "few";
  /** every interval, s */
  intervalsS: number[];
  firstAfterBootS: number;
  lastAfterBootS: number;
  /** a sandbox of the pod succeeded after its last failure */
  recovered: boolean;
}

/** The table row of one pod: its rhythm when it has one, else its attempts counted. */
function podPart(boot: BootInfo, pod: string, list: Attempt[], rhythm: PodRhythm | undefined, successes: BootEvent[]): PodPart {
  const first = list[0].time;
  const last = list[list.length - 1].time;
  const intervalsS = rhythm?.intervalsS ?? list.slice(1).map((a, i) => sec(a.time - list[i].time));
  const recovered = rhythm?.recovered ?? successes.some((s) => s.pod === pod && s.ts! > last);
  const med = rhythm ? rhythm.medianS : intervalsS.length ? median(intervalsS) : null;
  return {
    key: pod,
    startMs: first,
    endMs: recovered ? last : null,
    pod,
    attempts: list.length,
    intervalS: med === null ? null : round3(med),
    jitterS: rhythm ? round3(rhythm.jitterS) : med === null ? null : round3(Math.max(...intervalsS.map((x) => Math.abs(x - med)))),
    rhythm: rhythm?.rhythm ?? "few",
    intervalsS,
    firstAfterBootS: sec(first - boot.start),
    lastAfterBootS: sec(last - boot.start),
    recovered,
  };
}

const byStart = (a: PodPart, b: PodPart) => a.startMs - b.startMs || a.pod.localeCompare(b.pod);

/** The storm finding of one window (or of one cause in it): node figures, its pods as parts. */
function stormFinding(
  boot: BootInfo,
  w: { start: number; end: number | null },
  cause: string | null,
  attempts: Attempt[],
  rhythms: PodRhythm[],
  successes: BootEvent[],
  rate: { peak: { count: number; at: number }; ratePerMin: number },
  p: RetryStormParams,
): Finding {
  const t0 = boot.start;
  const { peak, ratePerMin } = rate;
  const pods = distinctPods(attempts);
  const mine = new Set(attempts);
  const byPod = new Map<string, Attempt[]>();
  for (const a of attempts) if (a.pod) byPod.set(a.pod, [...(byPod.get(a.pod) ?? []), a]);
  const inStorm = rhythms.filter((r) => byPod.has(r.pod) && r.attempts.some((a) => mine.has(a)));
  const steady = inStorm.filter((r) => r.rhythm === "steady");
  const growing = inStorm.filter((r) => r.rhythm === "growing");
  const irregular = inStorm.filter((r) => r.rhythm === "irregular");
  const averaged = inStorm.filter((r) => r.rhythm === "averaged");
  const steadyMedianS = steady.length ? round3(median(steady.map((r) => r.medianS))) : null;
  const severity: FindingSeverity = ratePerMin >= p.highRatePerMin ? "high" : "medium";
  const peakS = sec(peak.at - t0);
  const parts = [...byPod]
    .map(([pod, list]) =>
      podPart(
        boot,
        pod,
        list,
        inStorm.find((r) => r.pod === pod),
        successes,
      ),
    )
    .sort(byStart);
  const text = [
    `${plural(attempts.length, "failed sandbox attempt")}${cause ? ` (${cause})` : ""} from ${plural(pods.size, "pod")} ${w.end === null ? `since ${fmtT(sec(w.start - t0))}` : `between ${fmtT(sec(w.start - t0))} and ${fmtT(sec(w.end - t0))}`}; ` +
      `at the peak, ${peak.count} failures in ${p.rateWindowS} s from ${fmtT(peakS)} (${ratePerMin} per minute).`,
  ];
  if (steady.length) text.push(`${plural(steady.length, "pod")} retried at a steady interval (median ${steadyMedianS!.toFixed(3)} s).`);
  if (growing.length)
    text.push(
      `${plural(growing.length, "pod")} backed off with growing intervals (for example ${growing[0].pod}: ${growing[0].intervalsS.map((x) => x.toFixed(3)).join(", ")} s), which is a backoff, not a steady storm.`,
    );
  if (irregular.length) text.push(`${plural(irregular.length, "pod")} retried irregularly.`);
  if (averaged.length)
    text.push(
      `For ${plural(averaged.length, "pod")} the failures come from Kubernetes event counts spread evenly, so the rate is an average over each event's span.`,
    );
  text.push(
    ratePerMin >= p.highRatePerMin
      ? `A rate this high leaves a cleanup goroutine per failure waiting in the runtime, and enough of them can stall it.`
      : `Each failure costs the runtime a sandbox setup and teardown.`,
  );
  text.push(`Each pod's attempts, interval and rhythm are in the pod table.`);
  return {
    detector: name,
    severity,
    start: w.start,
    end: w.end,
    title: `Retry storm${cause ? ` (${cause})` : ""}: ${ratePerMin} sandbox failures/min at peak (${fmtT(peakS)}), ${plural(attempts.length, "attempt")}, ${plural(pods.size, "pod")}`,
    explanation: text.join(" "),
    metrics: {
      scope: "node",
      ...(cause ? { errorClass: cause } : {}),
      ratePerMin,
      peakAt: isoOf(peak.at),
      peakAfterBootS: peakS,
      peakCount: peak.count,
      rateWindowS: p.rateWindowS,
      pods: pods.size,
      attempts: attempts.length,
      steadyPods: steady.length,
      growingPods: growing.length,
      irregularPods: irregular.length,
      steadyMedianIntervalS: steadyMedianS,
      partsOf: "pod",
      parts,
    },
    evidence: attemptEvidence(attempts),
  };
}

/** Pods retrying with a rhythm outside every storm (a rate below `minNodeRatePerMin`): one finding, the pods as parts. */
function rhythmFinding(boot: BootInfo, rest: PodRhythm[], p: RetryStormParams): Finding {
  const t0 = boot.start;
  const parts = rest.map((r) => podPart(boot, r.pod, r.attempts, r, [])).sort(byStart);
  const all = rest.flatMap((r) => r.attempts);
  const start = Math.min(...all.map((a) => a.time));
  const open = parts.some((x) => x.endMs === null);
  const end = open ? null : Math.max(...parts.map((x) => x.endMs!));
  const steady = rest.filter((r) => r.rhythm === "steady");
  const growing = rest.filter((r) => r.rhythm === "growing");
  const averaged = rest.filter((r) => r.rhythm === "averaged");
  const first = rest[0];
  const words: string[] = [];
  if (steady.length) words.push(`${plural(steady.length, "pod")} at a steady interval (median ${round3(median(steady.map((r) => r.medianS))).toFixed(3)} s)`);
  if (growing.length) words.push(`${plural(growing.length, "pod")} with a growing backoff`);
  if (averaged.length) words.push(`${plural(averaged.length, "pod")} at an average interval from Kubernetes event counts`);
  const span = `${fmtT(sec(start - t0))} to ${fmtT(sec(Math.max(...all.map((a) => a.time)) - t0))}`;
  const example =
    rest.length === 1
      ? first.rhythm === "growing"
        ? ` Intervals of ${first.pod}: ${first.intervalsS.map((x) => x.toFixed(3)).join(", ")} s: a backoff that lengthens between retries, not a steady retry storm.`
        : first.rhythm === "averaged"
          ? ` The failures of ${first.pod} were counted from Kubernetes event counts and spread evenly, so the interval is an average: the real retry rhythm is not in the data.`
          : ` Pod ${first.pod} retried every ${round3(first.medianS).toFixed(3)} s, every interval within ${round3(first.jitterS).toFixed(3)} s of it.`
      : "";
  return {
    detector: name,
    severity: steady.length || averaged.length ? "low" : "info",
    start,
    end,
    title:
      rest.length === 1
        ? first.rhythm === "growing"
          ? `${first.pod}: ${first.attempts.length} sandbox failures with a growing backoff (${first.intervalsS[0].toFixed(3)} s to ${first.intervalsS[first.intervalsS.length - 1].toFixed(3)} s)`
          : `${first.pod}: ${first.attempts.length} sandbox failures ${first.rhythm === "averaged" ? "one every" : "every"} ${round3(first.medianS).toFixed(3)} s${first.rhythm === "averaged" ? " on average" : ""}`
        : `Retry rhythm: ${words.join(", ")}, ${plural(all.length, "attempt")}`,
    explanation:
      `${plural(rest.length, "pod")} failed to get a sandbox repeatedly from ${span} (${words.join("; ")}), below the node rate of a storm (${p.minNodeRatePerMin}/min).` +
      `${example} ${open ? "At least one pod was still failing when the data ended." : "A sandbox of every pod succeeded after its last failure."} Each pod's attempts, interval and rhythm are in the pod table.`,
    metrics: {
      scope: "pods",
      pods: rest.length,
      attempts: all.length,
      steadyPods: steady.length,
      growingPods: growing.length,
      ...(averaged.length
        ? { approximate: ["attempts counted from Kubernetes event counts (xN over D), spread evenly over each event's span: the interval is their average"] }
        : {}),
      partsOf: "pod",
      parts,
    },
    evidence: attemptEvidence(all),
  };
}

/** The detector as registered in lib/detect/index.ts. */
export const retryStorm: Detector<RetryStormParams> = { name, title, defaults, describe, run };
