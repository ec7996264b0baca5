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
 *
 * Here: the entry points and the dispatch by container kind; the readers are unpack-tar.ts and
 * unpack-zip.ts, the decompression streams unpack-flow.ts, the sinks unpack-sink.ts, the shared
 * listing and limit steps unpack-context.ts, the listed file and its reads unpacked-file.ts.
 */
import { createReadStream, statSync } from "node:fs";
import { LIMIT_ENV, LIMITS, RATIO_FREE_BYTES } from "./limits";
import {
  add,
  addRead,
  type Ctx,
  EMPTY_TAR,
  isEmptyTar,
  type Flow,
  type Found,
  type Kind,
  note,
  type Origin,
  type Source,
  type UnpackLimits,
  stripSuffix,
  overCap,
  totalError,
  cutLineNote,
} from "./unpack-context";
import { inflate, type Peeked, peek } from "./unpack-flow";
import { DiskSink, HEAD_BYTES, MemorySink, READ_CHUNK, type Sink, type Stored } from "./unpack-sink";
import { expandTar } from "./unpack-tar";
import { expandZip } from "./unpack-zip";
import type { UnpackedFile } from "./unpacked-file";

export { safeMemberPath, type UnpackLimits } from "./unpack-context";
export { fileBytes, fileHead, fileSize, releaseReadBuffer, type UnpackedFile } from "./unpacked-file";

/** The limits in force (lib/bundle/limits.ts: defaults and BOOTLINE_MAX_* variables). */
export const DEFAULT_LIMITS: UnpackLimits = {
  maxFileBytes: LIMITS.maxFileBytes,
  maxTotalBytes: LIMITS.maxTotalBytes,
  maxFiles: LIMITS.maxFiles,
  maxDepth: LIMITS.maxDepth,
  maxRatio: LIMITS.maxRatio,
};

/** Recognises a container format from its first bytes. */
export function sniffContainer(data: Buffer): Kind {
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) return "gzip";
  if (data.length >= 4 && data.readUInt32LE(0) === 0x04034b50) return "zip";
  if (data.length >= 6 && data[0] === 0xfd && data.subarray(1, 6).toString("latin1") === "7zXZ\0") return "xz";
  if (data.length >= 262 && data.subarray(257, 262).toString("latin1") === "ustar") return "tar";
  return "plain";
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

async function* once(b: Buffer): AsyncGenerator<Buffer> {
  if (b.length) yield b;
}

function newCtx(name: string, size: number, limits: UnpackLimits, sink: Sink): Ctx {
  const ratio = limits.maxRatio ?? LIMITS.maxRatio;
  const ctx: Ctx = {
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
    settle: (found, depth, at, origin) => settle(ctx, found, depth, at, origin),
  };
  return ctx;
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
 * (at most 256 KiB each: `COUNTED_PIECE`; their sum is the upload's size once the whole upload was read).
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

/**
 * Bytes of an upload handed on at a time when they are counted (`countedChunks`): a read chunk of
 * 1 MiB of gzip is some 10 MiB of text to unpack, so it is passed on (and told) in quarters.
 */
const COUNTED_PIECE = 256 << 10;

/** `chunks` as they come, in pieces of at most `COUNTED_PIECE` (views, no copy), each one's length told to `onBytes` first. */
async function* countedChunks(chunks: AsyncIterable<Buffer>, onBytes: (bytes: number) => void): AsyncGenerator<Buffer> {
  for await (const c of chunks) {
    for (let at = 0; at < c.length; at += COUNTED_PIECE) {
      const piece = c.subarray(at, at + COUNTED_PIECE);
      onBytes(piece.length);
      yield piece;
    }
  }
}
