/**
 * The parse step of the ingest for one file, on an ingest thread (ingest-tasks.ts `TASKS`):
 * `parseFileTask` reads, redacts, parses and classifies it (analyse-bundle.ts `analyseFile`),
 * keeps its events on this thread grouped by the node the records name (held-parts.ts), spilled
 * past the thread's budget or, for a file too large to hold, streamed to disk as it is parsed.
 * Its raw text goes to a file of SourceBlock COPY rows (`blockRowChunks` reads them back for the
 * store, with the file's id filled in). Returns the file's listing, counts and skew input only.
 */
import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { fileSize, type UnpackedFile } from "../bundle/unpack";
import type { FileLayout } from "../bundle/collectors";
import { skewInputOf, type SkewInput } from "../normalise/clock-skew";
import { analyseFile, type IngestOptions } from "./analyse-bundle";
import type { AnalysedEvent, AnalysedFile } from "../model/event";
import { IO_CHUNK, StreamedParts, writeChunked } from "./spill-files";
import { PROGRESS_STEP_BYTES, workSteps } from "./progress";
import { collectAfterLarge, collectEvery, heldSize, holdPart, spillOver } from "./held-parts";

/** Width of the `fileId` placeholder at the start of each SourceBlock row a thread writes (int4 has at most 10 digits). */
const FILE_ID_WIDTH = 10;
const FILE_ID_PLACEHOLDER = "0".repeat(FILE_ID_WIDTH);

/**
 * Puts `fileId` into the placeholder of every row of a SourceBlock file `parseFileTask` wrote
 * (COPY text, one row per line), in place; zero-padded digits read as the same integer.
 */
export function fillFileId(rows: Buffer, fileId: number): Buffer {
  const id = String(fileId).padStart(FILE_ID_WIDTH, "0");
  for (let at = 0; at < rows.length; ) {
    rows.write(id, at, "latin1");
    const nl = rows.indexOf(10, at);
    if (nl === -1) break;
    at = nl + 1;
  }
  return rows;
}

/**
 * A SourceBlock rows file (`parseFileTask`) with `fileId` filled in (`fillFileId`), in pieces of
 * about `IO_CHUNK` bytes cut at row ends (each piece a fresh buffer, for a COPY).
 */
export function* blockRowChunks(p: string, fileId: number): Generator<Buffer> {
  const fd = openSync(p, "r");
  try {
    let carry = Buffer.alloc(0);
    for (;;) {
      const buf = Buffer.allocUnsafe(IO_CHUNK);
      const n = readSync(fd, buf, 0, buf.length, null);
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      if (n <= 0) {
        if (data.length) yield fillFileId(Buffer.from(data), fileId);
        return;
      }
      const cut = data.lastIndexOf(10) + 1;
      carry = Buffer.from(data.subarray(cut));
      if (cut) yield fillFileId(data.subarray(0, cut), fileId);
    }
  } finally {
    closeSync(fd);
  }
}

/** The parse step's input: one unpacked file (its bytes at `file.dataPath`). */
export interface ParseFileTask {
  /** the bundle's key in this thread's held events */
  token: string;
  ord: number;
  file: UnpackedFile;
  layout: FileLayout;
  opts: IngestOptions;
  /** the bundle's collection time fallback, UTC ms */
  collectedMs: number | null;
  /** folder for spill files */
  dir: string;
  /** estimated bytes of parsed events this thread may hold in memory (`heldSize`); past it, the largest parts are spilled */
  holdBytes: number;
  /** bytes parsed between two progress reports (progress.ts `workSteps`; default `PROGRESS_STEP_BYTES`) */
  stepBytes?: number;
  /** a file at least this large whose events would not fit `holdBytes` goes to disk as it is parsed (default `STREAM_FILE_BYTES`) */
  streamBytes?: number;
}

/** A file's events for one node (or for none: `node` null), held by the thread that parsed them. */
export interface FilePart {
  node: string | null;
  events: number;
}

export interface ParseFileResult {
  /** the file's listing (`blocks` empty: they are in `blocksPath`) */
  file: AnalysedFile;
  base: AnalysedFile;
  sha: string | null;
  redacted?: Record<string, number>;
  skew: SkewInput;
  parts: FilePart[];
  /** SourceBlock rows, COPY text (fileId placeholder, seq, firstLine, lineCount, data): see `fillFileId` */
  blocksPath: string | null;
}

/**
 * Whether `parseFileTask` writes a file's events to disk as it parses it (`StreamedParts`): a file
 * of at least `streamBytes` (default `STREAM_FILE_BYTES`) whose events, at `BYTES_PER_LINE` a
 * line, would not fit the thread's `holdBytes` (they would be spilled whole once parsed anyway).
 */
