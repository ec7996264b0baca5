/**
 * Safe unpacking of an upload into the files it holds (DESIGN.md "Pipeline").
 *
 * Accepts `.tar`, `.tar.gz`/`.tgz`, `.zip`, `.gz` and plain files, recognised by their
 * magic bytes (the name only breaks ties), and archives nested inside archives up to
 * `limits.maxDepth`. Never writes to disk and never follows links: entries with absolute
 * paths or `..`, symbolic and hard links, devices and FIFOs are listed as skipped with a
 * reason, as are encrypted zip entries and anything past a limit. A truncated archive keeps
 * what was readable and reports where it broke. Nothing here throws for bad input: every
 * problem becomes an entry with `status: "skipped"` or an `error` on a read entry.
 *
 * Member paths of nested archives are `outer.tar.gz/inner/member.log` (DESIGN.md "CLI
 * contract details"). Data is held in memory (bounded by the limits).
 */
import * as zlib from "node:zlib";
import { Parser as TarParser } from "tar";
import yauzl from "yauzl";

export interface UnpackLimits {
  /** largest unpacked size of one file, bytes */
  maxFileBytes: number;
  /** largest total unpacked size of one upload, bytes */
  maxTotalBytes: number;
  /** most files in one upload */
  maxFiles: number;
  /** archives inside archives: how deep */
  maxDepth: number;
}

/** Defaults: 512 MiB per file, 4 GiB in all, 20,000 files, nesting depth 3. Overridable via env BOOTLINE_MAX_*. */
export const DEFAULT_LIMITS: UnpackLimits = {
  maxFileBytes: Number(process.env.BOOTLINE_MAX_FILE_BYTES ?? 512 * 1024 * 1024),
  maxTotalBytes: Number(process.env.BOOTLINE_MAX_TOTAL_BYTES ?? 4 * 1024 * 1024 * 1024),
  maxFiles: Number(process.env.BOOTLINE_MAX_FILES ?? 20_000),
  maxDepth: Number(process.env.BOOTLINE_MAX_DEPTH ?? 3),
};

export interface UnpackedFile {
  /** path inside the upload (nested members as `outer.tgz/inner/member.log`) */
  path: string;
  status: "read" | "skipped";
  /** why it was skipped (`symlink`, `hardlink`, `device`, `path-escape`, `encrypted`, `too-large`, `too-many-files`, `corrupt-archive`, ...) */
  reason?: string;
  data?: Buffer;
  /** modification time from the archive header, UTC ms */
  mtimeMs?: number;
  /** a problem that did not stop the read (e.g. "gzip stream truncated: kept 1,204 bytes") */
  error?: string;
}

type Kind = "gzip" | "zip" | "tar" | "xz" | "plain";

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

function gunzipLenient(data: Buffer, max: number): { data: Buffer; error?: string } {
  try {
    return { data: zlib.gunzipSync(data, { maxOutputLength: max }) };
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "ERR_BUFFER_TOO_LARGE") return { data: Buffer.alloc(0), error: "too-large" };
    // truncated or corrupt stream: keep what decompresses
    const partial = partialGunzip(data, max);
    return { data: partial, error: `gzip stream broken (${err.message}): kept ${partial.length} bytes` };
  }
}

/**
 * Decompresses as much of a damaged gzip member as possible: raw inflate of the deflate
 * body with Z_SYNC_FLUSH (a cut stream yields what it holds); when the body is corrupt
 * midway, the longest prefix that inflates (binary search).
 */
function partialGunzip(data: Buffer, max: number): Buffer {
  // gzip header: 10 bytes, then optional FEXTRA, FNAME, FCOMMENT, FHCRC (RFC 1952 section 2.3)
  let pos = 10;
  const flg = data[3] ?? 0;
  if (flg & 4) pos += 2 + (data.length > pos + 1 ? data.readUInt16LE(pos) : 0);
  if (flg & 8) while (pos < data.length && data[pos++] !== 0);
  if (flg & 16) while (pos < data.length && data[pos++] !== 0);
  if (flg & 2) pos += 2;
  const body = data.subarray(pos);
  const inflate = (b: Buffer) => zlib.inflateRawSync(b, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: max });
  try {
    return inflate(body);
  } catch {
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
  files: number;
  total: number;
  out: UnpackedFile[];
}

function add(ctx: Ctx, f: UnpackedFile): void {
  if (f.status === "read") {
    if (ctx.files >= ctx.limits.maxFiles) {
      ctx.out.push({ path: f.path, status: "skipped", reason: "too-many-files" });
      return;
    }
    const n = f.data?.length ?? 0;
    if (ctx.total + n > ctx.limits.maxTotalBytes) {
      ctx.out.push({ path: f.path, status: "skipped", reason: "total-size-limit" });
      return;
    }
    ctx.files++;
    ctx.total += n;
  }
  ctx.out.push(f);
}

function stripSuffix(name: string, kind: Kind): string {
  if (kind === "gzip") return name.replace(/\.(tgz)$/i, ".tar").replace(/\.gz$/i, "");
  return name;
}

