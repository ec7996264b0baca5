/**
 * The CPU-heavy steps of the streaming ingest (ingest-bundle.ts), run in worker threads
 * (ingest-pool.ts) or inline. Every argument and result is structured-clone data.
 *
 * - `unpackTask` (one upload): unpacks it and writes its files to disk.
 * - `parseFileTask` (pass 1, one file): `analyseFile`; the file's events stay on this thread,
 *   grouped by the node the records name (none yet: `null`), as long as the thread holds less
 *   than `holdBytes` of them (estimated, `heldSize`); past that, the largest parts go to spill
 *   files on disk (spill.ts), so memory stays bounded whatever the bundle's size. The raw text
 *   goes to a file of SourceBlock rows. Returns the file's listing, counts and skew input only.
 * - `spillNodes`: hands a node's parts (`PartSource`) to another thread through the disk.
 * - `prepareNode` (pass 2, one node): gathers the node's events, applies the clock offsets,
 *   infers error classes and finds the node's boots (`analyseNode`); keeps the events until:
 * - `nodeRows`: with the database ids the caller chose, formats the node's `Event` and
 *   `EventDensity` rows as COPY text and runs the detectors on each new boot.
 *
 * State lives in this module, keyed by the caller's bundle token: the thread that parsed a file
 * holds its events, so the caller prepares each node on the thread holding most of it.
 */
import { randomUUID } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { fileSize, releaseReadBuffer, unpackUploadFile, type UnpackedFile } from "../bundle/unpack";
import type { FileLayout } from "../bundle/collectors";
import { copyJson, copyText } from "../db/sql";
import type { BootEvent, BootInfo, Lane } from "../detect/types";
import { skewInputOf, shiftEvent, type SkewInput } from "../normalise/clock-skew";
import { analyseFile, analyseNode, type IngestOptions } from "./analyse-bundle";
import type { AnalysedBoot, AnalysedEvent, AnalysedFile } from "../model/event";
import { copyTail, decodeEvent, encodeEvent, lightEvent } from "./spill";
import { findingRows } from "./finding-rows";
import { detectBoot } from "./detect-boot";
import { toBootEvent } from "../model/boot-event";
import { detectorWants } from "./rule-files";
import { messageFieldsAt } from "../model/message-fields";
import { NodeWords, tailText, type WordsMode } from "../search/thread-words";
import { BootMiners } from "../patterns/boot-miner";
import { patternRows } from "./pattern-rows";
import { fileLines, IO_CHUNK, StreamedParts, writeChunked } from "./spill-files";
import { RowChunks, recycleRows, releaseSpareChunks, RowSender } from "./row-stream";
import { PROGRESS_STEP_EVENTS, workSteps } from "./progress";

export { fileLines, recycleRows, RowSender };

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

/**
 * Unpacks one upload (`path` on disk, `name` its original file name: lib/bundle/unpack.ts
 * `unpackUploadFile`) as a stream, each file written to `dir` and hashed (`sha256`: duplicates
 * are then known before anything is parsed) as its bytes come; returns their listing. Bad
 * archives come back as skipped entries with a reason.
 */
export async function unpackTask(
  t: { path: string; name: string; dir: string; stepBytes?: number },
  onBytes?: (bytes: number) => void,
): Promise<UnpackedFile[]> {
  return unpackUploadFile(t.name, t.path, t.dir, undefined, onBytes && batchedBytes(onBytes, t.stepBytes ?? UNPACK_STEP_BYTES));
}

/** Bytes a task reads between two progress reports, by default (`batchedBytes`): a bundle of 300,000 lines (about 73 MB) is told in 140 steps at least. */
export const PROGRESS_STEP_BYTES = 512 << 10;
/** Bytes of an upload read (compressed) between two reports of its unpack (`unpackTask`). */
export const UNPACK_STEP_BYTES = 256 << 10;

/**
 * Gathers a running task's byte counts and tells `report` their sum since its last call, once
 * `stepBytes` (default `PROGRESS_STEP_BYTES`) have come or progress.ts `PROGRESS_STEP_MS` have
 * passed (progress.ts `workSteps`). Bytes still gathered when the task ends are not told (the
 * caller counts the whole task as done then).
 */
export function batchedBytes(report: (bytes: number) => void, stepBytes = PROGRESS_STEP_BYTES): (bytes: number) => void {
  return workSteps(report, stepBytes);
}

/** Pass 1 input: one unpacked file (its bytes at `file.dataPath`). */
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
  /** bytes parsed between two progress reports (`batchedBytes`; default `PROGRESS_STEP_BYTES`) */
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

