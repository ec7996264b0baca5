/**
 * The phases of a bundle's ingest, one list for the server (which writes `Bundle.phase` and the
 * live status: live-status.ts) and the pages (the upload panel's parse bar), and the rule by
 * which a running task tells how far it is: by units of work (bytes read, events handled), so a
 * phase's fraction is the share of its work done.
 *
 * A bundle runs `queued`, `unpack`, `ingest` (parse and store: ingest-nodes.ts), then `detect`
 * (the detectors on the boots the incident already had) and `finish` (the search index, the
 * counts, the commit), and ends `done`. `parse` is the in-memory reference's (the paste preview).
 */

/** Every phase a bundle's row or live status can name, in the order a run goes through them. */
export const INGEST_PHASES = ["queued", "unpack", "parse", "ingest", "detect", "finish", "done"] as const;

export type IngestPhase = (typeof INGEST_PHASES)[number];

/** What the upload panel says of each phase. */
export const PHASE_LABELS: Record<IngestPhase, string> = {
  queued: "waiting to start",
  unpack: "unpacking",
  parse: "parsing lines",
  ingest: "parsing and storing events",
  detect: "running detectors",
  finish: "finishing",
  done: "done",
};

/** True when `s` is one of `INGEST_PHASES`. */
export function isIngestPhase(s: string): s is IngestPhase {
  return (INGEST_PHASES as readonly string[]).includes(s);
}

/** The label of a phase as the API gives it (a name this version does not know: the name itself). */
export function phaseLabel(phase: string): string {
  return isIngestPhase(phase) ? PHASE_LABELS[phase] : phase;
}

/**
 * Events a thread handles between two reports of its progress (`workSteps`): 300,000 events of one
 * node are then told in 30 steps at least. At about 100,000 events/s on one thread a step is a
 * tenth of a second.
 */
export const PROGRESS_STEP_EVENTS = 10_000;

/** Bytes a thread reads between two reports of a file's parse (`workSteps`): a bundle of 300,000 lines (about 73 MB) is told in 140 steps at least. */
export const PROGRESS_STEP_BYTES = 512 << 10;
/** Bytes of an upload read (compressed) between two reports of its unpack (ingest-tasks.ts `unpackTask`). */
export const UNPACK_STEP_BYTES = 256 << 10;

/** Longest time between two reports of a task that moves, ms (`workSteps`). */
export const PROGRESS_STEP_MS = 250;

/**
 * Gathers a running task's units of work (bytes, events) and tells `report` their sum since its
 * last call once `step` units have come or `PROGRESS_STEP_MS` have passed, whichever is first: the
 * work between two reports is at most `step` units, whatever the machine's speed, and a thread
 * posts a few messages per second at most on top of that. Units still gathered when the task ends
 * are not told (the caller counts the whole task as done then).
 */
export function workSteps(report: (units: number) => void, step: number): (units: number) => void {
  let gathered = 0;
  let last = Date.now();
  return (units) => {
    gathered += units;
    if (gathered < step && Date.now() - last < PROGRESS_STEP_MS) return;
    report(gathered);
    gathered = 0;
    last = Date.now();
  };
}
