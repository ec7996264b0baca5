/**
 * The streaming ingest: unpacked files -> events, boots, findings in PostgreSQL, on worker
 * threads, with memory bounded by a few nodes (or a per-thread budget) rather than by the
 * bundle.
 *
 * 1. `unpackUploads`: the uploads are unpacked while the threads start, then on the threads; each
 *    upload's files go to disk, hashed, as soon as it is unpacked. Then one of two ways:
 * 2a. `ingestByNode` (by-node.ts; when every parsed file has a node from its path, `canIngestByNode`): one
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
 * Both store through `BundleStore` (bundle-store.ts; `storeParsed` and `storeGroups` in store-nodes.ts); boots the incident already had get their findings from every
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
import { latestMtime, type IngestOptions, type Progress } from "./analyse-bundle";
import { settleBundle } from "./settle";
import { ingestExecutors, type Executor } from "./ingest-pool";
import { unpackTask } from "./ingest-tasks";
import type { ParseFileResult } from "./parse-task";
import { ByteProgress } from "./byte-progress";
import type { NodeGroup, ParsedBundle } from "./bundle-store";

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
