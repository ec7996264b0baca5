/**
 * Detector `sandbox-failure-window` (DESIGN.md "Detectors" and "Definitions: Attempt,
 * Sandbox failure window, Error class"; INCIDENTS.md "What every pattern has in
 * common: a window").
 *
 * Input: one node boot's events (BootEvent, UTC ms), sorted by (ts, fileId, line).
 * Output: one Finding per window, `start` = the window's first attempt, `end` = the
 * closing attempt or null while open.
 *
 * Attempts (DESIGN.md "Attempt"):
 *  - attempt lines are `sandbox.create.failed` events (kubelet, runtime and Kubernetes
 *    event lines); failed stops, CNI DEL failures and "network not ready" reports are
 *    other kinds and never count. The runtime's own report of a failed CNI `ADD` (CRI-O's
 *    `Error adding pod … to CNI network`, `cni.add.failed` in the runtime lane) is its line of
 *    the failure and counts as one. A boot with no such line but CNI plugin logs of failed
 *    `ADD`s (`cni.add.failed`: a plugin's own log file, all a reviewer has) takes those:
 *    each failed `ADD` is one sandbox's network set-up failing;
 *  - node-log lines are grouped: by sandbox id where a line names one; a line with a pod
 *    but no id joins an attempt of that pod within `joinS`; a line with neither joins
 *    an attempt within `joinS` that has a line of the same component and the same error
 *    text, or of any component and the same error class (the kubelet's and the runtime's
 *    lines of one failure), or whose pod the line names by its name alone (`for pod "<name>"`, as the
 *    dockershim-era kubelet printed it); otherwise a line starts an attempt. An attempt's
 *    time is its earliest line;
 *  - a Kubernetes event (count N between first and last seen, spread evenly) adds an
 *    attempt for each occurrence that no node log covers: an occurrence is covered
 *    when it lies within `eventSlackS` of the time span of a kubelet or runtime log
 *    file of this boot. Covered events join the nearest node attempt of their pod as
 *    evidence;
 *  - only attempts at or after T+0 (`BootInfo.start`) count.
 *
 * Windows (DESIGN.md "Sandbox failure window"): a window opens at the first attempt
 * (after T+0, or after the previous window closed) and closes at the first attempt A
 * such that (1) a sandbox succeeds (`sandbox.created`) after A and before any later
 * attempt, and (2) no attempt follows A within `quietS` (or the data ends first).
 * Otherwise it stays open (`end` null): a gap alone never closes it, and successes
 * inside it (host-network pods) close it only together with (2).
 *
 * Pure: no I/O, no clock reads.
 */
import type { BootEvent, BootInfo, Detector, Finding, FindingSeverity } from "./types";
import { splitStructured } from "../timeline/go-text";
import { attemptsOf } from "./attempts-cache";
import { plural } from "./numbers";

/** Thresholds, with units in their names. */
export interface SandboxFailureWindowParams extends Record<string, number> {
  /** quiet time after the closing attempt, s (DESIGN.md "Sandbox failure window": 60 s; a gap of exactly 60 s counts as quiet) */
  quietS: number;
  /** lines of one failure lie within this of each other, s (DESIGN.md "Attempt": 1 s) */
  joinS: number;
  /** tolerance when matching Kubernetes events (whole-second stamps, FORMATS.md 3.14; control-plane clock) to node logs, s */
  eventSlackS: number;
  /** attempts from which a window is high severity (INCIDENTS.md 2: storms of 50+ pods stall the runtime) */
  highAttempts: number;
  /** attempts from which a window is medium severity */
  mediumAttempts: number;
  /** window duration from which it is at least medium severity, s */
  mediumDurationS: number;
}

/** Default thresholds (sources on `SandboxFailureWindowParams`). */
export const defaults: SandboxFailureWindowParams = {
  quietS: 60,
  joinS: 1,
  eventSlackS: 2,
  highAttempts: 20,
  mediumAttempts: 5,
  mediumDurationS: 30,
};

/** Slug stored on findings and used in URLs. */
export const name = "sandbox-failure-window";
/** Display name. */
export const title = "Sandbox failure window";