function streamsToDisk(t: ParseFileTask): boolean {
  const size = fileSize(t.file);
  return size >= (t.streamBytes ?? STREAM_FILE_BYTES) && heldSize(size, size / BYTES_PER_LINE) > t.holdBytes;
}

/** Lines read between two full collections while a streamed file is parsed (held-parts.ts `collectEvery`). */
const COLLECT_LINES = 128 << 10;

/** Size from which a file may be streamed to disk as it is parsed (`streamsToDisk`), bytes. */
const STREAM_FILE_BYTES = 64 << 20;
/** A long log line's bytes, for the estimate of `streamsToDisk` (the bench's lines: 284 to 407). */
const BYTES_PER_LINE = 400;

/**
 * The parse step for one file (see the module comment). Bad input never throws (`analyseFile` lists it
 * with a reason); a failure to write a spill file does. `onBytes`, when given, is told the bytes
 * of the file parsed as the parser goes through its lines (the file's size in proportion to its
 * lines read; progress.ts `workSteps`).
 */
export function parseFileTask(t: ParseFileTask, onBytes?: (bytes: number) => void): ParseFileResult {
  let onLines: ((done: number, total: number) => void) | undefined;
  if (onBytes) {
    const batch = workSteps(onBytes, t.stepBytes ?? PROGRESS_STEP_BYTES);
    const size = fileSize(t.file);
    let told = 0;
    onLines = (done, total) => {
      const bytes = Math.floor((size * done) / total);
      batch(bytes - told);
      told = bytes;
    };
  }
  // a file too large to hold goes to spill files as it is parsed, by node, a batch at a time
  const stream = streamsToDisk(t) ? new StreamedParts(t.dir, t.ord, t.layout.folderNode ?? null) : null;
  if (stream) {
    const collect = collectEvery(COLLECT_LINES);
    const told = onLines;
    onLines = (done, total) => {
      told?.(done, total);
      collect(done);
    };
  }
  let r: ReturnType<typeof analyseFile>;
  try {
    r = analyseFile(t.file, { ord: t.ord, layout: t.layout, opts: t.opts, collectedMs: t.collectedMs, onLines, eventBatches: stream ?? undefined });
    stream?.end();
  } catch (e) {
    stream?.abort();
    throw e;
  }
  if (stream) {
    for (const p of stream.parts) holdPart(t.token, p.node, { ord: t.ord, bytes: 0, path: p.path });
    const out = parseResult(
      t,
      r,
      stream.parts.map((p) => ({ node: p.node, events: p.events })),
      skewInputOf(r.file.kind, stream.skew),
    );
    collectAfterLarge(r.file.counts.records);
    return out;
  }
  const byNode = new Map<string | null, AnalysedEvent[]>();
  for (const e of r.events) {
    // the archive's top folder is known before parsing; the other files' records are placed by ingest-nodes.ts
    const node = e.node ?? r.file.node ?? t.layout.folderNode ?? null;
    let list = byNode.get(node);
    if (!list) byNode.set(node, (list = []));
    list.push(e);
  }
  const parts: FilePart[] = [];
  for (const [node, events] of byNode) {
    const bytes = heldSize(r.file.byteSize * (events.length / r.events.length), events.length);
    holdPart(t.token, node, { ord: t.ord, bytes, events });
    parts.push({ node, events: events.length });
  }
  spillOver(t.dir, t.holdBytes);
  return parseResult(t, r, parts, skewInputOf(r.file.kind, r.events));
}

/** The rest of `parseFileTask`: the file's SourceBlock rows to disk, and its result. */
function parseResult(t: ParseFileTask, r: ReturnType<typeof analyseFile>, parts: FilePart[], skew: SkewInput): ParseFileResult {
  let blocksPath: string | null = null;
  if (r.file.blocks.length) {
    blocksPath = path.join(t.dir, `${t.ord}.blk`);
    // written in bounded chunks (no file-sized string or buffer); `fileId` is not known yet: a
    // zero-filled placeholder the store step overwrites in place (`fillFileId`, `blockRowChunks`)
    const blocks = r.file.blocks;
    writeChunked(
      blocksPath,
      blocks.length,
      (seq) => `${FILE_ID_PLACEHOLDER}\t${seq}\t${blocks[seq].firstLine}\t${blocks[seq].lineCount}\t\\\\x${blocks[seq].data.toString("hex")}\n`,
    );
  }
  return {
    file: { ...r.file, blocks: [] },
    base: r.base,
    sha: r.sha,
    redacted: r.redacted,
    skew,
    parts,
    blocksPath,
  };
}
