/**
 * Safe unpacking of an upload into the files it holds (DESIGN.md "Pipeline").
 *
 * Accepts `.tar`, `.tar.gz`/`.tgz`, `.tar.xz`/`.xz` (sosreport's default; decompressed by the
 * `xz-decompress` package: WebAssembly, no native build), `.zip`, `.gz` and plain files, recognised by their
 * magic bytes (the name only breaks ties), and archives nested inside archives up to
 * `limits.maxDepth`. Never writes to disk and never follows links: entries with absolute
 * paths or `..`, symbolic and hard links, devices and FIFOs are listed as skipped with a
 * reason, as are encrypted zip entries and anything past a limit. A truncated archive keeps
 * what was readable and reports where it broke. Nothing here throws for bad input: every
 * problem becomes an entry with `status: "skipped"` or an `error` on a read entry.
 *
 * Member paths of nested archives are `outer.tar.gz/inner/member.log` (DESIGN.md "CLI
 * contract details"). Data is held in memory (bounded by the limits).
 *
 * Hostile and broken input (issue 7; limits in lib/bundle/limits.ts, README "Limits"):
 * - every decompression (gzip, xz, zip entry, nested ones too) draws on one budget per upload:
 *   the total unpacked size and `maxRatio` times the upload's size (past `RATIO_FREE_BYTES`), so
 *   an archive bomb stops early with reason `ratio-limit` instead of filling memory;
 * - files past `maxFiles` (read or refused) are listed once, as one `too-many-files` entry that
 *   counts them;
 * - a member cut by a truncated archive keeps what it held, with an error that says how many of
 *   its bytes arrived and which line may be cut; a zip whose central directory is missing (cut
 *   short) is read from its local headers;
 * - read files get a note (`error`) when they are empty, not valid UTF-8 (first bad line), or
 *   named like an archive they are not.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { ReadableStream } from "node:stream/web";
import * as zlib from "node:zlib";
import { Parser as TarParser } from "tar";
import xzDecompress from "xz-decompress";
import yauzl from "yauzl";
import { fmtSize, LIMIT_ENV, LIMITS, RATIO_FREE_BYTES } from "./limits";

export interface UnpackLimits {
  /** largest unpacked size of one file, bytes */
  maxFileBytes: number;
  /** largest total unpacked size of one upload, bytes */
  maxTotalBytes: number;
  /** most files in one upload */
  maxFiles: number;
  /** archives inside archives: how deep */
  maxDepth: number;
  /** unpacked bytes per byte of upload (archive bombs); default `LIMITS.maxRatio` */
  maxRatio?: number;
}

/** The limits in force (lib/bundle/limits.ts: defaults and BOOTLINE_MAX_* variables). */
export const DEFAULT_LIMITS: UnpackLimits = {
  maxFileBytes: LIMITS.maxFileBytes,
  maxTotalBytes: LIMITS.maxTotalBytes,
  maxFiles: LIMITS.maxFiles,
  maxDepth: LIMITS.maxDepth,
  maxRatio: LIMITS.maxRatio,
};

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

type Kind = "gzip" | "zip" | "tar" | "xz" | "plain";

/**
 * The content of an unpacked file: `data`, else the file at `dataPath`; null when it has none.
 * With `reuse`, a file on disk of at most `REUSE_MAX` bytes is read into a buffer this thread
 * keeps and reads the next such file into: the result is only valid until then, and is for a
 * caller that keeps none of it (it decodes or hashes it). Each fresh buffer costs a page fault per
 * 4 KiB the first time it is written, which on the project's 2-core VMs is about 12 us (2 GiB of
 * fresh pages took 6.5 s of CPU): a bench node's 15 MB, read fresh, took about 45 ms of faults.
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

/** Recognises a container format from its first bytes. */
export function sniffContainer(data: Buffer): Kind {
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) return "gzip";
  if (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50) return "zip";
  if (data.length >= 6 && data[0] === 0xfd && data.subarray(1, 6).toString("latin1") === "7zXZ\0") return "xz";
  if (data.length >= 262 && data.subarray(257, 262).toString("latin1") === "ustar") return "tar";
  return "plain";
}