/** Plain-words description quoting the thresholds in force. */
export function describe(p: SandboxFailureWindowParams): string {
  return (
    `An interval after boot in which pod sandbox creation (RunPodSandbox, CNI ADD) fails. ` +
    `Lines of one failure (kubelet, runtime, Kubernetes event) count once: same sandbox id, or same pod within ${p.joinS} s. ` +
    `The window opens at the first failed attempt after T+0 and closes at the first attempt that is followed by a successful sandbox ` +
    `before any further attempt and by at least ${p.quietS} s without attempts; otherwise it stays open. ` +
    `Severity: high when open or with ${p.highAttempts}+ attempts (critical when both), medium from ${p.mediumAttempts} attempts or ${p.mediumDurationS} s.`
  );
}

/** One failed RunPodSandbox. */
export interface Attempt {
  /** earliest failure line, UTC ms */
  time: number;
  lastTs: number;
  sandboxId: string | null;
  pod: string | null;
  lines: BootEvent[];
  /** Kubernetes events merged into this attempt as evidence */
  eventLines: BootEvent[];
  /** added from a Kubernetes event's count (no node log covers it) */
  fromEvent: boolean;
  errorClass: string | null;
}

/** Ids of every line of the attempts (their node-log lines and merged Kubernetes events), ascending, each once: a finding's evidence. */
export function attemptEvidence(attempts: readonly Attempt[]): number[] {
  const ids: number[] = [];
  for (const a of attempts) {
    for (const l of a.lines) ids.push(l.id);
    for (const l of a.eventLines) ids.push(l.id);
  }
  ids.sort((x, y) => x - y);
  let n = 0;
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[n - 1]) ids[n++] = ids[i];
  ids.length = n;
  return ids;
}

const isK8sEvent = (e: BootEvent): boolean => e.lane === "events" || e.k8s != null;

/** The error text two lines must share to be one failure ("same error text"). */
function errorText(e: BootEvent): string {
  const f = e.fields ?? {};
  const own = f.err ?? f.error;
  if (own) return own;
  const split = splitStructured(e.message ?? "");
  return split.fields.err ?? split.fields.error ?? e.errorClass ?? e.message ?? "";
}

/**
 * Two lines state the same cause (the same error class, not `truncated`): the kubelet's line and the
 * runtime's line of one failure when neither names the pod or the sandbox.
 */
function sameCause(a: BootEvent, b: BootEvent): boolean {
  return a.errorClass !== null && a.errorClass === b.errorClass && a.errorClass !== "truncated";
}

/** The line names the pod (`namespace/name`) by its name alone: `"<name>"` or `"<name>_<namespace>…`. */
function namesPod(e: BootEvent, pod: string | null): boolean {
  if (!pod) return false;
  const name = pod.slice(pod.indexOf("/") + 1);
  const m = e.message ?? "";
  return m.includes(`"${name}"`) || m.includes(`"${name}_`) || m.includes(`\\"${name}\\"`);
}

function distance(a: Attempt, ts: number): number {
  return ts < a.time ? a.time - ts : ts > a.lastTs ? ts - a.lastTs : 0;
}

/**
 * The distinct pods of some attempts (`namespace/name`): a bare name (namespace unknown) counts
 * only when no namespaced key of the same name is among them.
 */
export function distinctPods(attempts: readonly Attempt[]): Set<string> {
  const full = new Set<string>();
  const bare = new Set<string>();
  for (const a of attempts) if (a.pod) (a.pod.includes("/") ? full : bare).add(a.pod);
  const names = new Set([...full].map(podName));
  for (const b of bare) if (!names.has(b)) full.add(b);
  return full;
}

/** The name part of a pod key (`namespace/name`, or a bare name when the namespace is unknown). */
function podName(pod: string): string {
  return pod.slice(pod.indexOf("/") + 1);
}

/** Two pod keys name the same pod: equal, or equal names where one of them has no namespace. */
function samePod(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  return (!a.includes("/") || !b.includes("/")) && podName(a) === podName(b);
}

