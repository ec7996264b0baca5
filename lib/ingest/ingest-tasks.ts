/**
 * The CPU-heavy steps of the streaming ingest (ingest-nodes.ts), run in worker threads
 * (ingest-pool.ts) or inline, by name (`TASKS`). Every argument and result is structured-clone
 * data.
 *
 * - `unpackTask` (one upload): unpacks it and writes its files to disk.
 * - `parseFileTask` (one file: parse-task.ts): the file's events stay on this thread
 *   (held-parts.ts), grouped by the node the records name, spilled to disk past a budget.
 * - `dropFiles`, `spillNodes` (held-parts.ts): let go of repeated files' parts; hand a node's
 *   parts to another thread through the disk.
 * - `prepareNode`, `nodeRows` (one node: node-task.ts): the node's boots, then its COPY
 *   rows with the database ids the caller chose, and the detectors' findings on new boots.
 * - `recycleRows` (row-stream.ts), `forgetBundle`, `heldState`: buffers and bookkeeping.
 *
 * State lives on the thread, keyed by the caller's bundle token: the thread that parsed a file
 * holds its events, so the caller prepares each node on the thread holding most of it.
 */
import { releaseReadBuffer, unpackUploadFile, type UnpackedFile } from "../bundle/unpack";
import { dropFiles, forgetHeld, heldTotals, spillNodes } from "./held-parts";
import { forgetPrepared, nodeRows, preparedCount, prepareNode } from "./node-task";
import { parseFileTask } from "./parse-task";
import { UNPACK_STEP_BYTES, workSteps } from "./progress";
import { recycleRows, releaseSpareChunks } from "./row-stream";

/** The worker entry (ingest-worker.mjs) sends a task's row chunks through it. */
export { RowSender } from "./row-stream";

/**
 * Unpacks one upload (`path` on disk, `name` its original file name: lib/bundle/unpack.ts
 * `unpackUploadFile`) as a stream, each file written to `dir` and hashed (`sha256`: duplicates
 * are then known before anything is parsed) as its bytes come; returns their listing. Bad
 * archives come back as skipped entries with a reason. `onBytes` is told the compressed bytes
 * read, `stepBytes` (default `UNPACK_STEP_BYTES`) at a time at most (progress.ts `workSteps`).
 */
export async function unpackTask(
  t: { path: string; name: string; dir: string; stepBytes?: number },
  onBytes?: (bytes: number) => void,
): Promise<UnpackedFile[]> {
  return unpackUploadFile(t.name, t.path, t.dir, undefined, onBytes && workSteps(onBytes, t.stepBytes ?? UNPACK_STEP_BYTES));
}

/**
 * Drops everything this thread holds for a bundle (after it is stored, or failed, whatever step
 * it failed in: the caller calls it on every thread in a `finally`); with no other
 * bundle in hand, also the buffers kept for the next one (spare row chunks, the read buffer), so
 * an idle app does not hold them.
 */
export function forgetBundle(token: string): void {
  const othersHeld = forgetHeld(token);
  forgetPrepared(token);
  if (!othersHeld && preparedCount() === 0) {
    releaseSpareChunks();
    releaseReadBuffer();
  }
}

/** What this thread holds: bundles with held parts, their estimated bytes in memory, prepared nodes. */
export function heldState(): { bundles: string[]; heldBytes: number; prepared: number } {
  return { ...heldTotals(), prepared: preparedCount() };
}

/** The tasks by name, for the worker entry and the inline executor. */
export const TASKS = { unpackTask, parseFileTask, dropFiles, spillNodes, prepareNode, nodeRows, recycleRows, forgetBundle, heldState } as const;
export type TaskName = keyof typeof TASKS;