/** Normalises a member path; returns null when it is absolute or escapes with `..`. */
export function safeMemberPath(p: string): string | null {
  const s = p.replace(/\\/g, "/");
  if (s.startsWith("/") || /^[A-Za-z]:/.test(s)) return null;
  const parts: string[] = [];
  for (const part of s.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") return null;
    parts.push(part);
  }
  return parts.length ? parts.join("/") : null;
}

const TOO_LARGE = "too-large";

/**
 * zlib's output chunk size for gunzipping `data` (bytes): the size the gzip trailer states
 * (ISIZE, RFC 1952 section 2.3.1: the input's length mod 2^32, of the last member) and a little
 * room, so a one-member stream inflates into one buffer that `gunzipSync` returns as it is,
 * instead of 16 KiB chunks it then copies into one (a second copy of every byte, each in memory
 * the process has not touched before). A trailer is not trusted: at most what deflate can
 * expand `data` to (1032:1), the caller's limit and 1 GiB (beyond, zlib grows chunk by chunk), at
 * least zlib's default.
 */
function gunzipChunkSize(data: Buffer, max: number): number {
  const stated = data.length >= 18 ? data.readUInt32LE(data.length - 4) : 0;
  return Math.max(zlib.constants.Z_DEFAULT_CHUNK, Math.min(stated + 64, data.length * 1032 + 64, max + 1, 1 << 30));
}

/**
 * `gunzipSync` with the chunk size of `gunzipChunkSize`. A trailer can lie (zlib ignores NUL
 * padding after a member, and the padding can end in any four bytes): when the output is much
 * smaller than the buffer it was written into, it is copied out, so a tiny file does not keep a
 * large allocation alive; when that buffer cannot be had at all, it inflates in zlib's chunks.
 * Throws what `gunzipSync` throws (a broken stream, `ERR_BUFFER_TOO_LARGE` past `max`).
 */
function gunzipSized(data: Buffer, max: number): Buffer {
  const chunkSize = gunzipChunkSize(data, max);
  let out: Buffer;
  try {
    out = zlib.gunzipSync(data, { maxOutputLength: max, chunkSize });
  } catch (e) {
    if (!(e instanceof RangeError) || (e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || chunkSize <= zlib.constants.Z_DEFAULT_CHUNK) throw e;
    out = zlib.gunzipSync(data, { maxOutputLength: max });
  }
  return out.buffer.byteLength > 2 * out.length + (1 << 16) ? Buffer.from(out) : out;
}

function gunzipLenient(data: Buffer, max: number): { data: Buffer; error?: string } {
  try {
    return { data: gunzipSized(data, max) };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "ERR_BUFFER_TOO_LARGE") return { data: Buffer.alloc(0), error: TOO_LARGE };
    // truncated or corrupt stream: keep what decompresses
    const partial = partialGunzip(data, max);
    if (partial === null) return { data: Buffer.alloc(0), error: TOO_LARGE };
    return { data: partial, error: `gzip stream broken (${err.message}) after ${data.length} compressed bytes: kept the first ${partial.length} bytes` };
  }
}

/**
 * Decompresses as much of a damaged gzip member as possible: raw inflate of the deflate
 * body with Z_SYNC_FLUSH (a cut stream yields what it holds); when the body is corrupt
 * midway, the longest prefix that inflates (binary search). Null when even that is over `max`.
 */
function partialGunzip(data: Buffer, max: number): Buffer | null {
  // gzip header: 10 bytes, then optional FEXTRA, FNAME, FCOMMENT, FHCRC (RFC 1952 section 2.3)
  let pos = 10;
  const flg = data[3] ?? 0;
  if (flg & 4) pos += 2 + (data.length > pos + 1 ? data.readUInt16LE(pos) : 0);
  if (flg & 8) while (pos < data.length && data[pos++] !== 0);
  if (flg & 16) while (pos < data.length && data[pos++] !== 0);
  if (flg & 2) pos += 2;
  return inflateRawLenient(data.subarray(pos), max);
}

/** Raw inflate that keeps what a cut or damaged deflate stream holds (see `partialGunzip`); null when over `max`. */
function inflateRawLenient(body: Buffer, max: number): Buffer | null {
  const inflate = (b: Buffer) => zlib.inflateRawSync(b, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: max });
  try {
    return inflate(body);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") return null;
    let lo = 0;
    let hi = body.length;
    let best: Buffer = Buffer.alloc(0);
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      try {
        best = inflate(body.subarray(0, mid));
        lo = mid + 1;
      } catch {
        hi = mid - 1;
      }
    }
    return best;
  }
}

