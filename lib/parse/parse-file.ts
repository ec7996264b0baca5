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
 *    - the transforms of `transforms/` run before anything reads the lines: terminal colour codes,
 *      a pager's right-edge cut mark (`>`/`$`), a k9s frame (`│ … │`) or `| ` bars, inline-code
 *      backticks at a paste's ends, Markdown emphasis; a refused piece k9s continued inside the
 *      frame continues the record above (joined with nothing inside a word, else one blank, and
 *      the joined line read again);
 *    - a Markdown code block's indentation or a `> ` quote on every line goes when the lines sniff
 *      only without it;
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
import type { LayoutOptions, LineCounts, ParsedFile, TimeOptions } from "./file-types";
import { emptyCounts, type Entries, settleDeferred, skip } from "./file-entries";
import { isBlank, MAX_LINE_BYTES, splitLines, truncateLine } from "./file-lines";
import { sniffLinesOf } from "./file-sniff";
import { isJournalBanner } from "./helpers/journal-banner";
import { ZONE_ABBREVIATIONS } from "./helpers/time-util";
import { klogBlocks, klogBlocksReversed } from "./klog-blocks";
import type { PrefixPlan } from "./line-prefix";
import { isPrintTimeLayer, printStampMs, TIMESTAMPS } from "./prefix-stamps";
import { LineReader, type PasteInfo, uptimeOf } from "./line-reader";
import { markNoise } from "./noise";
import { detectDecoration, stripDecoration } from "./paste";
import { applyPreSniff } from "./transforms/registry";
import { formatByName } from "./registry";
import { recordsNewestFirst, resolveTimes, wallToUtc, zoneFromStamps } from "./resolve-time";
import type { Banner, FormatSpec, ParseContext } from "./types";
import { fixedZone, resolveZone, UTC_ZONE, type Zone } from "./zone";
import { FILE_KIND_COMPONENTS } from "../model/components";

export { emptyCounts } from "./file-entries";
export { MAX_LINE_BYTES, splitLines, truncateLine } from "./file-lines";
export { sniffFormat, sniffLines, SNIFF_LINES } from "./file-sniff";
export { pasteInfo, type PasteInfo } from "./line-reader";

/** Per-line problems kept in `ParsedFile.errors` (then one summary entry). */
export const MAX_LINE_ERRORS = 100;

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
const PROGRESS_LINES = 1 << 12;

/** `parseFile` over lines already split (see `splitLines`). */
export function parseLines(path: string, linesIn: readonly string[], opts: ParseFileOptions = {}): ParsedFile {
  return parseLinesWith(path, linesIn, opts, null);
}

/**
 * What the line loop of `parseLinesWith` calls as it reads (light-parse.ts): `at` every
 * `every` lines (a power of two) of a file without paste layers, with the file's records so far and the
 * index of the record continuation lines still go to (every record before it is final);
 * `readOnly`: stop once every line is read (`end` is then called with the records, not settled,
 * and the result's `records` is empty).
 */
export interface ReadHook {
  every: number;
  at(entries: Entries, current: number): void;
  readOnly?: { end(entries: Entries): void };
}

/** `parseLines` with a `ReadHook` on its line loop (null: none). */
export function parseLinesWith(path: string, linesIn: readonly string[], opts: ParseFileOptions, hook: ReadHook | null): ParsedFile {
  const counts = emptyCounts();
  counts.lines = linesIn.length;
  const errors: Array<{ line: number; message: string }> = [];
  // colour codes, a pager's cut marks, a frame, backticks and emphasis go before the sniff (transforms/)
  const pre = applyPreSniff(linesIn);
  let lines = pre.lines;
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
  reader.frameWrap = pre.wrapped;
  if (plan) reader.info.prefix = plan.layers.map((l) => l.name);
  if (pre.pagerMark !== null) reader.info.pagerMark = pre.pagerMark;
  const paste = plan !== null || pasteBanners > 0;
  const { entries, banners, claimed, endedBy } = reader;
  let cutLines = 0;
  const decorations = decoration === null ? pre.applied : [...pre.applied, decoration];
  if (decorations.length > 0) reader.info.decoration = decorations.join("+");

  const onLines = opts.onLines;
  const at = hook !== null && !paste && !deferred ? hook : null;
  const atMask = at === null ? 0 : at.every - 1;
  for (let i = 0; i < lines.length; i++) {
    if (onLines && (i & (PROGRESS_LINES - 1)) === 0 && i > 0) onLines(i, lines.length);
    if (at && (i & atMask) === 0 && i > 0) at.at(entries, reader.current);
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
  if (hook?.readOnly) {
    hook.readOnly.end(entries);
    return { format: spec.name, kind: spec.kind, records: [], banners, counts, yearSource: "none", timeZone: "UTC", zoneSource: "default", errors };
  }
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
    if (FILE_KIND_COMPONENTS.has(c) && ordered.every((r) => r.component === c)) kind = c;
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
