/**
 * Where unpacked bytes go as they arrive: `MemorySink` (each file a buffer) or `DiskSink` (each
 * file written to a folder and hashed as it comes), each writer learning the file's `Content`
 * on the way (size, head, lines, binary or not, valid UTF-8 or not).
 */
import { isUtf8 } from "node:buffer";
import { createHash } from "node:crypto";
import { closeSync, createReadStream, mkdirSync, openSync, rmSync, writeSync } from "node:fs";
import { join as joinPath } from "node:path";
import { Utf16ToUtf8Writer } from "./text-encoding";

/**
 * Bytes kept from the start of every stream and every stored file, to recognise it: the magic
 * bytes (a tar's sit at offset 257), the NUL check of `noteContent` (8 KiB) and an empty tar
 * (its end-of-archive blocks, 10 KiB as GNU tar writes them).
 */
export const HEAD_BYTES = 16 * 1024;
/** Read size for files on disk, bytes. */
export const READ_CHUNK = 1 << 20;

/** Number of LF bytes in `b`. */
function countLF(b: Buffer): number {
  let n = 0;
  for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) n++;
  return n;
}

/** Bytes at the end of `b` that begin a UTF-8 sequence the next chunk completes (0 when none). */
function incompleteTail(b: Buffer): number {
  for (let i = 1; i <= Math.min(3, b.length); i++) {
    const x = b[b.length - i];
    if ((x & 0xc0) === 0x80) continue;
    const need = x >= 0xf0 ? 4 : x >= 0xe0 ? 3 : x >= 0xc0 ? 2 : 1;
    return need > i ? i : 0;
  }
  return 0;
}

/**
 * What is learnt about a file's content as its chunks pass, for `noteContent` and
 * `cutLineNote`: size, first `HEAD_BYTES`, LF count, last byte, NUL in the first 8 KiB (binary),
 * and, for text, whether it is valid UTF-8 (chunk boundaries inside a sequence allowed for):
 * from the first invalid chunk on, the bytes are decoded with replacement and each U+FFFD counted.
 */
export class Content {
  size = 0;
  newlines = 0;
  last = -1;
  binary = false;
  /** invalid UTF-8 sequences (U+FFFD in the decoded text from the first invalid chunk on) */
  bad = 0;
  /** the UTF-16 encoding the file was written in, when it was turned into UTF-8 (text-encoding.ts) */
  encoding: "utf-16le" | "utf-16be" | null = null;
  /** 1-based line of the first, 0 when none */
  firstBadLine = 0;
  private headParts: Buffer[] = [];
  private headSize = 0;
  private carry: Buffer = Buffer.alloc(0);
  private decoder: TextDecoder | null = null;

  feed(c: Buffer): void {
    if (!c.length) return;
    if (this.headSize < HEAD_BYTES) {
      const part = Buffer.from(c.subarray(0, HEAD_BYTES - this.headSize));
      this.headParts.push(part);
      this.headSize += part.length;
    }
    if (this.size < 8192 && c.subarray(0, 8192 - this.size).includes(0)) this.binary = true;
    const before = this.newlines;
    this.size += c.length;
    this.newlines += countLF(c);
    this.last = c[c.length - 1];
    if (this.binary) return;
    if (this.decoder) return this.countBad(this.decoder.decode(c, { stream: true }), before);
    const buf = this.carry.length ? Buffer.concat([this.carry, c]) : c;
    const tail = incompleteTail(buf);
    if (isUtf8(buf.subarray(0, buf.length - tail))) {
      this.carry = tail ? Buffer.from(buf.subarray(buf.length - tail)) : Buffer.alloc(0);
      return;
    }
    this.decoder = new TextDecoder("utf-8", { fatal: false });
    this.countBad(this.decoder.decode(buf, { stream: true }), before);
  }

  /** Call once after the last chunk. */
  end(): void {
    if (this.binary) return;
    if (this.decoder) this.countBad(this.decoder.decode(), this.newlines);
    else if (this.carry.length) {
      // a sequence cut by the end of the file
      this.bad++;
      this.firstBadLine ||= this.newlines + 1;
    }
  }

  head(): Buffer {
    if (this.headParts.length > 1) this.headParts = [Buffer.concat(this.headParts)];
    return this.headParts[0] ?? Buffer.alloc(0);
  }

  private countBad(text: string, linesBefore: number): void {
    let i = text.indexOf("\uFFFD");
    if (i === -1) return;
    if (!this.firstBadLine) {
      let line = linesBefore + 1;
      for (let j = text.indexOf("\n"); j !== -1 && j < i; j = text.indexOf("\n", j + 1)) line++;
      this.firstBadLine = line;
    }
    for (; i !== -1; i = text.indexOf("\uFFFD", i + 1)) this.bad++;
  }
}

/** A file's bytes once written: in memory (`data`) or on disk (`dataPath`), with what `Content` learnt. */
export interface Stored {
  data?: Buffer;
  dataPath?: string;
  size: number;
  sha256?: string;
  head: Buffer;
  content: Content;
}

/** Takes one file's bytes chunk by chunk (synchronously: nothing waits in memory for a slow disk). */
export interface Writer {
  readonly size: number;
  write(c: Buffer): void;
  end(): Stored;
  /** drops what was written */
  abort(): void;
}

/** Where unpacked files go: memory (`unpackUpload`) or one file each in a folder (`unpackUploadFile`). */
export interface Sink {
  open(): Writer;
  chunks(s: Stored): AsyncIterable<Buffer>;
  drop(s: Stored): void;
}

export class MemorySink implements Sink {
  open(): Writer {
    return new Utf16ToUtf8Writer(this.openRaw());
  }
  private openRaw(): Writer {
    const parts: Buffer[] = [];
    const c = new Content();
    return {
      get size() {
        return c.size;
      },
      write(b) {
        c.feed(b);
        parts.push(b);
      },
      end() {
        c.end();
        // a copy: the parts may be views of a larger buffer (the tar parser's input)
        const data = Buffer.concat(parts, c.size);
        parts.length = 0;
        return { data, size: c.size, head: c.head(), content: c };
      },
      abort() {
        parts.length = 0;
      },
    };
  }
  async *chunks(s: Stored): AsyncIterable<Buffer> {
    if (s.data?.length) yield s.data;
  }
  drop(): void {}
}

export class DiskSink implements Sink {
  private n = 0;
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }
  open(): Writer {
    return new Utf16ToUtf8Writer(this.openRaw());
  }
  private openRaw(): Writer {
    const p = joinPath(this.dir, String(this.n++));
    const fd = openSync(p, "w");
    const hash = createHash("sha256");
    const c = new Content();
    let open = true;
    const close = () => {
      if (open) closeSync(fd);
      open = false;
    };
    return {
      get size() {
        return c.size;
      },
      write(b) {
        c.feed(b);
        hash.update(b);
        for (let o = 0; o < b.length; ) o += writeSync(fd, b, o, b.length - o);
      },
      end() {
        close();
        c.end();
        return { dataPath: p, size: c.size, sha256: hash.digest("hex"), head: c.head(), content: c };
      },
      abort() {
        close();
        rmSync(p, { force: true });
      },
    };
  }
  async *chunks(s: Stored): AsyncIterable<Buffer> {
    if (s.dataPath) yield* createReadStream(s.dataPath, { highWaterMark: READ_CHUNK }) as AsyncIterable<Buffer>;
  }
  drop(s: Stored): void {
    if (s.dataPath) rmSync(s.dataPath, { force: true });
  }
}
