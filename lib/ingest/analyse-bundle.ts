/**
 * The pipeline's per-file step, pure apart from reading a file's bytes: `analyseFile` (read,
 * redact, sniff, parse, classify one file); the per-node step is node-boots.ts `analyseNode`.
 * Both run on the ingest threads (ingest-tasks.ts) and in the in-memory reference (reference.ts);
 * the bundle-wide steps between them are settle.ts.
 *
 * Node of an event: the user's `node` option; else the collector layout (lib/bundle/collectors.ts,
 * which also names the collector, drops duplicate copies, marks collector noise and gives the
 * collection time); else what the record names (journal/syslog hostname, a tool's host column,
 * the Kubernetes event's node, `Node:` of `kubectl describe`); else the file's most common such
 * name; then the settle step (settle.ts `placeUnplaced`): the archive's top folder, the one node
 * the file's other records name, the bundle's only node, and failing
 * those a node named after the upload (settle.ts `uploadNodeName`), marked as not named by the logs, so
 * every record of a node's log reaches the detectors; only a Kubernetes events file's events of
 * cluster objects, in a bundle that names several nodes, stay on no node.
 */
import { unreadPatterns } from "../patterns/unread";
import { createHash } from "node:crypto";
import { fileBytes, fileSize, type UnpackedFile } from "../bundle/unpack";
import type { FileRecord, ParsedFile } from "../parse/file-types";
import { explainUnknown } from "../parse/explain-unknown";
import { emptyCounts, parseFile, type ParseFileOptions, splitLines } from "../parse/parse-file";
import { type LightParse, parseFileLight } from "../parse/light-parse";
import { redactFileText } from "./redact-file";
import { classifyRecord } from "../normalise/classify";
import type { FileLayout } from "../bundle/collectors";
import type { SkewOption } from "../normalise/clock-skew";
import { encodeSourceBlock } from "../db/source-block-codec";
import type { IngestPhase } from "./progress";
import { FLAG_OUT_OF_ORDER, FLAG_YEAR_INFERRED, FLAG_ZONE_ASSUMED, type AnalysedEvent, type AnalysedFile, type SourceBlockData } from "../model/event";

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
  /** clock offsets to apply instead of the estimated ones (lib/normalise/clock-skew.ts) */
  skew?: SkewOption | null;
  /**
   * names the node of records nothing else places, instead of the name of the upload they came
   * from (settle.ts `placeUnplaced`)
   */
  uploadName?: string | null;
}

/** Lines per stored source block: small enough to read one event's context cheaply. */
export const BLOCK_LINES = 256;

/**
 * Splits a file's text into blocks of `BLOCK_LINES` physical lines (LF-separated, a CR
 * before the LF kept as is) and compresses each (`encodeSourceBlock`).
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
    out.push({ firstLine: line, lineCount: n, data: encodeSourceBlock(chunk.endsWith("\n") ? chunk.slice(0, -1) : chunk) });
    line += n;
    start = end;
  }
  return out;
}

export type Progress = (phase: IngestPhase, fraction: number) => void;

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

/** One file analysed on its own (`analyseFile`): what the bundle-wide steps need of it. */
export interface FileAnalysis {
  file: AnalysedFile;
  /** the file as listed when it turns out to repeat an earlier file (settle.ts) */
  base: AnalysedFile;
  /** sha256 of the content (hex), null when the file was not read that far */
  sha: string | null;
  events: AnalysedEvent[];
  /** secrets replaced per kind (lib/redact/redact.ts), when any */
  redacted?: Record<string, number>;
}

/** What `analyseFile` needs of the bundle besides the file: its layout entry and the options. */
export interface FileContext {
  ord: number;
  layout: FileLayout;
  opts: IngestOptions;
  /** the bundle's collection time fallback (latest member mtime), UTC ms */
  collectedMs: number | null;
  /** called as the parser's main pass goes through the file's lines (`ParseFileOptions.onLines`) */
  onLines?: (done: number, total: number) => void;
  /**
   * When set, the file is parsed with its records light (lib/parse/light-parse.ts) and the events
   * are handed over in file order as they are made, in batches (`take(events, fileNode)`, `fileNode`: the file's node as `FileAnalysis.file.node` gives it),
   * instead of being returned (`events` is then empty): a large file's events are never all in memory.
   */
  eventBatches?: { take: (events: AnalysedEvent[], fileNode: string | null) => void };
}

