/**
 * The streaming ingest: unpacked files -> events, boots, findings in PostgreSQL, on worker
 * threads, with memory bounded by a few nodes (or a per-thread budget) rather than by the
 * bundle.
 *
 * 1. `unpackUploads`: the uploads are unpacked while the threads start, then on the threads; each
 *    upload's files go to disk, hashed, as soon as it is unpacked. Then one of two ways:
 * 2a. `ingestByNode` (when every parsed file has a node from its path, `canIngestByNode`): one
 *    pass inside the caller's transaction. Each node's files are parsed on one thread and the node
 *    is stored as soon as it and the nodes before it are: boots, rows, detectors on that thread,
 *    COPY here, while the threads parse the next nodes. Duplicates are known from the hashes.
 *    At the end it settles the bundle (settle.ts); where that decides other than the pass assumed
 *    (a clock offset, say), it throws `NeedsTwoPasses`: the caller rolls back and takes the two passes.
 * 2b. `parseFiles` (pass 1): every file on the worker threads (ingest-tasks.ts `parseFileTask`:
 *    read, redact, parse, classify), the files of one node on one thread, which keeps their
 *    events (past `holdBytes`, on disk); then `settleParsed`: the settle step (settle.ts) on small
 *    summaries only: duplicate files, the node of records nothing places, clock offsets.
 *    `storeParsed` (pass 2, inside the caller's transaction):
 *    files and blocks, and node by node, on the thread holding the node's events, boots
 *    (`prepareNode`) and COPY rows plus the detectors' findings on new boots (`nodeRows`), while
 *    the connection COPYs the previous nodes' rows.
 * Both store through `BundleStore`; boots the incident already had get their findings from every
 * stored event on them at the end.
 *
 * pipeline.ts calls these in order. The in-memory reference (reference.ts `analyseBundle`) runs the
 * same per-file, settle and per-node steps; tests/ingest-streaming.test.ts checks that both ways
 * store what it computes.
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { collectorNames, type BundleLayout } from "../bundle/collectors";
import { fileSize, type UnpackedFile } from "../bundle/unpack";
import type { SqlConn } from "../db/sql";
import type { BootInfo } from "../detect/types";
import { clockOffsets } from "../normalise/clock-skew";
import { fileBase, latestMtime, type IngestOptions, type Progress } from "./analyse-bundle";
import { duplicateScopes, findDuplicates, settleBundle } from "./settle";
import type { AnalysedFile } from "../model/event";
import { ingestExecutors, type Executor } from "./ingest-pool";
import { blockRowChunks, ROW_COLUMNS, unpackTask, type NodeRowsResult, type ParseFileResult, type PartSource, type PreparedNode } from "./ingest-tasks";
import type { LiveNodeState } from "./live-status";
import { copyPostings, createPostings, finishPostings } from "../search/postings";
import type { WordsMode } from "../search/thread-words";
import { TAIL_COLUMNS } from "./spill";
import { RowReceiver, SPARE_CHUNKS } from "./row-stream";
import { requireReadable } from "./file-reason";
import { PATTERN_COLUMNS } from "./pattern-rows";
import {
  detectFindings,
  insertFiles,
  knownBoots,
  lockIngest,
  reserveIds,
  storeFindingRows,
  upsertNodes,
  writeBoots,
  type BootWrite,
  type KnownBoot,
} from "./store-bundle";

/**
 * A phase's progress by bytes, reported only as it rises: items (uploads, files) of `sizes`
 * bytes count whole once `done`, partly as far as their threads told while running (`reader`:
 * ingest-tasks.ts `batchedBytes`, capped at the item's size), plus bytes `add`ed for other work;
 * out of `passes` times the items' bytes (2 when storing counts as much as parsing).
 */
class ByteProgress {
  private readonly part: number[];
  private readonly total: number;
  private partSum = 0;
  private doneSum = 0;
  private shown = 0;

  constructor(
    private readonly sizes: number[],
    private readonly report: (fraction: number) => void,
    passes = 1,
  ) {
    this.part = sizes.map(() => 0);
    this.total = passes * sizes.reduce((s, n) => s + n, 0) || 1;
  }

  /** The callback a running item's thread reports its bytes read to. */
  reader(i: number): (bytes: number) => void {
    return (bytes) => {
      const add = Math.min(bytes, this.sizes[i] - this.part[i]);
      this.part[i] += add;
      this.partSum += add;
      this.emit();
    };
  }

  /** Item `i` is done: it counts whole. */
  done(i: number): void {
    this.partSum -= this.part[i];
    this.part[i] = 0;
    this.doneSum += this.sizes[i];
    this.emit();
  }

  /** Bytes of other work done (stored bytes, by node). */
  add(bytes: number): void {
    this.doneSum += bytes;
    this.emit();
  }

  /** The phase is over: 1 if not reported yet (items of no bytes). */
  end(): void {
    if (this.shown < 1) this.report((this.shown = 1));
  }

  private emit(): void {
    const f = Math.min(1, (this.doneSum + this.partSum) / this.total);
    if (f <= this.shown) return;
    this.shown = f;
    this.report(f);
  }
}

/**
 * Unpacks the uploads (`uploads`: files on disk; `names`: their original names, same order),
 * largest first: on this thread while the ingest threads start (they load the tasks first),
 * then on the threads, each one upload at a time. Every upload's files go to disk under `dir` as
 * soon as it is unpacked (ingest-tasks.ts `unpackTask`). Returns the files in upload order, with
 * `dataPath` instead of bytes. Throws when a thread fails. Reports phase `unpack` by the uploads'
 * bytes read, inside an upload too (`step.stepBytes`: bytes between two reports of a thread).
 */
