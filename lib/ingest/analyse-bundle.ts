/**
 * The in-memory half of ingest: unpacked files -> parsed, normalised events with node and
 * boot assigned (DESIGN.md "Pipeline": sniff, parse, normalise). No database access; the
 * store step (store-bundle.ts) writes the result in one transaction.
 *
 * Node of an event (DESIGN.md "Definitions: Node"): the user's `node` option; else the
 * collector layout (lib/bundle/collectors.ts, which also names the collector, drops duplicate
 * copies, marks collector noise and gives the collection time); else the record's journal/syslog hostname or the
 * Kubernetes event's node; else the file's most common hostname; else, when the bundle
 * has exactly one node, that node; else none (kept, not on any node timeline).
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { UnpackedFile } from "../bundle/unpack";
import type { FileRecord, LineCounts, ParsedFile } from "../parse/file-types";
import { emptyCounts, parseFile } from "../parse/parse-file";
import { redactFileText } from "./redact-file";
import { classifyRecord, inheritErrorClasses } from "../timeline/classify";
import { assignBoots as assignBootKeys, detectBoots, type BootInputEvent } from "../timeline/boots";
import type { EventKind, Lane } from "../detect/types";
import { describeBundle } from "../bundle/collectors";
import { applyClockSkew, type SkewOption } from "../timeline/clock-skew";

export interface IngestOptions {
  /** `--node`: every file belongs to this node */
  node?: string | null;
  /** `--tz`: zone of zone-less stamps */
  tz?: string | null;
  /** `--year`: year of year-less stamps */
  year?: number | null;
  /** `--collected`: when the bundle was taken, UTC ms */
  collectedMs?: number | null;
  /** when the upload arrived, UTC ms (last-resort year bound) */
  uploadMs: number;
  /** clock offsets to apply instead of the estimated ones (lib/timeline/clock-skew.ts) */
  skew?: SkewOption | null;
}

/** Event flag bits stored in Event.flags. */
export const FLAG_YEAR_INFERRED = 1;
export const FLAG_ZONE_ASSUMED = 2;
export const FLAG_OUT_OF_ORDER = 4;
export const FLAG_TRUNCATED = 8;

export interface AnalysedEvent {
  fileIdx: number;
  line: number;
  /** physical lines of the record (1 + continuations) */
  span: number;
  ts: number | null;
  precision: string;
  flags: number;
  component: string;
  lane: Lane;
  severity: number;
  kind: EventKind;
  pod: string | null;
  sandboxId: string | null;
  errorClass: string | null;
  message: string;
  fields: Record<string, unknown> | null;
  node: string | null;
  /** index into the node's boots */
  boot: number | null;
  /** journal boot id in force for the record, and its boot segment in the file (boot detection input) */
  journalBootId: string | null;
  bootSegment: number;
  /** boot id named by a Kubernetes `Rebooted` event */
  rebootBootId: string | null;
  /** a boot the record states (list-boots / `last reboot` row; boot detection input) */
  bootDecl?: BootInputEvent["bootDecl"];
}

export interface AnalysedFile {
  ord: number;
  path: string;
  status: "read" | "skipped" | "duplicate";
  reason: string | null;
  duplicateOf: string | null;
  kind: string;
  format: string;
  node: string | null;
  byteSize: number;
  counts: LineCounts;
  firstTs: number | null;
  lastTs: number | null;
  timeZone: string;
  zoneSource: string;
  yearSource: string | null;
  /** clock offset applied to the file's times, ms (SourceFile.clockOffsetMs) */
  clockOffsetMs?: number;
  errors: Array<{ line: number; message: string }>;
  /** the file's text in gzip blocks of whole lines (SourceBlock rows) */
  blocks: SourceBlockData[];
}

export interface SourceBlockData {
  firstLine: number;
  lineCount: number;
  gz: Buffer;
}

/** Lines per stored source block: small enough to read one event's context cheaply. */
export const BLOCK_LINES = 256;

/**
 * Splits a file's text into blocks of `BLOCK_LINES` physical lines (LF-separated, a CR
 * before the LF kept as is) and gzips each (level 1: fast, ~5x smaller for logs).
 */
export function toSourceBlocks(text: string): SourceBlockData[] {
  const out: SourceBlockData[] = [];
  let start = 0;
  let line = 1;
  while (start < text.length) {
    let end = start;
    let n = 0;
    while (n < BLOCK_LINES && end < text.length) {
      const nl = text.indexOf("\n", end);
      if (nl === -1) {
        end = text.length;
        n++;
        break;
      }
      end = nl + 1;
      n++;
    }
    const chunk = text.slice(start, end);
    out.push({ firstLine: line, lineCount: n, gz: gzipSync(chunk.endsWith("\n") ? chunk.slice(0, -1) : chunk, { level: 1 }) });
    line += n;
    start = end;
  }
  return out;
}

export interface AnalysedBoot {
  bootKey: string;
  start: number;
  end: number | null;
  detectedBy: string;
  startApprox: boolean;
}