interface Ctx {
  limits: UnpackLimits;
  /** files read so far */
  files: number;
  /** bytes of the files read so far */
  total: number;
  /** bytes produced by decompression so far (every layer), against the ratio budget */
  inflated: number;
  /** most bytes decompression may produce for this upload: `maxRatio` times its size */
  ratioBudget: number;
  out: UnpackedFile[];
  upload: string;
  /** the one entry that counts files past `maxFiles` */
  overflow: UnpackedFile | null;
  overflowCount: number;
}

/** Where a member sits: the innermost archive and its path inside it. */
interface Origin {
  archive?: string;
  member: string;
}

/** Sets where `f` came from: the upload, the innermost archive, the path inside it. */
function withOrigin(ctx: Ctx, f: UnpackedFile, origin?: Origin): UnpackedFile {
  f.upload = ctx.upload;
  if (origin) {
    if (origin.archive !== undefined) f.archive = origin.archive;
    f.member = origin.member;
  } else f.member = f.path;
  return f;
}

function add(ctx: Ctx, f: UnpackedFile, origin?: Origin): void {
  withOrigin(ctx, f, origin);
  // past the file limit (files read, or entries listed at all), a member only adds to one counting entry
  if (ctx.overflow || ctx.files >= ctx.limits.maxFiles || ctx.out.length >= ctx.limits.maxFiles) overflow(ctx, f, 1);
  else addWithin(ctx, f);
}

/** Counts `n` members past the file limit on the one `too-many-files` entry (made from `f` when there is none yet). */
function overflow(ctx: Ctx, f: UnpackedFile, n: number): void {
  ctx.overflowCount += n;
  const error = `${ctx.overflowCount.toLocaleString("en-US")} more file${ctx.overflowCount === 1 ? "" : "s"} (from this one on) not read: the upload holds more than ${ctx.limits.maxFiles.toLocaleString("en-US")} files (${LIMIT_ENV.maxFiles})`;
  if (ctx.overflow) ctx.overflow.error = error;
  else {
    ctx.overflow = { path: f.path, status: "skipped", reason: "too-many-files", error, upload: f.upload, archive: f.archive, member: f.member };
    ctx.out.push(ctx.overflow);
  }
}

function addWithin(ctx: Ctx, f: UnpackedFile): void {
  if (f.status === "read") {
    const n = f.data?.length ?? 0;
    if (ctx.total + n > ctx.limits.maxTotalBytes) {
      ctx.out.push({
        path: f.path,
        status: "skipped",
        reason: "total-size-limit",
        error: `the upload unpacks to more than ${fmtSize(ctx.limits.maxTotalBytes)} (${LIMIT_ENV.maxTotalBytes}); this file (${fmtSize(n)}) and those after it were not read`,
        upload: f.upload,
        archive: f.archive,
        member: f.member,
      });
      return;
    }
    ctx.files++;
    ctx.total += n;
    if (f.data) noteContent(f, f.data);
  }
  ctx.out.push(f);
}

/** Joins problems found for one file into its `error`. */
function note(f: UnpackedFile, message: string): void {
  f.error = f.error ? `${f.error}; ${message}` : message;
}

/** 1-based line of byte `offset` (the number of LFs before it, plus one). */
function lineAt(data: Buffer, offset: number): number {
  let n = 1;
  for (let i = data.indexOf(10); i !== -1 && i < offset; i = data.indexOf(10, i + 1)) n++;
  return n;
}

/** The last line of data kept from a cut stream, when it may be incomplete (no final newline). */
function cutLineNote(data: Buffer): string {
  if (!data.length || data[data.length - 1] === 10) return "";
  return `; the last line (line ${lineAt(data, data.length - 1).toLocaleString("en-US")}) may be incomplete`;
}

const ARCHIVE_NAME = /\.(tar\.gz|tgz|tar\.xz|txz|tar|zip|gz|xz)$/i;