export async function unpackUploads(
  uploads: string[],
  names: string[],
  dir: string,
  progress: Progress = () => {},
  step: { stepBytes?: number } = {},
): Promise<UnpackedFile[]> {
  const pool = ingestExecutors();
  let started = false;
  pool.then(() => (started = true)).catch(() => {});
  const sizes = uploads.map((p) => statSync(p).size);
  const queue = uploads.map((_, i) => i).sort((a, b) => sizes[b] - sizes[a] || a - b);
  const out = new Array<UnpackedFile[]>(uploads.length);
  // progress by bytes of the uploads read: the finished uploads whole, the running ones as far
  // as their threads told (ingest-tasks.ts `batchedBytes`, `step.stepBytes` between two reports)
  const bytes = new ByteProgress(sizes, (f) => progress("unpack", f));
  const unpack = async (ex: Executor | null, i: number) => {
    const t = { path: uploads[i], name: names[i], dir: path.join(dir, String(i)), stepBytes: step.stepBytes };
    const onBytes = bytes.reader(i);
    out[i] = ex ? await ex.call("unpackTask", t, [], onBytes) : await unpackTask(t, onBytes);
    bytes.done(i);
  };
  while (queue.length) {
    // let the threads' "ready" messages in: unpacking itself may never leave the microtask queue
    await new Promise((r) => setImmediate(r));
    if (started) break;
    await unpack(null, queue.shift()!);
  }
  const executors = await pool;
  await Promise.all(
    executors.map(async (ex) => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) await unpack(ex, i);
    }),
  );
  if (uploads.length) bytes.end(); // uploads of no bytes
  return out.flat();
}

/** A node's share of the bundle after pass 1 (`node` null: records on no node). */
interface NodeGroup {
  node: string | null;
  /**
   * its parts on the threads: those held under its own name, and those held under no node of the
   * files the settle step gives it (`PartSource`)
   */
  sources: PartSource[];
  /** events held by each executor (index into `ParsedBundle.executors`) */
  held: Map<number, number>;
  /** events counted at parse, for progress; the node's event ids follow what `prepareNode` counts */
  events: number;
}

/** The bundle after pass 1: file listings and where each node's events wait. */
export interface ParsedBundle {
  /** key of the bundle's events on the threads */
  token: string;
  /** the threads holding them (pass 2 must use the same) */
  executors: Executor[];
  /** folder for spill files */
  dir: string;
  files: AnalysedFile[];
  /** clock offset by file ord, ms */
  offsets: Record<number, number>;
  /** nodes by name, then the group of records on no node */
  groups: NodeGroup[];
  blocks: Array<string | null>;
  collector: string | null;
  aliases: Map<string, string[]>;
  /** nodes named after the upload (no log, path or option named them) */
  unnamed: Set<string>;
}

/**
 * Estimated bytes of parsed events (source text plus per-event overhead, ingest-tasks.ts
 * `heldSize`) each thread may hold in memory before it spills the largest parts to disk
 * (`BOOTLINE_INGEST_HOLD_MB`, default 320 MiB): this bounds a thread's memory whatever the
 * bundle's size.
 */
export function holdBytes(): number {
  const mb = Number(process.env.BOOTLINE_INGEST_HOLD_MB);
  return (Number.isFinite(mb) && mb >= 0 && process.env.BOOTLINE_INGEST_HOLD_MB !== "" ? mb : 320) * 1024 * 1024;
}

/**
 * Which executor parses each file: the files of one node (as the collector layout names it) go to
 * one executor, so pass 2 finds the node's events where they are; nodes are spread by size,
 * largest first, onto the least loaded executor. With fewer nodes than executors, files are
 * spread one by one instead (parallel parsing beats keeping a node on one thread).
 */
function assignFiles(sizes: number[], nodes: Array<string | null | undefined>, executors: number): number[][] {
  const groups = new Map<string, number[]>();
  sizes.forEach((_, ord) => {
    const key = nodes[ord] ? `n:${nodes[ord]}` : `f:${ord}`;
    const g = groups.get(key);
    if (g) g.push(ord);
    else groups.set(key, [ord]);
  });
  const named = [...groups.keys()].filter((k) => k.startsWith("n:")).length;
  let units = [...groups.values()];
  if (named < executors) units = sizes.map((_, ord) => [ord]);
  const weight = (u: number[]) => u.reduce((s, o) => s + sizes[o], 0);
  units.sort((x, y) => weight(y) - weight(x));
  const load = new Array<number>(executors).fill(0);
  const out: number[][] = Array.from({ length: executors }, () => []);
  for (const u of units) {
    let best = 0;
    for (let i = 1; i < executors; i++) if (load[i] < load[best]) best = i;
    out[best].push(...u);
    load[best] += weight(u);
  }
  return out;
}

/**
 * Pass 1, the parse step (see the module comment). `unpacked` entries carry their bytes at
 * `dataPath` (or in `data`, which is then sent to the thread); spill files go to `dir`; `layout`
 * is `describeBundle(unpacked)`. Never throws for bad input; throws when a worker thread fails.
 * The threads keep the parsed events under `token` until `storeParsed` or `releaseParsed`.
 * Reports phase `parse` by bytes parsed, inside a file too, as its lines are parsed
 * (`step.stepBytes`: bytes between two reports of a thread).
 */
export async function parseFiles(
  unpacked: UnpackedFile[],
  layout: BundleLayout,
  opts: IngestOptions,
  dir: string,
  token: string,
  progress: Progress = () => {},
  step: { stepBytes?: number } = {},
): Promise<ParsedFiles> {
  mkdirSync(dir, { recursive: true });
  const collectedMs = opts.collectedMs ?? latestMtime(unpacked);
  const sizes = unpacked.map(fileSize);
  const bytes = new ByteProgress(sizes, (f) => progress("parse", f));
  const executors = await ingestExecutors();
  const limit = holdBytes();
  const results = new Array<ParseFileResult>(unpacked.length);
  const holder = new Array<number>(unpacked.length);
  const plan = assignFiles(
    sizes,
    layout.files.map((l) => opts.node || l.node),
    executors.length,
  );
  progress("parse", 0);
  await Promise.all(
    plan.map(async (ords, x) => {
      for (const ord of ords) {
        results[ord] = await executors[x].call(
          "parseFileTask",
          { token, ord, file: unpacked[ord], layout: layout.files[ord], opts, collectedMs, dir, holdBytes: limit, stepBytes: step.stepBytes },
          [],
          bytes.reader(ord),
        );
        holder[ord] = x;
        bytes.done(ord);
      }
    }),
  );

  progress("parse", 1);
  return { token, executors, dir, results, holder };
}

