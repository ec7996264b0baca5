/**
 * The CPU-heavy steps of the streaming ingest (ingest-bundle.ts), run in worker threads
 * (ingest-pool.ts) or inline. Every argument and result is structured-clone data.
 *
 * - `parseFileTask` (pass 1, one file): `analyseFile`, then the file's events go to spill files
 *   on disk (spill.ts), one per node the records name (`null` bucket: no node yet), and its raw
 *   text to a file of SourceBlock rows. Returns the file's listing, counts and skew input only.
 * - `prepareNode` (pass 2, one node): reads the node's spill files, applies the clock offsets,
 *   infers error classes and finds the node's boots (`analyseNode`); keeps the events until:
 * - `nodeRows`: with the database ids the caller chose, formats the node's `Event` and
 *   `EventDensity` rows as COPY text and runs the detectors on each new boot.
 *
 * State between `prepareNode` and `nodeRows` lives in this module, keyed by the caller's token,
 * so both calls must reach the same thread.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { UnpackedFile } from "../bundle/unpack";
import type { FileLayout } from "../bundle/collectors";
import { copyText } from "../db/sql";
import { runDetectors } from "../detect/index";
import type { BootEvent, BootInfo, Finding } from "../detect/types";
import { skewInputOf, shiftEvent, type SkewInput } from "../timeline/clock-skew";
import { analyseFile, analyseNode, type AnalysedBoot, type AnalysedEvent, type AnalysedFile, type IngestOptions } from "./analyse-bundle";
import { decodeEvent, encodeEvent } from "./spill";
import { toBootEvent } from "./store-bundle";

/** Pass 1 input: one unpacked file (its bytes at `file.dataPath`). */
export interface ParseFileTask {
  ord: number;
  file: UnpackedFile;
  layout: FileLayout;
  opts: IngestOptions;
  /** the bundle's collection time fallback, UTC ms */
  collectedMs: number | null;
  /** folder for the spill files */
  dir: string;
}

/** Events of one node (or of none) from one file, spilled at `path`. */
export interface SpillPart {
  node: string | null;
  events: number;
  path: string;
}

export interface ParseFileResult {
  /** the file's listing (`blocks` empty: they are in `blocksPath`) */
  file: AnalysedFile;
  base: AnalysedFile;
  sha: string | null;
  redacted?: Record<string, number>;
  skew: SkewInput;
  parts: SpillPart[];
  /** SourceBlock rows without their `fileId` (COPY text: seq, firstLine, lineCount, data) */
  blocksPath: string | null;
}

export function parseFileTask(t: ParseFileTask): ParseFileResult {
  const r = analyseFile(t.file, { ord: t.ord, layout: t.layout, opts: t.opts, collectedMs: t.collectedMs });
  const byNode = new Map<string | null, string[]>();
  for (const e of r.events) {
    const node = e.node ?? r.file.node;
    let lines = byNode.get(node);
    if (!lines) byNode.set(node, (lines = []));
    lines.push(encodeEvent(e));
  }
  const parts: SpillPart[] = [];
  let k = 0;
  for (const [node, lines] of byNode) {
    const p = path.join(t.dir, `${t.ord}-${k++}.ev`);
    writeFileSync(p, lines.join(""));
    parts.push({ node, events: lines.length, path: p });
  }
  let blocksPath: string | null = null;
  if (r.file.blocks.length) {
    blocksPath = path.join(t.dir, `${t.ord}.blk`);
    writeFileSync(blocksPath, r.file.blocks.map((b, seq) => `${seq}\t${b.firstLine}\t${b.lineCount}\t\\\\x${b.gz.toString("hex")}\n`).join(""));
  }
  return {
    file: { ...r.file, blocks: [] },
    base: r.base,
    sha: r.sha,
    redacted: r.redacted,
    skew: skewInputOf(r.file.kind, r.events),
    parts,
    blocksPath,
  };
}

/** Pass 2 input: the spill parts of one node (`node` null: events on no node). */
export interface PrepareNodeTask {
  token: string;
  node: string | null;
  parts: Array<{ path: string; ord: number; offsetMs: number }>;
}

interface NodeState {
  events: AnalysedEvent[];
  tails: string[];
}

const prepared = new Map<string, NodeState>();

/** Reads a node's events back, shifts them by their file's clock offset and finds the node's boots. */
export function prepareNode(t: PrepareNodeTask): AnalysedBoot[] {
  const events: AnalysedEvent[] = [];
  const tails: string[] = [];
  for (const p of t.parts) {
    const text = readFileSync(p.path, "utf8");
    let start = 0;
    while (start < text.length) {
      const nl = text.indexOf("\n", start);
      const { e, tail } = decodeEvent(text.slice(start, nl), p.ord, t.node);
      shiftEvent(e, p.offsetMs);
      events.push(e);
      tails.push(tail);
      start = nl + 1;
    }
  }
  const boots = t.node === null ? [] : analyseNode(events);
  prepared.set(t.token, { events, tails });
  return boots;
}

