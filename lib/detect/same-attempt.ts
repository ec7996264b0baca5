/**
 * The same-attempt rule of the attempt model (lib/detect/attempts.ts, docs/definitions.md
 * "Attempt"): whether a failure line without a sandbox id may join an attempt already started.
 * Pure; `a.time`/`a.lastTs` are the attempt's first and last line times, UTC ms.
 */
import type { BootEvent } from "./types";

/**
 * When a failure line without a sandbox id is a line of an attempt already started (steps 2 and 3
 * of `collectAttempts`; docs/definitions.md "Attempt"). The keys it compares, in order: the pod
 * (`namespace/name`, or the bare name), else the component with the error text, the error class, or
 * the pod's bare name in the message. Whatever the key, the line joins only when
 *  - `spanS`: the attempt's first and last lines, this one included, lie within `joinS` of each
 *    other (the kubelet's modules and the runtime log one failure within milliseconds; retries
 *    come at the kubelet's back-off, seconds apart);
 *  - `oneLinePerWriter`: the attempt holds no line of the same writer (component and headline,
 *    `writerOf`), except the same line again (same time and text: one line in two files).
 */
export const SAME_ATTEMPT = { spanS: "joinS", oneLinePerWriter: true } as const;

/** Quoted strings, `&Metadata{…}` structs, ids and numbers: what differs between failures of one writer. */
const WRITER_NOISE_RE = /"(?:[^"\\]|\\.)*"|&?\w*\{[^{}]*\}|\([^()]*\)|\b[0-9a-f]{8}(?:-?[0-9a-f]{4}){3}-?[0-9a-f]{12}\b|\b[0-9a-f]{12,}\b|\d+/gi;

/**
 * Who wrote a failure line, as far as its text tells: the component and the headline before the
 * error (`RunPodSandbox from runtime service failed`, `CreatePodSandbox for pod failed`,
 * `Error syncing pod, skipping`), cut at the first `: `, ` err=` or other ` key=`, with quoted
 * names, structs, ids and numbers removed. The kubelet's modules word their lines of one failure
 * differently; the same headline twice is two failures. Null when the line has no headline (the
 * writer is not known, and the rule does not apply).
 */
export function writerOf(e: BootEvent): string | null {
  const text = (e.message ?? "").replace(WRITER_NOISE_RE, "");
  const cut = text.search(/: | [A-Za-z_][\w.]*=/);
  const head = (cut < 0 ? text : text.slice(0, cut)).replace(/\s+/g, " ").trim();
  return head ? `${e.component}\t${head}` : null;
}

/** `SAME_ATTEMPT`: the line may join the attempt by time span and writer (whatever key matched). */
export function mayJoin(a: { time: number; lastTs: number; lines: readonly BootEvent[] }, e: BootEvent, joinMs: number): boolean {
  const ts = e.ts!;
  if (Math.max(a.lastTs, ts) - Math.min(a.time, ts) > joinMs) return false;
  if (!SAME_ATTEMPT.oneLinePerWriter) return true;
  const w = writerOf(e);
  if (w === null) return true;
  return !a.lines.some((l) => writerOf(l) === w && !(l.ts === ts && l.message === e.message));
}
