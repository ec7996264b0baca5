/**
 * The ingest pipeline: one bundle from its stored uploads to its events, boots and findings, each
 * step one call into the module that owns it.
 *
 *   receive      the upload route streams the files to disk (receive.ts), enqueue-bundle.ts makes
 *                the bundle `queued`, the worker claims it (worker.ts); here: its stored uploads
 *   unpack       unpack-uploads.ts `unpackUploads` (lib/bundle/unpack.ts, on the ingest threads)
 *   layout       lib/bundle/collectors.ts `describeBundle`: collectors, nodes, copies, noise
 *   ingest       ingest-nodes.ts `ingestNodes`: the files parsed on the threads (node-parse.ts),
 *                each node stored once its inputs are final (boots, rows, detectors on a thread,
 *                COPY into one transaction: bundle-store.ts), the settle step over the whole bundle
 *                at the end (settle.ts)
 *   finish       bundle-status.ts `setReady` with `bundleCounts` in that transaction, or `setFailed`
 *
 * Every status write goes through bundle-status.ts; progress through live-status.ts. However the
 * bundle ends, every ingest thread drops what it held for it and its working files go.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { describeBundle } from "../bundle/collectors";
import type { DbHandles } from "../db/connection";
import { bundleCounts, plainReason, setFailed, setParsing, setReady, setRepeat } from "./bundle-status";
import { storedOriginal } from "./enqueue-bundle";
import { RefusedInput } from "./file-reason";
import { ingestNodes, type StoreWhen } from "./ingest-nodes";
import { unpackUploads } from "./unpack-uploads";
import { bundleStarted, forgetEverywhere } from "./ingest-pool";
import { endLiveStatus, progressReporter } from "./live-status";
import { storeRedactionCounts } from "./redact-file";
import { refreshPlannerStats } from "./store-bundle";
import { ingestOptions, removeUploads, storedUploads, workDir } from "./uploads";

/**
 * How far phase `finish` is after each of its steps here (bundle-store.ts `FINISH_POSTINGS`
 * before them): the counts written and `ready` set in the store transaction, then committed; the
 * planner statistics (`refreshPlannerStats`) end it.
 */
const FINISH_STEPS = { ready: 0.7, committed: 0.85 } as const;

/** How a bundle's run ended (`error`: the reason users see, one plain sentence; null when ready). */
export interface ProcessResult {
  status: "ready" | "failed";
  error: string | null;
  events: number;
  findings: number;
}

/**
 * When the nodes are stored (ingest-nodes.ts `StoreWhen`): the app always runs `auto`; the others
 * let tests take each schedule on each database.
 */
export type IngestWay = StoreWhen;

/** Where `processBundle` writes what went wrong (the server log: `console`; the CLI quiets it without `--verbose`). */
export type PipelineLog = Pick<Console, "error" | "warn">;

/** `processBundle`'s options: the ingest way (`auto` unless a test takes one) and where errors are written (`console`). */
export interface ProcessOptions {
  way?: IngestWay;
  log?: PipelineLog;
}

/**
 * Runs bundle `bundleId` through the pipeline (its row exists; the caller has claimed it). Never
 * throws for a bad bundle: it ends `failed` with a plain reason, the full error in the server log,
 * and none of its rows stored. Phase timings (ms) go to `Bundle.counts.timings`.
 */
export async function processBundle(db: DbHandles, bundleId: string, opts: ProcessOptions = {}): Promise<ProcessResult> {
  const way = opts.way ?? "auto";
  const log = opts.log ?? console;
  const bundle = await db.prisma.bundle.findUniqueOrThrow({ where: { id: bundleId } });
  // the same upload already in the incident (enqueue-bundle.ts): recorded, nothing to ingest again
  if (bundle.duplicateOf) return { status: "ready", error: null, events: 0, findings: 0 };
  // an upload queued while its original was still queued or running: a repeat once that is stored
  const original = await storedOriginal(db.sql, bundle.incidentId, bundle.sha256, bundleId);
  if (original) return repeatOf(db, bundleId, original);
  const report = progressReporter(db.sql, { id: bundleId, incidentId: bundle.incidentId, fileName: bundle.fileName });
  const { lap, timings } = report;
  const work = workDir(bundleId);
  // the threads stay while a bundle runs; its `forgetEverywhere` below lets them end once idle
  bundleStarted();
  try {
    await setParsing(db.sql, bundleId);
    rmSync(work, { recursive: true, force: true });
    // receive: the uploads wait on disk, so a bundle of many uploads never sits in memory whole
    const uploads = storedUploads(bundleId);
    const unpacked = await unpackUploads(uploads.paths, uploads.names, path.join(work, "files"), report.progress);
    const opts = ingestOptions(bundle);
    lap("unpackMs");
    const layout = describeBundle(unpacked);
    const ids = { incidentId: bundle.incidentId, bundleId };
    // ingest, then finish: the counts and `ready`, in the transaction that stored the bundle
    const stored = await ingestNodes(
      db.sql,
      ids,
      unpacked,
      layout,
      opts,
      { dir: path.join(work, "spill"), token: bundleId, when: way, progress: report.progress, onNode: report.node },
      async (tx, files, collector, r, how) => {
        lap("ingestMs");
        // under the ingest lock (store-bundle.ts `lockIngest`): an identical upload stored meanwhile wins
        const first = await storedOriginal(tx, bundle.incidentId, bundle.sha256, bundleId);
        if (first) throw new RepeatOf(first);
        await storeRedactionCounts(tx, bundleId, files, unpacked);
        await setReady(tx, bundleId, bundleCounts(files, r, { timings, ...how }), collector);
        report.progress("finish", FINISH_STEPS.ready);
        return r;
      },
    );
    const { events, findings, failures } = stored;
    if (failures.length) log.warn(`bundle ${bundleId}: detectors failed: ${failures.join("; ")}`);
    // after the commit: these log a failure and never fail the stored bundle; the live status
    // says `finish` until they are done, so the upload panel opens the incident once it answers
    report.progress("finish", FINISH_STEPS.committed);
    await refreshPlannerStats(db.sql, bundleId);
    removeUploads(bundleId);
    report.progress("finish", 1);
    return { status: "ready", error: null, events, findings };
  } catch (e) {
    await report.settled();
    if (e instanceof RepeatOf) return repeatOf(db, bundleId, e.original);
    // the whole error for the server log (refused input: its reason, one line); users get one sentence (no stack, no server path)
    if (e instanceof RefusedInput) log.warn(`bundle ${bundleId} refused: ${e.message}`);
    else log.error(`bundle ${bundleId} failed:`, e);
    const message = plainReason(e);
    await setFailed(db.sql, bundleId, message);
    return { status: "failed", error: message, events: 0, findings: 0 };
  } finally {
    // the row holds the outcome by now (committed, or the failure written)
    endLiveStatus(bundleId);
    // every thread drops what it holds for this bundle, whichever step ended it (a failed
    // bundle's events left on a thread would be spilled with the next bundle's)
    await forgetEverywhere(bundleId);
    rmSync(work, { recursive: true, force: true });
  }
}

/** Thrown inside the store transaction (rolled back) when the incident stored the same uploads meanwhile. */
class RepeatOf extends Error {
  constructor(readonly original: string) {
    super(`repeats bundle ${original}`);
  }
}

/** Records bundle `bundleId` as a repeat of stored bundle `original`; its uploads go. */
async function repeatOf(db: DbHandles, bundleId: string, original: string): Promise<ProcessResult> {
  await setRepeat(db.sql, bundleId, original);
  removeUploads(bundleId);
  return { status: "ready", error: null, events: 0, findings: 0 };
}
