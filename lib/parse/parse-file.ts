/**
 * Parse one decoded log file: `parseFile(path, text, opts) → ParsedFile` (lib/parse/file-types.ts).
 * Pure: no I/O, no clock reads.
 *
 * 1. Lines: split on LF (CRLF's CR dropped); a last line without newline counts, the empty string
 *    after a final newline does not. A leading BOM is dropped. Lines over 64 KiB (UTF-8) are cut and
 *    keep a marker `…[truncated N bytes]` in `raw` and `message` (STYLE.md, Loki habit).
 * 2. Format: `opts.format`, else `sniffFormat` over the first 20 non-empty, non-banner lines, in
 *    registry order (FORMATS.md 5b). No match: format `unknown`, every non-blank line skipped as
 *    `unknown-format` (never an exception).
 * 3. Line accounting (DESIGN.md Definitions): each physical line is one of record, continuation,
 *    blank, banner, or skipped (`unknown-format`, `binary` for lines holding NUL); the counts add up.
 * 4. Boots: `-- Boot <id> --` / `-- Reboot --` separators start a new `bootSegment` (once a record
 *    was seen) and set `journalBootId` (32 hex, or null after `-- Reboot --`); with
 *    `separatorsLabelPrevious` (sos >= 4.10) a separator's id goes to the records before it. A
 *    monotonic reset (`fields.uptime` of short-monotonic / dmesg records falling back towards 0)
 *    starts a new segment too, without an id.
 * Layout options (lib/bundle/collectors.ts): `noise` rules mark collector noise lines, skipped with
 * the rule's reason before the format sees them (and left out of the sniff); `zone` is a zone the
 * collector guarantees (zoneSource `collector`).
 * 5. Times (resolve-time.ts): zone (stamp offset, banner zone, `opts.tz`, UTC), year rules, UTC ms
 *    floored; a newest-first file is reversed (record order; line numbers unchanged); records
 *    earlier than the record before them are flagged `outOfOrder` and left in place.
 */
import { LIMITS } from "../bundle/limits";
import type { FileRecord, LayoutOptions, LineCounts, ParsedFile, TimeOptions } from "./file-types";
import { isJournalBanner } from "./journal-banner";
import { parseKlogHeader } from "./klog";
import { markNoise } from "./noise";
import { formatByName, FORMAT_REGISTRY } from "./registry";
import { recordsNewestFirst, resolveTimes, wallToUtc } from "./resolve-time";
import { ZONE_ABBREVIATIONS } from "./time-util";
import type { Banner, FormatSpec, ParsedRecord } from "./types";
import { fixedZone, resolveZone, UTC_ZONE, type Zone } from "./zone";

/** Longest line kept whole, in UTF-8 bytes (64 KiB; BOOTLINE_MAX_LINE_BYTES, lib/bundle/limits.ts). */
export const MAX_LINE_BYTES = LIMITS.maxLineBytes;
/** Per-line problems kept in `ParsedFile.errors` (then one summary entry). */
export const MAX_LINE_ERRORS = 100;
/** Lines handed to `sniff`. */
export const SNIFF_LINES = 20;

/** Split decoded text into physical lines (LF or CRLF; see module comment). */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  let t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (t.length === 0) return [];
  if (t.charCodeAt(t.length - 1) === 10) t = t.slice(0, -1);
  const lines = t.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.length > 0 && l.charCodeAt(l.length - 1) === 13) lines[i] = l.slice(0, -1);
  }
  return lines;
}

/** Whitespace-only (or empty) line. */
export function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const c = line.charCodeAt(0);
  if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) return false;
  return line.trim().length === 0;
}

/** Banner lines left out of the sniff input: journal separators/headers and the klog file header. */
export function isSniffBanner(line: string): boolean {
  const c = line.charCodeAt(0);
  if (c === 45) return isJournalBanner(line);
  if (c === 76 || c === 82 || c === 66 || c === 80) return parseKlogHeader(line) !== null;
  return false;
}

