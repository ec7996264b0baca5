/**
 * UTF-16 text files, turned into UTF-8 as they are unpacked. Windows PowerShell 5.1 writes
 * `Out-File` and `>` redirections (`Get-WinEvent … > events.txt`, `kubectl logs … > kubelet.log`
 * run in PowerShell, `Get-Content C:\k\kubelet.err.log > x`) as UTF-16LE with a byte-order mark;
 * some tools write UTF-16BE. Read as UTF-8 such a file is all NUL bytes, so it would be skipped
 * as binary. A file is UTF-16 when it starts with a BOM (`FF FE` little endian, `FE FF` big
 * endian), or, without one, when its first `SNIFF_BYTES` bytes are ASCII text in 16-bit units
 * (every other byte NUL, the others printable, tab, CR or LF). Everything else passes unchanged.
 */
export type TextEncoding = "utf-16le" | "utf-16be";

/** The writer shape of `unpack-sink.ts` (its `Writer`, ending in a `Stored` whose content says the encoding). */
interface ByteWriter<S> {
  readonly size: number;
  write(c: Buffer): void;
  end(): S;
  abort(): void;
}

/** Bytes looked at to tell UTF-16 without a BOM. */
const SNIFF_BYTES = 256;

function asciiText(b: number): boolean {
  return (b >= 32 && b < 127) || b === 9 || b === 10 || b === 13;
}

/**
 * The UTF-16 encoding `head` starts in, or null (see the module comment). `final`: `head` is the
 * whole file (a short file is judged on what it has, at least 4 bytes without a BOM).
 */
export function sniffUtf16(head: Buffer): TextEncoding | null {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  const n = Math.min(head.length, SNIFF_BYTES) & ~1;
  if (n < 4) return null;
  let le = true;
  let be = true;
  for (let i = 0; i < n && (le || be); i += 2) {
    const a = head[i];
    const b = head[i + 1];
    if (!(asciiText(a) && b === 0)) le = false;
    if (!(a === 0 && asciiText(b))) be = false;
  }
  return le ? "utf-16le" : be ? "utf-16be" : null;
}

/**
 * A writer that turns UTF-16 text into UTF-8 before `inner` sees it, and passes any other bytes
 * through unchanged. It holds the first `SNIFF_BYTES` bytes until it can tell. `size` counts the
 * bytes given to `inner` plus those held; `end()` sets `content.encoding` when it transcoded.
 */
export class Utf16ToUtf8Writer<S extends { content: { encoding: TextEncoding | null } }> implements ByteWriter<S> {
  private held: Buffer[] = [];
  private heldBytes = 0;
  private decided = false;
  private decoder: TextDecoder | null = null;
  private encoding: TextEncoding | null = null;

  constructor(private readonly inner: ByteWriter<S>) {}

  get size(): number {
    return this.inner.size + this.heldBytes;
  }

  write(c: Buffer): void {
    if (this.decided) return this.pass(c);
    this.held.push(c);
    this.heldBytes += c.length;
    if (this.heldBytes >= SNIFF_BYTES) this.decide();
  }

  end(): S {
    if (!this.decided) this.decide();
    if (this.decoder) {
      const rest = this.decoder.decode();
      if (rest) this.inner.write(Buffer.from(rest, "utf8"));
    }
    const s = this.inner.end();
    if (this.encoding) s.content.encoding = this.encoding;
    return s;
  }

  abort(): void {
    this.held = [];
    this.heldBytes = 0;
    this.inner.abort();
  }

  private decide(): void {
    this.decided = true;
    const head = this.held.length === 1 ? this.held[0] : Buffer.concat(this.held);
    this.held = [];
    this.heldBytes = 0;
    this.encoding = sniffUtf16(head);
    // the BOM is dropped by the decoder
    if (this.encoding) this.decoder = new TextDecoder(this.encoding);
    this.pass(head);
  }

  private pass(c: Buffer): void {
    if (!this.decoder) return this.inner.write(c);
    const text = this.decoder.decode(c, { stream: true });
    if (text) this.inner.write(Buffer.from(text, "utf8"));
  }
}