function addLine(a: Attempt, e: BootEvent): void {
  a.lines.push(e);
  a.time = Math.min(a.time, e.ts!);
  a.lastTs = Math.max(a.lastTs, e.ts!);
  // the fullest name of the pod any of its lines gives
  if (e.pod && (!a.pod || (!a.pod.includes("/") && e.pod.includes("/")))) a.pod = e.pod;
  if (!a.sandboxId && e.sandboxId) a.sandboxId = e.sandboxId;
}

function newAttempt(e: BootEvent): Attempt {
  return { time: e.ts!, lastTs: e.ts!, sandboxId: e.sandboxId, pod: e.pod, lines: [e], eventLines: [], fromEvent: false, errorClass: null };
}

/**
 * Class of an attempt: the first fixed slug among its lines by time, else the `sig:` class most of
 * its lines state (ties: the earliest; a cause stated in full beats a line cut before it), else
 * `truncated`.
 */
function attemptClass(lines: BootEvent[]): string | null {
  const sorted = [...lines].sort((a, b) => (a.ts ?? 0) - (b.ts ?? 0) || a.fileId - b.fileId || a.line - b.line);
  const cls = (l: BootEvent) => l.errorClass;
  const slug = sorted.find((l) => cls(l) && !cls(l)!.startsWith("sig:") && cls(l) !== "truncated");
  if (slug) return slug.errorClass;
  const sigs = new Map<string, number>();
  for (const l of sorted) if (cls(l)?.startsWith("sig:")) sigs.set(cls(l)!, (sigs.get(cls(l)!) ?? 0) + 1);
  let best: string | null = null;
  for (const [c, n] of sigs) if (best === null || n > sigs.get(best)!) best = c;
  return best ?? sorted.find(cls)?.errorClass ?? null;
}

/**
 * Group failure lines into attempts (DESIGN.md "Attempt"), Kubernetes events included.
 * Exported for other detectors (retry-storm counts the same attempts).
 * @param events the boot's events (any kinds; only `sandbox.create.failed` are read)
 * @returns attempts sorted by time, all of them (T+0 not applied)
 */
