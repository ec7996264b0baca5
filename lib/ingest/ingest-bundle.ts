/**
 * The streaming ingest: unpacked files -> events, boots, findings in PostgreSQL, on worker
 * threads, with memory bounded by a per-thread budget and the largest node rather than by the
 * bundle (issue "Ingest and query at scale"; DESIGN.md "Pipeline").
 *
 * 1. `spillUnpacked`: each upload's files go to disk as soon as it is unpacked.
 * 2. `parseBundle` (pass 1): the collector layout (lib/bundle/collectors.ts), then every file on
 *    the worker threads (ingest-tasks.ts `parseFileTask`: read, redact, parse, classify), the
 *    files of one node on one thread, which keeps their events (past `holdBytes`, on disk);
 *    then the bundle-wide steps on small summaries only: duplicate files, the node of records
 *    nothing places, clock offsets (clock-skew.ts).
 * 3. `storeParsed` (pass 2, inside the caller's transaction): nodes and files; then node by node,
 *    on the thread holding the node's events, boots (`prepareNode`) and COPY rows plus the
 *    detectors' findings on new boots (`nodeRows`), while the connection COPYs the source blocks
 *    and the previous nodes' rows; findings last. Boots the incident already had get their
 *    findings from every stored event on them.
 *
 * The in-memory `analyseBundle` (analyse-bundle.ts) runs the same per-file and per-node steps;
 * tests/ingest-streaming.test.ts checks both store the same.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describeBundle } from "../bundle/collectors";
import type { UnpackedFile } from "../bundle/unpack";
import type { SqlConn } from "../db/sql";
import type { BootInfo, Finding } from "../detect/types";
import { clockOffsets, shiftFile } from "../timeline/clock-skew";
import { latestMtime, onlyNode, settleDuplicates, type AnalysedBoot, type AnalysedFile, type IngestOptions, type Progress } from "./analyse-bundle";
import { ingestExecutors, type Executor } from "./ingest-pool";
import { fillFileId, ROW_COLUMNS, type NodeRowsResult, type ParseFileResult } from "./ingest-tasks";
import { TAIL_COLUMNS } from "./spill";
import { detectFindings, insertFiles, knownBoots, lockIngest, replaceFindings, reserveIds, upsertNodes, writeBoots, type BootWrite } from "./store-bundle";

/**
 * Moves the bytes of freshly unpacked files to `dir` (one file each, named by `first + i`),
 * leaving `dataPath` and `size` on each entry instead of `data`.
 */
export function spillUnpacked(files: UnpackedFile[], dir: string, first: number): void {
  mkdirSync(dir, { recursive: true });
  files.forEach((f, i) => {
    if (!f.data) return;
    const p = path.join(dir, String(first + i));
    writeFileSync(p, f.data);
    f.dataPath = p;
    f.size = f.data.length;
    delete f.data;
  });
}

