/**
 * Runs one queued bundle through the whole pipeline: unpack -> parse and normalise ->
 * store (COPY) -> detect, keeping `Bundle.status/phase/progress` current for the UI.
 * Storing and detecting happen in one transaction: on any error the bundle is marked
 * `failed` with the reason and none of its rows remain (docs/definitions.md "Bundle status").
 * Every status write goes through bundle-status.ts; the reason users see is one plain sentence
 * (`plainReason`), the full error goes to the server log. However the bundle ends, every ingest
 * thread drops what it held for it (`forgetEverywhere`).
 *
 * Uploads wait on disk in `<data dir>/uploads/<bundleId>/<nnn>__<original name>` (written
 * by the upload route or the CLI) and are removed once the bundle is stored. The unpacked
 * files and spilled events live in `.work/` beside them while the bundle runs (ingest-bundle.ts)
 * and are removed when it ends either way. Phase timings (ms) go to `Bundle.counts.timings`.
 */
import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { DbHandles } from "../db/connection";
import type { SkewOption } from "../timeline/clock-skew";
import type { IngestOptions } from "./analyse-bundle";
import type { AnalysedFile } from "../model/event";
import { describeBundle } from "../bundle/collectors";
import type { SqlConn } from "../db/sql";
import { canIngestByNode, ingestByNode, NeedsTwoPasses, parseBundle, releaseParsed, storeParsed, unpackUploads, type StoredBundle } from "./ingest-bundle";
import { forgetEverywhere, ingestExecutors } from "./ingest-pool";
import { nothingReadable } from "./file-reason";
import { plainReason, setFailed, setParsing, setPhase, setReady } from "./bundle-status";
import { endLiveStatus, setLiveStatus } from "./live-status";
import { storeRedactionCounts } from "./redact-file";

const dataRoot = () => path.resolve(process.env.BOOTLINE_DATA_DIR ?? path.join(process.cwd(), ".data"));

/** Folder where a bundle's uploads wait for the ingest worker. */
export function uploadsDir(bundleId: string): string {
  return path.join(dataRoot(), "uploads", bundleId);
}

/**
 * Folder where the upload route streams a request's files while it arrives (created here): on the
 * same file system as `uploadsDir`, so `saveUpload` moves them with a rename.
 */
