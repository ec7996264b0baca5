/**
 * The other formats of a mixed paste (`OtherFormats`): a line the file's own format refused is
 * tried on the other registered formats, their parsers made once per file, the last one that
 * read a line tried first; records they read are taken by the file's line reader
 * (line-reader.ts `LineReader.take`). Pure.
 */
import type { Entries } from "./file-entries";
import type { PrefixFacts } from "./line-prefix";
import { FORMAT_REGISTRY } from "./registry";
import type { FormatSpec, LineParser, LineResult, ParseContext } from "./types";

/** Refused lines tried on the other formats before the per-file fallback gives up (when none took any). */
const FALLBACK_TRIES = 200;

/** One other format and its parser (made when it first sniffs a line). */
export interface OtherFormat {
  spec: FormatSpec;
  parser: LineParser | null;
}

/** What `OtherFormats` needs of the file's line reader (line-reader.ts `LineReader`). */
export interface OtherFormatsReader {
  readonly path: string;
  readonly spec: FormatSpec;
  readonly ctx: ParseContext & { path: string };
  readonly entries: Entries;
  readonly info: { otherFormats: string[] };
  /** index of the record continuation lines belong to (-1: none) */
  readonly current: number;
  take(res: LineResult, lineNo: number, raw: string, truncated: number, facts: PrefixFacts | null, glued: boolean): boolean;
}

/** Per-file state of the fallback to the other registered formats (see the module comment). */
export class OtherFormats {
  private others: OtherFormat[] | null = null;
  lastOther: OtherFormat | null = null;
  private otherTries = 0;
  /** the current record was read by `lastOther`, not by the file's format */
  otherCurrent = false;
  private otherHits = 0;

  constructor(private readonly reader: OtherFormatsReader) {}

  /** Try the other registered formats on a refused line (parsers cached per file). */
  tryOthers(line: string, raw: string, lineNo: number, truncated: number, facts: PrefixFacts | null): boolean {
    if (this.otherHits === 0 && this.otherTries >= FALLBACK_TRIES) return false;
    this.otherTries++;
    if (this.others === null) this.others = FORMAT_REGISTRY.filter((s) => s !== this.reader.spec).map((spec) => ({ spec, parser: null }));
    const last = this.lastOther;
    if (last !== null && last.parser !== null) {
      const res = last.parser.parseLine(line, lineNo);
      if (res !== null && (res.type !== "continuation" || this.reader.current >= 0)) return this.takeOther(last, res, lineNo, raw, truncated, facts);
    }
    const one = [line];
    for (const o of this.others) {
      if (o === last || !o.spec.sniff(this.reader.path, one)) continue;
      if (o.parser === null) {
        o.parser = o.spec.createParser(this.reader.ctx);
        if (o.parser.deferred === true) continue;
      } else if (o.parser.deferred === true) continue;
      const res = o.parser.parseLine(line, lineNo);
      if (res === null || res.type === "continuation") continue;
      return this.takeOther(o, res, lineNo, raw, truncated, facts);
    }
    return false;
  }

  /** Take a line another format `o` read (`res`): the reader's `take`, then `o` is the last other format used. */
  takeOther(o: OtherFormat, res: LineResult, lineNo: number, raw: string, truncated: number, facts: PrefixFacts | null): boolean {
    if ((o.parser as LineParser).settled !== true) this.reader.entries.makeLate();
    if (!this.reader.take(res, lineNo, raw, truncated, facts, false)) return false;
    if (res !== null && res.type === "record") this.otherCurrent = true;
    this.otherHits++;
    this.lastOther = o;
    if (!this.reader.info.otherFormats.includes(o.spec.name)) this.reader.info.otherFormats.push(o.spec.name);
    return true;
  }

  /** Call `finish` of the other formats' parsers used. */
  finishOthers(): void {
    if (this.others === null) return;
    for (const o of this.others) if (o.parser !== null && o.parser.deferred !== true) o.parser.finish?.();
  }
}
