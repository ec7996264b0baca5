/**
 * Parse one decoded log file: `parseFile(path, text, opts) → ParsedFile` (lib/parse/file-types.ts).
 * Pure: no I/O, no clock reads.
 *
 * 1. Lines: split on LF (CRLF's CR dropped); a last line without newline counts, the empty string
 *    after a final newline does not. A leading BOM is dropped. Lines over 64 KiB (UTF-8) are cut and
 *    keep a marker `…[truncated N bytes]` in `raw` and `message` (as Loki does).
 * 2. Format: `opts.format`, else `sniffFormat` over the first 20 non-empty, non-banner lines, in
 *    registry order. No match: format `unknown`, every non-blank line skipped as
 *    `unknown-format` (never an exception).
 * 3. Line accounting: each physical line is one of record, continuation,
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
 * 6. Pastes (decided once per file; files without any of it pay one branch per line):
 *    - a pager's right-edge cut mark (`>`/`$`, paste.ts) is stripped before anything reads the lines;
 *    - a k9s frame (`│ … │`) or `| ` bars go before the sniff (paste.ts `stripFrame`); a refused
 *      piece k9s continued inside the frame continues the record above (joined with nothing inside a
 *      word, else one blank, and the joined line read again);
 *    - inline-code backticks at a paste's ends go before the sniff; a Markdown code block's
 *      indentation or a `> ` quote on every line goes when the lines sniff only without it;
 *    - paste banners and furniture (prompts with their command, bare commands, `#` comments, code
 *      fences, kubectl notices, elisions, rules, `systemctl status` / version-banner / crictl
 *      table blocks: paste.ts) are left out of the sniff and counted as banner `header`;
 *    - when nothing sniffs, the sniff is tried again without lines that look like wrapped tails;
 *    - tool prefixes (line-prefix.ts: `[pod/…/…] `, `<pod> <container> `, `--timestamps`,
 *      `<host>: `, `<node> <journal line>`, `grep -n`, chat stamps, a diff column, `K3S: `…) are
 *      stripped before the format parses, and their facts put on the record (host,
 *      fields.prefix*, the stamp for records without one);
 *    - records glued on one physical line are split where the line's prefix starts again: they
 *      share its line number; `counts.glued` (set when non-zero) counts the records after the
 *      first on a line, so `records + continuation + banner - glued = parsed` (physical lines);
 *    - a refused line that a terminal hard-wrapped off the record's last line (paste.ts
 *      `isWrapTail`) continues it (joined with nothing between, the joined line read again);
 *      else it is tried on the other registered formats (mixed pastes), then is paste furniture
 *      (also once its prefix is off: `aws-node stream closed`; or a short prose label, `Logs error:`),
 *      or continues the record before it when it lacks the file's prefix, else it is skipped;
 *    - klog multi-line values (`key=<` … ` >`) become the record's field, also in newest-first
 *      journals where the block comes before its record (`klogBlocks`).
 *    `pasteInfo(file)` tells what was found.
 */
import { LIMITS } from "../bundle/limits";
import type { FileRecord, LayoutOptions, LineCounts, ParsedFile, TimeOptions } from "./file-types";
import { isJournalBanner } from "./helpers/journal-banner";
import { parseKlogHeader } from "./klog";
import {
  applyPrefixFacts,
  isPrintTimeLayer,
  planPrefix,
  printStampMs,
  TIMESTAMPS,
  type PrefixFacts,
  type PrefixPlan,
  splitGlued,
  stripPrefix,
} from "./line-prefix";
import { markNoise } from "./noise";
import {
  detectDecoration,
  detectFrame,
  detectPagerCut,
  detectWordWrap,
  detectWrapWidth,
  Furniture,
  isPasteBanner,
  isProse,
  isProseLabel,
  isWordWrapTail,
  isWrapTail,
  stripBackticks,
  stripDecoration,
  stripEmphasis,
  stripFrame,
  stripPagerCut,
} from "./paste";
import { scanPairs } from "./helpers/text-scan";
import { formatByName, FORMAT_REGISTRY } from "./registry";
import { recordsNewestFirst, resolveTimes, wallToUtc, zoneFromStamps } from "./resolve-time";
import { ZONE_ABBREVIATIONS } from "./helpers/time-util";
import type { Banner, FormatSpec, LineParser, LineResult, ParseContext, ParsedRecord } from "./types";
import { parseComponentMessage } from "./helpers/component";
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

/**
 * The first `max` non-empty, non-banner lines (the sniff input); lines marked as noise and paste
 * banners (prompts, comments, fences: paste.ts) are left out.
 */
export function sniffLines(lines: readonly string[], max = SNIFF_LINES, noise?: ReadonlyArray<string | undefined> | null): string[] {
  return sniffWindow(lines, max, noise).first;
}

/**
 * `sniffLines`, and how many paste banners (furniture: paste.ts) the window held. With a wrap
 * width `wrap` (> 0), lines that look like the wrapped tail of the line before them are left out
 * too: the sniff looks at lines that start records. With `prose`, sentences typed around the
 * paste (paste.ts `isProse`) are left out.
 */
