/**
 * What the detectors other than `sandbox-failure-window` must find in a generated
 * scenario, computed from what the scenario emitted (attempt times, successes, conflist
 * writes, runtime health lines), by the words of each detector's definition, written apart
 * from lib/detect so that each checks the other. Times are UTC ms as the lines state them
 * (floored to the millisecond); offsets and durations in seconds with 3 decimals.
 *
 * Default thresholds mirror the detectors' documented defaults (lib/detect/*.ts).
 */
import type { TruthAttempt, TruthMilestone, WindowTruth } from "./window-truth";

/** A `retry-storm` finding of scope "pod". */
export interface PodRhythmTruth {
  pod: string;
  attempts: number;
  /** median interval, s */
  intervalS: number;
  /** largest distance of an interval from the median, s */
  jitterS: number;
  rhythm: "steady" | "growing";
  intervalsS: number[];
  startMs: number;
  /** null when the pod was still failing at the end of the data */
  endMs: number | null;
}

/** A `retry-storm` finding of scope "node" (one per failure window that is a storm). */
export interface NodeStormTruth {
  ratePerMin: number;
  pods: number;
  attempts: number;
  /** ISO time of the first attempt of the peak minute */
  peakAt: string;
  startMs: number;
  endMs: number | null;
}

/** A `conflist-rewrite-loop` finding. */
export interface ConflistLoopTruth {
  path: string;
  writes: number;
  writers: string[];
  /** writes per writer */
  writesByWriter: Record<string, number>;
  /** changes of writer between consecutive writes */
  turns: number;
  writesPerS: number;
  durationS: number;
  startMs: number;
  endMs: number | null;
}

/** A `cni-bootstrap-deadlock` finding. */
export interface DeadlockTruth {
  missingPath: string;
  writerPod: string;
  blockedPods: number;
  /** first failure naming the path, s after T+0 */
  sinceS: number;
  startMs: number;
}

/** One `runtime-degradation` signal as emitted. */
export interface SignalTruth {
  signal: string;
  count: number;
  /** ISO times of its first and last line */
  first: string;
  last: string;
}

/** Everything the four detectors must report for the boot under study. */
export interface DetectorTruth {
  retryStorm: { nodes: NodeStormTruth[]; pods: PodRhythmTruth[] };
  conflistLoops: ConflistLoopTruth[];
  deadlocks: DeadlockTruth[];
  /** null when no `runtime-degradation` finding is expected */
  degradation: { signals: SignalTruth[] } | null;
}

/** 3 decimals as the detectors print them (`toFixed`: the decimal rounding of the double) */
const r3 = (x: number) => Number(x.toFixed(3));

/**
 * Expected `retry-storm` findings. Pods with at least `minPodAttempts` attempts: intervals
 * between consecutive attempts; steady when all lie within max(2 s, 20 % of the median) of
 * the median, growing when they never drop by more than that and the last is 1.5x the
 * first; others are not reported per pod. Per window: the most attempts in any 60 s
 * starting at an attempt, a storm from 10 per minute.
 */
export function expectedRetryStorm(
  attempts: TruthAttempt[],
  milestones: TruthMilestone[],
  windows: WindowTruth[],
  t0Ms: number,
  opts: { minPodAttempts?: number; minRatePerMin?: number } = {},
): DetectorTruth["retryStorm"] {
  const minPod = opts.minPodAttempts ?? 4;
  const minRate = opts.minRatePerMin ?? 10;
  const list = attempts.filter((a) => a.failedAtMs >= t0Ms).sort((a, b) => a.failedAtMs - b.failedAtMs);

  const nodes: NodeStormTruth[] = [];
  for (const w of windows) {
    const inside = list.filter((a) => a.failedAtMs >= w.startMs && (w.endMs === null || a.failedAtMs <= w.endMs));
    let best = 0;
    let bestAt = 0;
    for (const a of inside) {
      const n = inside.filter((b) => b.failedAtMs >= a.failedAtMs && b.failedAtMs < a.failedAtMs + 60_000).length;
      if (n > best) [best, bestAt] = [n, a.failedAtMs];
    }
    if (best < minRate) continue;
    nodes.push({
      ratePerMin: best,
      pods: new Set(inside.map((a) => a.pod)).size,
      attempts: inside.length,
      peakAt: new Date(bestAt).toISOString(),
      startMs: w.startMs,
      endMs: w.endMs,
    });
  }

  const pods: PodRhythmTruth[] = [];
  for (const pod of [...new Set(list.map((a) => a.pod))]) {
    const times = list.filter((a) => a.pod === pod).map((a) => a.failedAtMs);
    if (times.length < minPod) continue;
    const intervalsS = times.slice(1).map((t, i) => r3((t - times[i]) / 1000));
    const sorted = [...intervalsS].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    const med = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    const jitter = intervalsS.reduce((m, x) => Math.max(m, Math.abs(x - med)), 0);
    const tol = Math.max(2, 0.2 * med);
    let rhythm: "steady" | "growing" | null = null;
    if (jitter <= tol) rhythm = "steady";
    else if (intervalsS.every((x, i) => i === 0 || x >= intervalsS[i - 1] - tol) && intervalsS[intervalsS.length - 1] >= 1.5 * intervalsS[0])
      rhythm = "growing";
    if (!rhythm) continue;
    const last = times[times.length - 1];
    const recovered = milestones.some((m) => m.success && m.pod === pod && m.atMs > last);
    pods.push({ pod, attempts: times.length, intervalS: r3(med), jitterS: r3(jitter), rhythm, intervalsS, startMs: times[0], endMs: recovered ? last : null });
  }
  pods.sort((a, b) => a.startMs - b.startMs || a.pod.localeCompare(b.pod));
  return { nodes, pods };
}

/**
 * Expected `conflist-rewrite-loop` finding for one loop the scenario emitted: `writes` are
 * its timed writes (one per real write), `dataEndMs` the boot's last record (the loop is
 * open when that is less than 10 s after its last write).
 */
export function expectedLoop(path: string, writes: Array<{ atMs: number; writer: string }>, dataEndMs: number): ConflistLoopTruth {
  const w = [...writes].sort((a, b) => a.atMs - b.atMs);
  const first = w[0].atMs;
  const last = w[w.length - 1].atMs;
  const durationS = r3((last - first) / 1000);
  const writers: string[] = [];
  const writesByWriter: Record<string, number> = {};
  let turns = 0;
  w.forEach((x, i) => {
    if (!writers.includes(x.writer)) writers.push(x.writer);
    writesByWriter[x.writer] = (writesByWriter[x.writer] ?? 0) + 1;
    if (i > 0 && w[i - 1].writer !== x.writer) turns++;
  });
  return {
    path,
    writes: w.length,
    writers,
    writesByWriter,
    turns,
    writesPerS: r3((w.length - 1) / durationS),
    durationS,
    startMs: first,
    endMs: dataEndMs - last < 10_000 ? null : last,
  };
}
