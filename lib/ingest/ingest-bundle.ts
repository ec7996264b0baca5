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
 * 2b. `parseFiles` (pass 1): every file on the worker threads (parse-task.ts `parseFileTask`:
 *    read, redact, parse, classify), the files of one node on one thread, which keeps their
 *    events (past `holdBytes`, on disk); then `settleParsed`: the settle step (settle.ts) on small
 *    summaries only: duplicate files, the node of records nothing places, clock offsets.
 *    `storeParsed` (store-nodes.ts; pass 2, inside the caller's transaction):
 *    files and blocks, and node by node, on the thread holding the node's events, boots
 *    (`prepareNode`) and COPY rows plus the detectors' findings on new boots (`nodeRows`), while
 *    the connection COPYs the previous nodes' rows.
 * Both store through `BundleStore` (store-nodes.ts, with `storeParsed`); boots the incident already had get their findings from every
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
import { clockOffsets } from "../normalise/clock-skew";
import { fileBase, latestMtime, type IngestOptions, type Progress } from "./analyse-bundle";
import { duplicateScopes, findDuplicates, settleBundle } from "./settle";
import type { AnalysedFile } from "../model/event";
import { ingestExecutors, type Executor } from "./ingest-pool";
import { unpackTask } from "./ingest-tasks";
import type { ParseFileResult } from "./parse-task";
import { requireReadable } from "./file-reason";
import { BundleStore, type NodeGroup, type NodeReport, type ParsedBundle, stateAt, type StoredBundle, storeGroups } from "./store-nodes";

/**
 * A phase's progress by bytes, reported only as it rises: items (uploads, files) of `sizes`
 * bytes count whole once `done`, partly as far as their threads told while running (`reader`:
 * progress.ts `workSteps`, capped at the item's size), plus bytes `add`ed for other work;
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
  // as their threads told (progress.ts `workSteps`, `step.stepBytes` between two reports)
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
