/**
 * One upload's unpacking state (`Ctx`: its limits and budgets, its sink, the listing so far) and
 * the steps every container reader shares: listing a file within the file and size limits,
 * notes on a file's content, the reasons a limit gives.
 */
import { fmtSize, LIMIT_ENV, LIMITS } from "./limits";
import type { Sink, Stored } from "./unpack-sink";
import { fileSize, type UnpackedFile } from "./unpacked-file";

export type Kind = "gzip" | "zip" | "tar" | "xz" | "plain";

export const TOO_LARGE = "too-large";

/** Where a stream comes from: its chunks, and the file or buffer holding it whole when there is one (a zip needs to seek). */
export interface Source {
  chunks: AsyncIterable<Buffer>;
  file?: string;
  buffer?: Buffer;
  /** the decompression layers it comes through */
  flows: Flow[];
}

export interface Ctx {
  limits: UnpackLimits;
  sink: Sink;
  /** files read so far */
  files: number;
  /** bytes of the files read so far */
  total: number;
  /** bytes of members stored and not yet listed (a tar's or zip's, listed once the archive is read) */
  reserved: number;
  /** bytes produced by decompression so far (every layer), against the ratio budget */
  inflated: number;
  /** most bytes decompression may produce for this upload: `maxRatio` times its size */
  ratioBudget: number;
  out: UnpackedFile[];
  upload: string;
  /** the one entry that counts files past `maxFiles` */
  overflow: UnpackedFile | null;
  overflowCount: number;
  /** lists an archive's members once read (unpack.ts `settle`: nested archives are unpacked in turn) */
  settle: (found: Found[], depth: number, at: (name: string) => Origin, origin?: Origin) => Promise<void>;
}

/** Where a member sits: the innermost archive and its path inside it. */
export interface Origin {
  archive?: string;
  member: string;
}

/** Sets where `f` came from: the upload, the innermost archive, the path inside it. */
export function withOrigin(ctx: Ctx, f: UnpackedFile, origin?: Origin): UnpackedFile {
  f.upload = ctx.upload;
  if (origin) {
    if (origin.archive !== undefined) f.archive = origin.archive;
    f.member = origin.member;
  } else f.member = f.path;
  return f;
}

/** Lists `f`; true when it was kept as a read file (false: counted past the file limit, or past the total size). */
export function add(ctx: Ctx, f: UnpackedFile, origin?: Origin, stored?: Stored): boolean {
  withOrigin(ctx, f, origin);
  // past the file limit (files read, or entries listed at all), a member only adds to one counting entry
  if (ctx.overflow || ctx.files >= ctx.limits.maxFiles || ctx.out.length >= ctx.limits.maxFiles) {
    overflow(ctx, f, 1);
    return false;
  }
  return addWithin(ctx, f, stored);
}

/** Counts `n` members past the file limit on the one `too-many-files` entry (made from `f` when there is none yet). */
export function overflow(ctx: Ctx, f: UnpackedFile, n: number): void {
  ctx.overflowCount += n;
  const error = `${ctx.overflowCount.toLocaleString("en-US")} more file${ctx.overflowCount === 1 ? "" : "s"} (from this one on) not read: the upload holds more than ${ctx.limits.maxFiles.toLocaleString("en-US")} files (${LIMIT_ENV.maxFiles})`;
  if (ctx.overflow) ctx.overflow.error = error;
  else {
    ctx.overflow = { path: f.path, status: "skipped", reason: "too-many-files", error, upload: f.upload, archive: f.archive, member: f.member };
    ctx.out.push(ctx.overflow);
  }
}

/** The `total-size-limit` message for a file of `n` bytes (`more`: at least that many). */
export function totalError(ctx: Ctx, n: number, more = false): string {
  return `the upload unpacks to more than ${fmtSize(ctx.limits.maxTotalBytes)} (${LIMIT_ENV.maxTotalBytes}); this file (${more ? "more than " : ""}${fmtSize(n)}) and those after it were not read`;
}

function addWithin(ctx: Ctx, f: UnpackedFile, stored?: Stored): boolean {
  if (f.status === "read") {
    const n = fileSize(f);
    if (ctx.total + n > ctx.limits.maxTotalBytes) {
      ctx.out.push({
        path: f.path,
        status: "skipped",
        reason: "total-size-limit",
        error: totalError(ctx, n),
        upload: f.upload,
        archive: f.archive,
        member: f.member,
      });
      return false;
    }
    ctx.files++;
    ctx.total += n;
    if (stored) noteContent(f, stored);
  }
  ctx.out.push(f);
  return f.status === "read";
}

/** Lists a read file with the bytes in `s`; drops them when the file is not kept. */
export function addRead(ctx: Ctx, f: UnpackedFile, s: Stored, origin?: Origin): void {
  if (s.data) f.data = s.data;
  else {
    f.dataPath = s.dataPath;
    f.size = s.size;
    if (s.sha256) f.sha256 = s.sha256;
  }
  if (!add(ctx, f, origin, s)) ctx.sink.drop(s);
}

/** Joins problems found for one file into its `error`. */
export function note(f: UnpackedFile, message: string): void {
  f.error = f.error ? `${f.error}; ${message}` : message;
}