export function collectAttempts(events: BootEvent[], p: Pick<SandboxFailureWindowParams, "joinS" | "eventSlackS"> = defaults): Attempt[] {
  const joinMs = p.joinS * 1000;
  const slackMs = p.eventSlackS * 1000;
  // the runtime reporting its CNI ADD failing (CRI-O's `Error adding pod … to CNI network`) is its line of the failure
  let lines = events.filter((e) => e.ts !== null && (e.kind === "sandbox.create.failed" || (e.kind === "cni.add.failed" && e.lane === "runtime")));
  if (lines.length === 0) lines = events.filter((e) => e.kind === "cni.add.failed" && e.ts !== null);
  lines.sort((a, b) => a.ts! - b.ts! || a.fileId - b.fileId || a.line - b.line);
  const nodeLines = lines.filter((e) => !isK8sEvent(e));
  const eventLines = lines.filter(isK8sEvent);

  // 1. by sandbox id
  const attempts: Attempt[] = [];
  const byId = new Map<string, Attempt>();
  for (const e of nodeLines) {
    if (!e.sandboxId) continue;
    const a = byId.get(e.sandboxId);
    if (a) addLine(a, e);
    else {
      const n = newAttempt(e);
      byId.set(e.sandboxId, n);
      attempts.push(n);
    }
  }
  // attempts by pod, in creation order (a linear scan of every attempt per line was
  // quadratic: 2.7 s for 30k attempts)
  // keyed by the pod's name: a line that names the pod without its namespace (`for pod "<name>"`,
  // an event table that shows none) is the same pod as one that names both
  const byPod = new Map<string, Attempt[]>();
  const indexPod = (a: Attempt) => {
    if (!a.pod) return;
    const key = podName(a.pod);
    const list = byPod.get(key);
    if (list) list.push(a);
    else byPod.set(key, [a]);
  };
  for (const a of attempts) indexPod(a);
  const order = new Map<Attempt, number>();
  const create = (e: BootEvent) => {
    const n = newAttempt(e);
    order.set(n, attempts.length);
    attempts.push(n);
    indexPod(n);
    return n;
  };
  attempts.forEach((a, i) => order.set(a, i));

  // 2. same pod within joinS
  for (const e of nodeLines) {
    if (e.sandboxId || !e.pod) continue;
    let best: Attempt | null = null;
    for (const a of byPod.get(podName(e.pod)) ?? []) {
      if (!samePod(a.pod, e.pod)) continue;
      const d = distance(a, e.ts!);
      if (d <= joinMs && (!best || d < distance(best, e.ts!))) best = a;
    }
    if (best) addLine(best, e);
    else create(e);
  }
  // 3. neither pod nor sandbox: same component and error text within joinS; candidates
  // from the attempts sorted by start (an attempt within joinS starts before ts + joinS
  // and after ts - joinS - the longest attempt)
  const anonymous = nodeLines.filter((e) => !e.sandboxId && !e.pod);
  if (anonymous.length) {
    const sorted = [...attempts].sort((a, b) => a.time - b.time);
    let longest = 0;
    for (const a of attempts) longest = Math.max(longest, a.lastTs - a.time);
    for (const e of anonymous) {
      const ts = e.ts!;
      const text = errorText(e);
      let best: Attempt | null = null;
      // first attempt starting after ts + joinMs
      let hi = sorted.length;
      let lo = 0;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid].time <= ts + joinMs) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo - 1; i >= 0 && sorted[i].time >= ts - joinMs - longest; i--) {
        const a = sorted[i];
        const d = distance(a, ts);
        if (d > joinMs) continue;
        if (!namesPod(e, a.pod) && !a.lines.some((l) => (l.component === e.component && errorText(l) === text) || sameCause(l, e))) continue;
        if (!best || d < distance(best, ts) || (d === distance(best, ts) && order.get(a)! < order.get(best)!)) best = a;
      }
      if (best) {
        addLine(best, e);
        longest = Math.max(longest, best.lastTs - best.time);
      } else {
        const n = create(e);
        // keep `sorted` ordered by start
        let at = sorted.length;
        while (at > 0 && sorted[at - 1].time > n.time) at--;
        sorted.splice(at, 0, n);
      }
    }
  }

  // 4. Kubernetes events: occurrences no node log covers add attempts
  const spans = nodeLogSpans(events);
  const covered = (t: number) => spans.some(([a, b]) => t >= a - slackMs && t <= b + slackMs);
  for (const ev of eventLines) {
    const count = Math.max(1, ev.k8s?.count ?? 1);
    const last = ev.k8s?.lastMs ?? ev.ts!;
    const first = Math.min(ev.k8s?.firstMs ?? last, last);
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(count === 1 ? last : Math.floor(first + ((last - first) * i) / (count - 1)));
    let attached = false;
    for (const t of times) {
      if (covered(t)) {
        if (!attached) {
          const match = nearestOfPod(ev.pod ? (byPod.get(podName(ev.pod)) ?? []) : attempts, ev.pod, first - slackMs - joinMs, last + slackMs + joinMs, last);
          if (match) {
            match.eventLines.push(ev);
            attached = true;
          }
        }
        continue;
      }
      attempts.push({
        time: t,
        lastTs: t,
        sandboxId: ev.sandboxId,
        pod: ev.pod,
        lines: [ev],
        eventLines: [],
        fromEvent: true,
        errorClass: null,
      });
      attached = true;
    }
  }

  for (const a of attempts) a.errorClass = attemptClass(a.lines.length ? a.lines : a.eventLines);
  attempts.sort((a, b) => a.time - b.time || firstKey(a) - firstKey(b));
  return attempts;
}

function firstKey(a: Attempt): number {
  const l = a.lines[0];
  return l ? l.fileId * 1e9 + l.line : 0;
}

function nearestOfPod(attempts: Attempt[], pod: string | null, from: number, to: number, at: number): Attempt | null {
  let best: Attempt | null = null;
  for (const a of attempts) {
    if (a.fromEvent || (pod && !samePod(a.pod, pod)) || a.time > to || a.lastTs < from) continue;
    if (!best || Math.abs(a.time - at) < Math.abs(best.time - at)) best = a;
  }
  return best;
}

