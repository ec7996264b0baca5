/**
 * The streaming ingest: unpacked files -> events, boots, findings in PostgreSQL, with memory
 * bounded by the largest file and the largest node rather than by the bundle (issue "Ingest and
 * query at scale"; DESIGN.md "Pipeline").
 *
 * 1. `spillUnpacked`: each upload's files go to disk as soon as it is unpacked.
 * 2. `parseBundle` (pass 1): the collector layout (lib/bundle/collectors.ts), then every file
 *    in parallel on the worker threads (ingest-tasks.ts `parseFileTask`: read, redact, parse,
 *    classify, spill events per node); then the bundle-wide steps on small summaries only:
 *    duplicate files, the node of records nothing places, clock offsets (clock-skew.ts).
 * 3. `storeParsed` (pass 2, inside the caller's transaction): nodes, files and source blocks;
 *    then node by node on the worker threads, boots (`prepareNode`) and COPY text rows plus the
 *    detectors' findings on new boots (`nodeRows`), while the connection COPYs the previous
 *    node's rows; boots and findings last. Boots the incident already had get their findings
 *    from every stored event on them.
 *
 * The in-memory `analyseBundle` (analyse-bundle.ts) runs the same per-file and per-node steps.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describeBundle } from "../bundle/collectors";
import type { UnpackedFile } from "../bundle/unpack";
import type { SqlConn } from "../db/sql";
import type { BootInfo, Finding } from "../detect/types";
import { clockOffsets, shiftFile } from "../timeline/clock-skew";
import { duplicateFile, findDuplicates, latestMtime, onlyNode, type AnalysedBoot, type AnalysedFile, type IngestOptions, type Progress } from "./analyse-bundle";
import { ingestExecutors, type Executor } from "./ingest-pool";
import { ROW_COLUMNS, type NodeRowsResult, type ParseFileResult } from "./ingest-tasks";
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
  parts: Array<{ path: string; ord: number; offsetMs: number }>;
  events: number;
}

/** The bundle after pass 1: file listings and where each node's events wait. */
export interface ParsedBundle {
  files: AnalysedFile[];
  /** nodes by name, then the group of records on no node */
  groups: NodeGroup[];
  blocks: Array<string | null>;
  collector: string | null;
  aliases: Map<string, string[]>;
}

/** Runs `fn` over `items` on the executors, each executor taking the next item when free. */
async function spread<T, R>(executors: Executor[], items: T[], fn: (ex: Executor, item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    executors.map(async (ex) => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(ex, items[i]);
      }
    }),
  );
  return out;
}

/**
 * Pass 1 (see the module comment). `unpacked` entries carry their bytes at `dataPath` (or in
 * `data`, which is then sent to the thread); spill files go to `dir`. Sets `redacted` on the
 * unpacked entries. Never throws for bad input; throws when a worker thread fails.
 */
