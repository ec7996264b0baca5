/**
 * A node's `Event` rows on their way from the thread that formats them (node-task.ts
 * `nodeRows`) to the COPY on the main thread, in bounded batches: the thread sends each chunk of
 * rows (about 4 MiB of COPY text) as soon as it is full and stops formatting while more than
 * `ROWS_IN_FLIGHT` bytes it sent are not taken by the COPY yet; the COPY takes a chunk once it
 * has written the one before into its stream (so the socket's backpressure reaches the thread).
 * Neither side ever holds a node's rows whole, whatever the node's size.
 *
 * - `RowSender` (the formatting side): `send(chunk, events)` returns null while the thread may go
 *   on, else a promise that settles once the COPY has taken enough; it rejects once the COPY has
 *   given up (`cancel`), so the task ends.
 * - `RowReceiver` (the COPY side): the chunks as an async iterable, in order; `end()` once the
 *   task has returned, `fail(e)` when it failed (the iteration then throws `e`); `cancel()` when
 *   the rows will not be copied (the store failed): the sender's wait rejects, later chunks are
 *   dropped.
 * - `inlineRowPair()`: both ends on one thread (the inline executor, tests).
 *
 * Between threads (ingest-pool.ts, ingest-worker.mjs) the messages are `{ id, chunk, events }`
 * from the thread (the chunk's ArrayBuffer transferred), `{ ack: id, bytes }` and
 * `{ cancel: id }` to it.
 */

/**
 * Bytes of rows per node sent by a thread and not yet taken by the COPY, at most (about 8 chunks).
 * A node of the bench's storm (about 18 MB of rows) fits whole, so a thread formats it while the
 * COPY of the node before runs, as when the rows went all at once; a larger node waits for its COPY.
 */
export const ROWS_IN_FLIGHT = 32 << 20;

/** The error a sender's wait rejects with once the COPY has given up on the rows. */
export class RowsCancelled extends Error {
  constructor() {
    super("the rows' COPY was given up");
    this.name = "RowsCancelled";
  }
}

/** The formatting side (see the module comment). `post` hands one chunk on; `events`: rows in it. */
export class RowSender {
  private unacked = 0;
  private waiting: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private cancelled = false;
  constructor(
    private readonly post: (chunk: Uint8Array, events: number) => void,
    private readonly window = ROWS_IN_FLIGHT,
  ) {}