/** The first `max` non-empty, non-banner lines (the sniff input); lines marked as noise are left out. */
export function sniffLines(lines: readonly string[], max = SNIFF_LINES, noise?: ReadonlyArray<string | undefined> | null): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const l = lines[i];
    if (isBlank(l) || isSniffBanner(l) || (noise && noise[i] !== undefined)) continue;
    out.push(l.length > 4096 ? l.slice(0, 4096) : l);
  }
  return out;
}

/** First registry spec whose `sniff` accepts the file (`firstLines`: see `sniffLines`), or null. */
export function sniffFormat(path: string, firstLines: string[]): FormatSpec | null {
  for (const spec of FORMAT_REGISTRY) if (spec.sniff(path, firstLines)) return spec;
  return null;
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Cut a line to `MAX_LINE_BYTES` UTF-8 bytes: the kept text and the bytes cut, or null when it fits. */
export function truncateLine(line: string, maxBytes = MAX_LINE_BYTES): { text: string; cut: number } | null {
  if (line.length * 3 <= maxBytes) return null;
  const total = utf8Length(line);
  if (total <= maxBytes) return null;
  let b = 0;
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    const w = c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : 3;
    if (b + w > maxBytes) break;
    b += w;
    i += w === 4 ? 2 : 1;
  }
  return { text: line.slice(0, i), cut: total - b };
}

/** Marker appended to a cut line. */
export function truncationMarker(cut: number): string {
  return `…[truncated ${cut} bytes]`;
}

/**
 * The FileRecord of a parsed record, built property by property: V8 turns `{ ...rec, message }`
 * (spread, then a key the spread already set) into a dictionary-mode object, 20x slower to build
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
class Entries {
  readonly recs: FileRecord[] = [];
  /** parsed records, kept only when the parser may still change them (not `settled`) */
  readonly srcs: ParsedRecord[] | null;
  /** journal boot id in force at each record's line (kept with `srcs`) */
  readonly lineBootIds: Array<string | null> | null;
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
    outOfOrder: 0,
  };
}

function skip(counts: LineCounts, reason: string): void {
  counts.skipped++;
  counts.skippedByReason[reason] = (counts.skippedByReason[reason] ?? 0) + 1;
}

/** Components that name a source kind of their own (a file holding only them is of that kind). */
const COMPONENT_KINDS = new Set(["kubelet", "containerd", "crio", "cni-calico", "istio-cni", "cilium", "flannel", "k8s-events", "kernel", "k3s", "rke2", "aws-vpc-cni", "multus"]);

/** Zone for the file: the first banner that states one (DST pairs → their IANA zone when it agrees), else the collector's, else `--tz`, else UTC. */
function fileZone(banners: Array<{ line: number; banner: Banner }>, tz: string | null | undefined, collectorZone?: string | null): { zone: Zone; source: string } {
  for (const { banner } of banners) {
    if (banner.type !== "logs-begin" || banner.offsetMin === null || banner.offsetMin === undefined) continue;
    const name = banner.zoneName ?? null;
    const abbrev = name ? ZONE_ABBREVIATIONS[name.toUpperCase()] : undefined;
    if (abbrev?.iana && banner.time && banner.time.year !== null) {
      try {
        const z = resolveZone(abbrev.iana);
        const at = wallToUtc(banner.time, banner.time.year, fixedZone(banner.offsetMin));
        if (z.offsetAt(at) === banner.offsetMin) return { zone: z, source: "banner" };
      } catch {
        // Intl without that zone: fall back to the fixed offset
      }
    }
    return { zone: banner.offsetMin === 0 ? UTC_ZONE : fixedZone(banner.offsetMin), source: "banner" };
  }
  if (collectorZone) return { zone: resolveZone(collectorZone), source: "collector" };
  if (tz) return { zone: resolveZone(tz), source: "user" };
  return { zone: UTC_ZONE, source: "default" };
}

