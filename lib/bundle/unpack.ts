/**
 * Safe unpacking of an upload into the files it holds.
 *
 * Accepts `.tar`, `.tar.gz`/`.tgz`, `.tar.xz`/`.xz` (sosreport's default; decompressed by the
 * `xz-decompress` package: WebAssembly, no native build), `.zip`, `.gz` and plain files, recognised by their
 * magic bytes (the name only breaks ties), and archives nested inside archives up to
 * `limits.maxDepth`. Never writes outside the folder it is given and never follows links: entries with absolute
 * paths or `..`, symbolic and hard links, devices and FIFOs are listed as skipped with a
 * reason, as are encrypted zip entries and anything past a limit. A truncated archive keeps
 * what was readable and reports where it broke. Nothing here throws for bad input: every
 * problem becomes an entry with `status: "skipped"` or an `error` on a read entry.
 *
 * Member paths of nested archives are `outer.tar.gz/inner/member.log` (docs/definitions.md "The
 * report").
 *
 * Everything streams: an upload is read in chunks, each decompression layer inflates as it is
 * read, a tar is parsed as its bytes come, and each file's bytes go to the sink (one file each in
 * a folder, `unpackUploadFile`; or memory, `unpackUpload`) as they arrive. A nested archive is
 * stored first and unpacked from there; a zip is read from the file holding it (its directory is
 * at the end). Memory holds a few chunks whatever the upload's size.
 *
 * Hostile and broken input (docs/hostile-input.md; limits in lib/bundle/limits.ts, README "Limits"):
 * - every decompression (gzip, xz, zip entry, nested ones too) draws on one budget per upload,
 *   counted as the bytes flow: the total unpacked size and `maxRatio` times the upload's size
 *   (past `RATIO_FREE_BYTES`), so an archive bomb stops with reason `ratio-limit` before its bytes
 *   exist; refused bytes (a member past `maxFileBytes`, refused from its tar header) pass unkept
 *   but count against the ratio;
 * - in a tar, the members before a refused member or a stopped stream are kept (as in a zip); the
 *   member being read when a limit stops the stream is listed with the limit's reason;
 * - an empty tar (only its end-of-archive zero blocks) is listed as `empty-archive`;
 * - files past `maxFiles` (read or refused) are listed once, as one `too-many-files` entry that
 *   counts them;
 * - a member cut by a truncated archive keeps what it held, with an error that says how many of
 *   its bytes arrived and which line may be cut; a zip whose central directory is missing (cut
 *   short) is read from its local headers;
 * - read files get a note (`error`) when they are empty, not valid UTF-8 (first bad line), or
 *   named like an archive they are not.
 */