/** Every file parsed on the threads (`parseFiles`), before the bundle is settled. */
export interface ParsedFiles {
  token: string;
  executors: Executor[];
  dir: string;
  /** each file's parse result, by ord */
  results: ParseFileResult[];
  /** the executor holding each file's events, by ord */
  holder: number[];
}

/**
 * Pass 1, the settle step: `settleBundle` (settle.ts) on the parse results, the duplicates' events
 * dropped on their threads, then each node's events grouped by the thread holding them. Sets
 * `redacted` on the unpacked entries. Throws when a worker thread fails.
 */
export async function settleParsed(parsed: ParsedFiles, unpacked: UnpackedFile[], layout: BundleLayout, opts: IngestOptions): Promise<ParsedBundle> {
  const { token, executors, dir, results, holder } = parsed;
  const dropped = new Map<number, number[]>();
  const settled = settleBundle(results, unpacked, layout, opts, {
    drop: (r, ord) => {
      if (r.parts.length) dropped.set(holder[ord], [...(dropped.get(holder[ord]) ?? []), ord]);
      if (r.blocksPath) rmSync(r.blocksPath, { force: true });
      Object.assign(r, { parts: [], blocksPath: null, skew: { failures: [], events: [] } });
    },
    recordNodes: (r) => r.parts.map((p) => p.node),
    skewInputs: () => results.map((r) => r.skew),
  });
  for (const [x, ords] of dropped) await executors[x].call("dropFiles", { token, ords });
  const { files, offsets } = settled;

  // a group takes the parts held under its name, and those held under no node of exactly the
  // files the settle step gives it: records of no node are held under one key for every file
  const byNode = new Map<string | null, NodeGroup & { unplaced: number[] }>();
  results.forEach((r, ord) => {
    for (const p of r.parts) {
      const node = p.node ?? settled.nodeOf(ord);
      let g = byNode.get(node);
      if (!g) byNode.set(node, (g = { node, sources: [], unplaced: [], held: new Map(), events: 0 }));
      if (p.node === null && !g.unplaced.includes(ord)) g.unplaced.push(ord);
      g.held.set(holder[ord], (g.held.get(holder[ord]) ?? 0) + p.events);
      g.events += p.events;
    }
  });
  for (const g of byNode.values()) {
    if (g.node !== null) g.sources.push({ node: g.node });
    if (g.unplaced.length) g.sources.push({ node: null, ords: g.unplaced });
  }
  const groups = [...byNode.values()].sort((a, b) => (a.node === null ? 1 : b.node === null ? -1 : a.node.localeCompare(b.node)));
  return {
    token,
    executors,
    dir,
    files,
    offsets: Object.fromEntries(offsets),
    groups,
    blocks: results.map((r) => r.blocksPath),
    collector: collectorNames(layout),
    aliases: layout.aliases,
    unnamed: settled.unnamed,
  };
}

/** Lets the threads drop what they hold for a bundle (call once it is stored or has failed). */
export async function releaseParsed(parsed: Pick<ParsedBundle, "token" | "executors">): Promise<void> {
  await Promise.all(parsed.executors.map((ex) => ex.call("forgetBundle", parsed.token).catch(() => {})));
}

/** What `storeParsed` / `ingestByNode` wrote. */
export interface StoredBundle {
  events: number;
  /** of those, events on no node: stored and listed with their file, but on no node's timeline */
  eventsOnNoNode: number;
  findings: number;
  /** detectors that failed, as "<detector> on <node> boot <key>: <message>" */
  failures: string[];
}

/**
 * One node on its way to the database: the boots to write before its rows, its rows as its thread
 * formats them (`rows`, row-stream.ts: the thread waits while the COPY is behind), the rest of its
 * thread's result once formatted (`result`: density, findings, postings, patterns), the node
 * (null: the records on no node), the thread that formats it (it takes chunks back once copied)
 * and the number of ids it was given (`events`).
 */
interface NodeOut {
  boots: BootWrite[];
  /** tells the node's step `n` more events formatted or copied */
  work: (n: number) => void;
  rows: RowReceiver;
  result: Promise<NodeRowsResult>;
  node: string | null;
  from: Executor;
  gi: number;
  events: number;
}

/** Lets a node's rows go uncopied (the store failed) and waits until its thread has stopped formatting them. */
async function dropNodeOut(out: NodeOut): Promise<void> {
  out.rows.cancel();
  await out.result.catch(() => {});
}

/**
 * Shares of one node's store step (`BundleStore.onStep`): its events gathered on the thread and its
 * boots found (by events, each counted twice: ingest-tasks.ts `prepareNode`); then its rows, which
 * the thread formats while the COPY takes them (row-stream.ts), by events formatted plus events
 * copied. A node is `storing` from `STEP_ROWS`.
 */
const STEP_BOOTS = 0.2;
const STEP_ROWS = 0.5;
/** the rows formatted and copied: the density, postings, patterns and findings COPYs take the rest */
const STEP_COPIED = 0.95;

/** Where a node is, told to the live status (live-status.ts `LiveNodeState`). */
export type NodeReport = (node: string, state: LiveNodeState) => void;