function sniffWindow(
  lines: readonly string[],
  max: number,
  noise?: ReadonlyArray<string | undefined> | null,
  wrap = 0,
  prose = false,
): { first: string[]; pasteBanners: number } {
  const out: string[] = [];
  let pasteBanners = 0;
  const furniture = new Furniture();
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const l = lines[i];
    if (isBlank(l) || isSniffBanner(l) || (noise && noise[i] !== undefined)) continue;
    if (furniture.test(l, i)) {
      pasteBanners++;
      continue;
    }
    if (wrap > 0 && i > 0 && isWrapTail(l, lines[i - 1], wrap)) continue;
    if (prose && isProse(l)) continue;
    out.push(l.length > 4096 ? l.slice(0, 4096) : l);
  }
  return { first: out, pasteBanners };
}

/** What the sniff of a file found: its format, prefix stack, and the paste banners in its window. */
interface SniffResult {
  spec: FormatSpec | null;
  plan: PrefixPlan | null;
  pasteBanners: number;
  first: string[];
}

/**
 * Sniff `lines`: the registry on the sniff window; when nothing takes it, the window without
 * wrapped tails (a table whose rows a terminal wrapped), then without prose lines; then a prefix
 * stack (line-prefix.ts).
 */
function sniffLinesOf(path: string, lines: readonly string[], noise: ReadonlyArray<string | undefined> | null): SniffResult {
  let win = sniffWindow(lines, SNIFF_LINES, noise);
  let spec = sniffFormat(path, win.first);
  if (spec === null && win.first.length > 1) {
    const w = detectWrapWidth(lines);
    if (w > 0) {
      const win2 = sniffWindow(lines, SNIFF_LINES, noise, w);
      const spec2 = win2.first.length < win.first.length ? sniffFormat(path, win2.first) : null;
      if (spec2) {
        win = win2;
        spec = spec2;
      }
    }
  }
  if (spec === null && win.first.length > 1) {
    // sentences a reviewer typed around a short paste can outnumber its records
    const win3 = sniffWindow(lines, SNIFF_LINES, noise, 0, true);
    const spec3 = win3.first.length > 0 && win3.first.length < win.first.length ? sniffFormat(path, win3.first) : null;
    if (spec3) {
      win = win3;
      spec = spec3;
    }
  }
  let plan: PrefixPlan | null = null;
  const first = win.first;
  if (first.length > 0 && (spec === null || (spec.name === "kubectl-timestamps" && !timestampPayloadsAreComponentLines(first)))) {
    plan = planPrefix(path, first, sniffFormat);
    if (plan) spec = plan.spec;
  }
  return { spec, plan, pasteBanners: win.pasteBanners, first };
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
class Entries {
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

function skip(counts: LineCounts, reason: string): void {
  counts.skipped++;
  counts.skippedByReason[reason] = (counts.skippedByReason[reason] ?? 0) + 1;
}

/** Components that name a source kind of their own (a file holding only them is of that kind). */
const COMPONENT_KINDS = new Set([
  "kubelet",
  "containerd",
  "crio",
  "cni-calico",
  "istio-cni",
  "cilium",
  "flannel",
  "k8s-events",
  "kernel",
  "k3s",
  "rke2",
  "aws-vpc-cni",
  "multus",
  "kube-router",
  "kube-proxy",
  "antrea",
  "azure-cni",
  "linkerd-cni",
  "ovs",
  "ovn",
  "ztunnel",
]);

/**
 * Zone for the file: the first banner that states one (DST pairs → their IANA zone when it
 * agrees), else the collector's, else the one offset the file's own stamps carry (`stampOffset`:
 * resolve-time.ts `zoneFromStamps`), else `--tz`, else UTC.
 */
function fileZone(
  banners: Array<{ line: number; banner: Banner }>,
  tz: string | null | undefined,
  collectorZone?: string | null,
  stampOffset: number | null = null,
): { zone: Zone; source: string } {
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
  if (stampOffset !== null) return { zone: fixedZone(stampOffset), source: "stamps" };
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

/**
 * Options of `parseFile`: time options, layout options, an optional forced `format` (registry
 * name), and `onLines`, called with the lines read so far and the file's lines as the main pass
 * goes (every `PROGRESS_LINES` lines; for progress reports).
 */
export type ParseFileOptions = TimeOptions & LayoutOptions & { format?: string; onLines?: (done: number, total: number) => void };

/** Lines between two `onLines` calls of `parseLines` (a power of two: a mask test per line). */
const PROGRESS_LINES = 1 << 14;

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

/** A message that is only the start of a klog header (`E1106 09:58:48.855639     558`): a wrap cut the line there. */
const KLOG_HEADER_CUT = /^[IWEF]\d{4} \d\d:\d\d:\d\d(?:\.\d*)?(?: +\d*)?\s*$/;

/** A letter, digit or `_` (a cut between two of them fell inside a word). */
function isWordCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Prose lines (paste.ts `isProse`) a file may hold as banners: more are more likely a layout bootline does not know. */
const MAX_PROSE = 20;

/** Refused lines tried on the other formats before the per-file fallback gives up (when none took any). */
const FALLBACK_TRIES = 200;

/** What a file's paste layer found (prefixes, other formats, pager marks, wraps, glued records); see `pasteInfo`. */
export interface PasteInfo {
  /** prefix layers stripped from each line, outermost first (line-prefix.ts names) */
  prefix: string[];
  /** formats other than the file's own that read some of its lines (mixed pastes) */
  otherFormats: string[];
  /** a pager's right-edge cut mark that was stripped (`>`, `$`), or null */
  pagerMark: string | null;
  /** lines that continued the record before them only because a terminal wrapped them */
  wrapped: number;
  /** records that shared a physical line with the record before them (glued by the paste) */
  glued: number;
  /** a decoration stripped from the lines before the sniff (paste.ts): `indent`, `quote`, `backticks`, `frame`, `emphasis` (joined by `+`) */
  decoration?: string;
}

/** The paste facts of a parsed file, when its lines had any (see `PasteInfo`). */
export function pasteInfo(f: ParsedFile): PasteInfo | undefined {
  return (f as ParsedFile & { paste?: PasteInfo }).paste;
}

/** Payloads after a `--timestamps` stamp that are component lines (kubectl-timestamps reads them). */
function timestampPayloadsAreComponentLines(first: readonly string[]): boolean {
  let n = 0;
  let ok = 0;
  for (const l of first) {
    const sp = l.indexOf(" ");
    if (sp < 0) continue;
    n++;
    if (parseComponentMessage(l.slice(sp + 1)) !== null) ok++;
  }
  return n > 0 && ok * 2 >= n;
}

/**
 * Per-file state of the line loop: turns each line's `LineResult` into counts, records, banners
 * and continuations. The paste layer (prefix stripping, glued records, mixed formats, hard wraps)
 * lives in `pasteLine` / `refused`, so files without any of it pay one branch per line.
 */
class LineReader {
  readonly counts: LineCounts;
  readonly entries: Entries;
  readonly banners: Array<{ line: number; banner: Banner }> = [];
  readonly claimed: number[] = []; // deferred: lines the document parser took
  readonly endedBy = new Map<number, string | null>();
  current = -1; // index of the record continuation lines belong to
  segment = 0;
  segmentHasRecord = false;
  bootId: string | null = null;
  prevUptime = Number.NaN;
  /** paste layer */
  readonly info: PasteInfo = { prefix: [], otherFormats: [], pagerMark: null, wrapped: 0, glued: 0 };
  private wrapWidth = -1;
  /** width of a word wrap (paste.ts `detectWordWrap`; -1: not looked for yet) */
  private wordWrap = -1;
  /** prose lines taken as banners so far (at most `MAX_PROSE`) */
  private prose = 0;
  private others: Array<{ spec: FormatSpec; parser: LineParser | null }> | null = null;
  private lastOther: { spec: FormatSpec; parser: LineParser | null } | null = null;
  private otherTries = 0;
  /** the current record was read by `lastOther`, not by the file's format */
  private otherCurrent = false;
  private otherHits = 0;
  /** the line being read carried no prefix although the file's lines do */
  private unprefixed = false;
  /** the record whose hard-wrapped line is being joined, and that line so far (null: not read again) */
  private wrapRec = -1;
  private wrapText: string | null = null;
  /** paste furniture (banners and the blocks they open), asked about refused lines only */
  private readonly furniture = new Furniture();
  /** 1-based numbers of lines that continue the line above inside a k9s frame (paste.ts `stripFrame`) */
  frameWrap: Set<number> | null = null;

  constructor(
    readonly path: string,
    readonly lines: readonly string[],
    readonly spec: FormatSpec,
    readonly parser: LineParser,
    readonly deferred: boolean,
    counts: LineCounts,
    readonly plan: PrefixPlan | null,
    readonly pasteBannersFirst: boolean,
    readonly ctx: ParseContext & { path: string },
  ) {
    this.counts = counts;
    this.entries = new Entries(deferred || parser.settled !== true);
  }

  /**
   * The file's format on a line, then `take`. Under a record another format read (mixed pastes),
   * a line the file's format would only continue goes to that format first: a describe row
   * right under another inside a journal paste is its own record, not the journal's continuation.
   */
  takeOwn(line: string, lineNo: number, raw: string, truncated: number, facts: PrefixFacts | null): boolean {
    const res = this.parser.parseLine(line, lineNo);
    const other = this.otherCurrent ? this.lastOther : null;
    if (other !== null && other.parser !== null && res !== null && res.type === "continuation") {
      const mine = other.parser.parseLine(line, lineNo);
      if (mine !== null) return this.takeOther(other, mine, lineNo, raw, truncated, facts);
    }
    return this.take(res, lineNo, raw, truncated, facts, false);
  }

  /** Account one line's result (`raw`: the text kept as the record's raw line). */
  take(res: LineResult, lineNo: number, raw: string, truncated: number, facts: PrefixFacts | null, glued: boolean): boolean {
    const counts = this.counts;
    if (res === null) return false;
    switch (res.type) {
      case "record": {
        counts.records++;
        if (glued) this.info.glued++;
        const rec = res.record;
        if (facts !== null) applyPrefixFacts(rec, facts);
        const up = uptimeOf(rec);
        if (!Number.isNaN(up)) {
          if (!Number.isNaN(this.prevUptime) && this.segmentHasRecord && isMonotonicReset(this.prevUptime, up)) {
            this.endedBy.set(this.segment, null);
            this.segment++;
            this.bootId = null;
          }
          this.prevUptime = up;
        }
        const rawLine = truncated ? raw + truncationMarker(truncated) : raw;
        this.otherCurrent = false;
        this.current = this.entries.push(rec, lineNo, lineNo, rawLine, truncated, this.segment, this.bootId);
        if (facts !== null && this.entries.srcs !== null) this.entries.facts.set(this.current, facts);
        this.segmentHasRecord = true;
        return true;
      }
      case "banner": {
        counts.banner++;
        this.banners.push({ line: lineNo, banner: res.banner });
        const t = res.banner.type;
        if (t === "boot" || t === "reboot") {
          if (this.segmentHasRecord) {
            this.endedBy.set(this.segment, res.banner.bootId ?? null);
            this.segment++;
            this.segmentHasRecord = false;
          }
          this.bootId = res.banner.bootId ?? null;
          this.current = -1;
          this.prevUptime = Number.NaN;
        }
        return true;
      }
      case "continuation": {
        if (this.deferred) {
          this.claimed.push(lineNo);
          return true;
        }
        if (this.current < 0) return false;
        // a terminal's wrap that fell on a blank: ` rest` after a line of exactly the width
        // (not in a file with a line prefix: there a line without it keeps its line break)
        if (this.plan === null && raw.charCodeAt(0) === 32 && raw.charCodeAt(1) > 32 && raw.charCodeAt(1) !== 62 && this.wrapsAtBlank(lineNo)) {
          this.wrappedPiece(lineNo, raw, truncated);
          return true;
        }
        // a piece its format would join after a blank: a frame's, an editor's or a terminal's cut, when it is one, joins as cut
        if (res.glue === " " && this.wrapJoined(raw, lineNo, truncated)) return true;
        this.continueRecord(lineNo, raw, truncated, res.text, res.glue);
        return true;
      }
    }
  }

  /** `glue`: what joins the text to the message (a newline; nothing for a hard-wrapped piece). */
  private continueRecord(lineNo: number, raw: string, truncated: number, text: string, glue = "\n"): void {
    this.counts.continuation++;
    const r = this.entries.recs[this.current];
    r.endLine = lineNo;
    r.raw += `\n${truncated ? raw + truncationMarker(truncated) : raw}`;
    if (text !== "") this.entries.addText(this.current, `${glue}${text}`);
  }

  /** Does line `lineNo` follow a line of the current record that fills the file's wrap width exactly? */
  private wrapsAtBlank(lineNo: number): boolean {
    if (lineNo < 2 || this.entries.recs[this.current].endLine !== lineNo - 1) return false;
    if (this.wrapWidth < 0) this.wrapWidth = detectWrapWidth(this.lines);
    return this.wrapWidth > 0 && this.lines[lineNo - 2].length === this.wrapWidth;
  }

  /**
   * A piece a terminal hard-wrapped off the line before it: it continues the record (its text
   * joined with nothing between), and the joined line is read again by a fresh parser of the
   * format so that values the wrap cut (`err="…`) are whole; kept only when that parser reads a
   * record with the same time and severity (a first piece that ends inside a klog header takes
   * the whole line's level and stamp), and no other continuation came before. `wordWrap`:
   * the piece came from a word wrap (its end blank is where the next piece was broken off).
   */
  private wrappedPiece(lineNo: number, raw: string, truncated: number, glue = "", wordWrap = false): void {
    this.info.wrapped++;
    const k = this.current;
    const rec = this.entries.recs[k];
    if (this.wrapRec !== k) {
      this.wrapRec = k;
      this.wrapText = rec.line === rec.endLine && !this.entries.extra.has(k) ? this.lines[rec.line - 1] : null;
    }
    // a word wrap keeps the blank it broke at on the piece's end
    const tail = wordWrap ? raw : raw.trimEnd();
    this.continueRecord(lineNo, raw, truncated, tail, glue);
    if (this.wrapText === null || truncated) return;
    this.wrapText = (glue === "" ? this.wrapText : this.wrapText.trimEnd() + glue) + tail;
    let text = this.wrapText;
    if (this.plan !== null) {
      const st = stripPrefix(text, this.plan.layers);
      if (st === null) return;
      text = st.rest;
    }
    const res = this.spec.createParser(this.ctx).parseLine(text, rec.line);
    if (res === null || res.type !== "record") return;
    const again = res.record;
    const a = again.time;
    const b = rec.time;
    // the first piece ended inside a klog header: the whole line has the component's own level and stamp
    const headerCut = KLOG_HEADER_CUT.test(rec.message) && a !== null && b !== null && a.minute === b.minute && a.second === b.second;
    if (
      !headerCut &&
      (again.severity !== rec.severity ||
        (a === null) !== (b === null) ||
        (a !== null && b !== null && (a.second !== b.second || a.ms !== b.ms || a.minute !== b.minute)))
    )
      return;
    if (headerCut) {
      rec.time = a;
      rec.precision = (a as NonNullable<typeof a>).precision;
      rec.severity = again.severity;
      const s0 = this.entries.srcs?.[k];
      if (s0) {
        s0.time = a;
        s0.severity = again.severity;
      }
    }
    const fields = again.fields;
    if (rec.fields) for (const key in rec.fields) if (key.startsWith("prefix")) (again.fields ??= {})[key] = rec.fields[key];
    rec.message = again.message;
    if (again.fields !== undefined || fields !== undefined) rec.fields = again.fields;
    const src = this.entries.srcs?.[k];
    if (src) {
      src.message = again.message;
      if (again.fields !== undefined) src.fields = again.fields;
    }
    this.entries.extra.delete(k);
  }

  /** Read one non-blank line of a file with a paste layer (prefixes or paste banners). */
  pasteLine(line: string, lineNo: number, truncated: number): void {
    if (this.pasteBannersFirst && this.furniture.test(line, lineNo - 1)) {
      this.parser.pasteBanner?.(line);
      this.take({ type: "banner", banner: { type: "header" } }, lineNo, line, truncated, null, false);
      return;
    }
    const plan = this.plan;
    if (plan === null) {
      if (!this.takeOwn(line, lineNo, line, truncated, null)) this.refused(line, line, lineNo, truncated, null);
      return;
    }
    const st = stripPrefix(line, plan.layers);
    if (st === null) {
      this.unprefixed = true;
      if (!this.takeOwn(line, lineNo, line, truncated, null)) this.refused(line, line, lineNo, truncated, null);
      this.unprefixed = false;
      return;
    }
    const spec = plan.spec;
    const path = this.path;
    const layers = plan.layers;
    const glued = splitGlued(st.rest, st.lead, (piece) => {
      const s2 = stripPrefix(st.lead + piece, layers);
      return s2 !== null && spec.sniff(path, [s2.rest]);
    });
    const rest = glued ? st.rest.slice(0, glued.firstEnd).trimEnd() : st.rest;
    // padding around pasted records belongs to none of them
    const raw = glued ? line.slice(0, line.length - st.rest.length + glued.firstEnd).trim() : line.charCodeAt(0) === 32 ? line.trim() : line;
    if (!this.takeOwn(rest, lineNo, raw, truncated, st.facts)) this.refused(rest, raw, lineNo, truncated, st.facts);
    if (!glued) return;
    for (const piece of glued.more) {
      const s2 = stripPrefix(piece, layers);
      if (s2 === null) continue;
      const res = this.parser.parseLine(s2.rest, lineNo);
      if (res !== null && res.type === "record") this.take(res, lineNo, piece, 0, s2.facts, true);
    }
  }

  /**
   * `raw` as a piece a frame, an editor's word wrap or a terminal cut off the current record's
   * last line (the line above), joined to it as the cut requires; false when it is none.
   */
  private wrapJoined(raw: string, lineNo: number, truncated: number): boolean {
    if (!(this.current >= 0 && !this.deferred && lineNo >= 2 && this.entries.recs[this.current].endLine === lineNo - 1)) return false;
    const prev = this.lines[lineNo - 2];
    if (this.frameWrap !== null && this.frameWrap.has(lineNo)) {
      // cut at the frame's width: inside a word nothing went missing, else the blank at the cut did
      this.wrappedPiece(lineNo, raw, truncated, isWordCode(prev.charCodeAt(prev.length - 1)) && isWordCode(raw.charCodeAt(0)) ? "" : " ");
      return true;
    }
    // a break at a blank or after `-` keeps that blank (a word wrap, or a hard wrap that fell there)
    if (this.wordWrap < 0) this.wordWrap = detectWordWrap(this.lines);
    if (this.wordWrap > 0 && isWordWrapTail(raw, prev, this.wordWrap)) {
      this.wrappedPiece(lineNo, raw, truncated, "", true);
      return true;
    }
    if (this.wrapWidth < 0) this.wrapWidth = detectWrapWidth(this.lines);
    if (isWrapTail(raw, prev, this.wrapWidth)) {
      this.wrappedPiece(lineNo, raw, truncated);
      return true;
    }
    return false;
  }

  /**
   * A line the file's format refused: another registered format (mixed pastes), a paste banner,
   * a piece a terminal wrapped (or a line without the file's prefix) continuing the record before
   * it, else skipped.
   */
  refused(line: string, raw: string, lineNo: number, truncated: number, facts: PrefixFacts | null): void {
    if (this.wrapJoined(raw, lineNo, truncated)) return;
    if (this.furniture.continues(raw, lineNo - 1)) {
      this.take({ type: "banner", banner: { type: "header" } }, lineNo, raw, truncated, null, false);
      return;
    }
    if (!this.deferred && this.tryOthers(line, raw, lineNo, truncated, facts)) return;
    if (
      (!this.pasteBannersFirst && this.furniture.test(raw, lineNo - 1)) ||
      (line !== raw && isPasteBanner(line)) ||
      isProseLabel(raw) ||
      this.isProseBanner(line, lineNo)
    ) {
      this.parser.pasteBanner?.(raw);
      this.take({ type: "banner", banner: { type: "header" } }, lineNo, raw, truncated, null, false);
      return;
    }
    if (this.current >= 0 && !this.deferred) {
      if (this.unprefixed) {
        this.continueRecord(lineNo, raw, truncated, raw);
        return;
      }
    }
    skip(this.counts, "unknown-format");
  }

  /**
   * A sentence a reviewer typed around the paste (paste.ts `isProse`), up to `MAX_PROSE` of them;
   * in a prefixed file a line without the prefix right under a record continues it instead.
   */
  private isProseBanner(line: string, lineNo: number): boolean {
    if (this.prose >= MAX_PROSE) return false;
    if (this.unprefixed && this.current >= 0 && this.entries.recs[this.current].endLine === lineNo - 1) return false;
    if (!isProse(line)) return false;
    this.prose++;
    return true;
  }

  /** Try the other registered formats on a refused line (parsers cached per file). */
  private tryOthers(line: string, raw: string, lineNo: number, truncated: number, facts: PrefixFacts | null): boolean {
    if (this.otherHits === 0 && this.otherTries >= FALLBACK_TRIES) return false;
    this.otherTries++;
    if (this.others === null) this.others = FORMAT_REGISTRY.filter((s) => s !== this.spec).map((spec) => ({ spec, parser: null }));
    const last = this.lastOther;
    if (last !== null && last.parser !== null) {
      const res = last.parser.parseLine(line, lineNo);
      if (res !== null && (res.type !== "continuation" || this.current >= 0)) return this.takeOther(last, res, lineNo, raw, truncated, facts);
    }
    const one = [line];
    for (const o of this.others) {
      if (o === last || !o.spec.sniff(this.path, one)) continue;
      if (o.parser === null) {
        o.parser = o.spec.createParser(this.ctx);
        if (o.parser.deferred === true) continue;
      } else if (o.parser.deferred === true) continue;
      const res = o.parser.parseLine(line, lineNo);
      if (res === null || res.type === "continuation") continue;
      return this.takeOther(o, res, lineNo, raw, truncated, facts);
    }
    return false;
  }

  private takeOther(
    o: { spec: FormatSpec; parser: LineParser | null },
    res: LineResult,
    lineNo: number,
    raw: string,
    truncated: number,
    facts: PrefixFacts | null,
  ): boolean {
    if ((o.parser as LineParser).settled !== true) this.entries.makeLate();
    if (!this.take(res, lineNo, raw, truncated, facts, false)) return false;
    if (res !== null && res.type === "record") this.otherCurrent = true;
    this.otherHits++;
    this.lastOther = o;
    if (!this.info.otherFormats.includes(o.spec.name)) this.info.otherFormats.push(o.spec.name);
    return true;
  }

  /** Call `finish` of the other formats' parsers used. */
  finishOthers(): void {
    if (this.others === null) return;
    for (const o of this.others) if (o.parser !== null && o.parser.deferred !== true) o.parser.finish?.();
  }
}

/** `parseFile` over lines already split (see `splitLines`). */
export function parseLines(path: string, linesIn: readonly string[], opts: ParseFileOptions = {}): ParsedFile {
  const counts = emptyCounts();
  counts.lines = linesIn.length;
  const errors: Array<{ line: number; message: string }> = [];
  // a pager's right-edge cut marks go before anything reads the lines
  const pagerCut = linesIn.length > 1 ? detectPagerCut(linesIn) : null;
  let lines = pagerCut ? linesIn.map((l) => stripPagerCut(l, pagerCut)) : linesIn;
  // a k9s frame (`│ … │`) or `| ` bars go before the sniff; pieces wrapped inside the frame are marked
  const frame = lines.length > 1 ? detectFrame(lines) : null;
  let frameWrap: Set<number> | null = null;
  if (frame) {
    const fr = stripFrame(lines, frame);
    lines = fr.lines;
    if (fr.wrapped.size > 0) frameWrap = fr.wrapped;
  }
  // inline-code backticks at a paste's ends (and around its lines) go before the sniff
  const unticked = lines.length > 0 ? stripBackticks(lines) : null;
  if (unticked) lines = unticked;
  // Markdown emphasis (`**…**`) in or around log lines pasted outside a code block
  const plain = lines.length > 0 ? stripEmphasis(lines) : null;
  if (plain) lines = plain;
  let noise = opts.noise && opts.noise.length ? markNoise(lines, opts.noise) : null;
  let spec: FormatSpec | null;
  let plan: PrefixPlan | null = null;
  let pasteBanners = 0;
  let decoration: string | null = null;
  if (opts.format) {
    spec = formatByName(opts.format) ?? null;
    if (!spec) throw new RangeError(`unknown format: ${opts.format}`);
  } else {
    let sn = sniffLinesOf(path, lines, noise);
    if (sn.spec === null) {
      // a Markdown code block or quote around the whole paste: stripped when the lines without it sniff
      let stripped: string[] = lines as string[];
      for (let round = 0; round < 2; round++) {
        const deco = detectDecoration(stripped);
        if (!deco) break;
        stripped = stripDecoration(stripped, deco);
        const noise2 = opts.noise && opts.noise.length ? markNoise(stripped, opts.noise) : null;
        const sn2 = sniffLinesOf(path, stripped, noise2);
        decoration = decoration === null ? deco.kind : `${decoration}+${deco.kind}`;
        if (sn2.spec) {
          sn = sn2;
          lines = stripped;
          noise = noise2;
          break;
        }
      }
      if (sn.spec === null) decoration = null;
    }
    spec = sn.spec;
    plan = sn.plan;
    pasteBanners = sn.pasteBanners;
    if (!spec && sn.first.length === 0 && lines.some((l) => isJournalBanner(l))) spec = formatByName("journal-short") ?? null;
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

  // relative ages (kubectl) count back from the collection time, else from a CI console's last
  // print time, else from the upload's time (a guess)
  // print time (with a date), `TIMESTAMPS` only before kubectl tables (there it can only be one)
  const printLayer = plan !== null && isPrintTimeLayer(plan.layers[0]) && (plan.layers[0] !== TIMESTAMPS || spec.kind === "k8s-events") ? plan.layers[0] : null;
  const printedMs = (opts.collectedMs ?? null) === null && printLayer !== null ? printStampMs(lines, printLayer) : null;
  const agesFromUpload = (opts.collectedMs ?? null) === null && printedMs === null && (opts.uploadMs ?? null) !== null;
  const ctx: ParseContext & { path: string } = { collectedMs: opts.collectedMs ?? printedMs ?? opts.uploadMs ?? null, path };
  if (printedMs !== null) ctx.agesFromPrintTime = true;
  const parser = spec.createParser(ctx);
  const deferred = parser.deferred === true;
  const reader = new LineReader(path, lines, spec, parser, deferred, counts, plan, pasteBanners > 0, ctx);
  reader.frameWrap = frameWrap;
  if (plan) reader.info.prefix = plan.layers.map((l) => l.name);
  if (pagerCut) reader.info.pagerMark = pagerCut.mark;
  const paste = plan !== null || pasteBanners > 0;
  const { entries, banners, claimed, endedBy } = reader;
  let cutLines = 0;
  if (decoration !== null) reader.info.decoration = decoration;
  if (unticked) reader.info.decoration = reader.info.decoration ? `backticks+${reader.info.decoration}` : "backticks";
  if (plain) reader.info.decoration = reader.info.decoration ? `emphasis+${reader.info.decoration}` : "emphasis";
  if (frame) reader.info.decoration = reader.info.decoration ? `frame+${reader.info.decoration}` : "frame";

  const onLines = opts.onLines;
  for (let i = 0; i < lines.length; i++) {
    if (onLines && (i & (PROGRESS_LINES - 1)) === 0 && i > 0) onLines(i, lines.length);
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
    if (paste) {
      reader.pasteLine(line, lineNo, truncated);
      continue;
    }
    if (!reader.takeOwn(line, lineNo, line, truncated, null)) reader.refused(line, line, lineNo, truncated, null);
  }
  reader.finishOthers();
  if (cutLines > MAX_LINE_ERRORS) errors.push({ line: 0, message: `${cutLines - MAX_LINE_ERRORS} more lines cut at ${MAX_LINE_BYTES} bytes` });
  parser.finish?.();
  if (deferred) settleDeferred(parser.end?.() ?? [], claimed, lines, entries, banners, counts);
  const glued = reader.info.glued;
  // glued records share their physical line: `parsed` counts physical lines
  counts.parsed = counts.records + counts.continuation + counts.banner - glued;
  if (glued > 0) (counts as LineCounts & { glued?: number }).glued = glued;

  // records
  const records = entries.settle(opts.separatorsLabelPrevious ? (seg) => endedBy.get(seg) ?? null : null);
  if (agesFromUpload) {
    for (const r of records) {
      const ev = r.k8sEvent;
      if (ev && (ev.lastUncertaintyMs !== undefined || ev.firstUncertaintyMs !== undefined)) ev.agesFromUpload = true;
    }
  }

  // times
  const { zone, source: zoneSource } = fileZone(banners, opts.tz, opts.zone, zoneFromStamps(records));
  const zoneStated = zoneSource === "banner" || zoneSource === "collector" || zoneSource === "stamps";
  let order = records.map((_, k) => k);
  let res = resolveTimes(records, order, banners, opts, zone, zoneStated, false);
  let reversed = false;
  if (
    records.length > 1 &&
    (spec.newestFirst || parser.newestFirst || recordsNewestFirst(records) || (entries.extra.size > 0 && klogBlocksReversed(records, entries.extra)))
  ) {
    reversed = true;
    order = order.reverse();
    res = resolveTimes(records, order, banners, opts, zone, zoneStated, true);
    errors.push({ line: 0, message: "newest-first file: records reversed into time order" });
  }
  // klog multi-line values (`key=<` … ` >`): the block's lines are the value
  const dropped = entries.extra.size > 0 ? klogBlocks(records, entries.extra, reversed) : null;
  let ordered = reversed ? order.map((k) => records[k]) : records;
  if (dropped) {
    ordered = ordered.filter((r) => !dropped.has(r));
    counts.records -= dropped.size;
    counts.continuation += dropped.size;
  }
  if (reversed) {
    let maxSeg = 0;
    for (const r of ordered) if (r.bootSegment > maxSeg) maxSeg = r.bootSegment;
    for (const r of ordered) r.bootSegment = maxSeg - r.bootSegment;
  }
  let prevTs: number | null = null;
  for (const r of ordered) {
    if (r.ts === null) {
      counts.noTimestamp++;
      if (!Number.isNaN(uptimeOf(r))) counts.sinceBoot++;
      continue;
    }
    if (r.k8sEvent?.lastUncertaintyMs !== undefined) counts.aged++;
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

  const out: ParsedFile & { paste?: PasteInfo } = {
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
  const info = reader.info;
  if (info.prefix.length || info.otherFormats.length || info.pagerMark !== null || info.wrapped || info.glued || pasteBanners > 0 || info.decoration)
    out.paste = info;
  return out;
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

/** The key of a klog multi-line value the message opens at its end (`… err=<`), or null. */
function openBlockKey(msg: string): string | null {
  const n = msg.length;
  if (n < 3 || msg.charCodeAt(n - 1) !== 60 || msg.charCodeAt(n - 2) !== 61) return null;
  let i = n - 2;
  while (i > 0 && /[\w.\-/]/.test(msg[i - 1])) i--;
  return i < n - 2 ? msg.slice(i, n - 2) : null;
}

/** A record that is only a line of a klog block (journald wrote each line as an entry): starts with a blank or is klog's ` >` close. */
function isBlockLine(msg: string): boolean {
  const c = msg.charCodeAt(0);
  return (c === 32 || c === 9 || (c === 62 && (msg.length === 1 || msg.charCodeAt(1) === 32))) && openBlockKey(msg) === null;
}

/** `text` (continuation text: each line led by a newline) as lines. */
function extraLines(text: string | undefined): string[] {
  return text === undefined || text.length === 0 ? [] : text.slice(1).split("\n");
}

/** `lines` without the tab klog puts before each line of a block (or the blanks all of them share). */
function dedent(lines: string[]): string[] {
  let tabs = true;
  let min = Number.POSITIVE_INFINITY;
  for (const l of lines) {
    if (l.trim().length === 0) continue;
    if (l.charCodeAt(0) !== 9) tabs = false;
    const m = l.length - l.trimStart().length;
    if (m < min) min = m;
  }
  if (min === Number.POSITIVE_INFINITY) return lines.map(() => "");
  return lines.map((l) => (l.trim().length === 0 ? "" : tabs ? l.slice(1) : l.slice(min)));
}

/** `r`'s message without its continuation text `ex`. */
function baseMessage(r: FileRecord, ex: string | undefined): string {
  return ex !== undefined && r.message.endsWith(ex) ? r.message.slice(0, r.message.length - ex.length) : r.message;
}

/**
 * Do klog blocks come before their records (a newest-first journal, `journalctl -r`)? A record
 * opening a block (`err=<`) followed at once by the block's close ` >`, or with no continuation
 * right after a record that has some, says so; one followed by the block's first line says not.
 */
function klogBlocksReversed(recs: FileRecord[], extra: Map<number, string>): boolean {
  let rev = 0;
  let fwd = 0;
  for (const [k, own] of extra) {
    if (openBlockKey(baseMessage(recs[k], own)) !== null) {
      const first = extraLines(own)[0].trimStart();
      if (first.charCodeAt(0) === 62 && (first.length === 1 || first.charCodeAt(1) === 32)) rev++;
      else fwd++;
    }
    const next = recs[k + 1];
    if (next !== undefined && !extra.has(k + 1) && openBlockKey(next.message) !== null) rev++;
  }
  return rev > fwd;
}

/**
 * Set `key` (and any later open value) of `rec` from a klog block's lines in time order: the lines
 * up to the closing ` >` (klog's text logger, `k8s.io/klog/v2` `textlogger`: `key=<`, each line
 * led by a tab, then ` >`), dedented and joined by newlines; pairs after the close (` > pod="x"`)
 * are read too. An unclosed block (cut paste) gives the lines there are.
 */
function fillBlock(rec: FileRecord, key: string, lines: string[]): void {
  const fields = (rec.fields ??= {});
  let open: string | null = key;
  let body: string[] = [];
  for (const l of lines) {
    const t = l.trimStart();
    if (t.charCodeAt(0) === 62 && (t.length === 1 || t.charCodeAt(1) === 32)) {
      if (open !== null) fields[open] = dedent(body).join("\n");
      const rest = t.slice(1).trim();
      open = null;
      body = [];
      if (rest.length > 0) {
        scanPairs(rest, 0, fields, true);
        open = openBlockKey(rest);
      }
      if (open === null) return;
      continue;
    }
    body.push(l);
  }
  if (open !== null && body.length > 0) fields[open] = dedent(body).join("\n");
}

/**
 * Values of klog's multi-line blocks put on their records (after `Entries.settle`; `extra`: the
 * continuation text by record index). In file order a block follows its record. In a newest-first
 * journal (each block line its own entry) the block's lines come before their record, last line
 * first: the lines between the record before it and it (that record's continuations, or records
 * that are only block lines, at the file's start) move to it, in time order. Returns the records
 * that were block lines (to drop), or null.
 */
function klogBlocks(recs: FileRecord[], extra: Map<number, string>, reversed: boolean): Set<FileRecord> | null {
  if (!reversed) {
    for (const [k, text] of extra) {
      const r = recs[k];
      if (!r.message.endsWith(text)) continue;
      const key = openBlockKey(r.message.slice(0, r.message.length - text.length));
      if (key !== null) fillBlock(r, key, extraLines(text));
    }
    return null;
  }
  let dropped: Set<FileRecord> | null = null;
  // last record first: a record's continuations move to the record after it before it is read
  for (let k = recs.length - 1; k >= 0; k--) {
    const r = recs[k];
    const own = extra.get(k);
    const base = own !== undefined && r.message.endsWith(own) ? r.message.slice(0, r.message.length - own.length) : r.message;
    const key = openBlockKey(base);
    if (key === null) continue;
    let lines: string[] = [];
    for (let j = k - 1; j >= 0; j--) {
      const p = recs[j];
      if (dropped?.has(p)) break;
      const ex = extra.get(j);
      const pBase = ex !== undefined && p.message.endsWith(ex) ? p.message.slice(0, p.message.length - ex.length) : p.message;
      if (isBlockLine(pBase)) {
        lines = [pBase, ...extraLines(ex), ...lines];
        (dropped ??= new Set()).add(p);
        continue;
      }
      if (ex !== undefined && p.message.endsWith(ex)) {
        lines = [...extraLines(ex), ...lines];
        p.message = pBase;
        const nl = p.raw.indexOf("\n");
        if (nl >= 0) p.raw = p.raw.slice(0, nl);
        p.endLine = p.line;
        extra.delete(j);
      }
      break;
    }
    if (lines.length === 0) continue;
    lines.reverse();
    // the record's own continuation text (the next record's block, in a newest-first file) went above
    r.message = `${extra.has(k) ? base : r.message}\n${lines.join("\n")}`;
    fillBlock(r, key, lines);
  }
  return dropped;
}