/** Time spans [first, last] (UTC ms) of the node's kubelet and runtime log files among the events. */
function nodeLogSpans(events: BootEvent[]): Array<[number, number]> {
  const byFile = new Map<number, { node: boolean; min: number; max: number }>();
  for (const e of events) {
    if (e.ts === null || isK8sEvent(e)) continue;
    let f = byFile.get(e.fileId);
    if (!f) {
      f = { node: false, min: e.ts, max: e.ts };
      byFile.set(e.fileId, f);
    }
    if (e.lane === "kubelet" || e.lane === "runtime") f.node = true;
    f.min = Math.min(f.min, e.ts);
    f.max = Math.max(f.max, e.ts);
  }
  return [...byFile.values()].filter((f) => f.node).map((f) => [f.min, f.max]);
}

/** One window as the definition computes it (times UTC ms). */
export interface FailureWindow {
  start: number;
  end: number | null;
  attempts: Attempt[];
  /** the event named by `closedBy` */
  closedByEvent: BootEvent | null;
}

const MILESTONE_KINDS = new Set(["sandbox.created", "cni.ready", "cni.config.written", "runtime.started", "kubelet.started"]);

/**
 * Split attempts into windows per the definition.
 * @param attempts sorted by time, already restricted to T+0 and later
 * @param events the boot's events: `sandbox.created` ones are the successes (condition 1);
 *   milestones (`cni.ready`, `cni.config.written`, runtime/kubelet start) and successes name `closedBy`
 * @param quietS condition 2, seconds
 */
export function computeWindows(attempts: Attempt[], events: BootEvent[], quietS: number): FailureWindow[] {
  const quietMs = quietS * 1000;
  const successes = events
    .filter((e) => e.kind === "sandbox.created" && e.ts !== null)
    .map((e) => e.ts!)
    .sort((a, b) => a - b);
  const successBetween = (after: number, before: number | null) =>
    successes.some((s) => s > after && (before === null || s < before));
  const windows: FailureWindow[] = [];
  let i = 0;
  while (i < attempts.length) {
    let j = i;
    for (;;) {
      const a = attempts[j];
      const next = attempts[j + 1] ?? null;
      const quiet = next === null || next.time - a.time >= quietMs;
      if (quiet && successBetween(a.time, next ? next.time : null)) {
        windows.push({ start: attempts[i].time, end: a.time, attempts: attempts.slice(i, j + 1), closedByEvent: milestoneAfter(events, a.time) });
        break;
      }
      if (next === null) {
        windows.push({ start: attempts[i].time, end: null, attempts: attempts.slice(i), closedByEvent: null });
        break;
      }
      j++;
    }
    i = j + 1;
  }
  return windows;
}

function milestoneAfter(events: BootEvent[], t: number): BootEvent | null {
  let best: BootEvent | null = null;
  for (const e of events) {
    if (e.ts === null || e.ts <= t || !MILESTONE_KINDS.has(e.kind)) continue;
    if (!best || e.ts < best.ts! || (e.ts === best.ts && (e.fileId < best.fileId || (e.fileId === best.fileId && e.line < best.line)))) best = e;
  }
  return best;
}

/**
 * Short text naming a milestone or success (the `closedBy` metric):
 * "calico nodename written", "calico-node ready", "CNI kubeconfig written",
 * "flannel subnet written", "CNI ready", "CNI config written",
 * "sandbox created (<ns/name>)", "runtime started", "kubelet started".
 */
export function milestoneLabel(e: BootEvent): string {
  const m = e.message ?? "";
  switch (e.kind) {
    case "cni.ready":
      if (/Using node name:/.test(m)) return "calico nodename written";
      if (/Calico started successfully/.test(m)) return "calico-node ready";
      if (/kubeconfig/i.test(m)) return "CNI kubeconfig written";
      if (/subnet file/i.test(m)) return "flannel subnet written";
      return "CNI ready";
    case "cni.config.written":
      return "CNI config written";
    case "sandbox.created":
      return e.pod ? `sandbox created (${e.pod})` : "sandbox created";
    case "runtime.started":
      return "runtime started";
    case "kubelet.started":
      return "kubelet started";
    default:
      return e.kind;
  }
}