import { createHash } from "node:crypto";
import { closeSync, createReadStream, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { isUtf8 } from "node:buffer";
import { join as joinPath } from "node:path";
import { Readable } from "node:stream";
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
 * Bytes kept from the start of every stream and every stored file, to recognise it: the magic
 * bytes (a tar's sit at offset 257), the NUL check of `noteContent` (8 KiB) and an empty tar
 * (its end-of-archive blocks, 10 KiB as GNU tar writes them).
 */
const HEAD_BYTES = 16 * 1024;
/** Largest zip without a readable central directory that is read from its local headers (the salvage holds it in memory), bytes. */
const SALVAGE_MAX = 256 * 1024 * 1024;
/** Read size for files on disk, bytes. */
const READ_CHUNK = 1 << 20;

/** Number of LF bytes in `b`. */
function countLF(b: Buffer): number {
  let n = 0;
  for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) n++;
  return n;
}

/** Bytes at the end of `b` that begin a UTF-8 sequence the next chunk completes (0 when none). */
function incompleteTail(b: Buffer): number {
  for (let i = 1; i <= Math.min(3, b.length); i++) {
    const x = b[b.length - i];
    if ((x & 0xc0) === 0x80) continue;
    const need = x >= 0xf0 ? 4 : x >= 0xe0 ? 3 : x >= 0xc0 ? 2 : 1;
    return need > i ? i : 0;
  }
  return 0;
}

/**
 * What is learnt about a file's content as its chunks pass, for `noteContent` and
 * `cutLineNote`: size, first `HEAD_BYTES`, LF count, last byte, NUL in the first 8 KiB (binary),
 * and, for text, whether it is valid UTF-8 (chunk boundaries inside a sequence allowed for):
 * from the first invalid chunk on, the bytes are decoded with replacement and each U+FFFD counted.
 */
class Content {
  size = 0;
  newlines = 0;
  last = -1;
  binary = false;
  /** invalid UTF-8 sequences (U+FFFD in the decoded text from the first invalid chunk on) */
  bad = 0;
  /** 1-based line of the first, 0 when none */
  firstBadLine = 0;
  private headParts: Buffer[] = [];
  private headSize = 0;
  private carry: Buffer = Buffer.alloc(0);
  private decoder: TextDecoder | null = null;

  feed(c: Buffer): void {
    if (!c.length) return;
    if (this.headSize < HEAD_BYTES) {
      const part = Buffer.from(c.subarray(0, HEAD_BYTES - this.headSize));
      this.headParts.push(part);
      this.headSize += part.length;
    }
    if (this.size < 8192 && c.subarray(0, 8192 - this.size).includes(0)) this.binary = true;
    const before = this.newlines;
    this.size += c.length;
    this.newlines += countLF(c);
    this.last = c[c.length - 1];
    if (this.binary) return;
    if (this.decoder) return this.countBad(this.decoder.decode(c, { stream: true }), before);
    const buf = this.carry.length ? Buffer.concat([this.carry, c]) : c;
    const tail = incompleteTail(buf);
    if (isUtf8(buf.subarray(0, buf.length - tail))) {
      this.carry = tail ? Buffer.from(buf.subarray(buf.length - tail)) : Buffer.alloc(0);
      return;
    }
    this.decoder = new TextDecoder("utf-8", { fatal: false });
    this.countBad(this.decoder.decode(buf, { stream: true }), before);
  }

  /** Call once after the last chunk. */
  end(): void {
    if (this.binary) return;
    if (this.decoder) this.countBad(this.decoder.decode(), this.newlines);
    else if (this.carry.length) {
      // a sequence cut by the end of the file
      this.bad++;
      this.firstBadLine ||= this.newlines + 1;
    }
  }

  head(): Buffer {
    if (this.headParts.length > 1) this.headParts = [Buffer.concat(this.headParts)];
    return this.headParts[0] ?? Buffer.alloc(0);
  }

  private countBad(text: string, linesBefore: number): void {
    let i = text.indexOf("\uFFFD");
    if (i === -1) return;
    if (!this.firstBadLine) {
      let line = linesBefore + 1;
      for (let j = text.indexOf("\n"); j !== -1 && j < i; j = text.indexOf("\n", j + 1)) line++;
      this.firstBadLine = line;
    }
    for (; i !== -1; i = text.indexOf("\uFFFD", i + 1)) this.bad++;
  }
}

/** A file's bytes once written: in memory (`data`) or on disk (`dataPath`), with what `Content` learnt. */
interface Stored {
  data?: Buffer;
  dataPath?: string;
  size: number;
  sha256?: string;
  head: Buffer;
  content: Content;
}

/** Takes one file's bytes chunk by chunk (synchronously: nothing waits in memory for a slow disk). */
interface Writer {
  readonly size: number;
  write(c: Buffer): void;
  end(): Stored;
  /** drops what was written */
  abort(): void;
}

/** Where unpacked files go: memory (`unpackUpload`) or one file each in a folder (`unpackUploadFile`). */
interface Sink {
  open(): Writer;
  chunks(s: Stored): AsyncIterable<Buffer>;
  drop(s: Stored): void;
}

class MemorySink implements Sink {
  open(): Writer {
    const parts: Buffer[] = [];
    const c = new Content();
    return {
      get size() {
        return c.size;
      },
      write(b) {
        c.feed(b);
        parts.push(b);
      },
      end() {
        c.end();
        // a copy: the parts may be views of a larger buffer (the tar parser's input)
        const data = Buffer.concat(parts, c.size);
        parts.length = 0;
        return { data, size: c.size, head: c.head(), content: c };
      },
      abort() {
        parts.length = 0;
      },
    };
  }
  async *chunks(s: Stored): AsyncIterable<Buffer> {
    if (s.data?.length) yield s.data;
  }
  drop(): void {}
}

class DiskSink implements Sink {
  private n = 0;
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }
  open(): Writer {
    const p = joinPath(this.dir, String(this.n++));
    const fd = openSync(p, "w");
    const hash = createHash("sha256");
    const c = new Content();
    let open = true;
    const close = () => {
      if (open) closeSync(fd);
      open = false;
    };
    return {
      get size() {
        return c.size;
      },
      write(b) {
        c.feed(b);
        hash.update(b);
        for (let o = 0; o < b.length; ) o += writeSync(fd, b, o, b.length - o);
      },
      end() {
        close();
        c.end();
        return { dataPath: p, size: c.size, sha256: hash.digest("hex"), head: c.head(), content: c };
      },
      abort() {
        close();
        rmSync(p, { force: true });
      },
    };
  }
  async *chunks(s: Stored): AsyncIterable<Buffer> {
    if (s.dataPath) yield* createReadStream(s.dataPath, { highWaterMark: READ_CHUNK }) as AsyncIterable<Buffer>;
  }
  drop(s: Stored): void {
    if (s.dataPath) rmSync(s.dataPath, { force: true });
  }
}

/** The start of a stream (`head`, at most n bytes; `done` when that was all of it) and the whole stream again (`rest`). */
interface Peeked {
  head: Buffer;
  done: boolean;
  rest: AsyncIterable<Buffer>;
  /** lets go of the stream when `rest` will not be read */
  close(): Promise<void>;
}