/** A file's listing before it is read: `analyseFile` starts from it, and a duplicate is listed as it. */
export function fileBase(u: UnpackedFile, ord: number): AnalysedFile {
  return {
    ord,
    path: u.path,
    status: "read",
    reason: null,
    duplicateOf: null,
    kind: "unknown",
    format: "unknown",
    node: null,
    byteSize: fileSize(u),
    counts: emptyCounts(),
    firstTs: null,
    lastTs: null,
    timeZone: "UTC",
    zoneSource: "default",
    yearSource: null,
    errors: u.error ? [{ line: 0, message: u.error }] : [],
    blocks: [],
  };
}

/**
 * Reads, redacts, parses and normalises one unpacked file (pure apart from reading
 * `dataPath`): the per-file half of ingest, run in worker threads by the streaming ingest
 * (ingest-tasks.ts) and in a loop by `analyseBundle` (reference.ts). Events get `fileIdx = ord` and the node
 * the path, the record or the file's most common hostname gives; the bundle-wide fallbacks,
 * clock offsets and boots come later. Never throws for bad input: a file that cannot be read is listed `skipped` with a reason.
 */
export function analyseFile(u: UnpackedFile, ctx: FileContext): FileAnalysis {
  const { ord, layout: lay, opts } = ctx;
  const base = fileBase(u, ord);
  const done = (file: AnalysedFile, sha: string | null = null): FileAnalysis => ({ file, base, sha, events: [] });
  let data = fileBytes(u, true); // decoded, hashed or counted here, never kept (let go once decoded)
  if (u.status !== "read" || !data) return done({ ...base, status: "skipped", reason: u.reason ?? "unreadable" });
  if (lay.duplicateOf) return done({ ...base, status: "duplicate", reason: "the collector copied this file twice", duplicateOf: lay.duplicateOf });
  if (lay.skipReason) {
    const lines = countLines(data);
    return done({
      ...base,
      status: "skipped",
      reason: lay.skipReason,
      counts: { ...emptyCounts(), lines, skipped: lines, skippedByReason: lines ? { [lay.skipReason]: lines } : {} },
    });
  }
  const sha = u.sha256 ?? createHash("sha256").update(data).digest("hex");
  if (looksBinary(data)) {
    const lines = countLines(data);
    return done(
      { ...base, status: "skipped", reason: "binary", counts: { ...emptyCounts(), lines, skipped: lines, skippedByReason: lines ? { binary: lines } : {} } },
      sha,
    );
  }
  const decoded = new TextDecoder("utf-8", { fatal: false }).decode(data);
  data = null; // a large file's bytes (read whole) go before it is parsed: its text holds it all
  const { text, redacted } = redactFileText(decoded);
  const batches = ctx.eventBatches;
  const parseOpts: ParseFileOptions = {
    year: opts.year,
    tz: opts.tz,
    collectedMs: opts.collectedMs ?? lay.collectedMs ?? ctx.collectedMs,
    uploadMs: opts.uploadMs,
    noise: lay.noise,
    zone: lay.zone,
    separatorsLabelPrevious: lay.separatorsLabelPrevious,
    onLines: ctx.onLines,
  };
  let parsed: ParsedFile;
  let light: LightParse | null = null;
  try {
    // a file streamed to disk is read with its records light (lib/parse/light-parse.ts): never whole in memory
    parsed = batches ? (light = parseFileLight(u.path, text, parseOpts)) : parseFile(u.path, text, parseOpts);
  } catch (e) {
    return { ...done({ ...base, status: "skipped", reason: `parser-error: ${(e as Error).message}` }, sha), redacted };
  }
  const pathNode = opts.node || lay.node;
  const fileHost = majority(parsed.records.map((rec) => rec.host));
  const notes = unreadNote(text, parsed);
  // lines no format read still show their shape (lib/patterns/unread.ts)
  const unread = parsed.counts.skippedByReason["unknown-format"] ? unreadPatterns(splitLines(text), [...parsed.records, ...parsed.banners], lay.noise) : [];
  let first: number | null = null;
  let last: number | null = null;
  const span = (ev: AnalysedEvent) => {
    if (ev.ts === null) return;
    if (first === null || ev.ts < first) first = ev.ts;
    if (last === null || ev.ts > last) last = ev.ts;
  };
  let events: AnalysedEvent[] = [];
  if (batches && light) {
    light.replay((records) => {
      const batch = records.map((rec) => normalise(rec, ord, pathNode));
      batch.forEach(span);
      batches.take(batch, pathNode ?? fileHost);
    });
  } else {
    events = new Array(parsed.records.length);
    // each record is let go once normalised: a file's records and events are not both whole in memory
    const records = parsed.records as Array<ParsedFile["records"][number] | undefined>;
    records.forEach((rec, i) => {
      const ev = normalise(rec!, ord, pathNode);
      records[i] = undefined;
      events[i] = ev;
      span(ev);
    });
  }
  const file: AnalysedFile = {
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
    errors: [...base.errors, ...notes, ...parsed.errors],
    reason: parsed.format === "unknown" ? "unknown-format" : null,
    blocks: toSourceBlocks(text),
    ...(unread.length ? { unreadPatterns: unread } : {}),
  };
  forgetLastMatch();
  return { file, base, sha, events, redacted };
}

