/**
 * Line-fed scanner of a stream of JSON objects, for whole-document export formats (Google Cloud
 * Logging entries, CloudWatch `events`): one object per line, a JSON array (pretty-printed or
 * not), or pretty-printed objects separated by `},` with the array's brackets missing. Tracks
 * brace depth and strings across lines; between top-level objects only `[`, `]`, `,` and blanks
 * may appear. Each completed top-level object is kept with its first and last line.
 */

/** A top-level object's text and where it lies (1-based lines). */
export interface JsonChunk {
  text: string;
  line: number;
  endLine: number;
  /** the physical line of each line of `text` (blank lines are never fed, so they are not all consecutive) */
  lines: number[];
}

export class JsonObjectStream {
  private depth = 0;
  private inString = false;
  private escape = false;
  private startLine = 0;
  private buf: string[] = [];
  private bufLines: number[] = [];
  readonly chunks: JsonChunk[] = [];

  /** Whether the scanner is inside a top-level object. */
  get open(): boolean {
    return this.depth > 0;
  }

  /**
   * Feed one line. True when the line belongs to the stream (inside an object, or structure
   * between objects); false when a line outside every object holds anything else.
   */
  feed(line: string, lineNo: number): boolean {
    const n = line.length;
    let segStart = this.depth > 0 ? 0 : -1;
    let touched = this.depth > 0;
    for (let i = 0; i < n; i++) {
      const c = line.charCodeAt(i);
      if (this.depth === 0) {
        if (c === 123) {
          this.depth = 1;
          touched = true;
          this.startLine = lineNo;
          this.buf = [];
          this.bufLines = [];
          segStart = i;
          continue;
        }
        if (c === 32 || c === 9 || c === 44 || c === 91 || c === 93 || c === 13) continue;
        return touched; // text after an object on its last line is ignored; a line of other text is not the stream's
      }
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === 92) this.escape = true;
        else if (c === 34) this.inString = false;
        continue;
      }
      if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) this.depth++;
      else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === 0) {
          this.buf.push(line.slice(segStart, i + 1));
          this.bufLines.push(lineNo);
          this.chunks.push({ text: this.buf.join("\n"), line: this.startLine, endLine: lineNo, lines: this.bufLines });
          this.buf = [];
          this.bufLines = [];
          segStart = -1;
        }
      }
    }
    if (this.depth > 0 && segStart >= 0) {
      this.buf.push(line.slice(segStart));
      this.bufLines.push(lineNo);
    }
    return true;
  }

  /** The object left open at the end of the input (a cut file), closed as far as it can be. */
  flush(lastLine: number): void {
    if (this.depth <= 0 || this.buf.length === 0) return;
    let text = this.buf.join("\n");
    if (this.inString) text += '"';
    text += "}".repeat(this.depth);
    this.chunks.push({ text, line: this.startLine, endLine: lastLine, lines: this.bufLines });
    this.depth = 0;
    this.inString = false;
    this.buf = [];
    this.bufLines = [];
  }
}

/** JSON.parse of an object chunk; null when it is not a JSON object. */
export function parseObject(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
