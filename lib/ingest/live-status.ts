/**
 * The status of the bundles this process is ingesting right now, kept in memory beside the
 * `Bundle` row that `processBundle` updates. `GET /api/bundles/:id` answers from here while the
 * bundle runs in this process: on the embedded PGlite (one connection) a read of the row would
 * wait for the ingest's store transaction, and the progress written meanwhile would not show until
 * it commits, so the progress bar froze for the whole store step (for the requests to run at all
 * meanwhile, PGlite's COPY also yields to the event loop between slices: lib/db/sql.ts). On
 * PostgreSQL the row stays the source for other processes; here it only answers sooner.
 */
export interface LiveStatus {
  id: string;
  incidentId: string;
  fileName: string;
  status: "parsing";
  phase: string;
  /** 0..1 */
  progress: number;
}

const g = globalThis as unknown as { __bootlineLive?: Map<string, LiveStatus> };
const live = (g.__bootlineLive ??= new Map());

/** Starts or updates the live status of a bundle this process is ingesting. */
export function setLiveStatus(s: LiveStatus): void {
  live.set(s.id, s);
}

/** The live status of `bundleId` when this process is ingesting it, else undefined. */
export function liveStatus(bundleId: string): LiveStatus | undefined {
  return live.get(bundleId);
}

/** Forgets a bundle once its row holds the outcome (after the commit, or the failure written). */
export function endLiveStatus(bundleId: string): void {
  live.delete(bundleId);
}
