/**
 * The parse half of the ingest (ingest-nodes.ts steps 1 to 3): which files to parse and which
 * node each is on, the files no path places first, then the nodes' files on the ingest threads
 * (parse-task.ts `parseFileTask`: read, redact, parse, classify; each thread keeps the events it
 * parsed, past its hold budget on disk), nodes in name order, at most `window()` nodes ahead of
 * the last one stored unless the whole bundle is parsed before storing.
 */
import { mkdirSync } from "node:fs";
import type { BundleLayout } from "../bundle/collectors";
import { fileSize, type UnpackedFile } from "../bundle/unpack";
import type { AnalysedFile } from "../model/event";
import { fileBase, latestMtime, type IngestOptions, type Progress } from "./analyse-bundle";
import { ByteProgress } from "./byte-progress";
import { ingestExecutors, type Executor } from "./ingest-pool";
import type { NodeReport } from "./bundle-store";
import type { ParseFileResult } from "./parse-task";
import { duplicateScopes, findDuplicates } from "./settle";

/**
 * Estimated bytes of parsed events (source text plus per-event overhead, ingest-tasks.ts
 * `heldSize`) each thread may hold in memory before it spills the largest parts to disk
 * (`BOOTLINE_INGEST_HOLD_MB`, default 320 MiB): this bounds a thread's memory whatever the
 * bundle's size.
 */
export function holdBytes(): number {
  const mb = Number(process.env.BOOTLINE_INGEST_HOLD_MB);
  return (Number.isFinite(mb) && mb >= 0 && process.env.BOOTLINE_INGEST_HOLD_MB !== "" ? mb : 320) * 1024 * 1024;
}

/** A promise with its settle functions; its rejection is handled (it is awaited where it matters). */
function defer<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * One bundle's parse on the ingest threads. `plan` places the files; `loose` parses those no
 * path places; `start` the nodes' files; `node(k)` waits for node k's, `parsed` for all of them.
 * Progress: phase `ingest` by bytes parsed, out of twice the bundle's bytes (`bytes`: the store
 * adds the other half).
 */
export class NodeParse {
  /** each file's parse result by ord, undefined until parsed (repeats of another file listed as such from the plan on) */
  readonly results: ParseFileResult[];
  /** the executor holding each parsed file's events, by ord */
  readonly holder: number[];
  /** ords of the files the layout (or the `node` option) puts on each node */
  readonly filesOf = new Map<string, number[]>();
  /** ords of the files on no node: parsed first (`loose`) */
  readonly looseOrds: number[] = [];
  readonly sizes: number[];
  readonly bytes: ByteProgress;
  /** every node's files parsed (rejects on the first thread failure; settles once no thread parses) */
  parsed: Promise<void> = Promise.resolve();
  private nodes: Array<ReturnType<typeof defer<void>>> = [];
  private slots: Array<ReturnType<typeof defer<void>>> = [];
  private aborted = false;
  private readonly collectedMs: number | null;
  private readonly holdLimit = holdBytes();

  private constructor(
    private readonly unpacked: UnpackedFile[],
    private readonly layout: BundleLayout,
    private readonly opts: IngestOptions,
    private readonly dir: string,
    private readonly token: string,
    readonly executors: Executor[],
    private readonly step: { stepBytes?: number; threads?: number },
    progress: Progress,
  ) {
    this.sizes = unpacked.map(fileSize);
    this.collectedMs = opts.collectedMs ?? latestMtime(unpacked);
    // no holes (`map` skips them): a file not parsed yet is undefined
    this.results = Array.from({ length: unpacked.length }) as ParseFileResult[];
    this.holder = new Array<number>(unpacked.length).fill(0);
    this.bytes = new ByteProgress(this.sizes, (f) => progress("ingest", f), 2);
  }

  /**
   * The plan (ingest-nodes.ts step 1): each file's node, and the files that repeat an earlier one
   * in their scope by the hashes taken at unpack (`UnpackedFile.sha256`), listed as duplicates
   * and not parsed. `step.stepBytes`: bytes between two progress reports of a thread;
   * `step.threads`: at most this many of the pool's threads parse (at least one).
   */
  static async plan(
    unpacked: UnpackedFile[],
    layout: BundleLayout,
    opts: IngestOptions,
    dir: string,
    token: string,
    progress: Progress = () => {},
    step: { stepBytes?: number; threads?: number } = {},
  ): Promise<NodeParse> {
    mkdirSync(dir, { recursive: true });
    const pool = await ingestExecutors();
    const executors = step.threads === undefined ? pool : pool.slice(0, Math.max(1, step.threads));
    const p = new NodeParse(unpacked, layout, opts, dir, token, executors, step, progress);
    progress("ingest", 0);
    layout.files.forEach((l, ord) => {
      const node = opts.node || l.node;
      if (!node) return p.looseOrds.push(ord);
      const list = p.filesOf.get(node);
      if (list) list.push(ord);
      else p.filesOf.set(node, [ord]);
    });
    const shas = unpacked.map((u, ord) =>
      u.status === "read" && u.sha256 && !layout.files[ord].duplicateOf && !layout.files[ord].skipReason ? u.sha256 : null,
    );
    const scopes = duplicateScopes(unpacked, layout, opts);
    const repeats = findDuplicates(unpacked.map((u, ord) => ({ sha: shas[ord], path: u.path, byteSize: p.sizes[ord], scope: scopes[ord] })));
    repeats.forEach((dupOf, ord) => {
      if (dupOf === null) return;
      const base = p.base(ord);
      const file: AnalysedFile = { ...base, status: "duplicate", reason: "same content as another file", duplicateOf: dupOf }; // as settle.ts lists it
      p.results[ord] = { file, base, sha: shas[ord], skew: { failures: [], events: [] }, parts: [], blocksPath: null };
      p.bytes.done(ord);
    });
    return p;
  }

