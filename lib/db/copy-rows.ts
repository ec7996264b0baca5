/**
 * PostgreSQL COPY text rows (https://www.postgresql.org/docs/current/sql-copy.html, "Text
 * Format") written as UTF-8 bytes straight into transferable buffers, value by value: the
 * ingest's hot path for `Event` rows (lib/ingest/ingest-tasks.ts `nodeRows`).
 *
 * Writing bytes here instead of building each row as a string, escaping it with `copyText` /
 * `copyJson` (lib/db/sql.ts) and encoding it, skips the intermediate strings (the escaped copies,
 * the row, `JSON.stringify`'s output): fewer passes over the text and no per-row garbage for the
 * young-generation GC. The bytes are exactly what those functions give, encoded as UTF-8 the way
 * `Buffer.write` does (a lone surrogate becomes U+FFFD); `JSON.stringify`'s escapes are
 * reproduced for flat objects of strings, anything else goes through `JSON.stringify` itself.
 *
 * Rows are kept whole within a chunk: a chunk holds about `chunkBytes` bytes (default 4 MiB), a
 * longer row gets a chunk of its own.
 */
const BS = 92; // backslash
const QUOTE = 34;
const HEX = "0123456789abcdef";
/** `JSON.stringify` short escapes by code unit (b, t, n, f, r), 0 where it writes `\u00XX` */
const JSON_SHORT = new Uint8Array(32);
JSON_SHORT[8] = 98;
JSON_SHORT[9] = 116;
JSON_SHORT[10] = 110;
JSON_SHORT[12] = 102;
JSON_SHORT[13] = 114;
const NEEDS_ESCAPE = /[\\\t\n\r\0]/;
const CONTROL = /[\t\n\r\0]/;

export class CopyRowWriter {
  readonly chunks: Uint8Array[] = [];
  private buf: Buffer;
  private at = 0;
  /** where the row being written starts in `buf` */
  private rowStart = 0;

  constructor(private readonly chunkBytes = 4 << 20) {
    this.buf = Buffer.allocUnsafeSlow(chunkBytes);
  }