/**
 * Parse one file. `path` is the path inside the bundle (used by sniffing and by formats that name
 * their component only in the path); `text` the decoded content; `opts` the time options plus an
 * optional forced `format` (registry name). Throws RangeError for an unknown `format` or `tz`.
 */
export function parseFile(path: string, text: string, opts: ParseFileOptions = {}): ParsedFile {
  return parseLines(path, splitLines(text), opts);
}

/** Options of `parseFile`: time options, layout options, and an optional forced `format` (registry name). */
export type ParseFileOptions = TimeOptions & LayoutOptions & { format?: string };

/** Monotonic seconds of a record (`fields.uptime`, short-monotonic and dmesg), NaN when none. */
function uptimeOf(r: ParsedRecord): number {
  const u = r.fields?.uptime;
  return u === undefined ? Number.NaN : Number(u);
}

/**
 * A monotonic reset: the clock falls by more than a second to under half of the value before it (a
 * newest-first file falls a little at each line; a new boot starts again near 0).
 */
function isMonotonicReset(prev: number, cur: number): boolean {
  return cur < prev - 1 && cur * 2 < prev;
}

/** `parseFile` over lines already split (see `splitLines`). */
export function parseLines(path: string, lines: readonly string[], opts: ParseFileOptions = {}): ParsedFile {
  const counts = emptyCounts();
  counts.lines = lines.length;
  const errors: Array<{ line: number; message: string }> = [];
  const noise = opts.noise && opts.noise.length ? markNoise(lines, opts.noise) : null;
  let spec: FormatSpec | null;
  if (opts.format) {
    spec = formatByName(opts.format) ?? null;
    if (!spec) throw new RangeError(`unknown format: ${opts.format}`);
  } else {
    const first = sniffLines(lines, SNIFF_LINES, noise);
    spec = sniffFormat(path, first);
    if (!spec && first.length === 0 && lines.some((l) => isJournalBanner(l))) spec = formatByName("journal-short") ?? null;
  }
  if (opts.tz) resolveZone(opts.tz); // validate early: throws RangeError

  if (!spec) {
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (isBlank(l)) counts.blank++;
      else skip(counts, noise?.[i] ?? "unknown-format");
    }
    counts.parsed = 0;
    return {
      format: "unknown",
      kind: "unknown",
      records: [],
      banners: [],
      counts,
      yearSource: "none",
      timeZone: opts.zone ? resolveZone(opts.zone).name : opts.tz ? resolveZone(opts.tz).name : "UTC",
      zoneSource: opts.zone ? "collector" : opts.tz ? "user" : "default",
      errors,
    };
  }

  const parser = spec.createParser({ collectedMs: opts.collectedMs ?? null, path });
  const deferred = parser.deferred === true;
  const entries = new Entries(deferred || parser.settled !== true);
  const banners: Array<{ line: number; banner: Banner }> = [];
  const claimed: number[] = []; // deferred: lines the document parser took
  let current = -1; // index of the record continuation lines belong to
  let segment = 0;
  let segmentHasRecord = false;
  let bootId: string | null = null;
  let cutLines = 0;
  /** id of the separator that ended each segment (sos >= 4.10 labels the boot before it) */
  const endedBy = new Map<number, string | null>();
  let prevUptime = Number.NaN;

  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let line = lines[i];
    if (isBlank(line)) {
      counts.blank++;
      continue;
    }
    if (noise && noise[i] !== undefined) {
      skip(counts, noise[i] as string);
      continue;
    }
    if (line.indexOf("\u0000") >= 0) {
      skip(counts, "binary");
      continue;
    }
    let truncated = 0;
    const cut = truncateLine(line);
    if (cut) {
      line = cut.text;
      truncated = cut.cut;
      if (++cutLines <= MAX_LINE_ERRORS) errors.push({ line: lineNo, message: `line longer than ${MAX_LINE_BYTES} bytes: ${cut.cut} bytes cut` });
    }
    const res = parser.parseLine(line, lineNo);
    if (res === null) {
      skip(counts, "unknown-format");
      continue;
    }
    switch (res.type) {
      case "record": {
        counts.records++;
        const up = uptimeOf(res.record);
        if (!Number.isNaN(up)) {
          if (!Number.isNaN(prevUptime) && segmentHasRecord && isMonotonicReset(prevUptime, up)) {
            endedBy.set(segment, null);
            segment++;
            bootId = null;
          }
          prevUptime = up;
        }
        const rawLine = truncated ? line + truncationMarker(truncated) : line;
        current = entries.push(res.record, lineNo, lineNo, rawLine, truncated, segment, bootId);
        segmentHasRecord = true;
        break;
      }
      case "banner": {
        counts.banner++;
        banners.push({ line: lineNo, banner: res.banner });
        const t = res.banner.type;
        if (t === "boot" || t === "reboot") {
          if (segmentHasRecord) {
            endedBy.set(segment, res.banner.bootId ?? null);
            segment++;
            segmentHasRecord = false;
          }
          bootId = res.banner.bootId ?? null;
          current = -1;
          prevUptime = Number.NaN;
        }
        break;
      }
      case "continuation": {
        if (deferred) {
          claimed.push(lineNo);
          break;
        }
        if (current < 0) {
          skip(counts, "unknown-format");
          break;
        }
        counts.continuation++;
        const r = entries.recs[current];
        r.endLine = lineNo;
        r.raw += `\n${truncated ? line + truncationMarker(truncated) : line}`;
        if (res.text !== "") entries.addText(current, `\n${res.text}`);
        break;
      }
    }
  }
  if (cutLines > MAX_LINE_ERRORS) errors.push({ line: 0, message: `${cutLines - MAX_LINE_ERRORS} more lines cut at ${MAX_LINE_BYTES} bytes` });
  parser.finish?.();
  if (deferred) settleDeferred(parser.end?.() ?? [], claimed, lines, entries, banners, counts);
  counts.parsed = counts.records + counts.continuation + counts.banner;

  // records
  const records = entries.settle(opts.separatorsLabelPrevious ? (seg) => endedBy.get(seg) ?? null : null);

  // times
  const { zone, source: zoneSource } = fileZone(banners, opts.tz, opts.zone);
  const zoneStated = zoneSource === "banner" || zoneSource === "collector";
  let order = records.map((_, k) => k);
  let res = resolveTimes(records, order, banners, opts, zone, zoneStated, false);
  let reversed = false;
  if (records.length > 1 && (spec.newestFirst || recordsNewestFirst(records))) {
    reversed = true;
    order = order.reverse();
    res = resolveTimes(records, order, banners, opts, zone, zoneStated, true);
    errors.push({ line: 0, message: "newest-first file: records reversed into time order" });
  }
  const ordered = reversed ? order.map((k) => records[k]) : records;
  if (reversed) {
    let maxSeg = 0;
    for (const r of ordered) if (r.bootSegment > maxSeg) maxSeg = r.bootSegment;
    for (const r of ordered) r.bootSegment = maxSeg - r.bootSegment;
  }
  let prevTs: number | null = null;
  for (const r of ordered) {
    if (r.ts === null) {
      counts.noTimestamp++;
      continue;
    }
    if (prevTs !== null && r.ts < prevTs) {
      r.outOfOrder = true;
      counts.outOfOrder++;
    }
    prevTs = r.ts;
  }
  errors.push(...res.errors);

  // kind: a file whose records all come from one component of its own kind is of that kind
  let kind = spec.kind;
  if (ordered.length > 0) {
    const c = ordered[0].component;
    if (COMPONENT_KINDS.has(c) && ordered.every((r) => r.component === c)) kind = c;
  }

  return {
    format: spec.name,
    kind,
    records: ordered,
    banners,
    counts,
    yearSource: res.yearSource,
    timeZone: zone.name,
    zoneSource,
    errors,
  };
}

/**
 * Line accounting for whole-document formats: the claimed lines become records (where an event
 * starts), the document's head (before the first record: banner `header`), or continuations of
 * the record before them.
 */
function settleDeferred(
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
