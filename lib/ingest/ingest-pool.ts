/**
 * Threads for the CPU-heavy ingest steps (ingest-tasks.ts): parsing files in parallel and
 * preparing nodes while the database copies the previous one (issue "Ingest and query at
 * scale"). `BOOTLINE_INGEST_THREADS` sets how many (default: the machine's available
 * parallelism, at most 4); `0` runs every task inline on the calling thread, which is also
 * the fallback when no worker starts (for example when `lib/ingest/ingest-worker.mjs` is not
 * beside the running code, or cannot load the tasks; tests point `BOOTLINE_INGEST_WORKER_ENTRY`
 * at a broken entry to check that). Workers live for the life of the process, unreferenced while idle.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { TASKS, type TaskName } from "./ingest-tasks";

type Task<N extends TaskName> = (typeof TASKS)[N];

/** One thread (or the calling thread) that runs tasks one at a time, in call order. */
export interface Executor {
  /** `transfer`: ArrayBuffers of `arg` moved to the thread, not copied (the caller loses them) */
  call<N extends TaskName>(method: N, arg: Parameters<Task<N>>[0], transfer?: ArrayBuffer[]): Promise<ReturnType<Task<N>>>;
}

const inline: Executor = {
  call: (method, arg) => Promise.resolve().then(() => (TASKS[method] as (a: unknown) => never)(arg)),
};

class ThreadExecutor implements Executor {
  private pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();
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
    w.on("message", (m: { id?: number; ready?: boolean; result?: never; error?: string }) => {
      if (m.ready) return started();
      const p = this.pending.get(m.id!);
      if (!p) return;
      this.pending.delete(m.id!);
      if (!this.pending.size) w.unref();
      if (m.error !== undefined) p.reject(new Error(m.error));
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
  call<N extends TaskName>(method: N, arg: Parameters<Task<N>>[0], transfer: ArrayBuffer[] = []): Promise<ReturnType<Task<N>>> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.next++;
    this.w.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: never) => void, reject });
      this.w.postMessage({ id, method, arg }, transfer);
    });
  }
}

/**
 * Young generation of each thread, MB (V8's default is about 48 on these machines). A node's
 * rows, detector input and per-line garbage then mostly die before a scavenge: the 1M-line bench
 * bundle ran 0.15 to 0.35 s faster (3 pairs of runs, 10.5 to 11.4 s) for 150 to 200 MB more
 * peak RSS.
 */
const YOUNG_GENERATION_MB = 192;

const g = globalThis as unknown as { __bootlineIngestPool?: ThreadExecutor[]; __bootlineIngestStarting?: Promise<Executor[]> };

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
  g.__bootlineIngestStarting ??= startExecutors().finally(() => {
    g.__bootlineIngestStarting = undefined;
  });
  return g.__bootlineIngestStarting;
}

async function startExecutors(): Promise<Executor[]> {
  const n = poolSize();
  if (n === 0) return [inline];
  const entry = process.env.BOOTLINE_INGEST_WORKER_ENTRY || path.join(process.cwd(), "lib", "ingest", "ingest-worker.mjs");
  if (!existsSync(entry)) return [inline];
  const live = (g.__bootlineIngestPool ?? []).filter((x) => !x.dead);
  try {
    while (live.length < n) live.push(new ThreadExecutor(new Worker(pathToFileURL(entry), { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } })));
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

let warned = false;
function warnOnce(e: Error): void {
  if (warned) return;
  warned = true;
  console.warn(`bootline: ingest worker threads unavailable, parsing on the main thread instead: ${e.message}`);
}
