/**
 * The records and line counts of a file as its lines are read: `Entries` (records built once,
 * continuation text and cut bytes kept by index, rebuilt after a parser's `finish()` when it may
 * still change them), `emptyCounts` / `skip` for `LineCounts`, and `settleDeferred`, the line
 * accounting of whole-document formats. Pure.
 */
import { truncationMarker } from "./file-lines";
import type { FileRecord, LineCounts } from "./file-types";
import { applyPrefixFacts, type PrefixFacts } from "./line-prefix";
import type { Banner, ParsedRecord } from "./types";

/**
 * The FileRecord of a parsed record, built property by property: V8 turns `{ ...rec, message }`
 * (spread, then a key the spread already set) into a dictionary-mode object, much slower to build
 * and read. `bootId` is the journal boot id in force at the record's line (the record's own wins).
 */
function fileRecordOf(rec: ParsedRecord, line: number, endLine: number, raw: string, segment: number, bootId: string | null): FileRecord {
  const fr: FileRecord = {
    time: rec.time,
    component: rec.component,
    severity: rec.severity,
    message: rec.message,
    line,
    endLine,
    ts: null,
    precision: rec.time ? rec.time.precision : (rec.epochPrecision ?? "s"),
    yearInferred: false,
    zoneAssumed: false,
    outOfOrder: false,
    raw,
    journalBootId: rec.bootId ?? bootId,
    bootSegment: segment,
  };
  if (rec.epochMs !== undefined) fr.epochMs = rec.epochMs;
  if (rec.epochPrecision !== undefined) fr.epochPrecision = rec.epochPrecision;
  if (rec.host !== undefined) fr.host = rec.host;
  if (rec.ident !== undefined) fr.ident = rec.ident;
  if (rec.pid !== undefined) fr.pid = rec.pid;
  if (rec.fields !== undefined) fr.fields = rec.fields;
  if (rec.bootId !== undefined) fr.bootId = rec.bootId;
  if (rec.k8sEvent !== undefined) fr.k8sEvent = rec.k8sEvent;
  if (rec.bootDecl !== undefined) fr.bootDecl = rec.bootDecl;
  return fr;
}

/**
 * The records read so far. Each is built as a FileRecord when it is read (one array, no per-line
 * side arrays: growing large arrays is costly); for a parser that is not `settled` the parsed
 * records are kept too and the FileRecords are built again from them in `settle`, after the
 * parser's `finish()`. Continuation text and cut bytes are rare and kept by index.
 */
export class Entries {
  readonly recs: FileRecord[] = [];
  /** parsed records, kept only when the parser may still change them (not `settled`) */
  srcs: ParsedRecord[] | null;
  /** journal boot id in force at each record's line (kept with `srcs`) */
  lineBootIds: Array<string | null> | null;
  /** what the line prefixes said, by record index (kept with `srcs`: applied again after `finish`) */
  readonly facts = new Map<number, PrefixFacts>();
  /** continuation text to append to the message, by record index */
  readonly extra = new Map<number, string>();
  /** bytes cut from the record's first line, by record index */
  readonly truncated = new Map<number, number>();

  constructor(late: boolean) {
    this.srcs = late ? [] : null;
    this.lineBootIds = late ? [] : null;
  }

  get length(): number {
    return this.recs.length;
  }

  /** Keep parsed records from now on (a later parser may change its records); the records so far are their own source. */
  makeLate(): void {
    if (this.srcs !== null) return;
    this.srcs = this.recs.slice();
    this.lineBootIds = this.recs.map((r) => r.journalBootId ?? null);
  }

  push(rec: ParsedRecord, line: number, endLine: number, raw: string, truncated: number, segment: number, bootId: string | null): number {
    const k = this.recs.length;
    this.recs.push(fileRecordOf(rec, line, endLine, raw, segment, bootId));
    if (this.srcs !== null) {
      this.srcs.push(rec);
      (this.lineBootIds as Array<string | null>).push(bootId);
    }
    if (truncated) this.truncated.set(k, truncated);
    return k;
  }

  addText(k: number, text: string): void {
    const e = this.extra.get(k);
    this.extra.set(k, e === undefined ? text : e + text);
  }

  /**
   * Final records: rebuilt from the parsed records when kept; continuation text and the
   * truncation marker appended to the message. `labelBoot`: the boot id of each record's
   * segment replaces the one in force at its line (sos >= 4.10 separators).
   */
  settle(labelBoot: ((segment: number) => string | null) | null): FileRecord[] {
    const recs = this.recs;
    const srcs = this.srcs;
    if (srcs !== null) {
      const ids = this.lineBootIds as Array<string | null>;
      for (const [k, f] of this.facts) applyPrefixFacts(srcs[k], f);
      for (let k = 0; k < recs.length; k++) {
        const d = recs[k];
        recs[k] = fileRecordOf(srcs[k], d.line, d.endLine, d.raw, d.bootSegment, labelBoot ? labelBoot(d.bootSegment) : ids[k]);
      }
    } else if (labelBoot) {
      for (const r of recs) r.journalBootId = r.bootId ?? labelBoot(r.bootSegment);
    }
    for (const [k, text] of this.extra) recs[k].message += text;
    for (const [k, cut] of this.truncated) recs[k].message += truncationMarker(cut);
    return recs;
  }
}

/** Line counts of a file with no lines yet (every count zero). */
export function emptyCounts(): LineCounts {
  return {
    lines: 0,
    parsed: 0,
    blank: 0,
    skipped: 0,
    skippedByReason: {},
    records: 0,
    continuation: 0,
    banner: 0,
    noTimestamp: 0,
    sinceBoot: 0,
    aged: 0,
    outOfOrder: 0,
  };
}

/** Count one skipped line under `reason`. */
export function skip(counts: LineCounts, reason: string): void {
  counts.skipped++;
  counts.skippedByReason[reason] = (counts.skippedByReason[reason] ?? 0) + 1;
}

/**
 * Line accounting for whole-document formats: the claimed lines become records (where an event
 * starts), the document's head (before the first record: banner `header`), or continuations of
 * the record before them.
 */
export function settleDeferred(
  items: Array<{ line: number; record: ParsedRecord; endLine?: number }>,
  claimed: number[],
  lines: readonly string[],
  entries: Entries,
  banners: Array<{ line: number; banner: Banner }>,
  counts: LineCounts,
): void {
  const sorted = [...items].sort((a, b) => a.line - b.line);
  const starts = new Set<number>();
  for (const it of sorted) {
    entries.push(it.record, it.line, Math.max(it.line, it.endLine ?? it.line), "", 0, 0, null);
    if (!starts.has(it.line)) {
      starts.add(it.line);
      counts.records++;
    }
  }
  let e = -1; // index of the record (sorted by line) a claimed line follows
  for (const ln of claimed) {
    while (e + 1 < entries.length && entries.recs[e + 1].line <= ln) e++;
    if (starts.has(ln)) continue;
    if (e < 0) {
      counts.banner++;
      banners.push({ line: ln, banner: { type: "header" } });
    } else {
      counts.continuation++;
      if (ln > entries.recs[e].endLine) entries.recs[e].endLine = ln;
    }
  }
  banners.sort((a, b) => a.line - b.line);
  for (const r of entries.recs) r.raw = lines.slice(r.line - 1, r.endLine).join("\n");
}
