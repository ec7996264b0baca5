/**
 * The ingest's unpack step (pipeline.ts calls it first): the uploads unpacked on the ingest
 * threads, each upload's files to disk, hashed, as soon as it is unpacked. The rest of the
 * ingest is ingest-nodes.ts.
 */
import { statSync } from "node:fs";
import path from "node:path";
import type { UnpackedFile } from "../bundle/unpack";
import type { Progress } from "./analyse-bundle";
import { ingestExecutors, type Executor } from "./ingest-pool";
import { unpackTask } from "./ingest-tasks";
import { ByteProgress } from "./byte-progress";

/**
 * Unpacks the uploads (`uploads`: files on disk; `names`: their original names, same order),
 * largest first: on this thread while the ingest threads start (they load the tasks first),
 * then on the threads, each one upload at a time. Every upload's files go to disk under `dir` as
 * soon as it is unpacked (ingest-tasks.ts `unpackTask`). Returns the files in upload order, with
 * `dataPath` instead of bytes. Throws when a thread fails. Reports phase `unpack` by the uploads'
 * bytes read, inside an upload too (`step.stepBytes`: bytes between two reports of a thread).
 */
export async function unpackUploads(
  uploads: string[],
  names: string[],
  dir: string,
  progress: Progress = () => {},
  step: { stepBytes?: number } = {},
): Promise<UnpackedFile[]> {
  const pool = ingestExecutors();
  let started = false;
  pool.then(() => (started = true)).catch(() => {});
  const sizes = uploads.map((p) => statSync(p).size);
  const queue = uploads.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a] || a - b);
  const out = new Array<UnpackedFile[]>(uploads.length);
  // progress by bytes of the uploads read: the finished uploads whole, the running ones as far
  // as their threads told (progress.ts `workSteps`, `step.stepBytes` between two reports)
  const bytes = new ByteProgress(sizes, (f) => progress("unpack", f));
  const unpack = async (ex: Executor | null, i: number) => {
    const t = { path: uploads[i], name: names[i], dir: path.join(dir, String(i)), stepBytes: step.stepBytes };
    const onBytes = bytes.reader(i);
    out[i] = ex ? await ex.call("unpackTask", t, [], onBytes) : await unpackTask(t, onBytes);
    bytes.done(i);
  };
  while (queue.length) {
    // let the threads' "ready" messages in: unpacking itself may never leave the microtask queue
    await new Promise((r) => setImmediate(r));
    if (started) break;
    await unpack(null, queue.shift()!);
  }
  const executors = await pool;
  await Promise.all(
    executors.map(async (ex) => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) await unpack(ex, i);
    }),
  );
  if (uploads.length) bytes.end(); // uploads of no bytes
  return out.flat();
}
