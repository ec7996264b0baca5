/**
 * Streams of an upload: a stream's first bytes looked at without losing them (`peek`), and one
 * decompression layer (gzip, xz) inflated as it is read, counted against the upload's budgets
 * as the bytes flow (`inflate`).
 */
import { Readable } from "node:stream";
import { ReadableStream } from "node:stream/web";
import * as zlib from "node:zlib";
import xzDecompress from "xz-decompress";
import { type Ctx, type Flow, overCap } from "./unpack-context";

/** The start of a stream (`head`, at most n bytes; `done` when that was all of it) and the whole stream again (`rest`). */
export interface Peeked {
  head: Buffer;
  done: boolean;
  rest: AsyncIterable<Buffer>;
  /** lets go of the stream when `rest` will not be read */
  close(): Promise<void>;
}

export async function peek(src: AsyncIterable<Buffer>, n: number): Promise<Peeked> {
  const it = src[Symbol.asyncIterator]();
  const first: Buffer[] = [];
  let got = 0;
  let done = false;
  let failure: unknown = null;
  while (got < n) {
    let r: IteratorResult<Buffer>;
    try {
      r = await it.next();
    } catch (e) {
      failure = e;
      done = true;
      break;
    }
    if (r.done) {
      done = true;
      break;
    }
    first.push(r.value);
    got += r.value.length;
  }
  const head = Buffer.alloc(Math.min(n, got));
  for (let o = 0, i = 0; o < head.length; i++) o += first[i].copy(head, o, 0, Math.min(first[i].length, head.length - o));
  let finished = done;
  const close = async () => {
    if (finished) return;
    finished = true;
    await it.return?.();
  };
  const rest = (async function* () {
    try {
      while (first.length) yield first.shift()!;
      if (failure) throw failure;
      while (!finished) {
        const r = await it.next();
        if (r.done) {
          finished = true;
          return;
        }
        yield r.value;
      }
    } finally {
      await close();
    }
  })();
  return { head, done, rest, close };
}

/** An xz stream through `xz-decompress` (xz-embedded compiled to WebAssembly), pulled chunk by chunk. */
export async function* xzChunks(src: AsyncIterable<Buffer>): AsyncGenerator<Uint8Array> {
  const it = src[Symbol.asyncIterator]();
  const input = new ReadableStream<Uint8Array>({
    async pull(c) {
      const r = await it.next();
      if (r.done) c.close();
      else c.enqueue(new Uint8Array(r.value.buffer, r.value.byteOffset, r.value.byteLength));
    },
    async cancel() {
      await it.return?.();
    },
  });
  const reader = new xzDecompress.XzReadableStream(input as unknown as globalThis.ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
    await it.return?.();
  }
}

/**
 * Decompresses `src` as it is read, counting every byte out against the upload's ratio budget
 * (`ctx.inflated`, all layers) and this layer's output against `maxOut` (the total size still
 * allowed): past either it stops (`flow.stop`), so a bomb costs its budget in CPU and a chunk or
 * two of memory. A broken stream ends with what inflated before the break (`flow.error`). Never throws.
 */
export async function* inflate(ctx: Ctx, src: AsyncIterable<Buffer>, flow: Flow, maxOut: number): AsyncGenerator<Buffer> {
  const counted = (async function* () {
    for await (const c of src) {
      flow.inBytes += c.length;
      yield c;
    }
  })();
  let input: Readable | undefined;
  let gunzip: zlib.Gunzip | undefined;
  let out: AsyncIterable<Uint8Array>;
  if (flow.kind === "gzip") {
    input = Readable.from(counted, { objectMode: false });
    gunzip = zlib.createGunzip();
    input.on("error", (e) => gunzip!.destroy(e));
    input.pipe(gunzip);
    out = gunzip;
  } else out = xzChunks(counted);
  try {
    for await (const c of out) {
      const b = Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
      flow.outBytes += b.length;
      ctx.inflated += b.length;
      if (ctx.inflated > ctx.ratioBudget) {
        flow.stop = overCap(ctx, "ratio", flow.inBytes);
        return;
      }
      if (flow.outBytes > maxOut) {
        flow.stop = overCap(ctx, "total", flow.inBytes);
        return;
      }
      yield b;
    }
  } catch (e) {
    const message = (e as Error).message;
    flow.error =
      flow.kind === "gzip"
        ? `gzip stream broken (${message}) after ${flow.inBytes} compressed bytes: kept the first ${flow.outBytes} bytes`
        : `xz stream broken (${message}): kept ${flow.outBytes} bytes`;
  } finally {
    gunzip?.destroy();
    input?.destroy();
  }
}