/** The node's state once its store step is at `f` (`BundleStore.onStep`). */
const stateAt = (f: number): LiveNodeState => (f >= 1 ? "stored" : f >= STEP_ROWS ? "storing" : "detecting");

/**
 * The database half of one bundle's ingest, inside its transaction, for both ways of running it:
 * `open` (the ingest advisory lock, the nodes, the incident's boots, id blocks), `files` (source
 * files and blocks, any time after `open`), `node` for each node in name order (boots and rows
 * formatted on the thread holding the node's events; ids are given out in call order) and `copy`
 * of its result in the same order, then `finish` (sequences, findings).
 *
 * Event, Boot and SourceFile ids are reserved from their sequences under the advisory lock, which
 * every ingest holds until its transaction ends, so threads format rows and detectors cite events
 * by id without reading them back (store-bundle.ts). A node's Event and Boot ids are given once
 * its events and boots are final (`prepareNode` has gathered, shifted and counted them), from
 * what it counted, never from a count taken earlier: whatever the settle step decided late
 * (duplicates, the node of records nothing places, clock offsets), the blocks of two nodes cannot
 * overlap, and the sequences are moved past the last id given in `finish`.
 */
class BundleStore {
  private nodeIds = new Map<string, number>();
  private newNodes = new Set<string>();
  private known = new Map<string, KnownBoot>();
  private firstEventId = 0;
  private nextEventId = 0;
  private bootBase = 0;
  private nextBootId = 0;
  /** SourceFile id by file ord */
  fileIds: number[] = [];
  private allocated: Promise<void> = Promise.resolve();
  private readonly knownTouched = new Map<number, { info: BootInfo; events: [] }>();
  private readonly failures: string[] = [];
  copied = 0;
  /** events stored on no node (no file path, option or record named one) */
  private onNoNode = 0;
  /** findings stored */
  private stored = 0;
  /** how the database splits words for the bundle's search postings (lib/search/postings.ts); null: none made */
  private words: WordsMode | null = null;
  /** told how far node `gi` (its index in call order) is through its store step, 0..1, never going back */
  onStep: (gi: number, fraction: number) => void = () => {};

  constructor(
    private readonly tx: SqlConn,
    private readonly ids: { incidentId: string; bundleId: string },
    private readonly executors: Executor[],
    private readonly token: string,
    private readonly dir: string,
  ) {}

  /** `nodes`: every node that may get events (in name order; those that get none are removed again in `finish` when new). */
  async open(fileCount: number, nodes: string[], aliases: Map<string, string[]>, unnamed: ReadonlySet<string> = new Set()): Promise<void> {
    const { tx, ids } = this;
    await lockIngest(tx);
    // names the incident has, its nodes' aliases included (those are the same nodes: `upsertNodes`)
    const rows = await tx.query<{ name: string; aliases: string[] }>(`SELECT name, aliases FROM "Node" WHERE "incidentId" = $1`, [ids.incidentId]);
    const before = new Set(rows.flatMap((r) => [r.name, ...(r.aliases ?? [])]));
    this.newNodes = new Set(nodes.filter((n) => !before.has(n)));
    this.nodeIds = await upsertNodes(tx, ids.incidentId, nodes, aliases, unnamed);
    this.known = await knownBoots(tx, ids.incidentId);
    // first ids of blocks given out here in order; the sequences are moved past them in `finish`
    this.firstEventId = this.nextEventId = await reserveIds(tx, "Event", 1);
    this.bootBase = this.nextBootId = await reserveIds(tx, "Boot", 1);
    const firstFile = fileCount ? await reserveIds(tx, "SourceFile", fileCount) : 0;
    this.fileIds = Array.from({ length: fileCount }, (_, i) => firstFile + i);
    this.words = await createPostings(tx, ids.bundleId);
  }

  /**
   * Inserts source files with their reserved ids and COPYs their blocks (`blocksPath`: a
   * SourceBlock rows file, or null); any subset, any time after `open`.
   */
  async files(list: Array<{ file: AnalysedFile; blocksPath: string | null }>, onBytes: (bytes: number) => void = () => {}): Promise<void> {
    const fileIds = this.fileIds;
    await insertFiles(
      this.tx,
      this.ids.incidentId,
      this.ids.bundleId,
      list.map((x) => x.file),
      list.map((x) => fileIds[x.file.ord]),
    );
    // read in bounded pieces: a file's rows are about twice its size (hex)
    function* blockRows(): Generator<Buffer> {
      for (const { file, blocksPath } of list) {
        if (!blocksPath) continue;
        for (const chunk of blockRowChunks(blocksPath, fileIds[file.ord])) {
          yield chunk;
          onBytes(chunk.length);
        }
      }
    }
    if (list.some((x) => x.blocksPath)) await this.tx.copyFrom("SourceBlock", ["fileId", "seq", "firstLine", "lineCount", "data"], blockRows());
  }