/** Ids and context for formatting a prepared node's rows. */
export interface NodeRowsTask {
  token: string;
  incidentId: string;
  bundleId: string;
  nodeId: number | null;
  /** database id of each of the node's boots (index as `prepareNode` returned them) */
  bootIds: number[];
  /** per boot: run the detectors here on this bundle's events (a boot new to the incident), else null */
  detect: Array<BootInfo | null>;
  /** id of the node's first event (ids are consecutive, in spill order) */
  firstId: number;
  /** SourceFile id by file ord */
  fileIds: Record<number, number>;
}

export interface NodeRowsResult {
  /** `Event` rows, COPY text (UTF-8) in `ROW_COLUMNS` + `TAIL_COLUMNS` order, in chunks of at most `CHUNK_ROWS` rows */
  rows: Uint8Array[];
  /** `EventDensity` rows, COPY text (bootId, sec, lane, bundleId, n, errors) */
  density: string;
  events: number;
  findings: Array<{ bootId: number; findings: Finding[]; errors: Array<{ detector: string; message: string }> }>;
}

/** `Event` columns of a row as `nodeRows` writes them. */
export const ROW_COLUMNS = ["id", "incidentId", "bundleId", "fileId", "nodeId", "bootId", "ts", "errorClass", "fields"];

/** Rows per chunk of `NodeRowsResult.rows` (a few MB of text each). */
const CHUNK_ROWS = 10_000;

const iso = (ms: number | null) => (ms === null ? "\\N" : new Date(ms).toISOString());

export function nodeRows(t: NodeRowsTask): NodeRowsResult {
  const st = prepared.get(t.token);
  if (!st) throw new Error(`nodeRows: node ${t.token} was not prepared on this thread`);
  prepared.delete(t.token);
  const head = `\t${t.incidentId}\t${t.bundleId}\t`;
  const nodeId = copyText(t.nodeId);
  // encoded here, on the worker thread, and handed over without a copy (see ingest-worker.mjs)
  const rows: Uint8Array[] = [];
  const utf8 = new TextEncoder();
  let buf = "";
  let n = 0;
  const byBoot = new Map<number, BootEvent[]>();
  const density = new Map<string, [number, number]>();
  for (let i = 0; i < st.events.length; i++) {
    const e = st.events[i];
    const id = t.firstId + i;
    const fileId = t.fileIds[e.fileIdx];
    const bootId = e.boot === null ? null : t.bootIds[e.boot];
    if (bootId != null) {
      if (e.kind !== "log" && t.detect[e.boot!]) {
        let list = byBoot.get(bootId);
        if (!list) byBoot.set(bootId, (list = []));
        list.push(toBootEvent(e, id, fileId));
      }
      if (e.ts !== null) {
        const key = `${bootId}\t${Math.floor(e.ts / 1000)}\t${e.lane}`;
        const d = density.get(key);
        if (d) {
          d[0]++;
          if (e.severity >= 3) d[1]++;
        } else density.set(key, [1, e.severity >= 3 ? 1 : 0]);
      }
    }
    buf += `${id}${head}${fileId}\t${nodeId}\t${copyText(bootId)}\t${iso(e.ts)}\t${copyText(e.errorClass)}\t${copyText(e.fields ? JSON.stringify(e.fields) : null)}\t${st.tails[i]}\n`;
    if (++n === CHUNK_ROWS) {
      rows.push(utf8.encode(buf));
      buf = "";
      n = 0;
    }
  }
  if (buf) rows.push(utf8.encode(buf));
  let dens = "";
  for (const [key, [count, errors]] of density) dens += `${key}\t${t.bundleId}\t${count}\t${errors}\n`;
  const findings: NodeRowsResult["findings"] = [];
  t.bootIds.forEach((bootId, b) => {
    const info = t.detect[b];
    if (!info) return;
    const out = runDetectors(info, byBoot.get(bootId) ?? []);
    findings.push({ bootId, findings: out.findings, errors: out.errors });
  });
  return { rows, density: dens, events: st.events.length, findings };
}

/** Drops a prepared node (after a failure elsewhere). */
export function forgetNode(token: string): void {
  prepared.delete(token);
}

/** The tasks by name, for the worker entry and the inline executor. */
export const TASKS = { parseFileTask, prepareNode, nodeRows, forgetNode } as const;
export type TaskName = keyof typeof TASKS;