/** `Finding.metrics` of this detector (offsets in seconds, 3 decimals; DESIGN.md "CLI contract details: findings"). */
export interface SandboxWindowMetrics {
  attempts: number;
  /** distinct `namespace/name` */
  pods: number;
  /** class of most attempts (ties: the earliest) */
  errorClass: string | null;
  openedAfterBootS: number;
  /** null while open */
  closedAfterBootS: number | null;
  closedBy: string | null;
  durationS: number | null;
  lastAttemptAfterBootS: number;
  /** attempts added from Kubernetes event counts (no node log covers them) */
  attemptsFromEvents: number;
  /** attempts per error class */
  errorClasses: Record<string, number>;
  /** why the window's times or counts are approximate (`approximateReasons`); absent when they are exact */
  approximate?: string[];
}

/** Plain-words units of an age's uncertainty (ms) for the reasons below. */
function ageUnit(ms: number): string {
  return ms >= 86_400_000 ? "a day" : ms >= 3_600_000 ? "an hour" : ms >= 60_000 ? "a minute" : "a second";
}

/**
 * Why a window's times or counts are not exact, in words a reviewer can act on: attempts counted
 * from Kubernetes event counts (spread evenly over each event's span), times from kubectl's
 * relative ages (to their precision), ages counted back from the upload's time (no collection time
 * given), and a T+0 taken from the boot's earliest event. Empty when nothing is approximate.
 */
export function approximateReasons(boot: BootInfo, attempts: readonly Attempt[]): string[] {
  const out: string[] = [];
  let spread = false;
  let fromUpload = false;
  let coarsest = 0;
  for (const a of attempts) {
    if (a.fromEvent && (a.lines[0]?.k8s?.count ?? 1) > 1) spread = true;
    for (const l of a.fromEvent ? a.lines : []) {
      const k = l.k8s;
      if (!k) continue;
      if (k.agesFromUpload) fromUpload = true;
      coarsest = Math.max(coarsest, k.lastUncertaintyMs ?? 0, k.firstUncertaintyMs ?? 0);
    }
  }
  if (spread) out.push("attempts counted from Kubernetes event counts (xN over D), spread evenly over each event's span");
  if (coarsest > 0) out.push(`times from kubectl's relative ages, precise to ${ageUnit(coarsest)}`);
  if (fromUpload) out.push("ages anchored at the upload time: give the collection time");
  if (boot.startApprox) out.push("T+0 is the boot's earliest event (no kernel start or boot marker in the data)");
  return out;
}

const sec = (ms: number) => Number((ms / 1000).toFixed(3));
const fmtT = (s: number) => `T+${s.toFixed(3)} s`;

function dominantClass(attempts: Attempt[]): { cls: string | null; n: number; classes: Record<string, number> } {
  const classes: Record<string, number> = {};
  const firstAt = new Map<string, number>();
  for (const a of attempts) {
    const c = a.errorClass ?? "unknown";
    classes[c] = (classes[c] ?? 0) + 1;
    if (!firstAt.has(c)) firstAt.set(c, a.time);
  }
  let cls: string | null = null;
  let n = 0;
  for (const [c, k] of Object.entries(classes)) {
    if (k > n || (k === n && firstAt.get(c)! < firstAt.get(cls!)!)) [cls, n] = [c, k];
  }
  return { cls: cls === "unknown" ? null : cls, n, classes };
}

function severityOf(attempts: number, open: boolean, durationMs: number | null, p: SandboxFailureWindowParams): FindingSeverity {
  const many = attempts >= p.highAttempts;
  if (open && many) return "critical";
  if (open || many) return "high";
  if (attempts >= p.mediumAttempts || (durationMs !== null && durationMs >= p.mediumDurationS * 1000)) return "medium";
  return "low";
}