  /** Sends a chunk; null: go on; a promise: wait for it before the next `send`. Throws once cancelled. */
  send(chunk: Uint8Array, events: number): Promise<void> | null {
    if (this.cancelled) throw new RowsCancelled();
    this.unacked += chunk.byteLength;
    this.post(chunk, events);
    if (this.unacked <= this.window) return null;
    return new Promise<void>((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  /** The COPY took `bytes` of the chunks sent. */
  ack(bytes: number): void {
    this.unacked -= bytes;
    if (this.waiting && this.unacked <= this.window) {
      const w = this.waiting;
      this.waiting = null;
      w.resolve();
    }
  }

  /** The COPY gave up: the wait (now or at the next `send`) rejects with `RowsCancelled`. */
  cancel(): void {
    this.cancelled = true;
    const w = this.waiting;
    this.waiting = null;
    w?.reject(new RowsCancelled());
  }
}

/**
 * The COPY side (see the module comment). The executor that runs the task `bind`s how acks and a
 * cancel reach its sender (a message to the thread, or a call on the same thread).
 */
export class RowReceiver implements AsyncIterable<Uint8Array> {
  private ack: (bytes: number) => void = () => {};
  private cancelSender: () => void = () => {};
  private queue: Array<{ chunk: Uint8Array; events: number }> = [];
  private wake: (() => void) | null = null;
  private ended = false;
  private error: unknown = null;
  private cancelled = false;
  /** rows and bytes taken by the COPY so far */
  taken = { events: 0, bytes: 0 };
  /** called after each chunk taken (for progress) */
  onTake: () => void = () => {};

  bind(ack: (bytes: number) => void, cancelSender: () => void): void {
    this.ack = ack;
    this.cancelSender = cancelSender;
    if (this.cancelled) cancelSender();
  }

  push(chunk: Uint8Array, events: number): void {
    if (this.cancelled || this.ended) return;
    this.queue.push({ chunk, events });
    this.signal();
  }
  end(): void {
    this.ended = true;
    this.signal();
  }
  fail(e: unknown): void {
    this.error ??= e;
    this.ended = true;
    this.signal();
  }
  /** The rows will not be copied: drops what is queued and stops the sender. Safe to call twice. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.queue = [];
    this.cancelSender();
    this.signal();
  }

  private signal(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    let last = 0;
    let finished = false;
    try {
      for (;;) {
        // the chunk before was written into the COPY: the sender may fill its place
        if (last) this.ack(last);
        last = 0;
        while (!this.queue.length && !this.ended && !this.cancelled) await new Promise<void>((r) => (this.wake = r));
        if (this.cancelled) throw new RowsCancelled();
        const next = this.queue.shift();
        if (!next) {
          if (this.error !== null) throw this.error;
          finished = true;
          return;
        }
        this.taken.events += next.events;
        this.taken.bytes += next.chunk.byteLength;
        last = next.chunk.byteLength;
        yield next.chunk;
        this.onTake();
      }
    } finally {
      // the COPY stopped before the last chunk (it failed): the sender must not wait forever
      if (!finished) this.cancel();
    }
  }
}

/** A sender and a receiver on the same thread (the inline executor). */
export function inlineRowPair(window = ROWS_IN_FLIGHT): { sender: RowSender; receiver: RowReceiver } {
  const receiver = new RowReceiver();
  const sender = new RowSender((chunk, events) => receiver.push(chunk, events), window);
  receiver.bind(
    (bytes) => sender.ack(bytes),
    () => sender.cancel(),
  );
  return { sender, receiver };
}

/**
 * Bytes per chunk of rows. Rows are written straight into these (off the V8 heap), so formatting
 * a node leaves no long-lived strings for the young-generation GC to copy: holding a chunk's rows
 * as one growing string made scavenges the largest cost of a node's store step.
 */
export const CHUNK_BYTES = 4 << 20;

/**
 * Chunk buffers (ArrayBuffers of `CHUNK_BYTES`) whose rows the database has copied, handed back by
 * the caller (`recycleRows`) for the next node's rows: memory this thread has written before.
 * Fresh memory costs a page fault per 4 KiB page at its first write (docs/scaling.md); reused
 * chunks have their pages already. At most `SPARE_CHUNKS` are kept.
 */
const spareChunks: ArrayBuffer[] = [];
export const SPARE_CHUNKS = 8;

function newChunk(): Buffer {
  const ab = spareChunks.pop();
  return ab ? Buffer.from(ab) : Buffer.allocUnsafeSlow(CHUNK_BYTES);
}

/**
 * Takes back chunks of rows once they are copied (the caller must not touch them after: they are
 * written again). Chunks of another size are dropped.
 */
export function recycleRows(t: { chunks: Uint8Array[] }): void {
  for (const c of t.chunks) {
    if (spareChunks.length >= SPARE_CHUNKS) return;
    if (c.buffer instanceof ArrayBuffer && c.buffer.byteLength === CHUNK_BYTES && !spareChunks.includes(c.buffer)) spareChunks.push(c.buffer);
  }
}

/** Drops the spare chunks (nothing left to format on this thread). */
export function releaseSpareChunks(): void {
  spareChunks.length = 0;
}

/**
 * UTF-8 COPY rows in transferable chunks of `CHUNK_BYTES` (a row longer than that gets a chunk
 * of its own). `add(row)` takes one row's text, LF included. With a `sender`, each full chunk is
 * sent at once (`chunks` stays empty) and `add` returns the sender's wait, if any: await it
 * before the next `add`.
 */
export class RowChunks {
  readonly chunks: Uint8Array[] = [];
  private buf = newChunk();
  private at = 0;
  private events = 0;
  constructor(private readonly sender?: RowSender) {}
  add(row: string): Promise<void> | null {
    let wait: Promise<void> | null = null;
    // UTF-8 takes at most 3 bytes per UTF-16 unit
    if (this.at + row.length * 3 > this.buf.length) {
      wait = this.flush(true);
      if (row.length * 3 > this.buf.length) this.buf = Buffer.allocUnsafeSlow(row.length * 3);
    }
    this.at += this.buf.write(row, this.at);
    this.events++;
    return wait;
  }
  /** The chunks kept (each a view of an ArrayBuffer of its own; none with a sender); call once, after the last `add`. */
  async done(): Promise<Uint8Array[]> {
    const wait = this.flush(false);
    if (wait) await wait;
    return this.chunks;
  }
  private flush(more: boolean): Promise<void> | null {
    if (!this.at) return null;
    const chunk = this.buf.subarray(0, this.at);
    const events = this.events;
    this.buf = more ? newChunk() : Buffer.alloc(0);
    this.at = 0;
    this.events = 0;
    if (!this.sender) {
      this.chunks.push(chunk);
      return null;
    }
    return this.sender.send(chunk, events);
  }
}
