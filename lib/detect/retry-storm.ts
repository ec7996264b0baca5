/**
 * Detector `retry-storm` (docs/detectors.md, pattern 2: DaemonSet pods that tolerate the
 * network-unavailable taint retry at a steady interval, around 15 s, dozens of them on a busy
 * node).
 *
 * Input: one node boot's events (BootEvent, UTC ms), sorted by (ts, fileId, line). The
 * attempts are the ones `sandbox-failure-window` counts (`collectAttempts`: one failed
 * RunPodSandbox, its kubelet/runtime/event lines joined; docs/definitions.md "Attempt"), from T+0 on.
 *
 * Two kinds of finding:
 *  - scope "node", one per sandbox failure window (`computeWindows`) whose peak failure
 *    rate reaches `minNodeRatePerMin`: `ratePerMin` is the largest number of attempts in
 *    any `rateWindowS`-long interval [t, t + rateWindowS) that starts at an attempt,
 *    scaled to one minute; `peakAt` the start of the first such interval.
 *  - scope "pod", one per pod with at least `minPodAttempts` attempts whose intervals
 *    form a rhythm: "steady" when every interval lies within the tolerance of their
 *    median (max(`steadyJitterS`, `steadyJitterRatio` x median)); "growing" (a backoff
 *    that lengthens, such as the kubelet's doubling) when the intervals never shrink by
 *    more than that tolerance and the last is at least `growthRatio` times the first.
 *    A growing backoff is reported with its real intervals (`intervalsS`), never as a
 *    steady storm. Pods whose intervals are neither are counted on the node finding. A pod
 *    whose attempts were counted from Kubernetes event counts (`(xN over D)`, spread evenly)
 *    has no observed rhythm: it is reported with its average interval (`rhythm: "averaged"`).
 *
 * Pod `end`: the pod's last failed attempt when a sandbox of that pod succeeded after it;
 * null when the pod was still failing when the data ended.
 *
 * Pure: no I/O, no clock reads.
 */