  /** Room for `n` more bytes of the current row: a new chunk (the row so far moved into it) when the current one is full. */
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const partial = this.at - this.rowStart;
    const next = Buffer.allocUnsafeSlow(Math.max(this.chunkBytes, partial + n));
    this.buf.copy(next, 0, this.rowStart, this.at);
    if (this.rowStart) this.chunks.push(this.buf.subarray(0, this.rowStart));
    this.buf = next;
    this.rowStart = 0;
    this.at = partial;
  }

  /** Text known to need no escaping (numbers, ids, ISO times, the tab between columns), ASCII. */
  raw(s: string): this {
    const n = s.length;
    this.room(n);
    const b = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) b[at++] = s.charCodeAt(i);
    this.at = at;
    return this;
  }

  /** Text already in COPY form (escaped elsewhere), any characters. */
  copyForm(s: string): this {
    this.room(s.length * 3);
    this.at += this.buf.write(s, this.at);
    return this;
  }

  /** One byte: a column tab (9) or the row's LF (10, ends the row). */
  byte(c: number): this {
    this.room(1);
    this.buf[this.at++] = c;
    if (c === 10) this.rowStart = this.at;
    return this;
  }

  /** A text value as `copyText` escapes it (`\N` for null). */
  text(s: string | null | undefined): this {
    if (s === null || s === undefined) return this.raw("\\N");
    // text with no control character (nearly all log text): native escaping and UTF-8 write
    // (faster than the loop below, which handles the rest)
    if (!NEEDS_ESCAPE.test(s)) return this.copyForm(s);
    if (!CONTROL.test(s)) return this.copyForm(s.replaceAll("\\", "\\\\"));
    this.room(s.length * 3);
    const b = this.buf;
    let at = this.at;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 128) {
        if (c === BS) {
          b[at++] = BS;
          b[at++] = BS;
        } else if (c === 9) {
          b[at++] = BS;
          b[at++] = 116;
        } else if (c === 10) {
          b[at++] = BS;
          b[at++] = 110;
        } else if (c === 13) {
          b[at++] = BS;
          b[at++] = 114;
        } else if (c !== 0) b[at++] = c;
      } else {
        if (this.utf8(s, i, c, at)) i++;
        at = this.at;
      }
    }
    this.at = at;
    return this;
  }

  /**
   * `copyJson(v)`: `JSON.stringify(v)` as a COPY text value (`\N` for null or undefined). A flat
   * object of strings is written here, escape for escape as `JSON.stringify` would; any other
   * value is stringified and its backslashes doubled.
   */
  json(v: unknown): this {
    if (v === null || v === undefined) return this.raw("\\N");
    if (typeof v !== "object" || Array.isArray(v) || !flatStrings(v as Record<string, unknown>)) {
      const j = JSON.stringify(v);
      return this.copyForm(j.includes("\\") ? j.replaceAll("\\", "\\\\") : j);
    }
    const o = v as Record<string, string>;
    this.byte(123);
    let first = true;
    for (const k in o) {
      if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
      if (!first) this.byte(44);
      first = false;
      this.jsonString(k);
      this.byte(58);
      this.jsonString(o[k]);
    }
    return this.byte(125);
  }

  /** A JSON string literal, COPY-escaped: every backslash JSON writes is doubled. */
  private jsonString(s: string): void {
    // worst case per code unit: `\\u00XX` (7 bytes)
    this.room(s.length * 7 + 2);
    const b = this.buf;
    let at = this.at;
    b[at++] = QUOTE;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 32 && c < 128) {
        if (c === QUOTE || c === BS) {
          b[at++] = BS;
          b[at++] = BS;
          if (c === BS) {
            b[at++] = BS;
            b[at++] = BS;
          } else b[at++] = QUOTE;
        } else b[at++] = c;
      } else if (c < 32) {
        b[at++] = BS;
        b[at++] = BS;
        const short = JSON_SHORT[c];
        if (short) b[at++] = short;
        else {
          b[at++] = 117; // u00XX
          b[at++] = 48;
          b[at++] = 48;
          b[at++] = HEX.charCodeAt(c >> 4);
          b[at++] = HEX.charCodeAt(c & 15);
        }
      } else if (c >= 0xd800 && c <= 0xdfff && !pairedSurrogate(s, i, c)) {
        // JSON.stringify escapes a lone surrogate (well-formed JSON.stringify, ES2019)
        b[at++] = BS;
        b[at++] = BS;
        b[at++] = 117;
        for (let shift = 12; shift >= 0; shift -= 4) b[at++] = HEX.charCodeAt((c >> shift) & 15);
      } else {
        if (this.utf8(s, i, c, at)) i++;
        at = this.at;
      }
    }
    b[at++] = QUOTE;
    this.at = at;
  }

  /**
   * Writes the non-ASCII code unit `c` at `s[i]` as UTF-8 at `at` (a surrogate pair as one code
   * point, a lone surrogate as U+FFFD) and sets `this.at` past it; true when it took `s[i + 1]` too.
   */
  private utf8(s: string, i: number, c: number, at: number): boolean {
    const b = this.buf;
    if (c >= 0xd800 && c <= 0xdfff) {
      if (pairedSurrogate(s, i, c)) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00);
        b[at++] = 0xf0 | (cp >> 18);
        b[at++] = 0x80 | ((cp >> 12) & 63);
        b[at++] = 0x80 | ((cp >> 6) & 63);
        b[at++] = 0x80 | (cp & 63);
        this.at = at;
        return true;
      }
      c = 0xfffd;
    }
    if (c < 0x800) {
      b[at++] = 0xc0 | (c >> 6);
      b[at++] = 0x80 | (c & 63);
    } else {
      b[at++] = 0xe0 | (c >> 12);
      b[at++] = 0x80 | ((c >> 6) & 63);
      b[at++] = 0x80 | (c & 63);
    }
    this.at = at;
    return false;
  }

  /** The chunks (each a view of an ArrayBuffer of its own, transferable); call once, after the last row. */
  done(): Uint8Array[] {
    if (this.at) this.chunks.push(this.buf.subarray(0, this.at));
    return this.chunks;
  }
}

/** True when `s[i]` (code unit `c`) is a high surrogate followed by a low one. */
function pairedSurrogate(s: string, i: number, c: number): boolean {
  if (c > 0xdbff || i + 1 >= s.length) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/** True when every own enumerable value of `o` is a string (and `o` is a plain object JSON.stringify writes as is). */
function flatStrings(o: Record<string, unknown>): boolean {
  if (typeof (o as { toJSON?: unknown }).toJSON === "function") return false;
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k) && typeof o[k] !== "string") return false;
  return true;
}
