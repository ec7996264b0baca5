/**
 * A zip read from the file or buffer holding it (yauzl: its central directory), members in
 * directory order; encrypted entries refused; a zip cut short (no central directory) read from
 * its local headers, each member inflated as far as its bytes go.
 */
import { readFileSync, statSync } from "node:fs";
import * as zlib from "node:zlib";
import yauzl from "yauzl";
import { fmtSize } from "./limits";
import {
  add,
  archiveName,
  type Ctx,
  cutLineNote,
  decompressCap,
  type Found,
  member,
  type Origin,
  overCap,
  overflow,
  safeMemberPath,
  type Source,
  TOO_LARGE,
  withOrigin,
} from "./unpack-context";
import type { Peeked } from "./unpack-flow";
import type { Stored } from "./unpack-sink";

/** Largest zip without a readable central directory that is read from its local headers (the salvage holds it in memory), bytes. */
const SALVAGE_MAX = 256 * 1024 * 1024;
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
export async function expandZip(ctx: Ctx, path: string, src: Source, p: Peeked, depth: number, origin?: Origin): Promise<void> {
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
        void ctx.settle(named, depth, at, origin).then(() => resolve());
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
        void ctx.settle(found, depth, at, origin).then(() => {
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
