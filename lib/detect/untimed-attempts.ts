/**
 * Failed sandbox attempts whose lines carry no time: an event message quoted alone, a plugin's
 * log without stamps. They cannot open or extend a sandbox failure window (a window is a span of
 * time), but they are failures the text shows, so they are counted apart, per node.
 *
 * The lines are those `collectAttempts` (attempts.ts) would read, without a time:
 * `sandbox.create.failed`, and the runtime's own `cni.add.failed`. Grouped as far as a line
 * without a time allows:
 *  - a Kubernetes event adds its count (`k8s.count`, at least 1): one attempt per occurrence;
 *  - node-log lines that name the same sandbox id are one attempt; one that names the id of a
 *    failure line with a time belongs to that timed attempt (crictl's `FATA[0000]` under its
 *    klog line) and is not counted here;
 *  - a node-log line without an id joins the attempt of the failure line right above it in its
 *    file (the physical line before) when both have the same error class (the lines of one
 *    failure, printed one under the other; a timed one keeps it); otherwise it is an attempt of its own.
 *
 * Pure: no I/O, no clock reads.
 */
import type { BootEvent } from "./types";

/** Attempts without a time: how many, their commonest error class, and the lines they rest on. */
export interface UntimedAttempts {
  attempts: number;
  /** the error class most attempts carry (ties: the first seen); null when none has one */
  errorClass: string | null;
  /** the lines, ids ascending */
  evidence: number[];
}

const isFailureLine = (e: BootEvent): boolean => e.kind === "sandbox.create.failed" || (e.kind === "cni.add.failed" && e.lane === "runtime");

/** The failed sandbox attempts among `events` that have no time (events with a time are ignored). */
export function untimedAttempts(events: readonly BootEvent[]): UntimedAttempts {
  const failures = events.filter(isFailureLine);
  const lines = failures.filter((e) => e.ts === null).sort((a, b) => a.fileId - b.fileId || a.line - b.line);
  const classes: Array<string | null> = [];
  const byId = new Map<string, number>();
  // the timed failure lines: their sandbox ids, and their places (`fileId:line` -> error class)
  const timedIds = new Set<string>();
  const timedAt = new Map<string, string | null>();
  for (const e of failures) {
    if (e.ts === null || e.lane === "events" || e.k8s != null) continue;
    if (e.sandboxId !== null) timedIds.add(e.sandboxId);
    timedAt.set(`${e.fileId}:${e.line}`, e.errorClass);
  }
  let prev: BootEvent | null = null;
  for (const e of lines) {
    const isEvent = e.lane === "events" || e.k8s != null;
    if (isEvent) {
      const n = Math.max(1, e.k8s?.count ?? 1);
      for (let i = 0; i < n; i++) classes.push(e.errorClass);
      prev = null;
      continue;
    }
    const above = `${e.fileId}:${e.line - 1}`;
    if ((e.sandboxId !== null && timedIds.has(e.sandboxId)) || (e.sandboxId === null && timedAt.has(above) && timedAt.get(above) === e.errorClass)) {
      prev = e;
      continue;
    }
    if (e.sandboxId !== null) {
      if (!byId.has(e.sandboxId)) {
        byId.set(e.sandboxId, classes.length);
        classes.push(e.errorClass);
      }
    } else if (!(prev !== null && prev.fileId === e.fileId && prev.line === e.line - 1 && prev.errorClass === e.errorClass)) {
      classes.push(e.errorClass);
    }
    prev = e;
  }
  const counts = new Map<string, number>();
  let best: string | null = null;
  for (const c of classes) {
    if (c === null) continue;
    const n = (counts.get(c) ?? 0) + 1;
    counts.set(c, n);
    if (best === null || n > (counts.get(best) ?? 0)) best = c;
  }
  return { attempts: classes.length, errorClass: best, evidence: lines.map((e) => e.id).sort((a, b) => a - b) };
}
