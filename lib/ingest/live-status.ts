/**
 * The status of the bundles this process is ingesting right now, kept in memory beside the
 * `Bundle` row that the pipeline (pipeline.ts) updates. `GET /api/bundles/:id` answers from here while the
 * bundle runs in this process: on the embedded PGlite (one connection) a read of the row would
 * wait for the ingest's store transaction, and the progress written meanwhile would not show until
 * it commits (for requests to run at all meanwhile, PGlite's COPY yields to the event loop between
 * slices: lib/db/sql.ts). On
 * PostgreSQL the row stays the source for other processes; here it only answers sooner.
 */
import type { SqlConn } from "../db/sql";
import { setPhase } from "./bundle-status";
import type { IngestPhase } from "./progress";

/**
 * Where one node of a running bundle is: its files being parsed, parsed, its boots found and its
 * detectors running (on its new boots, with its rows formatted), its rows being stored, stored (in
 * the bundle's transaction: in the database once the bundle is ready).
 */
export type LiveNodeState = "parsing" | "parsed" | "detecting" | "storing" | "stored";

export interface LiveNode {
  name: string;
  state: LiveNodeState;
}

export interface LiveStatus {
  id: string;
  incidentId: string;
  fileName: string;
  status: "parsing";
  phase: IngestPhase;
  /** 0..1 */
  progress: number;
  /** the nodes found so far, in the order they were found (absent: none yet) */
  nodes?: LiveNode[];
}

const g = globalThis as unknown as { __bootlineLive?: Map<string, LiveStatus> };
const live = (g.__bootlineLive ??= new Map());

const gl = globalThis as unknown as { __bootlineLiveListeners?: Set<(s: LiveStatus) => void> };
const listeners = (gl.__bootlineLiveListeners ??= new Set());

/** Starts or updates the live status of a bundle this process is ingesting (and tells the listeners). */
export function setLiveStatus(s: LiveStatus): void {
  live.set(s.id, s);
  for (const fn of listeners) fn(s);
}

/** Calls `fn` with every live status set from now on, in order; returns the function that stops it. */
export function onLiveStatus(fn: (s: LiveStatus) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The live status of `bundleId` when this process is ingesting it, else undefined. */
export function liveStatus(bundleId: string): LiveStatus | undefined {
  return live.get(bundleId);
}

/** Forgets a bundle once its row holds the outcome (after the commit, or the failure written). */
export function endLiveStatus(bundleId: string): void {
  live.delete(bundleId);
}

/** A running bundle's progress reporter (`progressReporter`). */
export interface ProgressReporter {
  /** phase and fraction (clamped to 0..1): live at once, the row at most every 300 ms */
  progress: (phase: IngestPhase, fraction: number) => void;
  /** waits for the row writes reported so far, then writes `phase` at `fraction` */
  now: (phase: IngestPhase, fraction: number) => Promise<void>;
  /** waits for the row writes reported so far (they never throw) */
  settled: () => Promise<void>;
  /** phase timings, ms by name (`Bundle.counts.timings`) */
  timings: Record<string, number>;
  /** records in `timings[name]` the ms since the reporter started or the last lap */
  lap: (name: string) => void;
  /** where node `name` is now (live only) */
  node: (name: string, state: LiveNodeState) => void;
  /** forgets the nodes reported so far (live only; a run that starts the bundle again) */
  resetNodes: () => void;
}

/**
 * Reports a running bundle's phase and progress, and times its phases: to the live status at once, and to its row
 * (bundle-status.ts `setPhase`) at most every 300 ms, in order, on `db`, another connection than
 * the ingest's transaction, so a write still queued when that commits does not land on the
 * finished bundle (`setPhase` writes only while the bundle is `parsing`).
 */
export function progressReporter(db: SqlConn, bundle: { id: string; incidentId: string; fileName: string }): ProgressReporter {
  const nodes = new Map<string, LiveNodeState>();
  let current: { phase: IngestPhase; progress: number } = { phase: "unpack", progress: 0 };
  const live = (phase: IngestPhase, progress: number) => {
    current = { phase, progress };
    const list = nodes.size ? { nodes: [...nodes].map(([name, state]) => ({ name, state })) } : {};
    setLiveStatus({ ...bundle, status: "parsing", phase, progress, ...list });
  };
  live("unpack", 0);
  let lastWrite = 0;
  const write = async (phase: IngestPhase, progress: number, force: boolean) => {
    const now = Date.now();
    if (!force && now - lastWrite < 300) return;
    lastWrite = now;
    await setPhase(db, bundle.id, phase, progress);
  };
  let pending: Promise<void> = Promise.resolve();
  const timings: Record<string, number> = {};
  let mark = performance.now();
  return {
    timings,
    lap: (name) => {
      const now = performance.now();
      timings[name] = Math.round(now - mark);
      mark = now;
    },
    progress: (phase, f) => {
      const p = Math.max(0, Math.min(1, f));
      live(phase, p);
      pending = pending.then(() => write(phase, p, false)).catch(() => {});
    },
    now: async (phase, f) => {
      await pending;
      live(phase, f);
      await write(phase, f, true);
    },
    settled: () => pending,
    node: (name, state) => {
      if (nodes.get(name) === state) return;
      nodes.set(name, state);
      live(current.phase, current.progress);
    },
    resetNodes: () => {
      nodes.clear();
      live(current.phase, current.progress);
    },
  };
}
