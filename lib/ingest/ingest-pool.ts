/**
 * Threads for the CPU-heavy ingest steps (ingest-tasks.ts): parsing files in parallel and
 * preparing nodes while the database copies the previous one. `BOOTLINE_INGEST_THREADS` sets
 * how many (default: the machine's available parallelism, at most 4); `0` runs every task inline on the calling thread, which is also
 * the fallback when no worker starts (for example when `lib/ingest/ingest-worker.mjs` is not
 * beside the running code, or cannot load the tasks; tests point `BOOTLINE_INGEST_WORKER_ENTRY`
 * at a broken entry to check that). Workers are unreferenced while idle; once every bundle has
 * ended (`bundleStarted`, `forgetEverywhere`) and none has started for `IDLE_END_MS`, they are
 * ended, so their heaps go back to the system, and the next bundle starts new ones (about 0.25 s).
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { TASKS, type TaskName } from "./ingest-tasks";
import { RowSender, type RowReceiver } from "./row-stream";

type Task<N extends TaskName> = (typeof TASKS)[N];

/** One thread (or the calling thread) that runs tasks one at a time, in call order. */
export interface Executor {
  /**
   * `transfer`: ArrayBuffers of `arg` moved to the thread, not copied (the caller loses them).
   * `onProgress`: called while the task runs with the bytes it read since the last call (tasks
   * that take a progress callback: ingest-tasks.ts `unpackTask`), a few times a second at most.
   * `rows`: where the task's row chunks go as it sends them (tasks that take a `RowSender`:
   * node-task.ts `nodeRows`; row-stream.ts); the caller ends or fails it when the task settles.
   */
  call<N extends TaskName>(
    method: N,
    arg: Parameters<Task<N>>[0],
    transfer?: ArrayBuffer[],
    onProgress?: (bytes: number) => void,
    rows?: RowReceiver,
  ): Promise<Awaited<ReturnType<Task<N>>>>;
}

type AnyTask = (a: unknown, p?: (bytes: number) => void, rows?: RowSender) => never;

const inline: Executor = {
  call: (method, arg, _transfer, onProgress, rows) =>
    Promise.resolve().then(() => {
      // the receiver's acks and cancel reach this sender directly (row-stream.ts)
      let sender: RowSender | undefined;
      if (rows) {
        sender = new RowSender((chunk, events) => rows.push(chunk, events));
        rows.bind(
          (bytes) => sender!.ack(bytes),
          () => sender!.cancel(),
        );
      }
      return (TASKS[method] as AnyTask)(arg, onProgress, sender);
    }),
};

/** An error thrown by a task on a thread, as ingest-worker.mjs sends it. */
interface ThreadError {
  message: string;
  name?: string;
  code?: string;
  stack?: string;
}

/** The thread's error rebuilt here: same message, name, code and (for the log) stack. */
function threadError(t: ThreadError | string): Error {
  if (typeof t === "string") return new Error(t);
  const e = new Error(t.message) as Error & { code?: string };
  if (t.name) e.name = t.name;
  if (t.code) e.code = t.code;
  if (t.stack) e.stack = t.stack;
  return e;
}

class ThreadExecutor implements Executor {
  private pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void; onProgress?: (bytes: number) => void; rows?: RowReceiver }>();
  private next = 1;
  dead: Error | null = null;
  /** settles when the thread has loaded the tasks (or failed to) */
  readonly ready: Promise<void>;
  constructor(private readonly w: Worker) {
    w.unref();
    let started!: () => void;
    let failed!: (e: Error) => void;
    this.ready = new Promise<void>((res, rej) => ((started = res), (failed = rej)));
    this.ready.catch(() => {});
    w.on("message", (m: { id?: number; ready?: boolean; result?: never; error?: ThreadError; progress?: number; chunk?: Uint8Array; events?: number }) => {
      if (m.ready) return started();
      const p = this.pending.get(m.id!);
      if (!p) return;
      if (m.progress !== undefined) return p.onProgress?.(m.progress);
      if (m.chunk !== undefined) return p.rows?.push(m.chunk, m.events ?? 0);
      this.pending.delete(m.id!);
      if (!this.pending.size) w.unref();
      if (m.error !== undefined) p.reject(threadError(m.error));
      else p.resolve(m.result as never);
    });
    const fail = (e: Error) => {
      this.dead = e;
      failed(e);
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    w.on("error", fail);
    w.on("exit", (code) => fail(new Error(`ingest worker exited (code ${code})`)));
  }
  /** a task is running on it */
  get busy(): boolean {
    return this.pending.size > 0;
  }
  /** Ends the thread (idle, holding nothing: see `IDLE_END_MS`). */
  end(): void {
    this.dead = new Error("ingest worker ended while idle");
    void this.w.terminate();
  }
  call<N extends TaskName>(
    method: N,
    arg: Parameters<Task<N>>[0],
    transfer: ArrayBuffer[] = [],
    onProgress?: (bytes: number) => void,
    rows?: RowReceiver,
  ): Promise<Awaited<ReturnType<Task<N>>>> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    this.w.ref();
    idle.touch();
    rows?.bind(
      (bytes) => this.w.postMessage({ ack: id, bytes }),
      () => this.w.postMessage({ cancel: id }),
    );
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: never) => void, reject, onProgress, rows });
      this.w.postMessage({ id, method, arg, rows: !!rows }, transfer);
    });
  }
}

/**
 * Young generation of each thread, MB (larger than V8's default): a node's rows, detector input
 * and per-line garbage then mostly die before a scavenge, which trades some peak RSS for less
 * copying (docs/scaling.md).
 */
const YOUNG_GENERATION_MB = 192;