/** The last line of data kept from a cut stream, when it may be incomplete (no final newline). */
export function cutLineNote(s: Stored): string {
  const c = s.content;
  if (!c.size || c.last === 10) return "";
  return `; the last line (line ${(c.newlines + 1).toLocaleString("en-US")}) may be incomplete`;
}

const ARCHIVE_NAME = /\.(tar\.gz|tgz|tar\.xz|txz|tar|zip|gz|xz)$/i;
const TAR_NAME = /\.(tar|tgz|txz|tar\.gz|tar\.xz)$/i;

/**
 * An empty tar archive: nothing but zero blocks (the end-of-archive marker, at least two 512-byte
 * blocks; POSIX.1 ustar), named like a tar or of tar's default record size (10 KiB).
 */
export function isEmptyTar(head: Buffer, size: number, name: string): boolean {
  if (size !== head.length || size < 1024 || size % 512 !== 0) return false;
  if (!TAR_NAME.test(name) && size !== 10240) return false;
  return head.equals(Buffer.alloc(size));
}

export const EMPTY_TAR = "an empty tar archive (only its end-of-archive blocks): it holds no files";

/** Notes on a read file's content: empty, UTF-16, not valid UTF-8, named like an archive it is not. */
function noteContent(f: UnpackedFile, s: Stored): void {
  if (s.size === 0) return note(f, "empty file (0 bytes)");
  const ext = ARCHIVE_NAME.exec(f.path)?.[1];
  if (ext) note(f, `named .${ext.toLowerCase()} but holds no ${ext.toLowerCase()} data: read as a plain file`);
  // a NUL in the first 8 KiB makes it binary (the ingest skips it); otherwise the encoding
  const c = s.content;
  if (c.encoding) note(f, `written in ${c.encoding.toUpperCase()} (as Windows PowerShell writes files): read as that text`);
  if (c.binary || !c.bad) return;
  note(
    f,
    `not valid UTF-8: ${c.bad.toLocaleString("en-US")} byte sequence${c.bad === 1 ? "" : "s"} shown as \uFFFD (first on line ${c.firstBadLine.toLocaleString("en-US")})`,
  );
}

export function stripSuffix(name: string, kind: Kind): string {
  if (kind === "gzip") return name.replace(/\.(tgz)$/i, ".tar").replace(/\.gz$/i, "");
  if (kind === "xz") return name.replace(/\.(txz)$/i, ".tar").replace(/\.xz$/i, "");
  return name;
}

/** Most bytes the next decompression may produce, and the limit that sets it. */
export function decompressCap(ctx: Ctx): { max: number; by: "total" | "ratio" } {
  const byTotal = Math.max(0, ctx.limits.maxTotalBytes - ctx.total - ctx.reserved);
  const byRatio = Math.max(0, ctx.ratioBudget - ctx.inflated);
  return byRatio < byTotal ? { max: byRatio, by: "ratio" } : { max: byTotal, by: "total" };
}

/** Skip entry for a decompression stopped by `decompressCap` (or by the file limit). */
export function overCap(ctx: Ctx, by: "total" | "ratio" | "file", compressed: number): { reason: string; error: string } {
  if (by === "ratio")
    return {
      reason: "ratio-limit",
      error: `unpacks to more than ${ctx.limits.maxRatio ?? LIMITS.maxRatio} times the upload's size (${fmtSize(ctx.ratioBudget)} in all; ${LIMIT_ENV.maxRatio}): looks like an archive bomb, not unpacked (${fmtSize(compressed)} compressed)`,
    };
  if (by === "total")
    return {
      reason: "total-size-limit",
      error: `the upload unpacks to more than ${fmtSize(ctx.limits.maxTotalBytes)} (${LIMIT_ENV.maxTotalBytes}); not unpacked`,
    };
  return { reason: TOO_LARGE, error: `larger than ${fmtSize(ctx.limits.maxFileBytes)} unpacked (${LIMIT_ENV.maxFileBytes}); not read` };
}

export function member(prefix: string, depth: number, name: string): string {
  // the top-level upload's members are named by their path alone; nested ones under the archive's path
  return depth <= 1 ? name : `${prefix}/${name}`;
}

/** The archive name members of the archive at `path` are listed under (the upload's name at the top). */
export function archiveName(ctx: Ctx, path: string, depth: number): string {
  return depth <= 1 ? ctx.upload : path;
}

/** A member found in an archive: its stored bytes, or a reason it was refused. */
export interface Found {
  name: string;
  stored?: Stored;
  mtimeMs?: number;
  reason?: string;
  /** a problem with this member (cut short, damaged, refused why) */
  error?: string;
  /** read as it is, never unpacked further (a cut or damaged member) */
  asIs?: boolean;
  /** an entry for the archive itself (listed at the archive's place) */
  whole?: boolean;
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

/** One decompression layer of a stream (gzip or xz): bytes in and out, and why it ended early. */
export interface Flow {
  kind: "gzip" | "xz";
  inBytes: number;
  outBytes: number;
  /** the stream broke (cut short, corrupt): what was inflated before is kept */
  error?: string;
  /** a limit stopped it (`ratio-limit`, `total-size-limit`) */
  stop?: { reason: string; error: string };
}