async function peek(src: AsyncIterable<Buffer>, n: number): Promise<Peeked> {
  const it = src[Symbol.asyncIterator]();
  const first: Buffer[] = [];
  let got = 0;
  let done = false;
  let failure: unknown = null;
  while (got < n) {
    let r: IteratorResult<Buffer>;
    try {
      r = await it.next();
    } catch (e) {
      failure = e;
      done = true;
      break;
    }
    if (r.done) {
      done = true;
      break;
    }
    first.push(r.value);
    got += r.value.length;
  }
  const head = Buffer.alloc(Math.min(n, got));
  for (let o = 0, i = 0; o < head.length; i++) o += first[i].copy(head, o, 0, Math.min(first[i].length, head.length - o));
  let finished = done;
  const close = async () => {
    if (finished) return;
    finished = true;
    await it.return?.();
  };
  const rest = (async function* () {
    try {
      while (first.length) yield first.shift()!;
      if (failure) throw failure;
      while (!finished) {
        const r = await it.next();
        if (r.done) {
          finished = true;
          return;
        }
        yield r.value;
      }
    } finally {
      await close();
    }
  })();
  return { head, done, rest, close };
}

/** One decompression layer of a stream (gzip or xz): bytes in and out, and why it ended early. */
interface Flow {
  kind: "gzip" | "xz";
  inBytes: number;
  outBytes: number;
  /** the stream broke (cut short, corrupt): what was inflated before is kept */
  error?: string;
  /** a limit stopped it (`ratio-limit`, `total-size-limit`) */
  stop?: { reason: string; error: string };
}

/** An xz stream through `xz-decompress` (xz-embedded compiled to WebAssembly), pulled chunk by chunk. */
async function* xzChunks(src: AsyncIterable<Buffer>): AsyncGenerator<Uint8Array> {
  const it = src[Symbol.asyncIterator]();
  const input = new ReadableStream<Uint8Array>({
    async pull(c) {
      const r = await it.next();
      if (r.done) c.close();
      else c.enqueue(new Uint8Array(r.value.buffer, r.value.byteOffset, r.value.byteLength));
    },
    async cancel() {
      await it.return?.();
    },
  });
  const reader = new xzDecompress.XzReadableStream(input as unknown as globalThis.ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
    await it.return?.();
  }
}

/**
 * Decompresses `src` as it is read, counting every byte out against the upload's ratio budget
 * (`ctx.inflated`, all layers) and this layer's output against `maxOut` (the total size still
 * allowed): past either it stops (`flow.stop`), so a bomb costs its budget in CPU and a chunk or
 * two of memory. A broken stream ends with what inflated before the break (`flow.error`). Never throws.
 */
async function* inflate(ctx: Ctx, src: AsyncIterable<Buffer>, flow: Flow, maxOut: number): AsyncGenerator<Buffer> {
  const counted = (async function* () {
    for await (const c of src) {
      flow.inBytes += c.length;
      yield c;
    }
  })();
  let input: Readable | undefined;
  let gunzip: zlib.Gunzip | undefined;
  let out: AsyncIterable<Uint8Array>;
  if (flow.kind === "gzip") {
    input = Readable.from(counted, { objectMode: false });
    gunzip = zlib.createGunzip();
    input.on("error", (e) => gunzip!.destroy(e));
    input.pipe(gunzip);
    out = gunzip;
  } else out = xzChunks(counted);
  try {
    for await (const c of out) {
      const b = Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
      flow.outBytes += b.length;
      ctx.inflated += b.length;
      if (ctx.inflated > ctx.ratioBudget) {
        flow.stop = overCap(ctx, "ratio", flow.inBytes);
        return;
      }
      if (flow.outBytes > maxOut) {
        flow.stop = overCap(ctx, "total", flow.inBytes);
        return;
      }
      yield b;
    }
  } catch (e) {
    const message = (e as Error).message;
    flow.error =
      flow.kind === "gzip"
        ? `gzip stream broken (${message}) after ${flow.inBytes} compressed bytes: kept the first ${flow.outBytes} bytes`
        : `xz stream broken (${message}): kept ${flow.outBytes} bytes`;
  } finally {
    gunzip?.destroy();
    input?.destroy();
  }
}

/** Where a stream comes from: its chunks, and the file or buffer holding it whole when there is one (a zip needs to seek). */
interface Source {
  chunks: AsyncIterable<Buffer>;
  file?: string;
  buffer?: Buffer;
  /** the decompression layers it comes through */
  flows: Flow[];
}