async function expand(ctx: Ctx, path: string, data: Buffer, depth: number, mtimeMs?: number): Promise<void> {
  const kind = sniffContainer(data);
  if (kind === "plain") {
    if (data.length > ctx.limits.maxFileBytes) return add(ctx, { path, status: "skipped", reason: "too-large" });
    return add(ctx, { path, status: "read", data, mtimeMs });
  }
  if (depth >= ctx.limits.maxDepth) return add(ctx, { path, status: "skipped", reason: "nesting-too-deep" });
  if (kind === "xz") return add(ctx, { path, status: "skipped", reason: "xz-not-supported" });
  if (kind === "gzip") {
    const g = gunzipLenient(data, ctx.limits.maxFileBytes);
    if (g.error === "too-large") return add(ctx, { path, status: "skipped", reason: "too-large" });
    const inner = stripSuffix(path, "gzip");
    const innerKind = sniffContainer(g.data);
    if (innerKind === "tar") return expandTar(ctx, path, g.data, depth + 1, g.error);
    if (innerKind === "plain") {
      if (g.data.length === 0 && g.error) return add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: g.error });
      return add(ctx, { path: inner, status: "read", data: g.data, mtimeMs, error: g.error });
    }
    return expand(ctx, inner, g.data, depth + 1, mtimeMs);
  }
  if (kind === "tar") return expandTar(ctx, path, data, depth + 1);
  return expandZip(ctx, path, data, depth + 1);
}

function member(prefix: string, depth: number, name: string): string {
  // the top-level upload's members are named by their path alone; nested ones under the archive's path
  return depth <= 1 ? name : `${prefix}/${name}`;
}

async function expandTar(ctx: Ctx, path: string, data: Buffer, depth: number, priorError?: string): Promise<void> {
  // members in archive order: files to expand, or skips to list
  const pending: Array<{ name: string; data?: Buffer; mtimeMs?: number; reason?: string }> = [];
  let brokeAt: string | undefined = priorError;
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
      const skip = (reason: string) => {
        pending.push({ name, reason });
        entry.resume();
      };
      if (!safe) return skip("path-escape");
      if (type === "Directory") return entry.resume();
      if (type === "SymbolicLink") return skip("symlink");
      if (type === "Link") return skip("hardlink");
      if (type === "CharacterDevice" || type === "BlockDevice" || type === "FIFO") return skip("device");
      if (type !== "File" && type !== "OldFile" && type !== "ContiguousFile") return skip(`unsupported-entry-${String(type).toLowerCase()}`);
      if ((entry.size ?? 0) > ctx.limits.maxFileBytes) return skip("too-large");
      const chunks: Buffer[] = [];
      entry.on("data", (c: Buffer) => chunks.push(c));
      entry.on("end", () => pending.push({ name, data: Buffer.concat(chunks), mtimeMs: entry.mtime?.getTime() }));
    });
    parser.on("end", () => resolve());
    parser.on("error", (e: Error) => {
      brokeAt ??= e.message;
      resolve();
    });
    parser.end(data);
  });
  for (const p of pending) {
    if (p.data) await expand(ctx, p.name, p.data, depth, p.mtimeMs);
    else add(ctx, { path: p.name, status: "skipped", reason: p.reason });
  }
  if (brokeAt && pending.length === 0) add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: brokeAt });
  else if (brokeAt) {
    const last = ctx.out[ctx.out.length - 1];
    if (last) last.error = last.error ?? `archive ${path} broke after this member: ${brokeAt}`;
  }
}

function expandZip(ctx: Ctx, path: string, data: Buffer, depth: number): Promise<void> {
  return new Promise<void>((resolve) => {
    yauzl.fromBuffer(data, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, strictFileNames: false }, (err, zip) => {
      if (err || !zip) {
        add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: err?.message });
        return resolve();
      }
      const found: Array<{ name: string; data?: Buffer; mtimeMs?: number; reason?: string }> = [];
      const flush = async () => {
        for (const f of found) {
          if (f.data) await expand(ctx, f.name, f.data, depth, f.mtimeMs);
          else add(ctx, { path: f.name, status: "skipped", reason: f.reason });
        }
      };
      zip.on("entry", (entry: yauzl.Entry) => {
        // names undecoded: yauzl would reject the whole archive for one `..` name; we list it instead
        const fileName = (entry.fileName as unknown as Buffer).toString("utf8");
        const safe = safeMemberPath(fileName);
        const name = member(path, depth, safe ?? fileName);
        if (/\/$/.test(fileName)) return zip.readEntry();
        const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
        const skip = (reason: string) => {
          found.push({ name, reason });
          zip.readEntry();
        };
        if (!safe) return skip("path-escape");
        if (mode === 0o120000) return skip("symlink");
        if (mode !== 0 && mode !== 0o100000) return skip("device");
        if (entry.generalPurposeBitFlag & 1) return skip("encrypted");
        if (entry.uncompressedSize > ctx.limits.maxFileBytes) return skip("too-large");
        zip.openReadStream(entry, (e2, stream) => {
          if (e2 || !stream) return skip("corrupt-archive");
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("error", () => skip("corrupt-archive"));
          stream.on("end", () => {
            found.push({ name, data: Buffer.concat(chunks), mtimeMs: entry.getLastModDate().getTime() });
            zip.readEntry();
          });
        });
      });
      zip.on("error", (e: Error) => {
        add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: e.message });
        zip.close();
        void flush().then(() => resolve());
      });
      zip.on("end", () => void flush().then(() => resolve()));
      zip.readEntry();
    });
  });
}

/**
 * Unpacks one upload (its original file name and bytes) into its files.
 * A plain log upload yields itself; archives yield their members (recursively).
 */
export async function unpackUpload(name: string, data: Buffer, limits: UnpackLimits = DEFAULT_LIMITS): Promise<UnpackedFile[]> {
  const ctx: Ctx = { limits, files: 0, total: 0, out: [] };
  const safeName = name.replace(/\\/g, "/").split("/").pop() || "upload";
  await expand(ctx, safeName, data, 0);
  return ctx.out;
}