/** One file's events for one node: in memory, or spilled to `path` (spill.ts). */
interface HeldPart {
  ord: number;
  /** its estimated size in memory (`heldSize`) */
  bytes: number;
  events?: AnalysedEvent[];
  path?: string;
}

/** This thread's held parts: bundle token -> node ("" for none) -> parts. */
const held = new Map<string, Map<string, HeldPart[]>>();
let heldBytes = 0;

const nodeKey = (node: string | null) => node ?? "";

/** Writes a part's events to a spill file (in bounded chunks) and lets them go; throws when the file cannot be written (the part stays in memory). */
function spillPart(dir: string, p: HeldPart): void {
  if (!p.events) return;
  const events = p.events;
  const to = path.join(dir, `${p.ord}-${randomUUID()}.ev`);
  writeChunked(to, events.length, (i) => encodeEvent(events[i]));
  p.path = to;
  delete p.events;
  heldBytes -= p.bytes;
}

/**
 * Estimated memory of held events, bytes: their share of the source text (slices of it keep it
 * alive) plus `EVENT_OVERHEAD` per event: the object, its fields object and the strings the
 * parsers build (messages and field values unquoted from Go's quoting are new strings, not
 * slices). `EVENT_OVERHEAD` comes from a V8 heap snapshot of parsed events (docs/scaling.md); an
 * estimate below the real size lets the two-pass ingest hold more than its budget.
 */
function heldSize(sourceBytes: number, events: number): number {
  return Math.round(sourceBytes + events * EVENT_OVERHEAD);
}
const EVENT_OVERHEAD = 1400;

/**
 * Whether `parseFileTask` writes a file's events to disk as it parses it (`StreamedParts`): a file
 * of at least `streamBytes` (default `STREAM_FILE_BYTES`) whose events, at `BYTES_PER_LINE` a
 * line, would not fit the thread's `holdBytes` (they would be spilled whole once parsed anyway).
 */
function streamsToDisk(t: ParseFileTask): boolean {
  const size = fileSize(t.file);
  return size >= (t.streamBytes ?? STREAM_FILE_BYTES) && heldSize(size, size / BYTES_PER_LINE) > t.holdBytes;
}
/**
 * A full collection of this thread's heap after a task on a large file or node (at least
 * `LARGE_EVENTS` events), when the thread allows one (ingest-worker.mjs exposes `gc`): V8 lets a
 * heap grow far past what is live before it collects, so the garbage of one step (a 450 MiB log's
 * text and records, a node read back) would still be resident in the next one.
 */
function collectAfterLarge(events: number): void {
  if (events >= LARGE_EVENTS) (globalThis as { gc?: () => void }).gc?.();
}
const LARGE_EVENTS = 200_000;

/** Size from which a file may be streamed to disk as it is parsed (`streamsToDisk`), bytes. */
const STREAM_FILE_BYTES = 64 << 20;
/** A long log line's bytes, for the estimate of `streamsToDisk` (the bench's lines: 284 to 407). */
const BYTES_PER_LINE = 400;

/** Spills in-memory parts, largest first, until this thread holds at most `limit` bytes. */
function spillOver(dir: string, limit: number): void {
  while (heldBytes > limit) {
    let best: HeldPart | null = null;
    for (const nodes of held.values()) {
      for (const parts of nodes.values()) for (const p of parts) if (p.events && (!best || p.bytes > best.bytes)) best = p;
    }
    if (!best) return;
    spillPart(dir, best);
  }
}

/**
 * Pass 1 for one file (see the module comment). Bad input never throws (`analyseFile` lists it
 * with a reason); a failure to write a spill file does. `onBytes`, when given, is told the bytes
 * of the file parsed as the parser goes through its lines (the file's size in proportion to its
 * lines read; `batchedBytes`).
 */