  /**
   * One node: its boots on the thread holding most of its events (the other holders hand theirs
   * over on disk), ids here in call order, then its rows and the findings of its new boots on the
   * same thread. `offsets`: clock offset by file ord, ms.
   */
  async node(g: NodeGroup, gi: number, offsets: Record<number, number>): Promise<NodeOut> {
    const { executors, token } = this;
    const x = [...g.held].sort((p, q) => q[1] - p[1] || p[0] - q[0])[0]?.[0] ?? 0;
    const ex = executors[x];
    const key = `${token}:${gi}`;
    const prior = this.allocated;
    let release!: () => void;
    this.allocated = new Promise((r) => (release = r));
    try {
      const spilled = (
        await Promise.all([...g.held.keys()].filter((y) => y !== x).map((y) => executors[y].call("spillNodes", { token, sources: g.sources, dir: this.dir })))
      ).flat();
      // the thread tells the events gathered, then the rows formatted (ingest-tasks.ts `workSteps`)
      const events = (from: number, to: number, of: number) => {
        let done = 0;
        return (k: number) => this.onStep(gi, from + ((to - from) * Math.min(of, (done += k))) / (of || 1));
      };
      const prep: PreparedNode = await ex.call(
        "prepareNode",
        { token, key, node: g.node, sources: g.sources, spilled, offsets },
        [],
        events(0, STEP_BOOTS, 2 * g.events),
      );
      const found = prep.boots;
      this.onStep(gi, STEP_BOOTS);
      await prior;
      // the node's rows are final now: its ids follow the ids given to the nodes before it
      const firstId = this.nextEventId;
      this.nextEventId += prep.events;
      const nodeId = g.node === null ? null : this.nodeIds.get(g.node)!;
      const bootIds: number[] = [];
      const detect: Array<BootInfo | null> = [];
      const boots: BootWrite[] = [];
      for (const b of found) {
        const k = this.known.get(`${nodeId}\t${b.bootKey}`);
        const id = k ? k.id : this.nextBootId++;
        bootIds.push(id);
        boots.push({ id, nodeId: nodeId!, boot: b, known: !!k });
        const info: BootInfo = { node: g.node!, bootKey: b.bootKey, start: b.start, end: b.end, startApprox: b.startApprox };
        if (k) {
          info.start = Math.min(k.start, b.start);
          info.end = k.end === null ? b.end : b.end === null ? k.end : Math.max(k.end, b.end);
          this.knownTouched.set(id, { info, events: [] });
        }
        detect.push(k ? null : info);
      }
      release();
      // the rows come as the thread formats them; `copy` takes them in node order
      const rows = new RowReceiver();
      const task = {
        key,
        incidentId: this.ids.incidentId,
        bundleId: this.ids.bundleId,
        nodeId,
        bootIds,
        detect,
        firstId,
        fileIds: this.fileIds,
        words: this.words,
      };
      // the rows' share, by events formatted and events copied (each counted once)
      const work = events(STEP_BOOTS, STEP_COPIED, 2 * prep.events);
      const result = ex.call("nodeRows", task, [], work, rows);
      result.then(
        () => rows.end(),
        (e) => rows.fail(e),
      );
      return { boots, rows, work, result, node: g.node, from: ex, gi, events: prep.events };
    } catch (e) {
      release();
      throw e;
    }
  }

  /** Writes one node's boots, COPYs its rows and density rollup, stores its findings (call in `node` order). */
  async copy(out: NodeOut): Promise<void> {
    const { tx } = this;
    let rows: NodeRowsResult;
    try {
      await writeBoots(tx, this.ids.incidentId, out.boots); // before the findings: Finding references Boot
      rows = await this.copyRows(out);
    } catch (e) {
      await dropNodeOut(out);
      throw e;
    }
    if (rows.density) await tx.copyFrom("EventDensity", ["bootId", "sec", "lane", "bundleId", "n", "errors"], [rows.density]);
    await copyPostings(tx, this.ids.bundleId, rows.postings);
    if (rows.patterns) await tx.copyFrom("LogPattern", PATTERN_COLUMNS, [rows.patterns]);
    // the boots are new to the incident (their findings were found on the thread): none to replace
    this.stored += await storeFindingRows(tx, rows.findingRows);
    for (const f of rows.findings) this.failures.push(...f.failures);
    this.onStep(out.gi, 1);
  }

  /**
   * COPYs a node's `Event` rows as its thread sends them (row-stream.ts), then waits for the rest
   * of the thread's result; the last chunks taken go back to the thread once the COPY is complete.
   * Progress: the rows taken, told to the node's step (`NodeOut.work`).
   */
  private async copyRows(out: NodeOut): Promise<NodeRowsResult> {
    const recent: Uint8Array[] = [];
    const rows = out.rows;
    let told = 0;
    rows.onTake = () => {
      out.work(rows.taken.events - told);
      told = rows.taken.events;
    };
    async function* kept(): AsyncGenerator<Uint8Array> {
      for await (const chunk of rows) {
        // only the last few are kept to hand back: the node's rows are never all held here
        recent.push(chunk);
        if (recent.length > SPARE_CHUNKS) recent.shift();
        yield chunk;
      }
    }
    const copied = await this.tx.copyFrom("Event", [...ROW_COLUMNS, ...TAIL_COLUMNS], kept());
    const result = await out.result;
    if (result.events !== out.events) throw new Error(`node ${out.node ?? "(none)"}: ${result.events} rows formatted for ${out.events} ids`);
    this.copied += copied;
    if (out.node === null) this.onNoNode += copied;
    // copied (the COPY is complete): the thread writes its next rows into them; not waited for
    const chunks = [...new Set(recent.map((r) => r.buffer))].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
    out.from.call("recycleRows", { chunks: recent }, chunks).catch(() => {});
    return result;
  }

  /** Moves the sequences past the ids given out, removes new nodes that got no events, finds again on the boots the incident had. */
  async finish(unused: string[], progress: Progress): Promise<StoredBundle> {
    const { tx, ids } = this;
    if (this.nextEventId - 1 > this.firstEventId) await tx.query(`SELECT setval(pg_get_serial_sequence('"Event"', 'id'), $1)`, [this.nextEventId - 1]);
    if (this.nextBootId - 1 > this.bootBase) await tx.query(`SELECT setval(pg_get_serial_sequence('"Boot"', 'id'), $1)`, [this.nextBootId - 1]);
    const drop = unused.filter((n) => this.newNodes.has(n)).map((n) => this.nodeIds.get(n)!);
    if (drop.length) await tx.query(`DELETE FROM "Node" WHERE id = ANY($1::int[])`, [drop]);
    progress("detect", 0);
    const again = await detectFindings(tx, ids.incidentId, this.knownTouched, null);
    progress("detect", 1);
    // phase `finish` goes on in the caller (pipeline.ts: the counts, the commit, the statistics)
    progress("finish", 0);
    if (this.words) await finishPostings(tx, ids.bundleId);
    progress("finish", FINISH_POSTINGS);
    return { events: this.copied, eventsOnNoNode: this.onNoNode, findings: this.stored + again.findings, failures: [...this.failures, ...again.failures] };
  }
}