/**
 * Makes V8 let go of the subject of the last successful regular-expression match (the isolate
 * keeps it for `RegExp.lastMatch` and `RegExp.$1`…): after a parse that subject is a line of the
 * file, a slice that keeps the whole file's text in memory until some other match happens.
 */
function forgetLastMatch(): void {
  /(?:)/.exec("");
}

/** Share of a file's non-blank lines that must be parsed for it to count as read. */
export const READ_SHARE = 0.8;

/**
 * For a file not read (format unknown, or under `READ_SHARE` of its non-blank lines parsed): one
 * entry (line 0) saying what its lines look like and what would help (lib/parse/explain-unknown.ts),
 * from its first 64 KiB; none for a file that was read.
 */
function unreadNote(text: string, parsed: ParsedFile): Array<{ line: number; message: string }> {
  const c = parsed.counts;
  // lines a collector's noise rule or a binary check skipped are known for what they are
  const unread = c.skippedByReason["unknown-format"] ?? 0;
  if (unread === 0 || (parsed.format !== "unknown" && c.parsed >= READ_SHARE * (c.parsed + unread))) return [];
  const head = splitLines(text.length > 65_536 ? text.slice(0, 65_536) : text).slice(0, 400);
  // the lines no record, banner or continuation took: their shape is what is explained
  const taken = new Set<number>(parsed.banners.map((b) => b.line));
  for (const r of parsed.records) for (let l = r.line; l <= r.endLine; l++) taken.add(l);
  const skippedLines = head.filter((l, i) => l.trim() !== "" && !taken.has(i + 1));
  if (parsed.format === "unknown" || c.records === 0) return [{ line: 0, message: explainUnknown(skippedLines.length ? skippedLines : head) }];
  const percent = Math.round((100 * c.parsed) / (c.parsed + unread));
  return [{ line: 0, message: explainUnknown([], { format: parsed.format, parsedPercent: percent, skippedLines }) }];
}

/** Latest member modification time after 2000-01-01 (UTC ms), or null: the collection time fallback. */
export function latestMtime(files: UnpackedFile[]): number | null {
  let best: number | null = null;
  for (const f of files) if (f.mtimeMs && f.mtimeMs > Date.UTC(2000, 0, 1) && (best === null || f.mtimeMs > best)) best = f.mtimeMs;
  return best;
}

function normalise(r: FileRecord, fileIdx: number, pathNode: string | null): AnalysedEvent {
  const c = classifyRecord(r);
  const flags = (r.yearInferred ? FLAG_YEAR_INFERRED : 0) | (r.zoneAssumed ? FLAG_ZONE_ASSUMED : 0) | (r.outOfOrder ? FLAG_OUT_OF_ORDER : 0);
  // fields are kept for events that carry a signal; a plain log line's fields can be
  // parsed again from its raw line (SourceBlock) when someone opens it. The parser's object is
  // kept as it is (nothing changes it after parsing; a copy per event was pure garbage)
  let fields: Record<string, unknown> | null = c.kind !== "log" && r.fields && Object.keys(r.fields).length ? r.fields : null;
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
