/**
 * The ingest pipeline: one bundle from its stored uploads to its events, boots and findings, each
 * step one call into the module that owns it.
 *
 *   receive      the upload route streams the files to disk (receive.ts), enqueue-bundle.ts makes
 *                the bundle `queued`, the worker claims it (worker.ts); here: its stored uploads
 *   unpack       ingest-bundle.ts `unpackUploads` (lib/bundle/unpack.ts, on the ingest threads)
 *   layout       lib/bundle/collectors.ts `describeBundle`: collectors, nodes, copies, noise
 *   parse files  ingest-bundle.ts `parseFiles` (analyse-bundle.ts `analyseFile` on the threads)
 *   settle       ingest-bundle.ts `settleParsed` (settle.ts `settleBundle`: duplicates, node
 *                fallback, clock offsets, once for the whole bundle)
 *   per node     store-nodes.ts `storeParsed` on the threads: boots (`prepareNode`), rows and
 *                detectors (`nodeRows`, detect-boot.ts `detectBoot`)
 *   store        the same call, COPY into one transaction (store-bundle.ts)
 *   finish       bundle-status.ts `setReady` with `bundleCounts` in that transaction, or `setFailed`
 *
 * On PostgreSQL a bundle whose files the layout places on nodes takes the middle steps in one
 * pass, node by node (ingest-bundle.ts `ingestByNode`, which settles the bundle at its end and
 * gives way to the two passes, rolled back, when the settle step decides other than it assumed).
 * Every status write goes through bundle-status.ts; progress through live-status.ts. However the
 * bundle ends, every ingest thread drops what it held for it and its working files go.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { describeBundle } from "../bundle/collectors";
import type { DbHandles } from "../db/connection";
import type { SqlConn } from "../db/sql";
import type { AnalysedFile } from "../model/event";
import { bundleCounts, plainReason, setFailed, setParsing, setReady, setRepeat } from "./bundle-status";
import { storedOriginal } from "./enqueue-bundle";
import { RefusedInput, requireReadable } from "./file-reason";
import { canIngestByNode, ingestByNode, NeedsTwoPasses } from "./by-node";
import { parseFiles, releaseParsed, settleParsed, unpackUploads } from "./ingest-bundle";
import type { StoredBundle } from "./bundle-store";
import { storeParsed } from "./store-nodes";
import { bundleStarted, forgetEverywhere, ingestExecutors } from "./ingest-pool";
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
 * Which way a bundle is stored: `auto` as the module comment says; `by-node` takes the one pass
 * whenever the bundle allows it (`canIngestByNode`), PGlite too; `two-pass` never takes it. The
 * app always runs `auto`; the others let tests take each way on each database.
 */
export type IngestWay = "auto" | "by-node" | "two-pass";

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
    const spill = path.join(work, "spill");
    // finish: the counts and `ready`, in the transaction that stored the bundle
    const finish = async (tx: SqlConn, files: AnalysedFile[], collector: string | null, stored: StoredBundle, how: Record<string, string>) => {
      // under the ingest lock (store-bundle.ts `lockIngest`): an identical upload stored meanwhile wins
      const first = await storedOriginal(tx, bundle.incidentId, bundle.sha256, bundleId);
      if (first) throw new RepeatOf(first);
      await storeRedactionCounts(tx, bundleId, files, unpacked);
      await setReady(tx, bundleId, bundleCounts(files, stored, { timings, ...how }), collector);
      report.progress("finish", FINISH_STEPS.ready);
      return stored;
    };

    let stored: StoredBundle | null = null;
    let twoPassReason: string | null = null;
    // by node, the whole ingest is one transaction; PGlite has one connection, so every other query
    // of the app would wait for it: there the two passes, whose transaction is the store step only
    const byNode = way === "by-node" || (way === "auto" && db.sql.backend === "postgres");
    if (byNode && canIngestByNode(unpacked, layout, opts)) {
      const held = { token: bundleId, executors: await ingestExecutors() };
      try {
        stored = await db.sql.transaction(async (tx) => {
          // parse files, per node, store, settle: node by node in one pass
          const r = await ingestByNode(tx, ids, unpacked, layout, opts, spill, bundleId, report.progress, report.node);
          lap("ingestMs");
          return finish(tx, r.files, r.collector, r.stored, { ingestPath: "by-node" });
        });
      } catch (e) {
        if (!(e instanceof NeedsTwoPasses)) throw e;
        // rolled back: the two passes store the bundle from its files again
        twoPassReason = e.message;
        report.resetNodes();
        await releaseParsed(held);
        lap("byNodeMs");
      }
    }
    if (!stored) {
      // parse files
      const files = await parseFiles(unpacked, layout, opts, spill, bundleId, report.progress);
      // settle the bundle
      const parsed = await settleParsed(files, unpacked, layout, opts);
      lap("parseMs");
      await report.settled();
      requireReadable(parsed.files);
      await report.now("store", 0);
      const how: Record<string, string> = twoPassReason ? { ingestPath: "two-pass", twoPassReason } : { ingestPath: "two-pass" };
      stored = await db.sql.transaction(async (tx) => {
        // per node, then store
        const r = await storeParsed(tx, ids, parsed, report.progress, report.node);
        lap("storeMs");
        return finish(tx, parsed.files, parsed.collector, r, how);
      });
    }
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
