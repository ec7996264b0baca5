/**
 * Sandbox failure windows (docs/definitions.md "Sandbox failure window") from a boot's attempts
 * (attempts.ts): a window opens at the first attempt (after T+0, or after the previous window
 * closed) and closes at the first attempt A such that (1) a sandbox succeeds (`sandbox.created`)
 * after A and before any later attempt, and (2) no attempt follows A within `quietS` (or the data
 * ends first). Otherwise it stays open (`end` null): a gap alone never closes it, and successes
 * inside it (host-network pods) close it only together with (2).
 *
 * Pure: no I/O, no clock reads. Times are UTC ms.
 */
import type { BootEvent } from "./types";
import type { Attempt } from "./attempts";
import { WINDOW_CLOSING_KINDS } from "../model/event-kinds";

/** One window as the definition computes it (times UTC ms). */
export interface FailureWindow {
  start: number;
  end: number | null;
  attempts: Attempt[];
  /** the event named by `closedBy` */
  closedByEvent: BootEvent | null;
}

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
  const successBetween = (after: number, before: number | null) => successes.some((s) => s > after && (before === null || s < before));
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
    if (e.ts === null || e.ts <= t || !WINDOW_CLOSING_KINDS.has(e.kind)) continue;
    if (!best || e.ts < best.ts! || (e.ts === best.ts && (e.fileId < best.fileId || (e.fileId === best.fileId && e.line < best.line)))) best = e;
  }
  return best;
}
