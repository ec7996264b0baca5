/**
 * Detector `sandbox-failure-window` (docs/detectors.md; the terms attempt, sandbox failure
 * window and error class as docs/definitions.md defines them).
 *
 * Input: one node boot's events (BootEvent, UTC ms), sorted by (ts, fileId, line).
 * Output: one Finding per window, `start` = the window's first attempt, `end` = the
 * closing attempt or null while open.
 *
 * Attempts (docs/definitions.md "Attempt"):
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
 * Windows (docs/definitions.md "Sandbox failure window"): a window opens at the first attempt
 * (after T+0, or after the previous window closed) and closes at the first attempt A
 * such that (1) a sandbox succeeds (`sandbox.created`) after A and before any later
 * attempt, and (2) no attempt follows A within `quietS` (or the data ends first).
 * Otherwise it stays open (`end` null): a gap alone never closes it, and successes
 * inside it (host-network pods) close it only together with (2).
 *
 * Pure: no I/O, no clock reads.
 */
import type { BootEvent, BootInfo, Detector, Finding, FindingSeverity } from "./types";
import { attemptEvidence, attemptDefaults, distinctPods, type Attempt } from "./attempts";
import { computeWindows } from "./failure-windows";
import { attemptsOf } from "./attempts-cache";
import { plural } from "./numbers";

/** Thresholds, with units in their names. */
export interface SandboxFailureWindowParams extends Record<string, number> {
  /** quiet time after the closing attempt, s (a gap of exactly `quietS` counts as quiet) */
  quietS: number;
  /** lines of one failure lie within this of each other, s */
  joinS: number;
  /** tolerance when matching Kubernetes events (whole-second stamps on the control plane's clock) to node logs, s */
  eventSlackS: number;
  /** attempts from which a window is high severity (a storm of dozens of pods is what stalls the runtime; docs/detectors.md) */
  highAttempts: number;
  /** attempts from which a window is medium severity */
  mediumAttempts: number;
  /** window duration from which it is at least medium severity, s */
  mediumDurationS: number;
}

/** Default thresholds (sources on `SandboxFailureWindowParams`). */
export const defaults: SandboxFailureWindowParams = {
  ...attemptDefaults,
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

/** `Finding.metrics` of this detector (offsets in seconds, 3 decimals; docs/definitions.md "The report"). */
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