/** Run the detector on one boot. */
export function run(boot: BootInfo, events: BootEvent[], params: SandboxFailureWindowParams = defaults): Finding[] {
  const p = { ...defaults, ...params };
  const t0 = boot.start;
  // shared with the other detectors of this run (they read the same attempts)
  const attempts = attemptsOf(events, p).filter((a) => a.time >= t0);
  const windows = computeWindows(attempts, events, p.quietS);
  const lastTs = events.reduce<number | null>((m, e) => (e.ts !== null && (m === null || e.ts > m) ? e.ts : m), null);
  const dataEnd = boot.end ?? lastTs;

  return windows.map((w) => {
    const n = w.attempts.length;
    const pods = distinctPods(w.attempts);
    const { cls, n: clsN, classes } = dominantClass(w.attempts);
    const opened = sec(w.start - t0);
    const closed = w.end === null ? null : sec(w.end - t0);
    const closedBy = w.closedByEvent ? milestoneLabel(w.closedByEvent) : null;
    const durationMs = w.end === null ? null : w.end - w.start;
    const fromEvents = w.attempts.filter((a) => a.fromEvent).length;
    const evidence = attemptEvidence(w.attempts);
    const lastAttempt = w.attempts[n - 1];
    const approximate = approximateReasons(boot, w.attempts);

    const podsText = plural(pods.size, "pod");
    const attemptsText = plural(n, "failed sandbox attempt");
    const titleText =
      w.end === null
        ? `Sandbox failure window from ${fmtT(opened)}, still open: ${plural(n, "attempt")}, ${podsText}`
        : `Sandbox failure window ${fmtT(opened)} → ${fmtT(closed!)}: ${plural(n, "attempt")}, ${podsText}`;
    const parts: string[] = [];
    parts.push(
      w.end === null
        ? `${attemptsText} from ${podsText} since ${fmtT(opened)} after boot (last at ${fmtT(sec(lastAttempt.time - t0))}).`
        : `${attemptsText} from ${podsText} between ${fmtT(opened)} and ${fmtT(closed!)} after boot (${(durationMs! / 1000).toFixed(3)} s).`,
    );
    if (cls) parts.push(`${clsN} of them failed with ${cls}${Object.keys(classes).length > 1 ? ` (${Object.keys(classes).length} classes in all)` : ""}.`);
    if (fromEvents) parts.push(`${fromEvents} attempt${fromEvents === 1 ? " was" : "s were"} counted from Kubernetes events that no node log covers.`);
    if (approximate.length) parts.push(`Approximate: ${approximate.join("; ")}.`);
    if (w.end === null) {
      parts.push(
        `The window had not closed when the data ended${dataEnd !== null ? ` at ${fmtT(sec(dataEnd - t0))}` : ""}: no failure was followed by both a successful sandbox and ${p.quietS} s without failures.`,
      );
    } else {
      parts.push(
        `It closed at its last failure: a sandbox succeeded before any further attempt and no attempt followed within ${p.quietS} s${
          closedBy && w.closedByEvent?.ts != null ? `; right after it: ${closedBy} at ${fmtT(sec(w.closedByEvent.ts - t0))}` : ""
        }.`,
      );
    }
    return {
      detector: name,
      severity: severityOf(n, w.end === null, durationMs, p),
      start: w.start,
      end: w.end,
      title: titleText,
      explanation: parts.join(" "),
      metrics: {
        attempts: n,
        pods: pods.size,
        errorClass: cls,
        openedAfterBootS: opened,
        closedAfterBootS: closed,
        closedBy,
        durationS: durationMs === null ? null : sec(durationMs),
        lastAttemptAfterBootS: sec(lastAttempt.time - t0),
        attemptsFromEvents: fromEvents,
        errorClasses: classes,
        ...(approximate.length ? { approximate } : {}),
      } satisfies SandboxWindowMetrics,
      evidence,
    };
  });
}

/** The detector as registered in lib/detect/index.ts. */
export const sandboxFailureWindow: Detector<SandboxFailureWindowParams> = { name, title, defaults, describe, run };