export interface AnalysedBundle {
  files: AnalysedFile[];
  events: AnalysedEvent[];
  nodes: Map<string, AnalysedBoot[]>;
  /** collectors that made the upload (lib/bundle/collectors.ts), comma-separated; null for plain logs */
  collector?: string | null;
  /** other names of nodes (EKS instance id) */
  aliases?: Map<string, string[]>;
}

export type Progress = (phase: string, fraction: number) => void;


/** True when the bytes look binary (a NUL in the first 8 KiB). */
function looksBinary(data: Buffer): boolean {
  return data.subarray(0, 8192).includes(0);
}

function countLines(data: Buffer): number {
  if (!data.length) return 0;
  let n = 0;
  let i = -1;
  while ((i = data.indexOf(10, i + 1)) !== -1) n++;
  return data[data.length - 1] === 10 ? n : n + 1;
}

/** Most common value, ties broken by first seen. */
function majority(values: Iterable<string | undefined | null>): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  let bestN = 0;
  for (const v of values) {
    if (!v) continue;
    const n = (counts.get(v) ?? 0) + 1;
    counts.set(v, n);
    if (n > bestN) {
      best = v;
      bestN = n;
    }
  }
  return best;
}

/**
 * Parses and normalises every unpacked file. Never throws for bad input: a file that
 * cannot be read is listed with `status: "skipped"` and a reason; a file whose parse
 * throws is listed with reason `parser-error: <message>`.
 */
export function analyseBundle(unpacked: UnpackedFile[], opts: IngestOptions, progress: Progress = () => {}): AnalysedBundle {
  const files: AnalysedFile[] = [];
  const events: AnalysedEvent[] = [];
  const layout = describeBundle(unpacked);
  const seen = new Map<string, string>();
  const collectedMs = opts.collectedMs ?? latestMtime(unpacked);
  const totalBytes = unpacked.reduce((s, f) => s + (f.data?.length ?? 0), 0) || 1;
  let doneBytes = 0;

  unpacked.forEach((u, ord) => {
    const base: AnalysedFile = {
      ord,
      path: u.path,
      status: "read",
      reason: null,
      duplicateOf: null,
      kind: "unknown",
      format: "unknown",
      node: null,
      byteSize: u.data?.length ?? 0,
      counts: emptyCounts(),
      firstTs: null,
      lastTs: null,
      timeZone: "UTC",
      zoneSource: "default",
      yearSource: null,
      errors: u.error ? [{ line: 0, message: u.error }] : [],
      blocks: [],
    };
    if (u.status !== "read" || !u.data) {
      files.push({ ...base, status: "skipped", reason: u.reason ?? "unreadable", errors: u.error ? [{ line: 0, message: u.error }] : [] });
      return;
    }
    const data = u.data;
    const lay = layout.files[ord];
    if (lay.duplicateOf) {
      files.push({ ...base, status: "duplicate", reason: "the collector copied this file twice", duplicateOf: lay.duplicateOf });
      doneBytes += data.length;
      return;
    }
    if (lay.skipReason) {
      const lines = countLines(data);
      files.push({ ...base, status: "skipped", reason: lay.skipReason, counts: { ...emptyCounts(), lines, skipped: lines, skippedByReason: lines ? { [lay.skipReason]: lines } : {} } });
      doneBytes += data.length;
      return;
    }
    const sha = createHash("sha256").update(data).digest("hex");
    const dupOf = seen.get(sha);
    if (dupOf !== undefined && data.length > 0) {
      files.push({ ...base, status: "duplicate", reason: "same content as another file", duplicateOf: dupOf });
      doneBytes += data.length;
      return;
    }
    seen.set(sha, u.path);
    if (looksBinary(data)) {
      const lines = countLines(data);
      files.push({
        ...base,
        status: "skipped",
        reason: "binary",
        counts: { ...emptyCounts(), lines, skipped: lines, skippedByReason: lines ? { binary: lines } : {} },
      });
      doneBytes += data.length;
      return;
    }
    const text = redactFileText(u, new TextDecoder("utf-8", { fatal: false }).decode(data));
    let parsed: ParsedFile;
    try {
      parsed = parseFile(u.path, text, {
        year: opts.year,
        tz: opts.tz,
        collectedMs: opts.collectedMs ?? lay.collectedMs ?? collectedMs,
        uploadMs: opts.uploadMs,
        noise: lay.noise,
        zone: lay.zone,
        separatorsLabelPrevious: lay.separatorsLabelPrevious,
      });
    } catch (e) {
      files.push({ ...base, status: "skipped", reason: `parser-error: ${(e as Error).message}` });
      doneBytes += data.length;
      return;
    }
    const fileIdx = files.length;
    const pathNode = opts.node || lay.node;
    const fileHost = majority(parsed.records.map((r) => r.host));
    let first: number | null = null;
    let last: number | null = null;
    for (const r of parsed.records) {
      const ev = normalise(r, fileIdx, pathNode);
      events.push(ev);
      if (ev.ts !== null) {
        if (first === null || ev.ts < first) first = ev.ts;
        if (last === null || ev.ts > last) last = ev.ts;
      }
    }
    files.push({
      ...base,
      kind: parsed.kind,
      format: parsed.format,
      node: pathNode ?? fileHost,
      counts: parsed.counts,
      firstTs: first,
      lastTs: last,
      timeZone: parsed.timeZone,
      zoneSource: parsed.zoneSource,
      yearSource: parsed.yearSource,
      errors: [...base.errors, ...parsed.errors],
      reason: parsed.format === "unknown" ? "unknown-format" : null,
      blocks: toSourceBlocks(text),
    });
    doneBytes += data.length;
    progress("parse", doneBytes / totalBytes);
  });

  // node of events whose file and record say nothing: the file's node, else the only node
  const knownNodes = new Set(events.map((e) => e.node).filter((n): n is string => !!n));
  const only = knownNodes.size === 1 ? [...knownNodes][0] : null;
  for (const e of events) {
    if (!e.node) e.node = files[e.fileIdx].node ?? only;
  }
  for (const f of files) if (!f.node && f.status === "read" && f.counts.records > 0) f.node = only;

  applyClockSkew(files, events, opts.skew ?? null);
  const nodes = assignNodeBoots(events);
  progress("parse", 1);
  return { files, events, nodes, collector: layout.collectors.length ? layout.collectors.join(",") : null, aliases: layout.aliases };
}

