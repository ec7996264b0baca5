import type { SqlConn } from "../db/sql";
import type { BootInfo } from "../detect/types";
import type { Progress } from "./analyse-bundle";
import type { AnalysedFile } from "../model/event";
import type { Executor } from "./ingest-pool";
import type { PartSource } from "./held-parts";
import { ROW_COLUMNS, type NodeRowsResult, type PreparedNode } from "./node-task";
import { blockRowChunks } from "./parse-task";
import type { LiveNodeState } from "./live-status";
import { copyPostings, createPostings, finishPostings } from "../search/postings";
import type { WordsMode } from "../search/thread-words";
import { TAIL_COLUMNS } from "./spill";
import { RowReceiver, SPARE_CHUNKS } from "./row-stream";
import { PATTERN_COLUMNS } from "./pattern-rows";
import { FACET_COLUMNS } from "./facet-rows";
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

/** A node's share of the bundle once its inputs are parsed (`node` null: records on no node). */
export interface NodeGroup {
  node: string | null;
  /**
   * its parts on the threads: those held under its own name, and those held under no node of the
   * files the settle step gives it (`PartSource`)
   */
  sources: PartSource[];
  /** events held by each executor (index into the bundle's executors) */
  held: Map<number, number>;
  /** events counted at parse, for progress; the node's event ids follow what `prepareNode` counts */
  events: number;
  /** clock offset of the group's files, ms, by file ord (files with none absent) */
  offsets: Record<number, number>;
}

/** What `ingestNodes` (ingest-nodes.ts) wrote. */
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
export interface NodeOut {
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
export async function dropNodeOut(out: NodeOut): Promise<void> {
  out.rows.cancel();
  await out.result.catch(() => {});
}

/**
 * Shares of one node's store step (`BundleStore.onStep`): its events gathered on the thread and its
 * boots found (by events, each counted twice: node-task.ts `prepareNode`); then its rows, which
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
export const stateAt = (f: number): LiveNodeState => (f >= 1 ? "stored" : f >= STEP_ROWS ? "storing" : "detecting");

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
export class BundleStore {
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
   * same thread.
   */
  async node(g: NodeGroup, gi: number): Promise<NodeOut> {
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
      // the thread tells the events gathered, then the rows formatted (progress.ts `workSteps`)
      const events = (from: number, to: number, of: number) => {
        let done = 0;
        return (k: number) => this.onStep(gi, from + ((to - from) * Math.min(of, (done += k))) / (of || 1));
      };
      const prep: PreparedNode = await ex.call(
        "prepareNode",
        { token, key, node: g.node, sources: g.sources, spilled, offsets: g.offsets },
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
    if (rows.facets) await tx.copyFrom("BootFacet", FACET_COLUMNS, [rows.facets]);
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
 * How far phase `finish` is once the search postings are indexed (`BundleStore.finish`): the index
 * is its largest statement; the counts, the commit and the planner statistics follow
 * (pipeline.ts `FINISH_STEPS`).
 */
export const FINISH_POSTINGS = 0.5;