export async function parseBundle(unpacked: UnpackedFile[], opts: IngestOptions, dir: string, progress: Progress = () => {}): Promise<ParsedBundle> {
  mkdirSync(dir, { recursive: true });
  const layout = describeBundle(unpacked);
  const collectedMs = opts.collectedMs ?? latestMtime(unpacked);
  const totalBytes = unpacked.reduce((s, f) => s + (f.size ?? f.data?.length ?? 0), 0) || 1;
  let doneBytes = 0;
  // largest files first, so no thread is left with a big one at the end
  const order = unpacked.map((_, i) => i).sort((a, b) => (unpacked[b].size ?? 0) - (unpacked[a].size ?? 0));
  const results = new Array<ParseFileResult>(unpacked.length);
  await spread(ingestExecutors(), order, async (ex, ord) => {
    results[ord] = await ex.call("parseFileTask", { ord, file: unpacked[ord], layout: layout.files[ord], opts, collectedMs, dir });
    doneBytes += unpacked[ord].size ?? 0;
    progress("parse", doneBytes / totalBytes);
  });

  findDuplicates(results.map((r) => ({ sha: r.sha, path: r.file.path, byteSize: r.base.byteSize }))).forEach((dupOf, ord) => {
    if (dupOf === null) return;
    const r = results[ord];
    for (const p of r.parts) rmSync(p.path, { force: true });
    if (r.blocksPath) rmSync(r.blocksPath, { force: true });
    results[ord] = { ...r, file: duplicateFile(r.base, dupOf), parts: [], blocksPath: null, redacted: undefined, skew: { failures: [], events: [] } };
  });
  results.forEach((r, ord) => {
    if (r.redacted) unpacked[ord].redacted = r.redacted;
    else delete unpacked[ord].redacted;
  });
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
      if (!g) byNode.set(node, (g = { node, parts: [], events: 0 }));
      g.parts.push({ path: p.path, ord, offsetMs: offsets.get(ord) ?? 0 });
      g.events += p.events;
    }
  });
  const groups = [...byNode.values()].sort((a, b) => (a.node === null ? 1 : b.node === null ? -1 : a.node.localeCompare(b.node)));
  progress("parse", 1);
  return {
    files,
    groups,
    blocks: results.map((r) => r.blocksPath),
    collector: layout.collectors.length ? layout.collectors.join(",") : null,
    aliases: layout.aliases,
  };
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
 * phase `store` (events copied / events) and calls `lap("storeMs")` before the findings of known
 * boots are computed (phase `detect`).
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

  function* blockRows(): Generator<string> {
    for (let i = 0; i < parsed.blocks.length; i++) {
      const p = parsed.blocks[i];
      if (!p) continue;
      const prefix = `${fileIds[i]}\t`;
      yield prefix + readFileSync(p, "utf8").slice(0, -1).split("\n").join(`\n${prefix}`) + "\n";
    }
  }
  await tx.copyFrom("SourceBlock", ["fileId", "seq", "firstLine", "lineCount", "data"], blockRows());

  const known = await knownBoots(tx, incidentId);
  const total = parsed.groups.reduce((s, g) => s + g.events, 0);
  let nextEventId = total ? await reserveIds(tx, "Event", total) : 0;
  let nextBootId = await reserveIds(tx, "Boot", 1);
  const bootBase = nextBootId;

  const executors = ingestExecutors();
  const knownTouched = new Map<number, { info: BootInfo; events: [] }>();
  const findings: Array<{ bootId: number; findings: Finding[] }> = [];
  const infos = new Map<number, BootInfo>();
  const failures: string[] = [];
  let allocated: Promise<void> = Promise.resolve();

  // one node: boots on a thread, ids here (in node order), rows and findings on the same thread
  const runGroup = async (g: NodeGroup, gi: number): Promise<NodeRowsResult & { boots: BootWrite[] }> => {
    const ex = executors[gi % executors.length];
    const token = `${bundleId}:${gi}`;
    const firstId = nextEventId;
    nextEventId += g.events;
    const prior = allocated;
    let release!: () => void;
    allocated = new Promise((r) => (release = r));
    try {
      const found: AnalysedBoot[] = await ex.call("prepareNode", { token, node: g.node, parts: g.parts });
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
      const fileIdsOf: Record<number, number> = {};
      for (const p of g.parts) fileIdsOf[p.ord] = fileIds[p.ord];
      return { ...(await ex.call("nodeRows", { token, incidentId, bundleId, nodeId, bootIds, detect, firstId, fileIds: fileIdsOf })), boots };
    } catch (e) {
      release();
      void ex.call("forgetNode", token).catch(() => {});
      throw e;
    }
  };

  // keep one node more in flight than there are threads: the next is ready when a COPY ends
  const window = executors.length + 1;
  const inflight: Array<ReturnType<typeof runGroup>> = [];
  let gi = 0;
  const launch = () => {
    const p = runGroup(parsed.groups[gi], gi);
    p.catch(() => {}); // awaited in order below; this only keeps a later failure from going unhandled meanwhile
    inflight.push(p);
    gi++;
  };
  while (gi < parsed.groups.length && inflight.length < window) launch();
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
  let stored = 0;
  for (const f of findings) stored += await replaceFindings(tx, incidentId, f.bootId, f.findings);
  progress("detect", 0.5);
  const again = await detectFindings(tx, incidentId, knownTouched, null);
  return { events: copied, findings: stored + again.findings, failures: [...failures, ...again.failures] };
}