  /** File `ord`'s listing before it is parsed. */
  base(ord: number): AnalysedFile {
    return fileBase(this.unpacked[ord], ord);
  }

  /** Parses the files no path places, spread over the threads (ingest-nodes.ts step 2). */
  async loose(): Promise<void> {
    const n = this.executors.length;
    await Promise.all(this.looseOrds.map((ord, i) => this.parseOne(i % n, ord)));
  }

  /** How many nodes the store keeps in flight, and how far ahead of the last one stored the threads parse. */
  window(): number {
    return this.executors.length + 2;
  }

  /**
   * Starts parsing the nodes' files (`names`: every node, in store order; those with no files of
   * their own count as parsed at once): threads take nodes in order (files one by one when fewer
   * nodes have files than there are threads), node k not before node k - `window()` is `stored`
   * unless `whole`.
   */
  start(names: string[], whole: boolean, onNode: NodeReport = () => {}): void {
    const window = this.window();
    this.nodes = names.map(() => defer<void>());
    this.slots = names.map(() => defer<void>());
    const left = names.map((n) => this.filesOf.get(n)?.length ?? 0);
    const perFile = names.filter((n) => this.filesOf.has(n)).length < this.executors.length;
    const units = names.flatMap((n, k) => {
      const ords = this.filesOf.get(n) ?? [];
      return perFile ? ords.map((ord) => ({ k, ords: [ord] })) : ords.length ? [{ k, ords }] : [];
    });
    names.forEach((n, k) => {
      if (left[k]) return;
      onNode(n, "parsed");
      this.nodes[k].resolve();
    });
    let next = 0;
    const started = new Set<number>();
    const ends = this.executors.map(async (_, x) => {
      try {
        for (let u = next++; u < units.length && !this.aborted; u = next++) {
          const { k, ords } = units[u];
          if (!whole && k >= window) await this.slots[k - window].promise;
          if (this.aborted) break;
          if (!started.has(k)) onNode(names[k], "parsing");
          started.add(k);
          for (const ord of ords) if (!this.aborted) await this.parseOne(x, ord);
          left[k] -= ords.length;
          if (left[k] === 0 && !this.aborted) {
            onNode(names[k], "parsed");
            this.nodes[k].resolve();
          }
        }
      } catch (e) {
        this.abort(e);
        throw e;
      }
    });
    // every thread's loop ends before `parsed` settles (a thread still parsing when the bundle has
    // failed would spill into a working folder already removed)
    this.parsed = Promise.allSettled(ends).then((r) => {
      const failed = r.find((x): x is PromiseRejectedResult => x.status === "rejected");
      if (failed) throw failed.reason;
    });
    this.parsed.catch(() => {}); // awaited by the caller
  }

  /** Node k's files are parsed (rejects once the bundle has failed). */
  node(k: number): Promise<void> {
    return this.nodes[k].promise;
  }

  /** Node k is stored: the threads may start node k + `window()`. */
  stored(k: number): void {
    this.slots[k]?.resolve();
  }

  /** Stops the threads taking further files and lets every wait on a node or a slot go. */
  abort(e: unknown): void {
    this.aborted = true;
    for (const d of [...this.slots, ...this.nodes]) d.reject(e);
  }

  private async parseOne(x: number, ord: number): Promise<void> {
    if (this.results[ord]) return; // a repeat
    const { unpacked, layout, opts, token, dir } = this;
    this.results[ord] = await this.executors[x].call(
      "parseFileTask",
      {
        token,
        ord,
        file: unpacked[ord],
        layout: layout.files[ord],
        opts,
        collectedMs: this.collectedMs,
        dir,
        holdBytes: this.holdLimit,
        stepBytes: this.step.stepBytes,
      },
      [],
      this.bytes.reader(ord),
    );
    this.holder[ord] = x;
    this.bytes.done(ord);
  }
}