function latestMtime(files: UnpackedFile[]): number | null {
  let best: number | null = null;
  for (const f of files) if (f.mtimeMs && f.mtimeMs > Date.UTC(2000, 0, 1) && (best === null || f.mtimeMs > best)) best = f.mtimeMs;
  return best;
}

function normalise(r: FileRecord, fileIdx: number, pathNode: string | null): AnalysedEvent {
  const c = classifyRecord(r);
  const flags =
    (r.yearInferred ? FLAG_YEAR_INFERRED : 0) |
    (r.zoneAssumed ? FLAG_ZONE_ASSUMED : 0) |
    (r.outOfOrder ? FLAG_OUT_OF_ORDER : 0);
  // fields are kept for events that carry a signal; a plain log line's fields can be
  // parsed again from its raw line (SourceBlock) when someone opens it
  let fields: Record<string, unknown> | null = c.kind !== "log" && r.fields && Object.keys(r.fields).length ? { ...r.fields } : null;
  if (r.k8sEvent) fields = { ...(fields ?? {}), k8s: r.k8sEvent };
  const ev: AnalysedEvent = {
    fileIdx,
    line: r.line,
    span: r.endLine - r.line + 1,
    ts: r.ts,
    precision: r.precision,
    flags,
    component: r.component,
    lane: c.lane,
    severity: r.severity,
    kind: c.kind,
    pod: c.pod,
    sandboxId: c.sandboxId,
    errorClass: c.errorClass,
    message: r.message,
    fields,
    node: pathNode ?? r.host ?? r.k8sEvent?.node ?? null,
    boot: null,
    journalBootId: r.journalBootId ?? null,
    bootSegment: r.bootSegment,
    rebootBootId: c.rebootBootId ?? null,
  };
  if (r.bootDecl) ev.bootDecl = r.bootDecl;
  return ev;
}

/**
 * Per node: gives lines of one failure the known cause another line of the same sandbox
 * states (classify.ts inheritErrorClasses), detects the node's boots from all of its
 * records (timeline/boots.ts) and sets `boot` on its events (index into the node's list).
 */
function assignNodeBoots(events: AnalysedEvent[]): Map<string, AnalysedBoot[]> {
  const byNode = new Map<string, AnalysedEvent[]>();
  for (const e of events) {
    if (!e.node) continue;
    let list = byNode.get(e.node);
    if (!list) byNode.set(e.node, (list = []));
    list.push(e);
  }
  const out = new Map<string, AnalysedBoot[]>();
  for (const [node, list] of [...byNode].sort((a, b) => a[0].localeCompare(b[0]))) {
    const classes = inheritErrorClasses(list);
    list.forEach((e, i) => (e.errorClass = classes[i]));
    const input: BootInputEvent[] = list.map((e) => ({
      ts: e.ts,
      kind: e.kind,
      journalBootId: e.journalBootId,
      bootSegment: e.bootSegment,
      fileId: e.fileIdx,
      line: e.line,
      rebootBootId: e.rebootBootId,
      bootDecl: e.bootDecl ?? null,
    }));
    const boots = detectBoots(input);
    out.set(node, boots.map((b) => ({ bootKey: b.bootKey, start: b.start, end: b.end, detectedBy: b.detectedBy, startApprox: b.startApprox })));
    const index = new Map(boots.map((b, i) => [b.bootKey, i]));
    const keys = assignBootKeys(input, boots);
    list.forEach((e, i) => {
      const k = keys[i];
      e.boot = k === null ? null : (index.get(k) ?? null);
    });
  }
  return out;
}