/** Notes on a read file's content: empty, not valid UTF-8, named like an archive it is not. */
function noteContent(f: UnpackedFile, data: Buffer): void {
  if (data.length === 0) return note(f, "empty file (0 bytes)");
  const ext = ARCHIVE_NAME.exec(f.path)?.[1];
  if (ext) note(f, `named .${ext.toLowerCase()} but holds no ${ext.toLowerCase()} data: read as a plain file`);
  // a NUL in the first 8 KiB makes it binary (the ingest skips it); otherwise check the encoding
  if (data.subarray(0, 8192).includes(0) || isUtf8(data)) return;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(data);
  const first = text.indexOf("\uFFFD");
  let bad = 0;
  for (let i = first; i !== -1; i = text.indexOf("\uFFFD", i + 1)) bad++;
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < first; i = text.indexOf("\n", i + 1)) line++;
  note(f, `not valid UTF-8: ${bad.toLocaleString("en-US")} byte sequence${bad === 1 ? "" : "s"} shown as \uFFFD (first on line ${line.toLocaleString("en-US")})`);
}

function stripSuffix(name: string, kind: Kind): string {
  if (kind === "gzip") return name.replace(/\.(tgz)$/i, ".tar").replace(/\.gz$/i, "");
  if (kind === "xz") return name.replace(/\.(txz)$/i, ".tar").replace(/\.xz$/i, "");
  return name;
}

/** Most bytes the next decompression may produce, and the limit that sets it. */
function decompressCap(ctx: Ctx): { max: number; by: "total" | "ratio" } {
  const byTotal = Math.max(0, ctx.limits.maxTotalBytes - ctx.total);
  const byRatio = Math.max(0, ctx.ratioBudget - ctx.inflated);
  return byRatio < byTotal ? { max: byRatio, by: "ratio" } : { max: byTotal, by: "total" };
}

/** Skip entry for a decompression stopped by `decompressCap` (or by the file limit). */
function overCap(ctx: Ctx, by: "total" | "ratio" | "file", compressed: number): { reason: string; error: string } {
  if (by === "ratio")
    return {
      reason: "ratio-limit",
      error: `unpacks to more than ${ctx.limits.maxRatio ?? LIMITS.maxRatio} times the upload's size (${fmtSize(ctx.ratioBudget)} in all; ${LIMIT_ENV.maxRatio}): looks like an archive bomb, not unpacked (${fmtSize(compressed)} compressed)`,
    };
  if (by === "total")
    return { reason: "total-size-limit", error: `the upload unpacks to more than ${fmtSize(ctx.limits.maxTotalBytes)} (${LIMIT_ENV.maxTotalBytes}); not unpacked` };
  return { reason: TOO_LARGE, error: `larger than ${fmtSize(ctx.limits.maxFileBytes)} unpacked (${LIMIT_ENV.maxFileBytes}); not read` };
}

/**
 * Decompresses an xz stream through `xz-decompress` (xz-embedded compiled to WebAssembly), chunk by
 * chunk so that `max` bytes of output stop it (`too-large`). A truncated or corrupt stream keeps the
 * bytes decompressed before the fault, with an error saying so.
 */
export async function xzDecompressLenient(data: Buffer, max: number): Promise<{ data: Buffer; error?: string }> {
  const src = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      c.close();
    },
  });
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    const out = new xzDecompress.XzReadableStream(src as unknown as globalThis.ReadableStream<Uint8Array>);
    const reader = out.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > max) {
        await reader.cancel().catch(() => {});
        return { data: Buffer.alloc(0), error: "too-large" };
      }
      chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    }
  } catch (e) {
    const kept = Buffer.concat(chunks);
    return { data: kept, error: `xz stream broken (${(e as Error).message}): kept ${kept.length} bytes` };
  }
  return { data: Buffer.concat(chunks) };
}

