/**
 * The files an ingest thread keeps on disk (spilled events, SourceBlock rows: held-parts.ts, parse-task.ts),
 * written and read in bounded pieces: no string or buffer the size of a file is ever built.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { AnalysedEvent } from "../model/event";
import { encodeEvent } from "./spill";

/**
 * Bytes written or read per step of the files a thread keeps on disk (spilled events, SourceBlock
 * rows): no string or buffer the size of a file is ever built, whatever the file's size.
 */
export const IO_CHUNK = 4 << 20;

/**
 * Writes text to `p` in pieces of about `IO_CHUNK` (`add` per piece of text, `end` once); on any
 * error the partial file is removed and the error thrown.
 */
export class ChunkedWriter {
  private fd: number;
  private parts: string[] = [];
  private size = 0;
  constructor(private readonly p: string) {
    this.fd = openSync(p, "w");
  }
  add(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= IO_CHUNK) this.flush();
  }
  end(): void {
    try {
      this.flush();
    } finally {
      this.close();
    }
  }
  /** Gives up: closes and removes the file (after an error). */
  abort(): void {
    this.close();
    rmSync(this.p, { force: true });
  }
  private close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }
  private flush(): void {
    if (!this.parts.length) return;
    const buf = Buffer.from(this.parts.join(""), "utf8");
    this.parts = [];
    this.size = 0;
    for (let at = 0; at < buf.length; ) at += writeSync(this.fd, buf, at, buf.length - at);
  }
}

/** Writes `count` pieces of text (`piece(i)`) to `p` in bounded chunks (`ChunkedWriter`). */
export function writeChunked(p: string, count: number, piece: (i: number) => string): void {
  const w = new ChunkedWriter(p);
  try {
    for (let i = 0; i < count; i++) w.add(piece(i));
  } catch (e) {
    w.abort();
    throw e;
  }
  w.end();
}

/**
 * The lines of a UTF-8 text file (LF-terminated; a last line without LF is given too), read in
 * pieces of `IO_CHUNK` bytes: memory holds one piece and the line it cuts, not the file.
 */
export function* fileLines(p: string): Generator<string> {
  const fd = openSync(p, "r");
  try {
    const buf = Buffer.allocUnsafe(IO_CHUNK);
    const dec = new StringDecoder("utf8");
    let carry = "";
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      const text = carry + (n > 0 ? dec.write(buf.subarray(0, n)) : dec.end());
      let start = 0;
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", start)) {
        yield text.slice(start, nl);
        start = nl + 1;
      }
      carry = text.slice(start);
      if (n <= 0) break;
    }
    if (carry) yield carry;
  } finally {
    closeSync(fd);
  }
}

/**
 * One large file's events written to spill files as the file is parsed (analyse-bundle.ts
 * `FileContext.eventBatches`): one file per node the events fall on (the record's node, else the
 * file's, else the archive folder's `folderNode`), in file order, so the thread never holds the
 * file's events whole. `parts` once `end`ed; `skew`: the few events a clock-offset estimate reads
 * (clock-skew.ts `skewInputOf`: sandbox creation failures, FailedCreatePodSandBox events).
 */
export class StreamedParts {
  readonly parts: Array<{ node: string | null; path: string; events: number }> = [];
  readonly skew: AnalysedEvent[] = [];
  private writers = new Map<string | null, { w: ChunkedWriter; part: { node: string | null; path: string; events: number } }>();
  constructor(
    private readonly dir: string,
    private readonly ord: number,
    private readonly folderNode: string | null,
  ) {}
  take = (events: AnalysedEvent[], fileNode: string | null): void => {
    for (const e of events) {
      const node = e.node ?? fileNode ?? this.folderNode;
      let out = this.writers.get(node);
      if (!out) {
        const part = { node, path: path.join(this.dir, `${this.ord}-${randomUUID()}.ev`), events: 0 };
        out = { w: new ChunkedWriter(part.path), part };
        this.writers.set(node, out);
        this.parts.push(part);
      }
      out.w.add(encodeEvent(e));
      out.part.events++;
      const k8s = e.fields?.k8s as { reason?: string } | undefined;
      if (e.pod && e.ts !== null && (e.kind === "sandbox.create.failed" || k8s?.reason === "FailedCreatePodSandBox")) this.skew.push(e);
    }
  };
  /** Every event taken: the files are complete. */
  end(): void {
    for (const { w } of this.writers.values()) w.end();
    this.writers.clear();
  }
  /** The parse failed: the files written so far go. */
  abort(): void {
    for (const { w } of this.writers.values()) w.abort();
    this.writers.clear();
    for (const p of this.parts) rmSync(p.path, { force: true });
  }
}