import type { BootEvent, BootInfo, Detector, Finding, FindingSeverity } from "./types";
import { attemptEvidence, computeWindows, distinctPods, type Attempt } from "./attempts";
import { attemptsOf } from "./attempts-cache";
import { fmtT, isoOf, median, plural, round3, sec } from "./numbers";

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

  // ---- per node: one finding per failure window whose peak rate is a storm ------------------
  const out: Finding[] = [];
  const windowMs = p.rateWindowS * 1000;
  for (const w of computeWindows(attempts, events, p.quietS)) {
    const times = w.attempts.map((a) => a.time);
    const peak = peakRate(times, windowMs);
    const ratePerMin = round3((peak.count * 60) / p.rateWindowS);
    if (ratePerMin < p.minNodeRatePerMin) continue;
    const pods = distinctPods(w.attempts);
    const inWindow = rhythms.filter((r) => r.attempts.some((a) => a.time >= w.start && (w.end === null || a.time <= w.end)));
    const steady = inWindow.filter((r) => r.rhythm === "steady");
    const growing = inWindow.filter((r) => r.rhythm === "growing");
    const irregular = inWindow.filter((r) => r.rhythm === "irregular");
    const averaged = inWindow.filter((r) => r.rhythm === "averaged");
    const steadyMedianS = steady.length ? round3(median(steady.map((r) => r.medianS))) : null;
    const severity: FindingSeverity = ratePerMin >= p.highRatePerMin ? "high" : "medium";
    const peakS = sec(peak.at - t0);
    const parts = [
      `${plural(w.attempts.length, "failed sandbox attempt")} from ${plural(pods.size, "pod")} ${w.end === null ? `since ${fmtT(sec(w.start - t0))}` : `between ${fmtT(sec(w.start - t0))} and ${fmtT(sec(w.end - t0))}`}; ` +
        `at the peak, ${peak.count} failures in ${p.rateWindowS} s from ${fmtT(peakS)} (${ratePerMin} per minute).`,
    ];
    if (steady.length) parts.push(`${plural(steady.length, "pod")} retried at a steady interval (median ${steadyMedianS!.toFixed(3)} s).`);
    if (growing.length)
      parts.push(
        `${plural(growing.length, "pod")} backed off with growing intervals (for example ${growing[0].pod}: ${growing[0].intervalsS.map((x) => x.toFixed(3)).join(", ")} s), which is a backoff, not a steady storm.`,
      );
    if (irregular.length) parts.push(`${plural(irregular.length, "pod")} retried irregularly.`);
    if (averaged.length)
      parts.push(
        `For ${plural(averaged.length, "pod")} the failures come from Kubernetes event counts spread evenly, so the rate is an average over each event's span.`,
      );
    parts.push(
      ratePerMin >= p.highRatePerMin
        ? `A rate this high leaves a cleanup goroutine per failure waiting in the runtime, and enough of them can stall it.`
        : `Each failure costs the runtime a sandbox setup and teardown.`,
    );
    out.push({
      detector: name,
      severity,
      start: w.start,
      end: w.end,
      title: `Retry storm: ${ratePerMin} sandbox failures/min at peak (${fmtT(peakS)}), ${plural(w.attempts.length, "attempt")}, ${plural(pods.size, "pod")}`,
      explanation: parts.join(" "),
      metrics: {
        scope: "node",
        ratePerMin,
        peakAt: isoOf(peak.at),
        peakAfterBootS: peakS,
        peakCount: peak.count,
        rateWindowS: p.rateWindowS,
        pods: pods.size,
        attempts: w.attempts.length,
        steadyPods: steady.length,
        growingPods: growing.length,
        irregularPods: irregular.length,
        steadyMedianIntervalS: steadyMedianS,
      },
      evidence: attemptEvidence(w.attempts),
    });
  }

  // ---- per pod findings: steady storms and growing backoffs ------------------------------------
  const podFindings: Finding[] = [];
  for (const r of rhythms) {
    if (r.rhythm === "irregular") continue;
    const first = r.attempts[0].time;
    const last = r.attempts[r.attempts.length - 1].time;
    const intervalS = round3(r.medianS);
    const jitterS = round3(r.jitterS);
    // a readable paragraph: the first intervals, then how many more (all are in metrics.intervalsS)
    const shown = r.intervalsS
      .slice(0, 8)
      .map((x) => x.toFixed(3))
      .join(", ");
    const list = r.intervalsS.length > 8 ? `${shown}, … ${r.intervalsS.length - 8} more` : shown;
    const span = `${fmtT(sec(first - t0))} to ${fmtT(sec(last - t0))}`;
    const tail = r.recovered ? `A sandbox of the pod succeeded after its last failure.` : `The pod was still failing when the data ended.`;
    const steady = r.rhythm === "steady";
    if (r.rhythm === "averaged") {
      podFindings.push({
        detector: name,
        severity: "low",
        start: first,
        end: r.recovered ? last : null,
        title: `${r.pod}: ${r.attempts.length} sandbox failures, one every ${intervalS.toFixed(3)} s on average`,
        explanation:
          `Pod ${r.pod} failed to get a sandbox ${r.attempts.length} times from ${span}, one every ${intervalS.toFixed(3)} s on average ` +
          `(${round3((60 * (r.attempts.length - 1)) / Math.max(1e-3, (last - first) / 1000))} per minute). The failures were counted from Kubernetes event counts and spread evenly ` +
          `between the first and last time the events give, so this is an average: the real retry rhythm is not in the data. ${tail}`,
        metrics: {
          scope: "pod",
          pod: r.pod,
          attempts: r.attempts.length,
          intervalS,
          rhythm: r.rhythm,
          firstAfterBootS: sec(first - t0),
          lastAfterBootS: sec(last - t0),
          approximate: ["attempts counted from Kubernetes event counts (xN over D), spread evenly over each event's span: the interval is their average"],
        },
        evidence: attemptEvidence(r.attempts),
      });
      continue;
    }
    podFindings.push({
      detector: name,
      severity: steady ? "low" : "info",
      start: first,
      end: r.recovered ? last : null,
      title: steady
        ? `${r.pod}: ${r.attempts.length} sandbox failures every ${intervalS.toFixed(3)} s`
        : `${r.pod}: ${r.attempts.length} sandbox failures with a growing backoff (${r.intervalsS[0].toFixed(3)} s to ${r.intervalsS[r.intervalsS.length - 1].toFixed(3)} s)`,
      explanation: steady
        ? `Pod ${r.pod} failed to get a sandbox ${r.attempts.length} times from ${span}, retrying at a steady interval: median ${intervalS.toFixed(3)} s, ` +
          `every interval within ${jitterS.toFixed(3)} s of it (intervals: ${list} s). ${tail}`
        : `Pod ${r.pod} failed to get a sandbox ${r.attempts.length} times from ${span} with intervals that grow: ${list} s ` +
          `(median ${intervalS.toFixed(3)} s, spread ${jitterS.toFixed(3)} s around it). This is a backoff that lengthens between retries, not a steady retry storm. ${tail}`,
      metrics: {
        scope: "pod",
        pod: r.pod,
        attempts: r.attempts.length,
        intervalS,
        jitterS,
        rhythm: r.rhythm,
        intervalsS: r.intervalsS,
        firstAfterBootS: sec(first - t0),
        lastAfterBootS: sec(last - t0),
      },
      evidence: attemptEvidence(r.attempts),
    });
  }
  podFindings.sort((a, b) => a.start - b.start || String(a.metrics.pod).localeCompare(String(b.metrics.pod)));
  return [...out, ...podFindings];
}

/** The detector as registered in lib/detect/index.ts. */
export const retryStorm: Detector<RetryStormParams> = { name, title, defaults, describe, run };