export function parseFileTask(t: ParseFileTask, onBytes?: (bytes: number) => void): ParseFileResult {
  let onLines: ((done: number, total: number) => void) | undefined;
  if (onBytes) {
    const batch = batchedBytes(onBytes, t.stepBytes);
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
  let r: ReturnType<typeof analyseFile>;
  try {
    r = analyseFile(t.file, { ord: t.ord, layout: t.layout, opts: t.opts, collectedMs: t.collectedMs, onLines, eventBatches: stream ?? undefined });
    stream?.end();
  } catch (e) {
    stream?.abort();
    throw e;
  }
  let nodes = held.get(t.token);
  if (!nodes) held.set(t.token, (nodes = new Map()));
  if (stream) {
    for (const p of stream.parts) {
      const list = nodes.get(nodeKey(p.node)) ?? [];
      nodes.set(nodeKey(p.node), list);
      list.push({ ord: t.ord, bytes: 0, path: p.path });
    }
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
    // the archive's top folder is known before parsing; the bundle-wide fallbacks come after pass 1
    const node = e.node ?? r.file.node ?? t.layout.folderNode ?? null;
    let list = byNode.get(node);
    if (!list) byNode.set(node, (list = []));
    list.push(e);
  }
  const parts: FilePart[] = [];
  for (const [node, events] of byNode) {
    const bytes = heldSize(r.file.byteSize * (events.length / r.events.length), events.length);
    const list = nodes.get(nodeKey(node)) ?? [];
    nodes.set(nodeKey(node), list);
    list.push({ ord: t.ord, bytes, events });
    heldBytes += bytes;
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

/** Drops the held parts of files found to repeat another (their events are not stored). */
export function dropFiles(t: { token: string; ords: number[] }): void {
  const drop = new Set(t.ords);
  for (const parts of held.get(t.token)?.values() ?? []) {
    for (let i = parts.length - 1; i >= 0; i--) {
      if (!drop.has(parts[i].ord)) continue;
      if (parts[i].events) heldBytes -= parts[i].bytes;
      parts.splice(i, 1);
    }
  }
}

/**
 * Which held parts make up one node's events: those held under the node key `node` (the node the
 * records named, or `null` for none), of the files `ords` only, or of every file when `ords` is
 * absent. The records of one file that name no node go to the node the settle step gives that
 * file, so two nodes (or a node and "no node") may each take some of the parts held under `null`.
 */
export interface PartSource {
  node: string | null;
  ords?: number[];
}

/** Removes and returns the parts of this thread that `src` names (`PartSource`). */
function takeParts(token: string, src: PartSource): HeldPart[] {
  const nodes = held.get(token);
  const parts = nodes?.get(nodeKey(src.node));
  if (!nodes || !parts) return [];
  if (!src.ords) {
    nodes.delete(nodeKey(src.node));
    return parts;
  }
  const want = new Set(src.ords);
  const taken = parts.filter((p) => want.has(p.ord));
  const kept = parts.filter((p) => !want.has(p.ord));
  if (kept.length) nodes.set(nodeKey(src.node), kept);
  else nodes.delete(nodeKey(src.node));
  return taken;
}

/** Spills this thread's in-memory parts named by `sources` (another thread prepares them); returns every spilled part of them. */
export function spillNodes(t: { token: string; sources: PartSource[]; dir: string }): Array<{ ord: number; path: string }> {
  const out: Array<{ ord: number; path: string }> = [];
  for (const src of t.sources) {
    for (const p of takeParts(t.token, src)) {
      spillPart(t.dir, p);
      out.push({ ord: p.ord, path: p.path! });
    }
  }
  return out;
}

/** Pass 2 input: one node's events (held here under `sources`, or spilled by other threads). */
export interface PrepareNodeTask {
  token: string;
  /** key of the prepared node in this thread (for `nodeRows`) */
  key: string;
  /** the node (null: the records on no node) */
  node: string | null;
  /** the parts this thread holds of the node (`PartSource`: its own, and the records of its files that name no node) */
  sources: PartSource[];
  /** parts spilled by other threads */
  spilled: Array<{ ord: number; path: string }>;
  /** clock offset by file ord, ms */
  offsets: Record<number, number>;
}

interface NodeState {
  node: string | null;
  /** in order; those read back from a spill are light (`lightEvent`): their whole form is read again by `nodeRows` */
  events: AnalysedEvent[];
  /** the runs of `events` read back from spill files, in order (`from`: index of the first, `off`: its file's clock offset, ms) */
  spilled: SpilledRun[];
}

interface SpilledRun {
  from: number;
  count: number;
  path: string;
  ord: number;
  off: number;
}

const prepared = new Map<string, NodeState>();

/**
 * A spill file's events back, light (`lightEvent`: what the node's boots and error classes are
 * found from), read in bounded pieces (`fileLines`): a node's messages, fields and COPY tails are
 * never all in memory; `nodeRows` reads them again, one event at a time (`PreparedEvents`).
 */
function readSpill(p: { ord: number; path: string }, node: string | null): AnalysedEvent[] {
  const events: AnalysedEvent[] = [];
  for (const line of fileLines(p.path)) if (line) events.push(lightEvent(decodeEvent(line, p.ord, node).e));
  return events;
}

/**
 * A prepared node's events in order for `nodeRows` (`at(i)` for i = 0, 1, ...): held events as
 * they are; those of a spilled run read again from its file, whole, with their clock offset, and
 * the boot and error class `prepareNode` gave the light one. Each is let go from the node's list
 * as it is taken. `tail`: the COPY tail of the event last taken when it came from a spill.
 */
class PreparedEvents {
  tail: string | undefined;
  private run = 0;
  private lines: Generator<string> | null = null;
  constructor(private readonly st: NodeState) {}
  at(i: number): AnalysedEvent {
    const events = this.st.events as Array<AnalysedEvent | undefined>;
    const held = events[i]!;
    events[i] = undefined;
    const r = this.st.spilled[this.run];
    if (!r || i < r.from) {
      this.tail = undefined;
      return held;
    }
    this.lines ??= fileLines(r.path);
    let line = "";
    while (!line) {
      const n = this.lines.next();
      if (n.done) throw new Error(`spill file ${r.path}: fewer events than prepared`);
      line = n.value;
    }
    const { e, tail } = decodeEvent(line, r.ord, this.st.node);
    shiftEvent(e, r.off);
    e.boot = held.boot;
    e.errorClass = held.errorClass;
    this.tail = tail;
    if (i === r.from + r.count - 1) {
      this.lines.return(undefined);
      this.lines = null;
      this.run++;
    }
    return e;
  }
  /** Closes a spill file still open (the rows stopped early). */
  close(): void {
    this.lines?.return(undefined);
    this.lines = null;
  }
}

/** A prepared node: its boots (index = `AnalysedEvent.boot`) and how many events it holds (its `Event` rows). */
export interface PreparedNode {
  boots: AnalysedBoot[];
  events: number;
}

/**
 * Gathers a node's events (in file order), shifts them by their file's clock offset and finds
 * the node's boots; keeps them for `nodeRows`. The count returned is the number of rows
 * `nodeRows` formats: the caller gives the node its event ids from it. `onEvents`, when given, is
 * told the events gathered as it goes (`workSteps`, at most `PROGRESS_STEP_EVENTS` between two
 * calls), then as many units again as the boots are found (analyse-bundle.ts `analyseNode`, at
 * its steps).
 */
export function prepareNode(t: PrepareNodeTask, onEvents?: (events: number) => void): PreparedNode {
  const step = onEvents ? workSteps(onEvents, PROGRESS_STEP_EVENTS) : null;
  const pieces: Array<{ ord: number; events: AnalysedEvent[]; path?: string }> = [];
  for (const src of t.sources) {
    for (const p of takeParts(t.token, src)) {
      if (p.events) {
        heldBytes -= p.bytes;
        pieces.push({ ord: p.ord, events: p.events });
      } else pieces.push({ ord: p.ord, path: p.path!, events: readSpill({ ord: p.ord, path: p.path! }, t.node) });
    }
  }
  for (const p of t.spilled) pieces.push({ ord: p.ord, path: p.path, events: readSpill(p, t.node) });
  pieces.sort((a, b) => a.ord - b.ord);
  const events: AnalysedEvent[] = [];
  const spilled: SpilledRun[] = [];
  for (const piece of pieces) {
    const off = t.offsets[piece.ord] ?? 0;
    if (piece.path && piece.events.length) spilled.push({ from: events.length, count: piece.events.length, path: piece.path, ord: piece.ord, off });
    for (const e of piece.events) {
      e.node = t.node;
      shiftEvent(e, off);
      events.push(e);
      step?.(1);
    }
  }
  // finding the boots counts as much as gathering: as many units again, told at its steps
  let told = 0;
  const stage = (f: number) => {
    const n = Math.round(events.length * f);
    onEvents?.(n - told);
    told = n;
  };
  const boots = t.node === null ? [] : analyseNode(events, stage);
  prepared.set(t.key, { node: t.node, events, spilled });
  if (spilled.length) collectAfterLarge(events.length);
  return { boots, events: events.length };
}

/** Ids and context for formatting a prepared node's rows. */
export interface NodeRowsTask {
  /** as given to `prepareNode` */
  key: string;
  incidentId: string;
  bundleId: string;
  nodeId: number | null;
  /** database id of each of the node's boots (index as `prepareNode` returned them) */
  bootIds: number[];
  /** per boot: run the detectors here on this bundle's events (a boot new to the incident), else null */
  detect: Array<BootInfo | null>;
  /** id of the node's first event (ids are consecutive, one per event `prepareNode` counted, in its order) */
  firstId: number;
  /** SourceFile id by file ord */
  fileIds: Record<number, number>;
  /** how the database splits words: the node's search postings are made (lib/search/thread-words.ts); null or unset: none */
  words?: WordsMode | null;
}

export interface NodeRowsResult {
  /**
   * `Event` rows, COPY text (UTF-8) in `ROW_COLUMNS` + `TAIL_COLUMNS` order, in chunks of about
   * 4 MiB (row-stream.ts `CHUNK_BYTES`); empty when they went through the task's `RowSender`
   */
  rows: Uint8Array[];
  /** `EventDensity` rows, COPY text (bootId, sec, lane, bundleId, n, errors) */
  density: string;
  events: number;
  /** per boot the detectors ran on: the detectors that failed (detect-boot.ts `failures`) */
  findings: Array<{ bootId: number; failures: string[] }>;
  /** those findings as `Finding` COPY rows (store-bundle.ts `findingRows`) */
  findingRows: string[];
  /** search postings, COPY text in pieces (lib/search/postings.ts); empty without `words` */
  postings: string[];
  /** the boots' message templates as `LogPattern` COPY rows (pattern-rows.ts `PATTERN_COLUMNS`; "" for none) */
  patterns: string;
}

/** `Event` columns of a row as `nodeRows` writes them. */
export const ROW_COLUMNS = ["id", "incidentId", "bundleId", "fileId", "nodeId", "bootId", "ts", "errorClass", "fields", "fieldsAt"];

/**
 * `Event.ts` as COPY text: ISO 8601 UTC with milliseconds (`Date.toISOString`), `\N` for none.
 * Consecutive events mostly share their second, so its text is kept and only the milliseconds
 * written (`toISOString` per event was 4% of a node's thread time).
 */
class IsoTimes {
  private sec = NaN;
  private prefix = "";
  of(ms: number | null): string {
    if (ms === null) return "\\N";
    if (!Number.isInteger(ms)) return new Date(ms).toISOString();
    const sec = Math.floor(ms / 1000);
    if (sec !== this.sec) {
      const iso = new Date(sec * 1000).toISOString();
      this.sec = sec;
      this.prefix = iso.slice(0, -4);
    }
    const frac = ms - sec * 1000;
    return `${this.prefix}${frac < 10 ? "00" : frac < 100 ? "0" : ""}${frac}Z`;
  }
}

/**
 * Formats a prepared node's `Event` rows (ids from `firstId` in order) and its per-second
 * `EventDensity` rollup, and runs the detectors on each boot `detect` names. Throws when the node
 * was not prepared on this thread. Each event is let go as soon as its row is written (only the
 * detectors' inputs of new boots stay, `toBootEvent`), so the node's events and its rows are not
 * both whole in memory: the heap shrinks as the rows grow off it. With `sender` (row-stream.ts),
 * each chunk of rows goes to the COPY as soon as it is full and formatting waits while too many
 * are on their way, so the rows are never whole either; without it, they come back in `rows`.
 * `onEvents`, when given, is told the rows formatted as it goes (`workSteps`, at most
 * `PROGRESS_STEP_EVENTS` between two calls); the detectors and the pattern rows come after them.
 */
export async function nodeRows(t: NodeRowsTask, onEvents?: (events: number) => void, sender?: RowSender): Promise<NodeRowsResult> {
  const step = onEvents ? workSteps(onEvents, PROGRESS_STEP_EVENTS) : null;
  const st = prepared.get(t.key);
  if (!st) throw new Error(`nodeRows: node ${t.key} was not prepared on this thread`);
  prepared.delete(t.key);
  const head = `\t${t.incidentId}\t${t.bundleId}\t`;
  const nodeId = copyText(t.nodeId);
  // encoded here, on the worker thread, and handed over without a copy (see ingest-worker.mjs)
  const rows = new RowChunks(sender);
  const iso = new IsoTimes();
  const byBoot = new Map<number, BootEvent[]>();
  // per boot and lane: second -> [events, errors] (numeric keys: no key string per event)
  const density = new Map<number, Map<Lane, Map<number, [number, number]>>>();
  const words = t.words ? new NodeWords(t.words) : null;
  const miners = new BootMiners();
  const count = st.events.length;
  // each event let go once its row is written (see above); spilled ones read again whole
  const events = new PreparedEvents(st);
  try {
    for (let i = 0; i < count; i++) {
      const e = events.at(i);
      const tail = events.tail;
      const id = t.firstId + i;
      const fileId = t.fileIds[e.fileIdx];
      const bootId = e.boot === null ? null : t.bootIds[e.boot];
      if (bootId != null) {
        miners.add(bootId, e, id);
        if (t.detect[e.boot!] && detectorWants(e)) {
          let list = byBoot.get(bootId);
          if (!list) byBoot.set(bootId, (list = []));
          list.push(toBootEvent(e, id, fileId));
        }
        if (e.ts !== null) {
          let lanes = density.get(bootId);
          if (!lanes) density.set(bootId, (lanes = new Map()));
          let secs = lanes.get(e.lane);
          if (!secs) lanes.set(e.lane, (secs = new Map()));
          const sec = Math.floor(e.ts / 1000);
          const d = secs.get(sec);
          if (d) {
            d[0]++;
            if (e.severity >= 3) d[1]++;
          } else secs.set(sec, [1, e.severity >= 3 ? 1 : 0]);
        }
      }
      // a klog message holds its pairs: stored once (lib/model/message-fields.ts)
      const at = messageFieldsAt(e.message, e.fields);
      const fields = at === null ? `${copyJson(e.fields)}\t\\N` : `\\N\t${at}`;
      // the searchable text as the database has it (lib/search/search-sql.ts docTextSql): a spilled event's only in its tail
      if (words)
        words.add(
          id,
          bootId,
          tail === undefined
            ? [e.pod, e.sandboxId, e.message, at === null && e.fields ? JSON.stringify(e.fields) : null]
            : [tailText(tail), at === null && e.fields ? JSON.stringify(e.fields) : null],
        );
      const wait = rows.add(
        `${id}${head}${fileId}\t${nodeId}\t${copyText(bootId)}\t${iso.of(e.ts)}\t${copyText(e.errorClass)}\t${fields}\t${tail ?? copyTail(e)}\n`,
      );
      step?.(1);
      if (wait) await wait;
    }
  } finally {
    events.close();
  }
  const chunks = await rows.done();
  let dens = "";
  for (const [bootId, lanes] of density) {
    for (const [lane, secs] of lanes) for (const [sec, [count, errors]] of secs) dens += `${bootId}\t${sec}\t${lane}\t${t.bundleId}\t${count}\t${errors}\n`;
  }
  const findings: NodeRowsResult["findings"] = [];
  const findingText: string[] = [];
  t.bootIds.forEach((bootId, b) => {
    const info = t.detect[b];
    if (!info) return;
    const out = detectBoot(info, byBoot.get(bootId) ?? []);
    // boots belong to a node (the records on no node have none)
    findingText.push(...findingRows(t.incidentId, t.nodeId!, bootId, out.findings));
    findings.push({ bootId, failures: out.failures });
  });
  const patterns = patternRows(miners, t.incidentId, t.bundleId);
  if (st.spilled.length) collectAfterLarge(count);
  return { rows: chunks, density: dens, events: count, findings, findingRows: findingText, postings: words ? words.rows(t.nodeId) : [], patterns };
}

/**
 * Drops everything this thread holds for a bundle (after it is stored, or failed, whatever step
 * it failed in: the caller calls it on every thread in a `finally`); with no other
 * bundle in hand, also the buffers kept for the next one (spare row chunks, the read buffer), so
 * an idle app does not hold them.
 */
export function forgetBundle(token: string): void {
  for (const parts of held.get(token)?.values() ?? []) for (const p of parts) if (p.events) heldBytes -= p.bytes;
  held.delete(token);
  for (const k of [...prepared.keys()]) if (k.startsWith(`${token}:`)) prepared.delete(k);
  // nothing held: the estimate starts again from zero (no drift can outlive the bundles)
  if (held.size === 0) heldBytes = 0;
  if (held.size === 0 && prepared.size === 0) {
    releaseSpareChunks();
    releaseReadBuffer();
  }
}

/** What this thread holds: bundles with held parts, their estimated bytes in memory, prepared nodes. */
export function heldState(): { bundles: string[]; heldBytes: number; prepared: number } {
  return { bundles: [...held.keys()], heldBytes, prepared: prepared.size };
}

/** The tasks by name, for the worker entry and the inline executor. */
export const TASKS = { unpackTask, parseFileTask, dropFiles, spillNodes, prepareNode, nodeRows, recycleRows, forgetBundle, heldState } as const;
export type TaskName = keyof typeof TASKS;