async function expand(ctx: Ctx, path: string, data: Buffer, depth: number, mtimeMs?: number, origin?: Origin): Promise<void> {
  const kind = sniffContainer(data);
  // a compressed single file keeps the place of the compressed one, less the suffix
  const inner = (o: Origin | undefined, k: Kind): Origin | undefined => (o ? { archive: o.archive, member: stripSuffix(o.member, k) } : undefined);
  if (kind === "plain") {
    if (data.length > ctx.limits.maxFileBytes) return add(ctx, { path, status: "skipped", ...overCap(ctx, "file", data.length) }, origin);
    return add(ctx, { path, status: "read", data, mtimeMs }, origin);
  }
  if (depth >= ctx.limits.maxDepth)
    return add(ctx, { path, status: "skipped", reason: "nesting-too-deep", error: `an archive nested more than ${ctx.limits.maxDepth} levels deep (${LIMIT_ENV.maxDepth}); not unpacked` }, origin);
  if (kind === "gzip" || kind === "xz") {
    const cap = decompressCap(ctx);
    const g = kind === "gzip" ? gunzipLenient(data, cap.max) : await xzDecompressLenient(data, cap.max);
    if (g.error === TOO_LARGE) return add(ctx, { path, status: "skipped", ...overCap(ctx, cap.by, data.length) }, origin);
    ctx.inflated += g.data.length;
    const innerPath = stripSuffix(path, kind);
    const innerKind = sniffContainer(g.data);
    if (innerKind === "tar") return expandTar(ctx, path, g.data, depth + 1, g.error, origin);
    if (innerKind === "plain") {
      if (g.data.length === 0 && g.error) return add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: g.error }, origin);
      if (g.data.length > ctx.limits.maxFileBytes) return add(ctx, { path: innerPath, status: "skipped", ...overCap(ctx, "file", data.length) }, inner(origin, kind));
      const f: UnpackedFile = { path: innerPath, status: "read", data: g.data, mtimeMs };
      if (g.error) f.error = g.error + cutLineNote(g.data);
      if (innerPath === path) note(f, `${kind}-compressed although not named .${kind === "gzip" ? "gz" : "xz"}: decompressed`);
      return add(ctx, f, inner(origin, kind));
    }
    return expand(ctx, innerPath, g.data, depth + 1, mtimeMs, inner(origin, kind));
  }
  if (kind === "tar") return expandTar(ctx, path, data, depth + 1, undefined, origin);
  return expandZip(ctx, path, data, depth + 1, origin);
}

function member(prefix: string, depth: number, name: string): string {
  // the top-level upload's members are named by their path alone; nested ones under the archive's path
  return depth <= 1 ? name : `${prefix}/${name}`;
}

/** The archive name members of the archive at `path` are listed under (the upload's name at the top). */
function archiveName(ctx: Ctx, path: string, depth: number): string {
  return depth <= 1 ? ctx.upload : path;
}

/** A member found in an archive: data to expand, or a reason it was refused. */
interface Found {
  name: string;
  data?: Buffer;
  mtimeMs?: number;
  reason?: string;
  /** a problem with this member (cut short, refused why) */
  error?: string;
}

