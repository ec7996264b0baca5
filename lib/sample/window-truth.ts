/**
 * The expected sandbox failure windows of a generated scenario, computed from what the
 * scenario emitted (its attempt times, successes and milestones), by the words of
 * docs/definitions.md "Sandbox failure window", written apart from the detector
 * (lib/detect/sandbox-failure-window.ts) so that each checks the other.
 *
 * Times are UTC ms as the bundle's lines state them (floored to the millisecond).
 */

export interface TruthAttempt {
  pod: string;
  sandboxId: string;
  /** the attempt's earliest failure line (containerd's `RunPodSandbox ... failed, error`), UTC ms */
  failedAtMs: number;
}

/** A success or milestone the scenario emitted. */
export interface TruthMilestone {
  atMs: number;
  /** the detector's `closedBy` text for it (see `milestoneLabel` in the detector) */
  label: string;
  /** true for a successful sandbox (condition 1 of the definition) */
  success: boolean;
  /** the pod (`namespace/name`) of a successful sandbox */
  pod?: string;
}

/** One expected `sandbox-failure-window` finding: its metrics (the detector's names) and start/end (UTC ms). */
export interface WindowTruth {
  attempts: number;
  pods: number;
  errorClass: string;
  openedAfterBootS: number;
  closedAfterBootS: number | null;
  closedBy: string | null;
  startMs: number;
  endMs: number | null;
}

/**
 * @param attempts every failed attempt the scenario emitted
 * @param milestones successes and milestones (any order)
 * @param t0Ms T+0 of the boot
 * @param quietS quiet time that closes a window, s (the detector's default: 60)
 */
export function expectedWindows(attempts: TruthAttempt[], milestones: TruthMilestone[], t0Ms: number, errorClass: string, quietS = 60): WindowTruth[] {
  const list = attempts.filter((a) => a.failedAtMs >= t0Ms).sort((a, b) => a.failedAtMs - b.failedAtMs);
  const ms = [...milestones].sort((a, b) => a.atMs - b.atMs);
  const out: WindowTruth[] = [];
  let open: number | null = null; // index of the window's first attempt
  for (let i = 0; i < list.length; i++) {
    if (open === null) open = i;
    const at = list[i].failedAtMs;
    const nextAt = i + 1 < list.length ? list[i + 1].failedAtMs : Infinity;
    const quiet = nextAt - at >= quietS * 1000;
    const succeeded = ms.some((m) => m.success && m.atMs > at && m.atMs < nextAt);
    const last = i === list.length - 1;
    if ((quiet && succeeded) || last) {
      const closed = quiet && succeeded;
      const inWindow = list.slice(open, i + 1);
      const after = closed ? (ms.find((m) => m.atMs > at) ?? null) : null;
      out.push({
        attempts: inWindow.length,
        pods: new Set(inWindow.map((a) => a.pod)).size,
        errorClass,
        openedAfterBootS: round3((list[open].failedAtMs - t0Ms) / 1000),
        closedAfterBootS: closed ? round3((at - t0Ms) / 1000) : null,
        closedBy: after ? after.label : null,
        startMs: list[open].failedAtMs,
        endMs: closed ? at : null,
      });
      open = null;
    }
  }
  return out;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
