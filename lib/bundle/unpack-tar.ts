/**
 * A tar stream read member by member as its bytes come (the `tar` package's parser), each
 * member's bytes to the sink, links, devices and unsafe paths refused, limits checked from each
 * header.
 */
import { Parser as TarParser } from "tar";
import {
  add,
  archiveName,
  safeMemberPath,
  type Ctx,
  cutLineNote,
  type Found,
  member,
  note,
  type Origin,
  overCap,
  overflow,
  totalError,
  withOrigin,
} from "./unpack-context";
import type { Flow } from "./unpack-context";
import type { Writer } from "./unpack-sink";

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
export async function expandTar(ctx: Ctx, path: string, chunks: AsyncIterable<Buffer>, depth: number, flows: Flow[], origin?: Origin): Promise<void> {
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
  await ctx.settle(found, depth, at, origin);
  if (beyond.first) overflow(ctx, withOrigin(ctx, { path: beyond.first, status: "skipped" }, at(beyond.first)), beyond.n);
  if (stopped) return;
  if (brokeAt && listed === 0) add(ctx, { path, status: "skipped", reason: "corrupt-archive", error: `nothing readable in this archive: ${brokeAt}` }, origin);
  else if (listed === 0) add(ctx, { path, status: "skipped", reason: "empty-archive", error: "the archive holds no files" }, origin);
  else if (brokeAt && !cutMember) {
    const last = ctx.out[ctx.out.length - 1];
    if (last) note(last, `archive ${path} broke after this member: ${brokeAt}`);
  }
}