async function expandTar(ctx: Ctx, path: string, data: Buffer, depth: number, priorError?: string, origin?: Origin): Promise<void> {
  // members in archive order: files to expand, or skips to list
  const pending: Found[] = [];
  const beyond: { n: number; first?: string } = { n: 0 };
  let brokeAt: string | undefined = priorError;
  let cutMember = false;
  await new Promise<void>((resolve) => {
    const parser = new TarParser({
      strict: false,
      onwarn: (_code: string, message: string) => {
        brokeAt ??= message;
      },
    });
    parser.on("entry", (entry: import("tar").ReadEntry) => {
      const safe = safeMemberPath(entry.path);
      const name = member(path, depth, safe ?? entry.path);
      const type = entry.type;
      // far past the file limit: count, hold nothing
      if (pending.length >= ctx.limits.maxFiles && type !== "Directory") {
        beyond.n++;
        beyond.first ??= name;
        return entry.resume();
      }
      const skip = (reason: string, error?: string) => {
        pending.push({ name, reason, error });
        entry.resume();
      };
      if (!safe) return skip("path-escape", "an absolute path or one that climbs out with `..`: not read");
      if (type === "Directory") return entry.resume();
      if (type === "SymbolicLink") return skip("symlink");
      if (type === "Link") return skip("hardlink");
      if (type === "CharacterDevice" || type === "BlockDevice" || type === "FIFO") return skip("device");
      if (type !== "File" && type !== "OldFile" && type !== "ContiguousFile") return skip(`unsupported-entry-${String(type).toLowerCase()}`);
      if ((entry.size ?? 0) > ctx.limits.maxFileBytes) return skip(TOO_LARGE, overCap(ctx, "file", 0).error);
      const size = entry.size ?? 0;
      const chunks: Buffer[] = [];
      let got = 0;
      entry.on("data", (c: Buffer) => {
        chunks.push(c);
        got += c.length;
      });
      entry.on("end", () => {
        // the parser hands a member of an archive held in memory as one view of it: kept as is (no copy)
        const f: Found = { name, data: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), mtimeMs: entry.mtime?.getTime() };
        if (got < size) {
          cutMember = true;
          f.error = `cut short: the archive ends inside this file after ${got.toLocaleString("en-US")} of its ${size.toLocaleString("en-US")} bytes`;
        }
        pending.push(f);
      });
    });
    parser.on("end", () => resolve());
    parser.on("error", (e: Error) => {
      brokeAt ??= e.message;
      resolve();
    });
    parser.end(data);
  });
  const arch = archiveName(ctx, path, depth);
  const at = (name: string): Origin => ({ archive: arch, member: depth <= 1 ? name : name.slice(path.length + 1) });
  for (const p of pending) {
    if (p.data && p.error) {
      // a cut member: keep what it held, say where it broke (never unpack a cut archive member further)
      const f: UnpackedFile = { path: p.name, status: "read", data: p.data, mtimeMs: p.mtimeMs, error: `${p.error} (archive ${path} broke: ${brokeAt ?? "truncated"})${cutLineNote(p.data)}` };
      if (p.data.length > ctx.limits.maxFileBytes) add(ctx, { path: p.name, status: "skipped", ...overCap(ctx, "file", 0) }, at(p.name));
      else add(ctx, f, at(p.name));
    } else if (p.data) await expand(ctx, p.name, p.data, depth, p.mtimeMs, at(p.name));
    else add(ctx, { path: p.name, status: "skipped", reason: p.reason, error: p.error }, at(p.name));
  }
  if (beyond.first) overflow(ctx, withOrigin(ctx, { path: beyond.first, status: "skipped" }, at(beyond.first)), beyond.n);
  if (brokeAt && pending.length === 0) add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: `nothing readable in this archive: ${brokeAt}` }, origin);
  else if (pending.length === 0) add(ctx, { path, status: "skipped", reason: "empty-archive", error: "the archive holds no files" }, origin);
  else if (brokeAt && !cutMember) {
    const last = ctx.out[ctx.out.length - 1];
    if (last) note(last, `archive ${path} broke after this member: ${brokeAt}`);
  }
}

const ZIP_LOCAL = 0x04034b50;
const ZIP_CENTRAL = 0x02014b50;

/** MS-DOS date and time of a zip header, as UTC ms (zip stores local time without a zone). */
function dosTime(date: number, time: number): number {
  return Date.UTC(((date >> 9) & 0x7f) + 1980, ((date >> 5) & 0x0f) - 1, date & 0x1f, (time >> 11) & 0x1f, (time >> 5) & 0x3f, (time & 0x1f) * 2);
}

/**
 * Reads a zip without its central directory (a zip cut short loses it first): walks the local
 * file headers in order, inflating each member as far as its bytes go. Entry types (links,
 * devices) live only in the central directory, so every member is read as a plain file (a
 * link's content is the path it names; nothing is followed).
 */
