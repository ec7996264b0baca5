/**
 * A file as unpacking lists it (`UnpackedFile`: read or skipped with a reason, its bytes in
 * memory or waiting on disk, where it came from) and the reads of its content. Reads only.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";

export interface UnpackedFile {
  /** path inside the upload (nested members as `outer.tgz/inner/member.log`) */
  path: string;
  status: "read" | "skipped";
  /** why it was skipped (`symlink`, `hardlink`, `device`, `path-escape`, `encrypted`, `too-large`, `too-many-files`, `corrupt-archive`, ...) */
  reason?: string;
  data?: Buffer;
  /**
   * where the bytes wait on disk instead of `data` (the ingest writes each upload's files out
   * as soon as it is unpacked, so a bundle never sits in memory whole; read with `fileBytes`)
   */
  dataPath?: string;
  /** byte size of the content (`data.length`, or the size of `dataPath`) */
  size?: number;
  /** modification time from the archive header, UTC ms */
  mtimeMs?: number;
  /** a problem that did not stop the read (e.g. "gzip stream truncated: kept 1,204 bytes") */
  error?: string;
  /** the upload (original file name) this file came from */
  upload?: string;
  /**
   * the innermost archive holding the file: the upload's name for members of the uploaded archive,
   * the nested archive's `path` for members of a nested one; undefined for a plain (or `.gz`) upload
   */
  archive?: string;
  /** the file's path inside `archive` (the path itself when `archive` is undefined) */
  member?: string;
  /** secrets replaced in the file's text by the ingest, per kind (lib/redact/redact.ts) */
  redacted?: Record<string, number>;
  /** sha256 of the content (hex), when the ingest hashed it as it unpacked the file */
  sha256?: string;
}

/**
 * The content of an unpacked file: `data`, else the file at `dataPath`; null when it has none.
 * With `reuse`, a file on disk of at most `REUSE_MAX` bytes is read into a buffer this thread
 * keeps and reads the next such file into: the result is only valid until then, and is for a
 * caller that keeps none of it (it decodes or hashes it). Each fresh buffer costs a page fault per
 * 4 KiB page the first time it is written; a kept buffer has its pages already.
 */
export function fileBytes(f: UnpackedFile, reuse = false): Buffer | null {
  if (f.status !== "read") return null;
  if (f.data) return f.data;
  if (!f.dataPath) return null;
  if (!reuse || (f.size ?? Infinity) > REUSE_MAX) return readFileSync(f.dataPath);
  const fd = openSync(f.dataPath, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > REUSE_MAX) return readFileSync(fd);
    if (readBuffer.length < size) readBuffer = Buffer.allocUnsafeSlow(Math.min(REUSE_MAX, Math.max(size, 2 * readBuffer.length)));
    let got = 0;
    while (got < size) {
      const n = readSync(fd, readBuffer, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    return readBuffer.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
/** Largest file `fileBytes(f, true)` reads into its kept buffer (which so stays at most this size), bytes. */
const REUSE_MAX = 64 << 20;
let readBuffer = Buffer.alloc(0);

/** Lets go of the buffer `fileBytes(f, true)` keeps (call when this thread has no bundle in hand). */
export function releaseReadBuffer(): void {
  readBuffer = Buffer.alloc(0);
}

/** Byte size of an unpacked file's content (0 when it has none). */
export function fileSize(f: UnpackedFile): number {
  if (f.status !== "read") return 0;
  return f.data?.length ?? f.size ?? 0;
}

/** The first `n` bytes of an unpacked file's content (reads only those from disk). */
export function fileHead(f: UnpackedFile, n: number): Buffer | null {
  if (f.status !== "read") return null;
  if (f.data) return f.data.subarray(0, n);
  if (!f.dataPath) return null;
  const fd = openSync(f.dataPath, "r");
  try {
    const buf = Buffer.alloc(Math.min(n, f.size ?? n));
    const got = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}
