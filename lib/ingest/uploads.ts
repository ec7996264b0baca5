/**
 * Where a bundle's uploads wait for the ingest: `<data dir>/uploads/<bundleId>/<nnn>__<original
 * name>` (written by the upload route or the CLI, `saveUpload`; removed once the bundle is
 * stored), with `.work/` beside them for the unpacked files and spilled events of a running
 * bundle (pipeline.ts), and `<data dir>/incoming/` for a request's files while they arrive
 * (receive.ts). Also the bundle's options as stored on `Bundle.options` and as the ingest takes them.
 */
import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SkewOption } from "../normalise/clock-skew";
import type { IngestOptions } from "./analyse-bundle";

const dataRoot = () => path.resolve(process.env.BOOTLINE_DATA_DIR ?? path.join(process.cwd(), ".data"));

/** Folder where a bundle's uploads wait for the ingest worker. */
export function uploadsDir(bundleId: string): string {
  return path.join(dataRoot(), "uploads", bundleId);
}

/** Removes a stored bundle's uploads; a failure is logged, never thrown (the bundle is stored). */
export function removeUploads(bundleId: string): void {
  try {
    rmSync(uploadsDir(bundleId), { recursive: true, force: true });
  } catch (e) {
    console.warn(`bundle ${bundleId}: its uploads were not removed: ${(e as Error).message}`);
  }
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
   * clock offsets, seconds added to a file's times (lib/normalise/clock-skew.ts): a number for every
   * Kubernetes events file, or bundle path → seconds; given offsets replace the estimated ones
   */
  skew?: SkewOption | null;
}

/** The uploads of bundle `bundleId` in upload order: their paths and original names. */
export function storedUploads(bundleId: string): { paths: string[]; names: string[] } {
  const dir = uploadsDir(bundleId);
  const files = readdirSync(dir)
    .filter((n) => n !== ".work")
    .sort();
  return { paths: files.map((n) => path.join(dir, n)), names: files.map((n) => n.replace(/^\d{4}__/, "")) };
}

/** The ingest's options for a bundle: its stored `options` and the time its upload arrived. */
export function ingestOptions(bundle: { options: unknown; createdAt: Date }): IngestOptions {
  const opts = (bundle.options ?? {}) as BundleOptions;
  return {
    node: opts.node || null,
    tz: opts.tz || null,
    year: opts.year ?? null,
    collectedMs: opts.collected ? Date.parse(opts.collected) : null,
    uploadMs: bundle.createdAt.getTime(),
    skew: opts.skew ?? null,
  };
}

/** Folder for a running bundle's unpacked files and spilled events, beside its uploads. */
export function workDir(bundleId: string): string {
  return path.join(uploadsDir(bundleId), ".work");
}