function salvageZip(ctx: Ctx, data: Buffer, why: string): Found[] {
  const found: Found[] = [];
  let p = data.indexOf(Buffer.from([0x50, 0x4b, 3, 4]));
  while (p !== -1 && p + 30 <= data.length) {
    const flags = data.readUInt16LE(p + 6);
    const method = data.readUInt16LE(p + 8);
    const compSize = data.readUInt32LE(p + 18);
    const nameLen = data.readUInt16LE(p + 26);
    const extraLen = data.readUInt16LE(p + 28);
    const start = p + 30 + nameLen + extraLen;
    if (start > data.length) break;
    const raw = data.subarray(p + 30, p + 30 + nameLen).toString("utf8");
    const mtimeMs = dosTime(data.readUInt16LE(p + 12), data.readUInt16LE(p + 10));
    let end: number;
    if (!(flags & 8) && compSize > 0) end = Math.min(start + compSize, data.length);
    else {
      // sizes in a data descriptor after the data: the member runs to the next header
      let q = start;
      end = data.length;
      while ((q = data.indexOf(0x50, q)) !== -1 && q + 4 <= data.length) {
        const sig = data.readUInt32LE(q);
        if (sig === ZIP_LOCAL || sig === ZIP_CENTRAL) {
          end = q;
          break;
        }
        q++;
      }
    }
    const cut = !(flags & 8) && start + compSize > data.length;
    const next = data.indexOf(Buffer.from([0x50, 0x4b, 3, 4]), Math.max(end, p + 4));
    p = next;
    if (raw.endsWith("/")) continue;
    const name = raw;
    if (flags & 1) {
      found.push({ name, reason: "encrypted", error: "an encrypted (password-protected) zip entry: bootline cannot read it; upload it unencrypted" });
      continue;
    }
    const body = data.subarray(start, end);
    const cap = decompressCap(ctx);
    let content: Buffer | null;
    if (method === 0) content = body;
    else if (method === 8) content = inflateRawLenient(body, Math.min(cap.max, ctx.limits.maxFileBytes + 1));
    else {
      found.push({ name, reason: "unsupported-compression", error: `zip compression method ${method} is not supported (stored and deflate are)` });
      continue;
    }
    if (content === null) {
      found.push({ name, ...overCap(ctx, cap.max < ctx.limits.maxFileBytes ? cap.by : "file", body.length) });
      continue;
    }
    if (method === 8) ctx.inflated += content.length;
    const error = `read from its local header (${why})${cut ? `; cut short: the archive ends inside this file after ${(data.length - start).toLocaleString("en-US")} of its ${compSize.toLocaleString("en-US")} compressed bytes` : ""}`;
    found.push({ name, data: content, mtimeMs, error });
  }
  return found;
}