/**
 * Runs `store.node` for every group (`offsets`: clock offset by file ord, ms) with at most
 * `window` in flight and `store.copy` of each in group order. `groups[k]()` gives group k when it
 * can start (null: nothing to store); `first` runs once the first groups are launched, before any
 * copy; `after(k)` runs once group k is copied.
 *
 * On the first failure (a copy, a node's step, a hook) `abort(e)` runs before anything is waited
 * for: a group still in flight may wait for something only a later success would give (by node, a
 * thread waits for the slot of a node `window` before its own, given once that node is stored),
 * so `abort` must let every such wait go (reject it); then the groups in flight are waited for,
 * so nothing of the bundle still runs on the threads when this throws `e`.
 */
async function storeGroups(
  store: BundleStore,
  groups: Array<() => Promise<NodeGroup | null>>,
  offsets: Record<number, number>,
  window: number,
  hooks: { first?: () => Promise<void>; after?: (k: number) => Promise<void>; abort?: (e: unknown) => void } = {},
): Promise<void> {
  const inflight: Array<Promise<NodeOut | null>> = [];
  let next = 0;
  const launch = () => {
    const k = next++;
    const p = groups[k]().then((g) => (g ? store.node(g, k, offsets) : null));
    p.catch(() => {}); // awaited in order below; this only keeps a later failure from going unhandled meanwhile
    inflight.push(p);
  };
  while (next < groups.length && inflight.length < window) launch();
  try {
    if (hooks.first) await hooks.first();
    for (let k = 0; inflight.length; k++) {
      const out = await inflight.shift()!;
      if (next < groups.length) launch();
      if (out) await store.copy(out);
      await hooks.after?.(k);
    }
  } catch (e) {
    // first let go what the groups in flight may wait for (the failed node's slot among it), then
    // wait for them: what they leave on the threads is then forgotten with the bundle
    hooks.abort?.(e);
    // nodes whose rows are on their way but will not be copied: their threads stop formatting them
    const left = await Promise.allSettled(inflight);
    await Promise.all(left.map((r) => (r.status === "fulfilled" && r.value ? dropNodeOut(r.value) : null)));
    throw e;
  }
}

/**
 * Pass 2 (see the module comment), inside the caller's transaction `tx`. Reports progress as
 * phase `store` (each node's step weighted by its events: boots, rows, then its COPY by bytes;
 * `STEP_BOOTS`, `STEP_ROWS`), then `detect`. Throws on a database or thread error
 * (the caller's transaction then rolls everything back).
 */
export async function storeParsed(
  tx: SqlConn,
  ids: { incidentId: string; bundleId: string },
  parsed: ParsedBundle,
  progress: Progress = () => {},
  onNode: NodeReport = () => {},
): Promise<StoredBundle> {
  const store = new BundleStore(tx, ids, parsed.executors, parsed.token, parsed.dir);
  const names = parsed.groups.map((g) => g.node).filter((n): n is string => n !== null);
  await store.open(parsed.files.length, names, parsed.aliases, parsed.unnamed);
  const total = Math.max(
    1,
    parsed.groups.reduce((s, g) => s + g.events, 0),
  );
  const share = parsed.groups.map(() => 0);
  let done = 0;
  // the source blocks' COPY takes `BLOCKS_SHARE` of the phase, by bytes sent, when there are any
  const blockBytes = parsed.blocks.reduce((s, p) => s + (p ? statSync(p).size : 0), 0);
  const blocksShare = blockBytes ? BLOCKS_SHARE : 0;
  let blocksSent = 0;
  const tell = () => progress("store", (blocksShare * Math.min(blockBytes, blocksSent)) / (blockBytes || 1) + ((1 - blocksShare) * done) / total);
  for (const g of parsed.groups) if (g.node !== null) onNode(g.node, "parsed");
  store.onStep = (gi, f) => {
    if (f <= share[gi]) return;
    done += (f - share[gi]) * parsed.groups[gi].events;
    share[gi] = f;
    const node = parsed.groups[gi].node;
    if (node !== null) onNode(node, stateAt(f));
    tell();
  };
  progress("store", 0);
  // keep two nodes more in flight than there are threads: the next is ready when a COPY ends;
  // the source files and blocks go in while the threads prepare the first nodes
  const groups = parsed.groups.map((group) => () => Promise.resolve(group));
  const files = parsed.files.map((file, ord) => ({ file, blocksPath: parsed.blocks[ord] }));
  await storeGroups(store, groups, parsed.offsets, parsed.executors.length + 2, {
    first: () => store.files(files, (n) => ((blocksSent += n), tell())),
  });
  progress("store", 1);
  return store.finish([], progress);
}

/**
 * How far phase `finish` is once the search postings are indexed (`BundleStore.finish`): the index
 * is its largest statement; the counts, the commit and the planner statistics follow
 * (pipeline.ts `FINISH_STEPS`).
 */
export const FINISH_POSTINGS = 0.5;

/**
 * The two passes' share of phase `store` for the COPY of the source blocks (the files' text, for
 * the source view, compressed): on PGlite that COPY took about a twentieth of the store step of a
 * one-node bundle of 300,000 lines (1.2 of 23 s); the rest is the nodes' steps, weighted by their
 * events.
 */
const BLOCKS_SHARE = 0.1;

/** Thrown by `ingestByNode` when a bundle-wide step changes what it already stored: run the two passes instead. */
export class NeedsTwoPasses extends Error {}