/** A node's share of the bundle after pass 1 (`node` null: records on no node). */
interface NodeGroup {
  node: string | null;
  /** the node keys its parts are held under (its own; also `null` when it is the bundle's only node) */
  sources: Array<string | null>;
  /** events held by each executor (index into `ParsedBundle.executors`) */
  held: Map<number, number>;
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
 * Pass 1 (see the module comment). `unpacked` entries carry their bytes at `dataPath` (or in
 * `data`, which is then sent to the thread); spill files go to `dir`. Sets `redacted` on the
 * unpacked entries. Never throws for bad input; throws when a worker thread fails. The threads
 * keep the parsed events under `token` until `storeParsed` or `releaseParsed`.
 */
export async function parseBundle(unpacked: UnpackedFile[], opts: IngestOptions, dir: string, token: string, progress: Progress = () => {}): Promise<ParsedBundle> {
  mkdirSync(dir, { recursive: true });
  const layout = describeBundle(unpacked);
  const collectedMs = opts.collectedMs ?? latestMtime(unpacked);
  const sizes = unpacked.map((f) => f.size ?? f.data?.length ?? 0);
  const totalBytes = sizes.reduce((s, n) => s + n, 0) || 1;
  let doneBytes = 0;
  const executors = await ingestExecutors();
  const limit = holdBytes();
  const results = new Array<ParseFileResult>(unpacked.length);
  const holder = new Array<number>(unpacked.length);
  const plan = assignFiles(sizes, layout.files.map((l) => opts.node || l.node), executors.length);
  await Promise.all(
    plan.map(async (ords, x) => {
      for (const ord of ords) {
        results[ord] = await executors[x].call("parseFileTask", { token, ord, file: unpacked[ord], layout: layout.files[ord], opts, collectedMs, dir, holdBytes: limit });
        holder[ord] = x;
        doneBytes += sizes[ord];
        progress("parse", doneBytes / totalBytes);
      }
    }),
  );

  const dropped = new Map<number, number[]>();
  settleDuplicates(results, unpacked, (r, ord) => {
    if (r.parts.length) dropped.set(holder[ord], [...(dropped.get(holder[ord]) ?? []), ord]);
    if (r.blocksPath) rmSync(r.blocksPath, { force: true });
    Object.assign(r, { parts: [], blocksPath: null, skew: { failures: [], events: [] } });
  });
  for (const [x, ords] of dropped) await executors[x].call("dropFiles", { token, ords });
  const files = results.map((r) => r.file);

  // node of events whose file and record say nothing: the only node, when there is one
  const only = onlyNode(new Set(results.flatMap((r) => r.parts.map((p) => p.node)).filter((n): n is string => !!n)));
  for (const f of files) if (!f.node && f.status === "read" && f.counts.records > 0) f.node = only;

  const { offsets } = clockOffsets(files, results.map((r) => r.skew), opts.skew ?? null);
  for (const [i, off] of offsets) shiftFile(files[i], off);

  const byNode = new Map<string | null, NodeGroup>();
  results.forEach((r, ord) => {
    for (const p of r.parts) {
      const node = p.node ?? only;
      let g = byNode.get(node);
      if (!g) byNode.set(node, (g = { node, sources: [node], held: new Map(), events: 0 }));
      if (!g.sources.includes(p.node)) g.sources.push(p.node);
      g.held.set(holder[ord], (g.held.get(holder[ord]) ?? 0) + p.events);
      g.events += p.events;
    }
  });
  const groups = [...byNode.values()].sort((a, b) => (a.node === null ? 1 : b.node === null ? -1 : a.node.localeCompare(b.node)));
  progress("parse", 1);
  return {
    token,
    executors,
    dir,
    files,
    offsets: Object.fromEntries(offsets),
    groups,
    blocks: results.map((r) => r.blocksPath),
    collector: layout.collectors.length ? layout.collectors.join(",") : null,
    aliases: layout.aliases,
  };
}

/** Lets the threads drop what they hold for a bundle (call once it is stored or has failed). */
export async function releaseParsed(parsed: Pick<ParsedBundle, "token" | "executors">): Promise<void> {
  await Promise.all(parsed.executors.map((ex) => ex.call("forgetBundle", parsed.token).catch(() => {})));
}

/** What `storeParsed` wrote. */
export interface StoredBundle {
  events: number;
  findings: number;
  /** detectors that failed, as "<detector> on <node> boot <key>: <message>" */
  failures: string[];
}

/**
 * Pass 2 (see the module comment), inside the caller's transaction `tx`. Reports progress as
 * phase `store` (events copied / events), then `detect`. Throws on a database or thread error
 * (the caller's transaction then rolls everything back).
 */
export async function storeParsed(
  tx: SqlConn,
  ids: { incidentId: string; bundleId: string },
  parsed: ParsedBundle,
  progress: Progress = () => {},
): Promise<StoredBundle> {
  const { incidentId, bundleId } = ids;
  await lockIngest(tx);
  const names = parsed.groups.map((g) => g.node).filter((n): n is string => n !== null);
  const nodeIds = await upsertNodes(tx, incidentId, names, parsed.aliases);
  const fileIds = await insertFiles(tx, incidentId, bundleId, parsed.files);

  const known = await knownBoots(tx, incidentId);
  const total = parsed.groups.reduce((s, g) => s + g.events, 0);
  let nextEventId = total ? await reserveIds(tx, "Event", total) : 0;
  let nextBootId = await reserveIds(tx, "Boot", 1);
  const bootBase = nextBootId;

  const { executors, token } = parsed;
  const fileIdByOrd: Record<number, number> = Object.fromEntries(fileIds.map((id, ord) => [ord, id]));
  const knownTouched = new Map<number, { info: BootInfo; events: [] }>();
  const findings: Array<{ bootId: number; findings: Finding[] }> = [];
  const infos = new Map<number, BootInfo>();
  const failures: string[] = [];
  let allocated: Promise<void> = Promise.resolve();

  // one node: boots on a thread, ids here (in node order), rows and findings on the same thread
  const runGroup = async (g: NodeGroup, gi: number): Promise<NodeRowsResult & { boots: BootWrite[] }> => {
    // prepared on the thread holding most of the node's events; the others hand theirs over on disk
    const x = [...g.held].sort((p, q) => q[1] - p[1] || p[0] - q[0])[0]?.[0] ?? 0;
    const ex = executors[x];
    const key = `${token}:${gi}`;
    const firstId = nextEventId;
    nextEventId += g.events;
    const prior = allocated;
    let release!: () => void;
    allocated = new Promise((r) => (release = r));
    try {
      const spilled = (
        await Promise.all([...g.held.keys()].filter((y) => y !== x).map((y) => executors[y].call("spillNodes", { token, nodes: g.sources, dir: parsed.dir })))
      ).flat();
      const found: AnalysedBoot[] = await ex.call("prepareNode", { token, key, node: g.node, sources: g.sources, spilled, offsets: parsed.offsets });
      await prior;
      const nodeId = g.node === null ? null : nodeIds.get(g.node)!;
      const bootIds: number[] = [];
      const detect: Array<BootInfo | null> = [];
      const boots: BootWrite[] = [];
      for (const b of found) {
        const k = known.get(`${nodeId}\t${b.bootKey}`);
        const id = k ? k.id : nextBootId++;
        bootIds.push(id);
        boots.push({ id, nodeId: nodeId!, boot: b, known: !!k });
        const info: BootInfo = { node: g.node!, bootKey: b.bootKey, start: b.start, end: b.end };
        infos.set(id, info);
        if (k) {
          info.start = Math.min(k.start, b.start);
          info.end = k.end === null ? b.end : b.end === null ? k.end : Math.max(k.end, b.end);
          knownTouched.set(id, { info, events: [] });
        }
        detect.push(k ? null : info);
      }
      release();
      return { ...(await ex.call("nodeRows", { key, incidentId, bundleId, nodeId, bootIds, detect, firstId, fileIds: fileIdByOrd })), boots };
    } catch (e) {
      release();
      throw e;
    }
  };

  // keep two nodes more in flight than there are threads: the next is ready when a COPY ends
  const window = executors.length + 2;
  const inflight: Array<ReturnType<typeof runGroup>> = [];
  let gi = 0;
  const launch = () => {
    const p = runGroup(parsed.groups[gi], gi);
    p.catch(() => {}); // awaited in order below; this only keeps a later failure from going unhandled meanwhile
    inflight.push(p);
    gi++;
  };
  while (gi < parsed.groups.length && inflight.length < window) launch();

  // the source blocks go in while the threads prepare the first nodes
  function* blockRows(): Generator<Buffer> {
    for (let i = 0; i < parsed.blocks.length; i++) {
      const p = parsed.blocks[i];
      if (p) yield fillFileId(readFileSync(p), fileIds[i]);
    }
  }
  await tx.copyFrom("SourceBlock", ["fileId", "seq", "firstLine", "lineCount", "data"], blockRows());

  let copied = 0;
  const columns = [...ROW_COLUMNS, ...TAIL_COLUMNS];
  while (inflight.length) {
    const out = await inflight.shift()!;
    if (gi < parsed.groups.length) launch();
    await writeBoots(tx, incidentId, out.boots); // before the rows: EventDensity references Boot
    copied += await tx.copyFrom("Event", columns, out.rows);
    if (out.density) await tx.copyFrom("EventDensity", ["bootId", "sec", "lane", "bundleId", "n", "errors"], [out.density]);
    for (const f of out.findings) {
      findings.push(f);
      const info = infos.get(f.bootId)!;
      failures.push(...f.errors.map((e) => `${e.detector} on ${info.node} boot ${info.bootKey}: ${e.message}`));
    }
    progress("store", total ? copied / total : 1);
  }

  if (nextBootId - 1 > bootBase) await tx.query(`SELECT setval(pg_get_serial_sequence('"Boot"', 'id'), $1)`, [nextBootId - 1]);
  const stored = await replaceFindings(tx, incidentId, findings);
  progress("detect", 0.5);
  const again = await detectFindings(tx, incidentId, knownTouched, null);
  return { events: copied, findings: stored + again.findings, failures: [...failures, ...again.failures] };
}