const g = globalThis as unknown as { __bootlineIngestPool?: ThreadExecutor[]; __bootlineIngestStarting?: Promise<Executor[]> };

/**
 * How long the threads sit idle, holding nothing, once the last bundle ended, before they are
 * ended, ms. A thread's heap keeps the pages it grew to for the largest node it formatted (the
 * bench's 450 MiB log: several hundred MB per thread), which only ending it gives back.
 */
export const IDLE_END_MS = 5_000;

/** Bundles between `bundleStarted` and their `forgetEverywhere`, and the idle end's timer. */
const idle = {
  running: 0,
  timer: null as NodeJS.Timeout | null,
  /** a task was sent or threads asked for: no idle end before the next `schedule` */
  touch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  },
  schedule(): void {
    this.touch();
    if (this.running > 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const pool = g.__bootlineIngestPool ?? [];
      if (this.running > 0 || g.__bootlineIngestStarting || pool.some((x) => x.busy)) return;
      g.__bootlineIngestPool = [];
      for (const x of pool) x.end();
    }, IDLE_END_MS);
    this.timer.unref();
  },
};

/** A bundle starts using the threads (pipeline.ts); its `forgetEverywhere` ends that use. */
export function bundleStarted(): void {
  idle.running++;
  idle.touch();
}

/** Number of threads the pool uses (`BOOTLINE_INGEST_THREADS`, see the module comment). */
export function poolSize(): number {
  const env = process.env.BOOTLINE_INGEST_THREADS;
  if (env !== undefined && env !== "" && Number.isFinite(Number(env))) return Math.max(0, Math.floor(Number(env)));
  return Math.min(4, os.availableParallelism?.() ?? os.cpus().length);
}

/**
 * The executors to spread tasks over: worker threads that started (each has loaded the tasks),
 * or `[inline]` when none can (the reason is logged once). Calls made while threads are starting
 * share that start (the ingest worker warms the pool when it starts, and a bundle may ask at once).
 */
export function ingestExecutors(): Promise<Executor[]> {
  idle.touch();
  g.__bootlineIngestStarting ??= startExecutors().finally(() => {
    g.__bootlineIngestStarting = undefined;
  });
  return g.__bootlineIngestStarting;
}

/**
 * The process's node options less its module hooks (`--require`, `--import`, `--loader` and
 * their values: tsx's, when the process runs under it): a thread loads plain JavaScript
 * (ingest-worker.mjs, the bundled tasks) and registers tsx itself only when the bundle cannot be
 * built, so an inherited loader would only put every module it loads through the hooks.
 * Other options (`--cpu-prof`, heap limits) are kept.
 */
export function threadExecArgv(argv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (/^--(require|import|loader|experimental-loader)$/.test(a) || a === "-r") i++;
    else if (!/^--(require|import|loader|experimental-loader)=/.test(a)) out.push(a);
  }
  return out;
}

/**
 * A worker thread on `entry` with `threadExecArgv`; when those options include one a thread
 * refuses when given explicitly (a heap limit, `--expose-gc`: ERR_WORKER_INVALID_EXEC_ARGV),
 * with the process's own, inherited as they are.
 */
function newThread(entry: URL): Worker {
  const resourceLimits = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
  try {
    return new Worker(entry, { execArgv: threadExecArgv(), resourceLimits });
  } catch (e) {
    if ((e as { code?: string }).code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw e;
    return new Worker(entry, { resourceLimits });
  }
}

async function startExecutors(): Promise<Executor[]> {
  const n = poolSize();
  if (n === 0) return [inline];
  const entry = process.env.BOOTLINE_INGEST_WORKER_ENTRY || path.join(process.cwd(), "lib", "ingest", "ingest-worker.mjs");
  if (!existsSync(entry)) return [inline];
  const live = (g.__bootlineIngestPool ?? []).filter((x) => !x.dead);
  try {
    while (live.length < n) live.push(new ThreadExecutor(newThread(pathToFileURL(entry))));
  } catch (e) {
    warnOnce(e as Error);
  }
  const started = await Promise.allSettled(live.map((x) => x.ready));
  const ok = live.filter((_, i) => started[i].status === "fulfilled");
  const failure = started.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) warnOnce(failure.reason as Error);
  g.__bootlineIngestPool = ok;
  return ok.length ? ok.slice(0, n) : [inline];
}

/**
 * Lets every thread (and the calling thread) drop what it holds for bundle `token`: held and
 * prepared events, spill bookkeeping (ingest-tasks.ts `forgetBundle`). Called when a bundle ends
 * however it ends, so nothing a bundle left on a thread can reach the next one. Never throws (a
 * thread that died holds nothing).
 */
export async function forgetEverywhere(token: string): Promise<void> {
  const threads: Executor[] = [...(g.__bootlineIngestPool ?? []).filter((x) => !x.dead), inline];
  await Promise.all(threads.map((ex) => ex.call("forgetBundle", token).catch(() => {})));
  idle.running = Math.max(0, idle.running - 1);
  idle.schedule();
}

/** What every live thread (and the calling thread) holds (ingest-tasks.ts `heldState`). */
export async function heldStates(): Promise<Array<ReturnType<(typeof TASKS)["heldState"]>>> {
  const threads: Executor[] = [...(g.__bootlineIngestPool ?? []).filter((x) => !x.dead), inline];
  return Promise.all(threads.map((ex) => ex.call("heldState", undefined)));
}

let warned = false;
function warnOnce(e: Error): void {
  if (warned) return;
  warned = true;
  console.warn(`bootline: ingest worker threads unavailable, parsing on the main thread instead: ${e.message}`);
}
