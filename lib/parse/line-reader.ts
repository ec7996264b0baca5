/**
 * The line loop's per-file state (`LineReader`): each line's `LineResult` turned into counts,
 * records, banners and continuations, and the paste layer around it (tool prefixes, glued
 * records, other formats of a mixed paste: other-formats.ts, a terminal's or an editor's wraps,
 * paste furniture and prose). Pure.
 */
import { Entries, skip } from "./file-entries";
import { truncationMarker } from "./file-lines";
import type { LineCounts, ParsedFile } from "./file-types";
import { applyPrefixFacts, type PrefixFacts, type PrefixPlan, splitGlued, stripPrefix } from "./line-prefix";
import { detectWordWrap, detectWrapWidth, Furniture, isPasteBanner, isProse, isProseLabel, isWordWrapTail, isWrapTail } from "./paste";
import { OtherFormats } from "./other-formats";
import { wrappedHead } from "./wrap-head";
import type { Banner, FormatSpec, LineParser, LineResult, ParseContext, ParsedRecord } from "./types";

/** Monotonic seconds of a record (`fields.uptime`, short-monotonic and dmesg), NaN when none. */
export function uptimeOf(r: ParsedRecord): number {
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

/**
 * Per-file state of the line loop: turns each line's `LineResult` into counts, records, banners
 * and continuations. The paste layer (prefix stripping, glued records, mixed formats, hard wraps)
 * lives in `pasteLine` / `refused`, so files without any of it pay one branch per line.
 */
export class LineReader {
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
  /** the other registered formats, for the lines of a mixed paste (other-formats.ts) */
  readonly others = new OtherFormats(this);
  /** the line being read carried no prefix although the file's lines do */
  private unprefixed = false;
  /** the record whose hard-wrapped line is being joined, and that line so far (null: not read again) */
  private wrapRec = -1;
  private wrapText: string | null = null;
  /** paste furniture (banners and the blocks they open), asked about refused lines only */
  private readonly furniture = new Furniture();
  /** what a furniture line said all entries below it share (`PrefixLayer.shared`) */
  private shared: PrefixFacts | null = null;
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
    const other = this.others.otherCurrent ? this.others.lastOther : null;
    if (other !== null && other.parser !== null && res !== null && res.type === "continuation") {
      const mine = other.parser.parseLine(line, lineNo);
      if (mine !== null) return this.others.takeOther(other, mine, lineNo, raw, truncated, facts);
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
        if (this.shared !== null) facts = facts === null ? this.shared : { ...this.shared, ...facts };
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
        this.others.otherCurrent = false;
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
      this.noteShared(line);
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
   * `raw` as the first piece of a record a terminal hard-wrapped that its format reads only whole
   * (wrap-head.ts): the record read from the joined pieces is taken on this line, and the pieces
   * below continue it as wrapped tails (`wrapJoined`). False when it is none.
   */
  private wrapHeadTaken(line: string, raw: string, lineNo: number, truncated: number): boolean {
    if (this.deferred || truncated || line !== raw) return false;
    if (this.wrapWidth < 0) this.wrapWidth = detectWrapWidth(this.lines);
    const reads = (t: string) => this.spec.createParser(this.ctx).parseLine(t, lineNo)?.type === "record";
    const joined = wrappedHead(this.lines, lineNo - 1, this.wrapWidth, reads);
    if (joined === null) return false;
    return this.take(this.parser.parseLine(joined, lineNo), lineNo, raw, 0, null, false);
  }

  /** Keep the facts a furniture line states for every entry below it (a layer's `shared` line). */
  private noteShared(line: string): void {
    for (const layer of this.plan?.layers ?? []) {
      const m = layer.shared?.re.exec(line);
      if (!m) continue;
      const out: PrefixFacts = {};
      layer.shared!.facts(m, out);
      this.shared = out;
    }
  }

  /**
   * A line the file's format refused: another registered format (mixed pastes), a paste banner,
   * a piece a terminal wrapped (or a line without the file's prefix) continuing the record before
   * it, else skipped.
   */
  refused(line: string, raw: string, lineNo: number, truncated: number, facts: PrefixFacts | null): void {
    if (this.wrapJoined(raw, lineNo, truncated)) return;
    if (this.wrapHeadTaken(line, raw, lineNo, truncated)) return;
    if (this.furniture.continues(raw, lineNo - 1)) {
      this.take({ type: "banner", banner: { type: "header" } }, lineNo, raw, truncated, null, false);
      return;
    }
    if (!this.deferred && this.others.tryOthers(line, raw, lineNo, truncated, facts)) return;
    if (
      (!this.pasteBannersFirst && this.furniture.test(raw, lineNo - 1)) ||
      (line !== raw && isPasteBanner(line)) ||
      isProseLabel(raw) ||
      this.isProseBanner(line, lineNo)
    ) {
      this.noteShared(raw);
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

  /** Call `finish` of the other formats' parsers used. */
  finishOthers(): void {
    this.others.finishOthers();
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
}