export function incomingDir(): string {
  const dir = path.join(dataRoot(), "incoming");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Removes what uploads that never finished left in `incomingDir` (a process that died while a
 * request streamed in): files older than `maxAgeMs` (default one day, far longer than any
 * upload takes). Returns how many went. The ingest worker calls it when it starts, then hourly.
 */
export function sweepIncoming(maxAgeMs = 24 * 3600_000, now = Date.now()): number {
  const dir = incomingDir();
  let n = 0;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    try {
      if (now - statSync(p).mtimeMs > maxAgeMs) {
        rmSync(p, { force: true, recursive: true });
        n++;
      }
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

/**
 * Stores an upload for the worker; `ord` keeps upload order. `from` is its bytes, or the path of
 * a file already on disk (in `incomingDir`), which is moved (copied when a rename cannot).
 */
export function saveUpload(bundleId: string, ord: number, name: string, from: Buffer | string): void {
  const dir = uploadsDir(bundleId);
  mkdirSync(dir, { recursive: true });
  // no separators, control characters or leading dots, and short enough for any file system
  // (the end is kept: it holds the extension the unpacker reads)
  const safe =
    name
      .replace(/[\\/\x00-\x1f\x7f]/g, "_")
      .replace(/^\.+/, "_")
      .slice(-200) || "upload";
  const to = path.join(dir, `${String(ord).padStart(4, "0")}__${safe}`);
  if (typeof from !== "string") return writeFileSync(to, from);
  try {
    renameSync(from, to);
  } catch {
    copyFileSync(from, to);
    rmSync(from, { force: true });
  }
}

/** Options stored on Bundle.options by the upload route / CLI. */
export interface BundleOptions {
  node?: string | null;
  tz?: string | null;
  year?: number | null;
  collected?: string | null;
  /**
   * clock offsets, seconds added to a file's times (lib/timeline/clock-skew.ts): a number for every
   * Kubernetes events file, or bundle path → seconds; given offsets replace the estimated ones
   */
  skew?: SkewOption | null;
}

export interface ProcessResult {
  status: "ready" | "failed";
  error: string | null;
  events: number;
  findings: number;
}

/** Processes bundle `bundleId` (status must be `parsing`, claimed by the caller). */
export async function processBundle(db: DbHandles, bundleId: string): Promise<ProcessResult> {
  const bundle = await db.prisma.bundle.findUniqueOrThrow({ where: { id: bundleId } });
  // the same upload already in the incident (enqueue-bundle.ts): recorded, nothing to ingest again
  if (bundle.duplicateOf) return { status: "ready", error: null, events: 0, findings: 0 };
  const opts = (bundle.options ?? {}) as BundleOptions;
  // what GET /api/bundles/:id shows while this runs (live-status.ts), set at once; the row follows
  const live = (phase: string, progress: number) =>
    setLiveStatus({ id: bundleId, incidentId: bundle.incidentId, fileName: bundle.fileName, status: "parsing", phase, progress });
  live("unpack", 0);
  let lastWrite = 0;
  const setProgress = async (phase: string, progress: number, force = false) => {
    const now = Date.now();
    if (!force && now - lastWrite < 300) return;
    lastWrite = now;
    // from another connection than the ingest's transaction: one still queued when that commits
    // must not write its phase over the finished bundle's
    await setPhase(db.sql, bundleId, phase, progress);
  };
  let pendingProgress: Promise<void> = Promise.resolve();
  const progress = (phase: string, f: number) => {
    const p = Math.max(0, Math.min(1, f));
    live(phase, p);
    pendingProgress = pendingProgress.then(() => setProgress(phase, p)).catch(() => {});
  };

  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };
  const work = path.join(uploadsDir(bundleId), ".work");
  try {
    await setParsing(db.sql, bundleId);
    const dir = uploadsDir(bundleId);
    rmSync(work, { recursive: true, force: true });
    const names = readdirSync(dir)
      .filter((n) => n !== ".work")
      .sort();
    // each upload's files wait on disk, so a bundle of many uploads never sits in memory whole
    const unpacked = await unpackUploads(
      names.map((n) => path.join(dir, n)),
      names.map((n) => n.replace(/^\d{4}__/, "")),
      path.join(work, "files"),
      progress,
    );
    const ingestOpts: IngestOptions = {
      node: opts.node || null,
      tz: opts.tz || null,
      year: opts.year ?? null,
      collectedMs: opts.collected ? Date.parse(opts.collected) : null,
      uploadMs: bundle.createdAt.getTime(),
      skew: opts.skew ?? null,
    };
    lap("unpackMs");
    const layout = describeBundle(unpacked);
    const ids = { incidentId: bundle.incidentId, bundleId };
    const spill = path.join(work, "spill");
    // the bundle's counts and status, in the transaction that stored it
    const finish = async (tx: SqlConn, files: AnalysedFile[], collector: string | null, stored: StoredBundle, how: Record<string, string>) => {
      await storeRedactionCounts(tx, bundleId, files, unpacked);
      const counts = {
        files: files.length,
        filesRead: files.filter((f) => f.status === "read").length,
        lines: files.reduce((s, f) => s + f.counts.lines, 0),
        records: files.reduce((s, f) => s + f.counts.records, 0),
        skipped: files.reduce((s, f) => s + f.counts.skipped, 0),
        events: stored.events,
        eventsOnNoNode: stored.eventsOnNoNode,
        findings: stored.findings,
        detectorFailures: stored.failures,
        timings,
        ...how,
      };
      await setReady(tx, bundleId, counts, collector);
      return stored;
    };

    let stored: StoredBundle | null = null;
    let twoPassReason: string | null = null;
    // by node, the whole ingest is one transaction; PGlite has one connection, so every other
    // query of the app (pages, progress) would wait for it: the embedded database keeps the two
    // passes, whose transaction covers the store step only
    if (db.sql.backend === "postgres" && canIngestByNode(unpacked, layout, ingestOpts)) {
      const held = { token: bundleId, executors: await ingestExecutors() };
      try {
        stored = await db.sql.transaction(async (tx) => {
          const r = await ingestByNode(tx, ids, unpacked, layout, ingestOpts, spill, bundleId, progress);
          lap("ingestMs");
          return finish(tx, r.files, r.collector, r.stored, { ingestPath: "by-node" });
        });
      } catch (e) {
        if (!(e instanceof NeedsTwoPasses)) throw e;
        // rolled back: the two passes store the bundle from its files again
        twoPassReason = e.message;
        await releaseParsed(held);
        lap("byNodeMs");
      }
    }
    if (!stored) {
      const parsed = await parseBundle(unpacked, ingestOpts, spill, bundleId, progress, layout);
      lap("parseMs");
      await pendingProgress;
      if (!parsed.files.some((f) => f.status === "read" && f.counts.records > 0)) throw new Error(nothingReadable(parsed.files));
      live("store", 0);
      await setProgress("store", 0, true);
      const how: Record<string, string> = twoPassReason ? { ingestPath: "two-pass", twoPassReason } : { ingestPath: "two-pass" };
      stored = await db.sql.transaction(async (tx) => {
        const r = await storeParsed(tx, ids, parsed, progress);
        lap("storeMs");
        return finish(tx, parsed.files, parsed.collector, r, how);
      });
    }
    const { events, findings, failures } = stored;
    if (failures.length) console.warn(`bundle ${bundleId}: detectors failed: ${failures.join("; ")}`);
    // fresh planner statistics for the rows just stored: PGlite has no autovacuum, and without
    // them the timeline's reads of a large boot plan as if it held a few rows (a sort of every row)
    await db.sql.exec(`ANALYZE "Event", "EventDensity"`).catch((e: Error) => console.warn(`bundle ${bundleId}: ANALYZE failed: ${e.message}`));
    rmSync(dir, { recursive: true, force: true });
    return { status: "ready", error: null, events, findings };
  } catch (e) {
    await pendingProgress;
    // the whole error for the server log; users get one sentence (no stack, no server path)
    console.error(`bundle ${bundleId} failed:`, e);
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