interface Ctx {
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

/** Lists `f`; true when it was kept as a read file (false: counted past the file limit, or past the total size). */
function add(ctx: Ctx, f: UnpackedFile, origin?: Origin, stored?: Stored): boolean {
  withOrigin(ctx, f, origin);
  // past the file limit (files read, or entries listed at all), a member only adds to one counting entry
  if (ctx.overflow || ctx.files >= ctx.limits.maxFiles || ctx.out.length >= ctx.limits.maxFiles) {
    overflow(ctx, f, 1);
    return false;
  }
  return addWithin(ctx, f, stored);
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

/** The `total-size-limit` message for a file of `n` bytes (`more`: at least that many). */
function totalError(ctx: Ctx, n: number, more = false): string {
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
function addRead(ctx: Ctx, f: UnpackedFile, s: Stored, origin?: Origin): void {
  if (s.data) f.data = s.data;
  else {
    f.dataPath = s.dataPath;
    f.size = s.size;
    if (s.sha256) f.sha256 = s.sha256;
  }
  if (!add(ctx, f, origin, s)) ctx.sink.drop(s);
}

/** Joins problems found for one file into its `error`. */
function note(f: UnpackedFile, message: string): void {
  f.error = f.error ? `${f.error}; ${message}` : message;
}

/** The last line of data kept from a cut stream, when it may be incomplete (no final newline). */
function cutLineNote(s: Stored): string {
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
function isEmptyTar(head: Buffer, size: number, name: string): boolean {
  if (size !== head.length || size < 1024 || size % 512 !== 0) return false;
  if (!TAR_NAME.test(name) && size !== 10240) return false;
  return head.equals(Buffer.alloc(size));
}

const EMPTY_TAR = "an empty tar archive (only its end-of-archive blocks): it holds no files";

/** Notes on a read file's content: empty, not valid UTF-8, named like an archive it is not. */
function noteContent(f: UnpackedFile, s: Stored): void {
  if (s.size === 0) return note(f, "empty file (0 bytes)");
  const ext = ARCHIVE_NAME.exec(f.path)?.[1];
  if (ext) note(f, `named .${ext.toLowerCase()} but holds no ${ext.toLowerCase()} data: read as a plain file`);
  // a NUL in the first 8 KiB makes it binary (the ingest skips it); otherwise the encoding
  const c = s.content;
  if (c.binary || !c.bad) return;
  note(
    f,
    `not valid UTF-8: ${c.bad.toLocaleString("en-US")} byte sequence${c.bad === 1 ? "" : "s"} shown as \uFFFD (first on line ${c.firstBadLine.toLocaleString("en-US")})`,
  );
}

function stripSuffix(name: string, kind: Kind): string {
  if (kind === "gzip") return name.replace(/\.(tgz)$/i, ".tar").replace(/\.gz$/i, "");
  if (kind === "xz") return name.replace(/\.(txz)$/i, ".tar").replace(/\.xz$/i, "");
  return name;
}

/** Most bytes the next decompression may produce, and the limit that sets it. */
function decompressCap(ctx: Ctx): { max: number; by: "total" | "ratio" } {
  const byTotal = Math.max(0, ctx.limits.maxTotalBytes - ctx.total - ctx.reserved);
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
    return {
      reason: "total-size-limit",
      error: `the upload unpacks to more than ${fmtSize(ctx.limits.maxTotalBytes)} (${LIMIT_ENV.maxTotalBytes}); not unpacked`,
    };
  return { reason: TOO_LARGE, error: `larger than ${fmtSize(ctx.limits.maxFileBytes)} unpacked (${LIMIT_ENV.maxFileBytes}); not read` };
}

/** How a plain stream is listed: its path and place, and those of the compressed file it came out of. */
interface Place {
  path: string;
  origin?: Origin;
  /** the compressed file (listed in its stead when a limit stops its decompression) */
  outer?: { path: string; origin?: Origin; kind: Kind };
}

/**
 * Stores a plain stream as one file, stopping at the file and total limits as the bytes pass
 * (nothing past a limit is kept); a decompression layer that a limit stopped lists the
 * compressed file with that reason instead.
 */
async function storePlain(ctx: Ctx, at: Place, p: Peeked, flows: Flow[], mtimeMs?: number): Promise<void> {
  if (p.done && isEmptyTar(p.head, p.head.length, at.path))
    return void add(ctx, { path: at.path, status: "skipped", reason: "empty-archive", error: EMPTY_TAR }, at.origin);
  const w = ctx.sink.open();
  let over: "file" | "total" | null = null;
  for await (const c of p.rest) {
    if (w.size + c.length > ctx.limits.maxFileBytes) over = "file";
    else if (ctx.total + ctx.reserved + w.size + c.length > ctx.limits.maxTotalBytes) over = "total";
    if (over) break;
    w.write(c);
  }
  const stop = flows.find((f) => f.stop)?.stop;
  const broke = flows.map((f) => f.error).find(Boolean);
  const outer = at.outer ?? at;
  if (stop) {
    w.abort();
    return void add(ctx, { path: outer.path, status: "skipped", ...stop }, outer.origin);
  }
  if (over) {
    const size = w.size;
    w.abort();
    if (over === "file") return void add(ctx, { path: at.path, status: "skipped", ...overCap(ctx, "file", 0) }, at.origin);
    return void add(ctx, { path: at.path, status: "skipped", reason: "total-size-limit", error: totalError(ctx, size, true) }, at.origin);
  }
  const s = w.end();
  if (broke && s.size === 0) {
    ctx.sink.drop(s);
    return void add(ctx, { path: outer.path, status: "skipped", reason: "corrupt-archive", error: broke }, outer.origin);
  }
  const f: UnpackedFile = { path: at.path, status: "read", mtimeMs };
  if (broke) f.error = broke + cutLineNote(s);
  if (at.outer && at.path === at.outer.path) note(f, `${at.outer.kind}-compressed although not named .${at.outer.kind === "gzip" ? "gz" : "xz"}: decompressed`);
  addRead(ctx, f, s, at.origin);
}

async function expand(ctx: Ctx, path: string, src: Source, depth: number, mtimeMs?: number, origin?: Origin): Promise<void> {
  const p = await peek(src.chunks, HEAD_BYTES);
  const kind = sniffContainer(p.head);
  // a compressed single file keeps the place of the compressed one, less the suffix
  const inner = (o: Origin | undefined, k: Kind): Origin | undefined => (o ? { archive: o.archive, member: stripSuffix(o.member, k) } : undefined);
  if (kind === "plain") return storePlain(ctx, { path, origin }, p, src.flows, mtimeMs);
  if (depth >= ctx.limits.maxDepth) {
    await p.close();
    return void add(
      ctx,
      {
        path,
        status: "skipped",
        reason: "nesting-too-deep",
        error: `an archive nested more than ${ctx.limits.maxDepth} levels deep (${LIMIT_ENV.maxDepth}); not unpacked`,
      },
      origin,
    );
  }
  if (kind === "gzip" || kind === "xz") {
    const flow: Flow = { kind, inBytes: 0, outBytes: 0 };
    const flows = [...src.flows, flow];
    const out = await peek(inflate(ctx, p.rest, flow, Math.max(0, ctx.limits.maxTotalBytes - ctx.total - ctx.reserved)), HEAD_BYTES);
    const innerPath = stripSuffix(path, kind);
    const innerKind = sniffContainer(out.head);
    if (innerKind === "tar") return expandTar(ctx, path, out.rest, depth + 1, flows, origin);
    if (innerKind === "plain") return storePlain(ctx, { path: innerPath, origin: inner(origin, kind), outer: { path, origin, kind } }, out, flows, mtimeMs);
    return expand(ctx, innerPath, { chunks: out.rest, flows }, depth + 1, mtimeMs, inner(origin, kind));
  }
  if (kind === "tar") return expandTar(ctx, path, p.rest, depth + 1, src.flows, origin);
  return expandZip(ctx, path, src, p, depth + 1, origin);
}

/** Lists a stored member: read as it is when plain, else unpacked from where it was stored (and then dropped). */
async function expandStored(ctx: Ctx, name: string, s: Stored, depth: number, mtimeMs: number | undefined, origin: Origin): Promise<void> {
  const kind = sniffContainer(s.head);
  if (kind === "plain") {
    if (!isEmptyTar(s.head, s.size, name)) return addRead(ctx, { path: name, status: "read", mtimeMs }, s, origin);
    ctx.sink.drop(s);
    return void add(ctx, { path: name, status: "skipped", reason: "empty-archive", error: EMPTY_TAR }, origin);
  }
  try {
    await expand(ctx, name, { chunks: ctx.sink.chunks(s), file: s.dataPath, buffer: s.data, flows: [] }, depth, mtimeMs, origin);
  } finally {
    ctx.sink.drop(s);
  }
}

function member(prefix: string, depth: number, name: string): string {
  // the top-level upload's members are named by their path alone; nested ones under the archive's path
  return depth <= 1 ? name : `${prefix}/${name}`;
}

/** The archive name members of the archive at `path` are listed under (the upload's name at the top). */
function archiveName(ctx: Ctx, path: string, depth: number): string {
  return depth <= 1 ? ctx.upload : path;
}

/** A member found in an archive: its stored bytes, or a reason it was refused. */
interface Found {
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

/** Lists an archive's members in archive order: plain ones read, archives unpacked, refused ones with their reason. */
async function settle(ctx: Ctx, found: Found[], depth: number, at: (name: string) => Origin, origin?: Origin): Promise<void> {
  for (const f of found) {
    const s = f.stored;
    if (s) ctx.reserved -= s.size;
    if (f.whole) add(ctx, { path: f.name, status: "skipped", reason: f.reason, error: f.error }, origin);
    else if (s && f.asIs) addRead(ctx, { path: f.name, status: "read", mtimeMs: f.mtimeMs, error: f.error }, s, at(f.name));
    else if (s) await expandStored(ctx, f.name, s, depth, f.mtimeMs, at(f.name));
    else add(ctx, { path: f.name, status: "skipped", reason: f.reason, error: f.error }, at(f.name));
  }
}

/** The tar member being read: its entry in the listing, where its bytes go (none when refused). */
interface TarMember {
  found: Found;
  writer?: Writer;
  size: number;
  got: number;
}

/**
 * Reads a tar stream member by member: each member's bytes go to the sink as they arrive (a
 * member past the file or total limit is refused from its header and its bytes pass unkept).
 * When a limit stops the decompression feeding it, the members before are kept, the member
 * being read is listed with the limit's reason (or, refused already, keeps its own and says
 * so), and the archive's remainder is not read.
 */
async function expandTar(ctx: Ctx, path: string, chunks: AsyncIterable<Buffer>, depth: number, flows: Flow[], origin?: Origin): Promise<void> {
  const found: Found[] = [];
  const beyond: { n: number; first?: string } = { n: 0 };
  let brokeAt: string | undefined;
  let current = null as TarMember | null;
  let stopped = false;
  const parser = new TarParser({
    strict: false,
    onwarn: (_code: string, message: string) => {
      brokeAt ??= message;
    },
  });
  const ended = new Promise<void>((resolve) => {
    parser.on("end", () => resolve());
    parser.on("abort", () => resolve());
    parser.on("error", (e: Error) => {
      brokeAt ??= e.message;
      resolve();
    });
  });
  parser.on("entry", (entry: import("tar").ReadEntry) => {
    const safe = safeMemberPath(entry.path);
    const name = member(path, depth, safe ?? entry.path);
    const type = entry.type;
    // far past the file limit: count, hold nothing
    if (found.length >= ctx.limits.maxFiles && type !== "Directory") {
      beyond.n++;
      beyond.first ??= name;
      return entry.resume();
    }
    const skip = (reason: string, error?: string) => {
      found.push({ name, reason, error });
      entry.resume();
    };
    if (!safe) return skip("path-escape", "an absolute path or one that climbs out with `..`: not read");
    if (type === "Directory") return entry.resume();
    if (type === "SymbolicLink") return skip("symlink");
    if (type === "Link") return skip("hardlink");
    if (type === "CharacterDevice" || type === "BlockDevice" || type === "FIFO") return skip("device");
    if (type !== "File" && type !== "OldFile" && type !== "ContiguousFile") return skip(`unsupported-entry-${String(type).toLowerCase()}`);
    const size = entry.size ?? 0;
    const cur: TarMember = { found: { name, mtimeMs: entry.mtime?.getTime() }, size, got: 0 };
    found.push(cur.found);
    current = cur;
    entry.on("end", () => {
      if (current !== cur) return;
      current = null;
      if (!cur.writer) return;
      cur.found.stored = cur.writer.end();
      if (cur.got < size)
        cur.found.error = `cut short: the archive ends inside this file after ${cur.got.toLocaleString("en-US")} of its ${size.toLocaleString("en-US")} bytes`;
    });
    if (size > ctx.limits.maxFileBytes || ctx.total + ctx.reserved + size > ctx.limits.maxTotalBytes) {
      // refused from its header: its bytes pass unkept
      Object.assign(cur.found, size > ctx.limits.maxFileBytes ? overCap(ctx, "file", 0) : { reason: "total-size-limit", error: totalError(ctx, size) });
      return entry.resume();
    }
    ctx.reserved += size;
    cur.writer = ctx.sink.open();
    entry.on("data", (c: Buffer) => {
      if (current !== cur) return;
      cur.writer!.write(c);
      cur.got += c.length;
    });
  });
  let readError: string | undefined;
  try {
    for await (const c of chunks) {
      if (!parser.write(c)) await Promise.race([new Promise((r) => parser.once("drain", r)), ended]);
    }
  } catch (e) {
    readError = (e as Error).message;
  }
  const stop = flows.find((f) => f.stop)?.stop;
  if (stop) {
    stopped = true;
    const cur = current as TarMember | null;
    current = null;
    if (cur?.writer) {
      cur.writer.abort();
      ctx.reserved -= cur.size;
      Object.assign(cur.found, stop);
    } else if (cur) cur.found.error = `${cur.found.error}; the archive was not read past it: ${stop.error}`;
    else found.push({ name: path, whole: true, reason: stop.reason, error: `the archive was not read past its last member listed: ${stop.error}` });
  } else {
    parser.end();
    await ended;
    // a member the parser never ended (the archive stopped inside its header or data)
    const cur = current as TarMember | null;
    current = null;
    if (cur?.writer) {
      cur.found.stored = cur.writer.end();
      cur.found.error = `cut short: the archive ends inside this file after ${cur.got.toLocaleString("en-US")} of its ${cur.size.toLocaleString("en-US")} bytes`;
    }
  }
  brokeAt = flows.map((f) => f.error).find(Boolean) ?? readError ?? brokeAt;
  let cutMember = false;
  for (const f of found) {
    if (f.stored && f.error) {
      // a cut member: keep what it held, say where it broke (never unpack a cut archive member further)
      cutMember = true;
      f.asIs = true;
      f.error = `${f.error} (archive ${path} broke: ${brokeAt ?? "truncated"})${cutLineNote(f.stored)}`;
    }
  }
  const arch = archiveName(ctx, path, depth);
  const at = (name: string): Origin => ({ archive: arch, member: depth <= 1 ? name : name.slice(path.length + 1) });
  const listed = found.length;
  await settle(ctx, found, depth, at, origin);
  if (beyond.first) overflow(ctx, withOrigin(ctx, { path: beyond.first, status: "skipped" }, at(beyond.first)), beyond.n);
  if (stopped) return;
  if (brokeAt && listed === 0) add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: `nothing readable in this archive: ${brokeAt}` }, origin);
  else if (listed === 0) add(ctx, { path, status: "skipped", reason: "empty-archive", error: "the archive holds no files" }, origin);
  else if (brokeAt && !cutMember) {
    const last = ctx.out[ctx.out.length - 1];
    if (last) note(last, `archive ${path} broke after this member: ${brokeAt}`);
  }
}

const ZIP_LOCAL = 0x04034b50;
const ZIP_CENTRAL = 0x02014b50;
const ENCRYPTED = "an encrypted (password-protected) zip entry: bootline cannot read it; upload it unencrypted";

/** MS-DOS date and time of a zip header, as UTC ms (zip stores local time without a zone). */
function dosTime(date: number, time: number): number {
  return Date.UTC(((date >> 9) & 0x7f) + 1980, ((date >> 5) & 0x0f) - 1, date & 0x1f, (time >> 11) & 0x1f, (time >> 5) & 0x3f, (time & 0x1f) * 2);
}

/**
 * Raw inflate that keeps what a cut or damaged deflate stream holds: Z_SYNC_FLUSH (a cut stream
 * yields what it holds); when the body is corrupt midway, the longest prefix that inflates
 * (binary search). Null when the output is over `max`.
 */
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

/** Stores bytes already in memory as one file. */
function storeBuffer(ctx: Ctx, b: Buffer): Stored {
  const w = ctx.sink.open();
  w.write(b);
  return w.end();
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
      found.push({ name, reason: "encrypted", error: ENCRYPTED });
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
    if (content === null || content.length > ctx.limits.maxFileBytes) {
      found.push({ name, ...overCap(ctx, content === null && cap.max < ctx.limits.maxFileBytes ? cap.by : "file", body.length) });
      continue;
    }
    if (method === 8) ctx.inflated += content.length;
    const error = `read from its local header (${why})${cut ? `; cut short: the archive ends inside this file after ${(data.length - start).toLocaleString("en-US")} of its ${compSize.toLocaleString("en-US")} compressed bytes` : ""}`;
    const stored = storeBuffer(ctx, content);
    ctx.reserved += stored.size;
    found.push({ name, stored, mtimeMs, error: error + (cut ? cutLineNote(stored) : ""), asIs: true });
  }
  return found;
}

/**
 * A zip needs to seek (its directory is at the end): read from the file or buffer holding it,
 * or, when it comes out of a compressed layer, stored first (within the file limit).
 */
async function expandZip(ctx: Ctx, path: string, src: Source, p: Peeked, depth: number, origin?: Origin): Promise<void> {
  if (src.file || src.buffer) {
    await p.close();
    return readZip(ctx, path, (src.file ?? src.buffer)!, depth, origin);
  }
  const w = ctx.sink.open();
  let over = false;
  for await (const c of p.rest) {
    if (w.size + c.length > ctx.limits.maxFileBytes) {
      over = true;
      break;
    }
    w.write(c);
  }
  if (over) {
    w.abort();
    return void add(ctx, { path, status: "skipped", ...overCap(ctx, "file", 0) }, origin);
  }
  const s = w.end();
  try {
    await readZip(ctx, path, (s.dataPath ?? s.data)!, depth, origin);
  } finally {
    ctx.sink.drop(s);
  }
}

function readZip(ctx: Ctx, path: string, zipSrc: string | Buffer, depth: number, origin?: Origin): Promise<void> {
  const arch = archiveName(ctx, path, depth);
  const at = (name: string): Origin => ({ archive: arch, member: depth <= 1 ? name : name.slice(path.length + 1) });
  // sizes are checked here as the bytes come (yauzl's own check refuses the whole archive for a
  // stored entry whose sizes do not add up, as an encrypted one's do not)
  const opts = { lazyEntries: true, decodeStrings: false, validateEntrySizes: false, strictFileNames: false, autoClose: true };
  return new Promise<void>((resolve) => {
    const opened = (err: Error | null, zip?: yauzl.ZipFile) => {
      if (err || !zip) {
        // no readable central directory (a zip cut short loses it first): read the local headers
        const why = `zip directory unreadable: ${err?.message ?? "unknown error"}`;
        let data: Buffer | null = Buffer.isBuffer(zipSrc) ? zipSrc : null;
        if (!data && statSync(zipSrc as string).size <= SALVAGE_MAX) data = readFileSync(zipSrc as string);
        if (!data) {
          add(
            ctx,
            { path, status: "skipped", reason: "corrupt-archive", error: `${why}; larger than ${fmtSize(SALVAGE_MAX)}, so not read from its local headers` },
            origin,
          );
          return resolve();
        }
        const salvaged = salvageZip(ctx, data, why);
        data = null;
        const named = salvaged.map((f) => {
          const safe = safeMemberPath(f.name);
          if (!safe && f.stored) {
            ctx.reserved -= f.stored.size;
            ctx.sink.drop(f.stored);
          }
          return safe
            ? { ...f, name: member(path, depth, safe) }
            : { name: member(path, depth, f.name), reason: "path-escape", error: "an absolute path or one that climbs out with `..`: not read" };
        });
        if (!named.length)
          add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: `not a readable zip archive: ${err?.message ?? "unknown error"}` }, origin);
        void settle(ctx, named, depth, at, origin).then(() => resolve());
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
        void settle(ctx, found, depth, at, origin).then(() => {
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
        if (entry.generalPurposeBitFlag & 1) return skip("encrypted", ENCRYPTED);
        if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
          return skip("unsupported-compression", `zip compression method ${entry.compressionMethod} is not supported (stored and deflate are)`);
        if (entry.uncompressedSize > ctx.limits.maxFileBytes) return skip(TOO_LARGE, overCap(ctx, "file", entry.compressedSize).error);
        const cap = decompressCap(ctx);
        if (entry.uncompressedSize > cap.max) {
          if (cap.by === "total" || entry.compressionMethod !== 0) {
            const o = overCap(ctx, cap.by, entry.compressedSize);
            return skip(o.reason, o.error);
          }
        }
        zip.openReadStream(entry, (e2, stream) => {
          if (e2 || !stream) return skip("corrupt-archive", `this zip entry cannot be read: ${e2?.message ?? "no data"}`);
          const w = ctx.sink.open();
          const deflated = entry.compressionMethod !== 0;
          const mtimeMs = entry.getLastModDate().getTime();
          const keep = (why: string) => {
            done = true;
            if (w.size === 0) {
              w.abort();
              done = false;
              return skip("corrupt-archive", `this zip entry is damaged: ${why}`);
            }
            const stored = w.end();
            ctx.reserved += stored.size;
            found.push({ name, stored, mtimeMs, asIs: true, error: `zip entry damaged (${why}): kept the first ${stored.size.toLocaleString("en-US")} bytes` });
            zip.readEntry();
          };
          stream.on("data", (c: Buffer) => {
            if (done) return;
            if (deflated) ctx.inflated += c.length;
            // sizes in the directory can lie: stop at the budget whatever they claim
            const over =
              w.size + c.length > ctx.limits.maxFileBytes
                ? "file"
                : ctx.total + ctx.reserved + w.size + c.length > ctx.limits.maxTotalBytes
                  ? "total"
                  : deflated && ctx.inflated > ctx.ratioBudget
                    ? "ratio"
                    : null;
            if (over) {
              stream.destroy();
              w.abort();
              const o = overCap(ctx, over, entry.compressedSize);
              return skip(o.reason, o.error);
            }
            if (w.size + c.length > entry.uncompressedSize) {
              stream.destroy();
              w.write(c.subarray(0, entry.uncompressedSize - w.size));
              return keep(`too many bytes in the stream: it claims ${entry.uncompressedSize.toLocaleString("en-US")}`);
            }
            w.write(c);
          });
          stream.on("error", (e3: Error) => {
            // a damaged entry keeps what inflated before the damage
            if (done) return;
            keep(e3.message);
          });
          stream.on("end", () => {
            if (done) return;
            if (w.size < entry.uncompressedSize) return keep(`it claims ${entry.uncompressedSize.toLocaleString("en-US")} bytes`);
            done = true;
            const stored = w.end();
            ctx.reserved += stored.size;
            found.push({ name, stored, mtimeMs });
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
    };
    if (Buffer.isBuffer(zipSrc)) yauzl.fromBuffer(zipSrc, opts, opened);
    else yauzl.open(zipSrc, opts, opened);
  });
}

async function* once(b: Buffer): AsyncGenerator<Buffer> {
  if (b.length) yield b;
}

function newCtx(name: string, size: number, limits: UnpackLimits, sink: Sink): Ctx {
  const ratio = limits.maxRatio ?? LIMITS.maxRatio;
  return {
    limits: { ...limits, maxRatio: ratio },
    sink,
    files: 0,
    total: 0,
    reserved: 0,
    inflated: 0,
    ratioBudget: Math.max(ratio * size, RATIO_FREE_BYTES),
    out: [],
    upload: name.replace(/\\/g, "/").split("/").pop() || "upload",
    overflow: null,
    overflowCount: 0,
  };
}

/**
 * Unpacks one upload held in memory (its original file name and bytes) into its files, each
 * with its bytes in `data`. A plain log upload yields itself; archives yield their members
 * (recursively). For uploads on disk, `unpackUploadFile` holds none of it in memory.
 */
export async function unpackUpload(name: string, data: Buffer, limits: UnpackLimits = DEFAULT_LIMITS): Promise<UnpackedFile[]> {
  const ctx = newCtx(name, data.length, limits, new MemorySink());
  await expand(ctx, ctx.upload, { chunks: once(data), buffer: data, flows: [] }, 0);
  return ctx.out;
}

/**
 * Unpacks one upload on disk (`file`; `name` its original file name) as a stream, each file
 * written to `dir` (named by a counter) as its bytes come, with `dataPath`, `size` and `sha256`
 * instead of `data`: memory holds a few chunks, whatever the upload's size. Decompression
 * (every layer) is counted as it flows, so the limits stop a bomb before its bytes exist.
 * `onBytes`, when given, is called with the byte count of each chunk of the upload as it is read
 * (about 1 MiB each; their sum is the upload's size once the whole upload was read).
 */
export async function unpackUploadFile(
  name: string,
  file: string,
  dir: string,
  limits: UnpackLimits = DEFAULT_LIMITS,
  onBytes?: (bytes: number) => void,
): Promise<UnpackedFile[]> {
  const ctx = newCtx(name, statSync(file).size, limits, new DiskSink(dir));
  const read = createReadStream(file, { highWaterMark: READ_CHUNK }) as AsyncIterable<Buffer>;
  const chunks = onBytes ? countedChunks(read, onBytes) : read;
  await expand(ctx, ctx.upload, { chunks, file, flows: [] }, 0);
  return ctx.out;
}

/** `chunks` as they come, each one's length told to `onBytes` first. */
async function* countedChunks(chunks: AsyncIterable<Buffer>, onBytes: (bytes: number) => void): AsyncGenerator<Buffer> {
  for await (const c of chunks) {
    onBytes(c.length);
    yield c;
  }
}