/**
 * Whether `ingestByNode` may take the bundle: at least one file is placed on a node by its path
 * (the collector layout) or by the bundle's `node` option, and no clock offsets are given by hand.
 * Files no path places (a cluster's events file, say) are parsed first; their records join the
 * nodes they name.
 */
export function canIngestByNode(unpacked: UnpackedFile[], layout: BundleLayout, opts: IngestOptions): boolean {
  if (opts.skew !== null && opts.skew !== undefined && (typeof opts.skew === "number" || Object.keys(opts.skew).length)) return false;
  return layout.files.some((l, ord) => unpacked[ord].status === "read" && !!(opts.node || l.node));
}

/**
 * The bundle node by node, in one pass, inside the caller's transaction `tx`: each node's files
 * are parsed on one thread (nodes taken in name order by whichever thread is free) and the node
 * is stored as soon as it and the nodes before it are, so the database COPYs while the threads
 * parse; a thread does not start a node more than `executors + 2` ahead of the last one stored,
 * so memory is bounded by a few nodes, not by the bundle. Files that repeat another are known
 * from the hashes taken at unpack (`UnpackedFile.sha256`) and not parsed. What the two passes
 * only know at the end is assumed: no clock offset to apply (lib/normalise/clock-skew.ts
 * estimates one for Kubernetes events files only), no record placed elsewhere than where it went.
 * The offset is checked as each node is parsed (from the files parsed so far, so a skewed bundle
 * gives way early), and the whole settle step (settle.ts) once every file is; when it decides
 * otherwise, this throws `NeedsTwoPasses` (the caller rolls back and runs `parseFiles`,
 * `settleParsed` and `storeParsed`, which then store exactly the same). Files no path places are parsed first; their
 * records join the nodes they name, records of no node are stored last. Throws on a database or
 * thread error, and when nothing in the bundle could be read (`requireReadable`). Reports
 * progress as phase `ingest` (half bytes parsed, half bytes of the nodes stored, over twice the
 * bundle's bytes), then `detect`.
 */
