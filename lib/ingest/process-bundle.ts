/**
 * Runs one queued bundle through the whole pipeline: unpack -> parse and normalise ->
 * store (COPY) -> detect, keeping `Bundle.status/phase/progress` current for the UI.
 * Storing and detecting happen in one transaction: on any error the bundle is marked
 * `failed` with the reason and none of its rows remain (DESIGN.md "Bundle status").
 *
 * Uploads wait on disk in `<data dir>/uploads/<bundleId>/<nnn>__<original name>` (written
 * by the upload route or the CLI) and are removed once the bundle is stored. The unpacked
 * files and spilled events live in `.work/` beside them while the bundle runs (ingest-bundle.ts)
 * and are removed when it ends either way. Phase timings (ms) go to `Bundle.counts.timings`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { unpackUpload, type UnpackedFile } from "../bundle/unpack";
import type { DbHandles } from "../db/connection";
import type { SkewOption } from "../timeline/clock-skew";
import type { IngestOptions } from "./analyse-bundle";
import { parseBundle, releaseParsed, spillUnpacked, storeParsed, type ParsedBundle } from "./ingest-bundle";
import { unreadableSummary } from "./file-reason";
import { storeRedactionCounts } from "./redact-file";

/** Folder where a bundle's uploads wait for the ingest worker. */
export function uploadsDir(bundleId: string): string {
  const root = path.resolve(process.env.BOOTLINE_DATA_DIR ?? path.join(process.cwd(), ".data"));
  return path.join(root, "uploads", bundleId);
}

/** Stores an upload's bytes for the worker; `ord` keeps upload order. */
export function saveUpload(bundleId: string, ord: number, name: string, data: Buffer): void {
  const dir = uploadsDir(bundleId);
  mkdirSync(dir, { recursive: true });
  const safe = name.replace(/[\\/]/g, "_").replace(/^\.+/, "_") || "upload";
  writeFileSync(path.join(dir, `${String(ord).padStart(4, "0")}__${safe}`), data);
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
  let lastWrite = 0;
  const setProgress = async (phase: string, progress: number, force = false) => {
    const now = Date.now();
    if (!force && now - lastWrite < 300) return;
    lastWrite = now;
    await db.sql.query(`UPDATE "Bundle" SET phase = $2, progress = $3 WHERE id = $1`, [bundleId, phase, progress]);
  };
  let pendingProgress: Promise<void> = Promise.resolve();
  const progress = (phase: string, f: number) => {
    pendingProgress = pendingProgress.then(() => setProgress(phase, Math.max(0, Math.min(1, f)))).catch(() => {});
  };

  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };
  const work = path.join(uploadsDir(bundleId), ".work");
  let held: ParsedBundle | null = null;
  try {
    await db.sql.query(`UPDATE "Bundle" SET status = 'parsing', phase = 'unpack', progress = 0, "startedAt" = now(), error = NULL WHERE id = $1`, [bundleId]);
    const dir = uploadsDir(bundleId);
    rmSync(work, { recursive: true, force: true });
    const names = readdirSync(dir).filter((n) => n !== ".work").sort();
    const unpacked: UnpackedFile[] = [];
    for (let i = 0; i < names.length; i++) {
      const original = names[i].replace(/^\d{4}__/, "");
      const files = await unpackUpload(original, readFileSync(path.join(dir, names[i])));
      // each upload's files wait on disk, so a bundle of many uploads never sits in memory whole
      spillUnpacked(files, path.join(work, "files"), unpacked.length);
      unpacked.push(...files);
      progress("unpack", (i + 1) / names.length);
    }
    const ingestOpts: IngestOptions = {
      node: opts.node || null,
      tz: opts.tz || null,
      year: opts.year ?? null,
      collectedMs: opts.collected ? Date.parse(opts.collected) : null,
      uploadMs: bundle.createdAt.getTime(),
      skew: opts.skew ?? null,
    };
    lap("unpackMs");
    const parsed = await parseBundle(unpacked, ingestOpts, path.join(work, "spill"), bundleId, progress);
    held = parsed;
    lap("parseMs");
    await pendingProgress;
    const readable = parsed.files.filter((f) => f.status === "read" && f.counts.records > 0);
    if (!readable.length) {
      throw new Error(`nothing in this bundle could be read (${unreadableSummary(parsed.files) || "empty upload"})`);
    }
    await setProgress("store", 0, true);
    const { events, findings, failures } = await db.sql.transaction(async (tx) => {
      const stored = await storeParsed(tx, { incidentId: bundle.incidentId, bundleId }, parsed, progress);
      await storeRedactionCounts(tx, bundleId, parsed.files, unpacked);
      lap("storeMs");
      const counts = {
        files: parsed.files.length,
        filesRead: parsed.files.filter((f) => f.status === "read").length,
        lines: parsed.files.reduce((s, f) => s + f.counts.lines, 0),
        records: parsed.files.reduce((s, f) => s + f.counts.records, 0),
        skipped: parsed.files.reduce((s, f) => s + f.counts.skipped, 0),
        events: stored.events,
        findings: stored.findings,
        detectorFailures: stored.failures,
        timings,
      };
      await tx.query(
        `UPDATE "Bundle" SET status = 'ready', phase = 'done', progress = 1, counts = $2, collector = $3, "finishedAt" = now() WHERE id = $1`,
        [bundleId, JSON.stringify(counts), parsed.collector],
      );
      return stored;
    });
    if (failures.length) console.warn(`bundle ${bundleId}: detectors failed: ${failures.join("; ")}`);
    rmSync(dir, { recursive: true, force: true });
    return { status: "ready", error: null, events, findings };
  } catch (e) {
    await pendingProgress;
    const message = (e as Error).message || String(e);
    await db.sql.query(`UPDATE "Bundle" SET status = 'failed', phase = 'done', error = $2, "finishedAt" = now() WHERE id = $1`, [bundleId, message]);
    return { status: "failed", error: message, events: 0, findings: 0 };
  } finally {
    if (held) await releaseParsed(held);
    rmSync(work, { recursive: true, force: true });
  }
}