function expandZip(ctx: Ctx, path: string, data: Buffer, depth: number, origin?: Origin): Promise<void> {
  const arch = archiveName(ctx, path, depth);
  const at = (name: string): Origin => ({ archive: arch, member: depth <= 1 ? name : name.slice(path.length + 1) });
  const flush = async (found: Found[]) => {
    for (const f of found) {
      if (f.data && f.error) {
        const out: UnpackedFile = { path: f.name, status: "read", data: f.data, mtimeMs: f.mtimeMs, error: f.error + (/cut short/.test(f.error) ? cutLineNote(f.data) : "") };
        if (f.data.length > ctx.limits.maxFileBytes) add(ctx, { path: f.name, status: "skipped", ...overCap(ctx, "file", 0) }, at(f.name));
        else add(ctx, out, at(f.name));
      } else if (f.data) await expand(ctx, f.name, f.data, depth, f.mtimeMs, at(f.name));
      else add(ctx, { path: f.name, status: "skipped", reason: f.reason, error: f.error }, at(f.name));
    }
  };
  return new Promise<void>((resolve) => {
    yauzl.fromBuffer(data, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) {
        // no readable central directory (a zip cut short loses it first): read the local headers
        const salvaged = salvageZip(ctx, data, `zip directory unreadable: ${err?.message ?? "unknown error"}`);
        const named = salvaged.map((f) => ({ ...f, name: member(path, depth, safeMemberPath(f.name) ?? f.name), reason: safeMemberPath(f.name) ? f.reason : "path-escape", data: safeMemberPath(f.name) ? f.data : undefined }));
        if (!named.length) add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: `not a readable zip archive: ${err?.message ?? "unknown error"}` }, origin);
        void flush(named).then(() => resolve());
        return;
      }
      const found: Found[] = [];
      const beyond: { n: number; first?: string } = { n: 0 };
      let settled = false;
      let broke = false;
      const finish = () => {
        if (settled) return;
        settled = true;
        if (!found.length && !broke) add(ctx, { path, status: "skipped", reason: "empty-archive", error: "the archive holds no files" }, origin);
        void flush(found).then(() => {
          if (beyond.first) overflow(ctx, withOrigin(ctx, { path: beyond.first, status: "skipped" }, at(beyond.first)), beyond.n);
          resolve();
        });
      };
      zip.on("entry", (entry: yauzl.Entry) => {
        // names undecoded: yauzl would reject the whole archive for one `..` name; we list it instead
        const fileName = (entry.fileName as unknown as Buffer).toString("utf8");
        const safe = safeMemberPath(fileName);
        const name = member(path, depth, safe ?? fileName);
        if (/\/$/.test(fileName)) return zip.readEntry();
        const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
        // far past the file limit: count, hold nothing
        if (found.length >= ctx.limits.maxFiles) {
          beyond.n++;
          beyond.first ??= name;
          return zip.readEntry();
        }
        let done = false;
        const skip = (reason: string, error?: string) => {
          if (done) return;
          done = true;
          found.push({ name, reason, error });
          zip.readEntry();
        };
        if (!safe) return skip("path-escape", "an absolute path or one that climbs out with `..`: not read");
        if (mode === 0o120000) return skip("symlink");
        if (mode !== 0 && mode !== 0o100000) return skip("device");
        if (entry.generalPurposeBitFlag & 1) return skip("encrypted", "an encrypted (password-protected) zip entry: bootline cannot read it; upload it unencrypted");
        if (entry.uncompressedSize > ctx.limits.maxFileBytes) return skip(TOO_LARGE, overCap(ctx, "file", entry.compressedSize).error);
        const cap = decompressCap(ctx);
        if (entry.compressionMethod !== 0 && entry.uncompressedSize > cap.max) {
          const o = overCap(ctx, cap.by, entry.compressedSize);
          return skip(o.reason, o.error);
        }
        zip.openReadStream(entry, (e2, stream) => {
          if (e2 || !stream) return skip("corrupt-archive", `this zip entry cannot be read: ${e2?.message ?? "no data"}`);
          const chunks: Buffer[] = [];
          let got = 0;
          stream.on("data", (c: Buffer) => {
            got += c.length;
            // sizes in the directory can lie: stop at the budget whatever they claim
            if (got > cap.max || got > ctx.limits.maxFileBytes) {
              stream.destroy();
              const o = overCap(ctx, got > ctx.limits.maxFileBytes ? "file" : cap.by, entry.compressedSize);
              return skip(o.reason, o.error);
            }
            chunks.push(c);
          });
          stream.on("error", (e3: Error) => {
            // a damaged entry keeps what inflated before the damage
            if (done) return;
            const kept = Buffer.concat(chunks);
            if (kept.length === 0) return skip("corrupt-archive", `this zip entry is damaged: ${e3.message}`);
            done = true;
            if (entry.compressionMethod !== 0) ctx.inflated += kept.length;
            found.push({ name, data: kept, mtimeMs: entry.getLastModDate().getTime(), error: `zip entry damaged (${e3.message}): kept the first ${kept.length.toLocaleString("en-US")} bytes` });
            zip.readEntry();
          });
          stream.on("end", () => {
            if (done) return;
            done = true;
            if (entry.compressionMethod !== 0) ctx.inflated += got;
            found.push({ name, data: Buffer.concat(chunks), mtimeMs: entry.getLastModDate().getTime() });
            zip.readEntry();
          });
        });
      });
      zip.on("error", (e: Error) => {
        broke = true;
        add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: `zip archive broke: ${e.message}` }, origin);
        zip.close();
        finish();
      });
      zip.on("end", finish);
      zip.readEntry();
    });
  });
}

/**
 * Unpacks one upload (its original file name and bytes) into its files.
 * A plain log upload yields itself; archives yield their members (recursively).
 */
export async function unpackUpload(name: string, data: Buffer, limits: UnpackLimits = DEFAULT_LIMITS): Promise<UnpackedFile[]> {
  const safeName = name.replace(/\\/g, "/").split("/").pop() || "upload";
  const ratio = limits.maxRatio ?? LIMITS.maxRatio;
  const ctx: Ctx = {
    limits: { ...limits, maxRatio: ratio },
    files: 0,
    total: 0,
    inflated: 0,
    ratioBudget: Math.max(ratio * data.length, RATIO_FREE_BYTES),
    out: [],
    upload: safeName,
    overflow: null,
    overflowCount: 0,
  };
  await expand(ctx, safeName, data, 0);
  return ctx.out;
}