export async function ingestByNode(
  tx: SqlConn,
  ids: { incidentId: string; bundleId: string },
  unpacked: UnpackedFile[],
  layout: BundleLayout,
  opts: IngestOptions,
  dir: string,
  token: string,
  progress: Progress = () => {},
  onNode: NodeReport = () => {},
): Promise<{ files: AnalysedFile[]; collector: string | null; stored: StoredBundle }> {
  mkdirSync(dir, { recursive: true });
  const executors = await ingestExecutors();
  const collectedMs = opts.collectedMs ?? latestMtime(unpacked);
  const limit = holdBytes();
  const sizes = unpacked.map(fileSize);
  // progress: half for the bytes parsed, half for the bytes of the nodes stored
  const bytes = new ByteProgress(sizes, (f) => progress("ingest", f), 2);
  progress("ingest", 0);
  const filesOf = new Map<string, number[]>();
  const loose: number[] = []; // files no node owns: left out by the layout or unreadable (listings only)
  layout.files.forEach((l, ord) => {
    const node = opts.node || l.node;
    if (!node) return loose.push(ord);
    const list = filesOf.get(node);
    if (list) list.push(ord);
    else filesOf.set(node, [ord]);
  });

  // files that repeat an earlier one are known from the hashes taken at unpack: not parsed
  const shas = unpacked.map((u, ord) => (u.status === "read" && u.sha256 && !layout.files[ord].duplicateOf && !layout.files[ord].skipReason ? u.sha256 : null));
  const scopes = duplicateScopes(unpacked, layout, opts);
  const repeats = findDuplicates(unpacked.map((u, ord) => ({ sha: shas[ord], path: u.path, byteSize: sizes[ord], scope: scopes[ord] })));
  const results = new Array<ParseFileResult>(unpacked.length);
  repeats.forEach((dupOf, ord) => {
    if (dupOf === null) return;
    const base = fileBase(unpacked[ord], ord);
    const file: AnalysedFile = { ...base, status: "duplicate", reason: "same content as another file", duplicateOf: dupOf }; // as settle.ts lists it
    results[ord] = { file, base, sha: shas[ord], skew: { failures: [], events: [] }, parts: [], blocksPath: null };
  });
  const parse = async (x: number, ord: number) => {
    if (results[ord]) return; // a repeat
    results[ord] = await executors[x].call(
      "parseFileTask",
      { token, ord, file: unpacked[ord], layout: layout.files[ord], opts, collectedMs, dir, holdBytes: limit },
      [],
      bytes.reader(ord),
    );
    bytes.done(ord);
  };
  // files no path places go first: their records join the nodes they name (held where parsed,
  // handed over on disk when the node is prepared elsewhere), or none
  const looseHolder = new Map<number, number>();
  await Promise.all(
    loose.map((ord, i) => {
      looseHolder.set(ord, i % executors.length);
      return parse(i % executors.length, ord);
    }),
  );
  const looseEvents = new Map<string | null, Map<number, number>>(); // node -> executor -> events
  for (const ord of loose) {
    for (const p of results[ord].parts) {
      let byEx = looseEvents.get(p.node);
      if (!byEx) looseEvents.set(p.node, (byEx = new Map()));
      const x = looseHolder.get(ord)!;
      byEx.set(x, (byEx.get(x) ?? 0) + p.events);
    }
  }
  const names = [...new Set([...filesOf.keys(), ...[...looseEvents.keys()].filter((n): n is string => n !== null)])].sort((a, b) => a.localeCompare(b));
  // records no path, record or folder places (settle.ts `placeUnplaced`): a Kubernetes events
  // file's stay on no node in a bundle of several nodes; for any other, the two passes decide with
  // every node known
  const nowhere = looseEvents.get(null);
  if (nowhere && loose.some((ord) => results[ord].file.kind !== "k8s-events" && results[ord].parts.some((p) => p.node === null))) {
    throw new NeedsTwoPasses("records that name no node");
  }
  if (nowhere && names.length === 1) throw new NeedsTwoPasses("records of no node in a bundle of one node");
  const store = new BundleStore(tx, ids, executors, token, dir);
  await store.open(unpacked.length, names, layout.aliases);
  // a node's bytes count as stored as it moves through its store step
  const nodeBytes = names.map((n) => (filesOf.get(n) ?? []).reduce((s, ord) => s + sizes[ord], 0));
  const share = names.map(() => 0);
  store.onStep = (k, f) => {
    if (k >= names.length || f <= share[k]) return; // the cluster events on no node
    bytes.add((f - share[k]) * nodeBytes[k]);
    share[k] = f;
    onNode(names[k], stateAt(f));
  };

  // threads take nodes in name order; node k waits for node k - window to be stored
  const window = executors.length + 2;
  const parsed = names.map(() => defer<number>());
  const stored = names.map(() => defer<void>());
  let nextNode = 0;
  let aborted = false;
  // stops the threads taking further nodes, and lets every wait on a slot or a parsed node go
  const abort = (e: unknown) => {
    aborted = true;
    stored.forEach((d) => d.reject(e));
    parsed.forEach((d) => d.reject(e));
  };
  // every thread's loop ends before `parsing` settles (a thread still parsing when the bundle has
  // failed would spill into a working folder already removed)
  const parsing = Promise.allSettled(
    executors.map(async (_, x) => {
      try {
        for (let k = nextNode++; k < names.length && !aborted; k = nextNode++) {
          if (k >= window) await stored[k - window].promise;
          if (!aborted) onNode(names[k], "parsing");
          for (const ord of filesOf.get(names[k]) ?? []) if (!aborted) await parse(x, ord);
          if (!aborted) onNode(names[k], "parsed");
          parsed[k].resolve(x);
        }
      } catch (e) {
        abort(e);
        throw e;
      }
    }),
  ).then((ends) => {
    const failed = ends.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  });
  parsing.catch(() => {}); // awaited below
  const unused: string[] = [];
  // an offset already estimated from the files parsed so far is very likely due at the end too:
  // give way to the two passes now rather than after storing everything
  const offsetDue = () => {
    const seen = results.map((r, ord) => r?.file ?? { path: unpacked[ord].path, kind: "unknown" });
    const { offsets } = clockOffsets(
      seen,
      results.map((r) => r?.skew ?? null),
      null,
    );
    return [...offsets.values()].some((off) => off !== 0);
  };
  const groups: Array<() => Promise<NodeGroup | null>> = names.map((node, k) => async () => {
    const x = await parsed[k].promise;
    if (offsetDue()) throw new NeedsTwoPasses("a clock offset to apply");
    const held = new Map(looseEvents.get(node) ?? []);
    const own = (filesOf.get(node) ?? []).reduce((s, ord) => s + results[ord].parts.reduce((t, p) => t + p.events, 0), 0);
    if (own) held.set(x, (held.get(x) ?? 0) + own);
    const events = [...held.values()].reduce((s, n) => s + n, 0);
    if (!events) {
      unused.push(node);
      return null;
    }
    return { node, sources: [{ node }], held, events };
  });
  // then the cluster events on no node (no boots), last as in the two passes
  if (nowhere) {
    groups.push(async () => {
      await Promise.all(parsed.map((d) => d.promise));
      if (offsetDue()) throw new NeedsTwoPasses("a clock offset to apply");
      const withEvents = names.filter((n) => looseEvents.has(n) || (filesOf.get(n) ?? []).some((ord) => results[ord].parts.length));
      if (withEvents.length === 1) throw new NeedsTwoPasses("records of no node in a bundle of one node");
      return { node: null, sources: [{ node: null }], held: new Map(nowhere), events: [...nowhere.values()].reduce((s, n) => s + n, 0) };
    });
  }
  // a node's files go in once its rows are in: their listings are final by then
  const fileRows = (ords: number[]) => ords.map((ord) => ({ file: results[ord].file, blocksPath: results[ord].blocksPath }));
  try {
    await storeGroups(store, groups, {}, window, {
      after: async (k) => {
        if (k >= names.length) return; // the cluster events on no node
        stored[k].resolve();
        await store.files(fileRows(filesOf.get(names[k]) ?? []));
      },
      abort,
    });
    await parsing;
    progress("ingest", 1);
  } catch (e) {
    abort(e); // storeGroups did already when it threw; not when `parsing` did
    await parsing.catch(() => {});
    throw e;
  }

  // the settle step, as the two passes take it with every file in hand (settle.ts): this pass
  // stands only where it decides what the pass assumed (no repeat parsed, no record placed
  // elsewhere than where it went, no clock offset), else the two passes store the bundle
  let parsedTwice = false;
  const settled = settleBundle(results, unpacked, layout, opts, {
    drop: (r) => (parsedTwice ||= r.parts.length > 0),
    recordNodes: (r) => r.parts.map((p) => p.node),
    skewInputs: () => results.map((r) => r.skew),
  });
  if (parsedTwice) throw new NeedsTwoPasses("a file repeats another one without the same hash at unpack");
  const { files } = settled;
  requireReadable(files);
  if ([...settled.offsets.values()].some((off) => off !== 0)) throw new NeedsTwoPasses("a clock offset to apply");
  const placedElsewhere = loose.some((ord) => results[ord].parts.some((p) => p.node === null) && settled.nodeOf(ord) !== null);
  if (placedElsewhere || settled.unnamed.size || files.some((f) => f.node !== null && !names.includes(f.node))) {
    throw new NeedsTwoPasses("records that name no node");
  }

  await store.files(fileRows(loose));
  return { files, collector: collectorNames(layout), stored: await store.finish(unused, progress) };
}

function defer<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => {});
  return { promise, resolve, reject };
}
