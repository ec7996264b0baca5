/**
 * The middle of the ingest, one way for every bundle on both databases: the bundle's files are
 * parsed on the ingest threads and stored node by node in one transaction.
 *
 * 1. plan: each file's node from the layout (or the `node` option); files that repeat another in
 *    their scope known from the hashes taken at unpack (settle.ts `findDuplicates`), not parsed.
 * 2. the files no path places (a cluster's events, a paste): parsed first; where their records
 *    go is final then (settle.ts `placeRecords`: what places them is known once they are parsed).
 * 3. node tasks (node-parse.ts): each node's files parsed on one thread (or, with fewer nodes
 *    than threads, file by file), nodes in name order, at most `window` nodes ahead of the last
 *    one stored, so memory is bounded by a few nodes and each thread's hold budget.
 * 4. store (bundle-store.ts, store-nodes.ts `storeGroups`): a node is stored once its inputs are
 *    final: its files parsed and the clock offsets of its files known, which takes its own files
 *    only (settle.ts `offsetScopes`); boots, rows and detectors on the thread holding its events,
 *    COPY here while the threads parse the next nodes. Event and Boot ids are given once a node's
 *    events are counted, in node order.
 * 5. the settle step (settle.ts `settleBundle`) over every file at the end: it must decide what
 *    the nodes were stored with (a difference is a defect, and the bundle fails).
 *
 * A bundle is stored after every node is parsed (`StoreWhen` `after-parse`) only when a file on no
 * node may get an estimated clock offset (a cluster's events with sandbox failures: the estimate
 * takes every node's failures). On PGlite, which runs the database on this thread, the parse
 * leaves it a core (`parseThreads`), so the store, the longest part of an ingest there, does not
 * share one with the parse threads (docs/benchmarks.md).
 * Progress: phase `ingest`, half the bytes parsed, half the bytes of the nodes stored.
 */
import { availableParallelism } from "node:os";
import { collectorNames, type BundleLayout } from "../bundle/collectors";
import type { UnpackedFile } from "../bundle/unpack";
import type { SqlConn, SqlDb } from "../db/sql";
import type { AnalysedFile } from "../model/event";
import { clockOffsets, shiftFile, userOffset } from "../normalise/clock-skew";
import type { IngestOptions, Progress } from "./analyse-bundle";
import { BundleStore, type NodeGroup, type NodeReport, stateAt, type StoredBundle } from "./bundle-store";
import { requireReadable } from "./file-reason";
import { NodeParse } from "./node-parse";
import { offsetScopes, placeRecords, settleBundle } from "./settle";
import { storeGroups } from "./store-nodes";

/** When the nodes are stored: `as-parsed` (each once its inputs are final), `after-parse` (once every node is parsed), `auto` (see the module comment). */
export type StoreWhen = "auto" | "as-parsed" | "after-parse";

/** How a bundle was stored, kept in `Bundle.counts` (`afterParseReason`: why it waited for every node). */
export interface StoredHow {
  ingestPath: "as-parsed" | "after-parse";
  afterParseReason?: string;
}

/** What the caller writes in the store transaction once the bundle's rows are in (pipeline.ts: the counts, `ready`). */
export type FinishStore = (tx: SqlConn, files: AnalysedFile[], collector: string | null, stored: StoredBundle, how: StoredHow) => Promise<StoredBundle>;

/**
 * Ingests the unpacked bundle (see the module comment) into one transaction on `sql`, which
 * `finish` ends. `dir`: the spill folder; `token`: the key of the bundle's events on the threads
 * (the caller lets them go, whatever happens). Throws on a database or thread error, and when
 * nothing could be read (`requireReadable`); the transaction is then rolled back.
 */
export async function ingestNodes(
  sql: SqlDb,
  ids: { incidentId: string; bundleId: string },
  unpacked: UnpackedFile[],
  layout: BundleLayout,
  opts: IngestOptions,
  work: { dir: string; token: string; when: StoreWhen; progress?: Progress; onNode?: NodeReport },
  finish: FinishStore,
): Promise<StoredBundle> {
  const progress = work.progress ?? (() => {});
  const onNode = work.onNode ?? (() => {});
  const parse = await NodeParse.plan(unpacked, layout, opts, work.dir, work.token, progress, { threads: parseThreads(sql) });
  const { results, filesOf } = parse;
  await parse.loose();

  // where the records no path places go: final now (settle.ts `placeRecords`, on copies of the
  // listings: the settle step at the end runs on the listings as parsed)
  const listed = results.map((r, ord) => ({ ...(r?.file ?? parse.base(ord)) }));
  const place = placeRecords(
    unpacked,
    layout,
    opts,
    listed,
    results.map((r) => r?.parts.map((p) => p.node) ?? []),
  );
  const target = new Map<number, string | null>(); // loose ord -> node of its records that name none
  for (const ord of parse.looseOrds) if (results[ord].parts.some((p) => p.node === null)) target.set(ord, place.nodeOf(ord));
  const nodeOfPart = (ord: number, node: string | null) => (node === null ? (target.get(ord) ?? null) : node);
  const looseNodes = parse.looseOrds.flatMap((ord) => results[ord].parts.map((p) => nodeOfPart(ord, p.node)));
  const names = [...new Set([...filesOf.keys(), ...looseNodes.filter((n): n is string => n !== null)])].sort((a, b) => a.localeCompare(b));
  const nowhere = looseNodes.includes(null);

  const scopes = offsetScopes(layout, opts);
  const loose = new Set(parse.looseOrds);
  const reason = afterParseReason(work.when, parse, opts);
  parse.start(names, reason !== null, onNode);
  if (reason !== null) await parse.parsed;

  // a group's clock offsets: from its own files (settle.ts `offsetScopes`; a file on no node has
  // only a given offset then), or, once every node is parsed, from the whole bundle
  let whole: Map<number, number> | null = null;
  const offsetsOf = (ords: number[], afterAll: boolean) => {
    let offsets: Map<number, number>;
    if (afterAll) {
      whole ??= clockOffsets(
        results.map((r) => r.file),
        results.map((r) => r.skew),
        opts.skew ?? null,
        {},
        scopes,
      ).offsets;
      offsets = whole;
    } else {
      const own = clockOffsets(
        ords.map((ord) => results[ord].file),
        ords.map((ord) => results[ord].skew),
        opts.skew ?? null,
        {},
        ords.map((ord) => scopes[ord]),
      ).offsets;
      offsets = new Map([...own].map(([i, off]) => [ords[i], off]));
    }
    return Object.fromEntries(ords.filter((ord) => offsets.has(ord)).map((ord) => [ord, offsets.get(ord)!]));
  };
  const used: Record<number, number> = {};
  const group = (node: string | null, own: number[]): NodeGroup | null => {
    const from = parse.looseOrds.filter((ord) => results[ord].parts.some((p) => nodeOfPart(ord, p.node) === node));
    const unplaced = from.filter((ord) => results[ord].parts.some((p) => p.node === null && target.get(ord) === node));
    const held = new Map<number, number>();
    let events = 0;
    for (const ord of [...own, ...from]) {
      for (const p of results[ord].parts) {
        if (nodeOfPart(ord, p.node) !== node) continue;
        const x = parse.holder[ord];
        held.set(x, (held.get(x) ?? 0) + p.events);
        events += p.events;
      }
    }
    if (!events) return null;
    const offsets = offsetsOf([...own, ...from], reason !== null || node === null);
    Object.assign(used, offsets);
    const sources = [...(node === null ? [] : [{ node }]), ...(unplaced.length ? [{ node: null, ords: unplaced }] : [])];
    return { node, sources, held, events, offsets };
  };

  const stored = sql.transaction(async (tx) => {
    const store = new BundleStore(tx, ids, parse.executors, work.token, work.dir);
    await store.open(unpacked.length, names, layout.aliases, place.unnamed);
    // a node's bytes count as stored as it moves through its store step
    const nodeBytes = names.map((n) => (filesOf.get(n) ?? []).reduce((s, ord) => s + parse.sizes[ord], 0));
    const share = names.map(() => 0);
    store.onStep = (k, f) => {
      if (k >= names.length || f <= share[k]) return; // the cluster events on no node
      parse.bytes.add((f - share[k]) * nodeBytes[k]);
      share[k] = f;
      onNode(names[k], stateAt(f));
    };
    const unused: string[] = [];
    const groups: Array<() => Promise<NodeGroup | null>> = names.map((node, k) => async () => {
      await parse.node(k);
      const g = group(node, filesOf.get(node) ?? []);
      if (!g) unused.push(node);
      return g;
    });
    // then the cluster events on no node (no boots), last
    if (nowhere)
      groups.push(async () => {
        await parse.parsed;
        return group(null, []);
      });
    // a node's files go in once its rows are in: their listings are final by then
    const fileRows = (ords: number[]) => ords.map((ord) => ({ file: fileListing(ord), blocksPath: results[ord].blocksPath }));
    // as the settle step lists it: placed (a file no path places), shifted by its clock offset
    const fileListing = (ord: number): AnalysedFile => {
      const f = { ...results[ord].file };
      if (!f.node && loose.has(ord)) f.node = listed[ord].node;
      const off = used[ord];
      if (off) shiftFile(f, off);
      return f;
    };
    await storeGroups(store, groups, parse.window(), {
      after: async (k) => {
        if (k >= names.length) return; // the cluster events on no node
        parse.stored(k);
        await store.files(fileRows(filesOf.get(names[k]) ?? []));
      },
      abort: (e) => parse.abort(e),
    });
    await parse.parsed;
    progress("ingest", 1);
    const files = results.map((_, ord) => fileListing(ord));
    expectSettled(parse, unpacked, layout, opts, files, used, target);
    requireReadable(files);
    await store.files(fileRows(parse.looseOrds));
    const how: StoredHow = reason === null ? { ingestPath: "as-parsed" } : { ingestPath: "after-parse", afterParseReason: reason };
    return finish(tx, files, collectorNames(layout), await store.finish(unused, progress), how);
  });
  try {
    return await stored;
  } catch (e) {
    // no thread parses on once the bundle has failed (it would spill into a folder removed next)
    parse.abort(e);
    await parse.parsed.catch(() => {});
    throw e;
  }
}

/**
 * The most ingest threads that parse on `sql`: on PGlite, whose database runs on the calling
 * thread, one core fewer than the machine has (at least one); elsewhere no limit (undefined).
 */
function parseThreads(sql: SqlDb): number | undefined {
  return sql.backend === "pglite" ? Math.max(1, availableParallelism() - 1) : undefined;
}

/** Why the bundle is stored once every node is parsed, or null to store each node once its inputs are final. */
function afterParseReason(when: StoreWhen, parse: NodeParse, opts: IngestOptions): string | null {
  if (when === "as-parsed") return null;
  if (when === "after-parse") return "asked to store after parsing";
  // a file on no node gets an estimated offset from every node's failures (settle.ts `offsetScopes`), unless one is given
  const cluster = parse.looseOrds.find(
    (ord) => parse.results[ord].skew.events.length > 0 && userOffset(opts.skew ?? null, parse.results[ord].file) === undefined,
  );
  if (cluster !== undefined) return "a cluster events file's clock offset takes every node's failures";
  return null;
}

/**
 * The settle step over the whole bundle (settle.ts `settleBundle`, on copies: nothing changes)
 * must decide what the nodes were stored with: no duplicate beyond those known at unpack, the
 * same node for every record no path places, the same clock offsets. Throws otherwise (a
 * defect: the planning above has drifted from the settle step).
 */
function expectSettled(
  parse: NodeParse,
  unpacked: UnpackedFile[],
  layout: BundleLayout,
  opts: IngestOptions,
  files: AnalysedFile[],
  used: Record<number, number>,
  target: Map<number, string | null>,
): void {
  const copies = parse.results.map((r) => ({ ...r, file: { ...r.file } }));
  const dropped: number[] = [];
  const settled = settleBundle(copies, unpacked, layout, opts, {
    drop: (r, ord) => r.parts.length && dropped.push(ord),
    recordNodes: (r) => r.parts.map((p) => p.node),
    skewInputs: () => copies.map((r) => r.skew),
  });
  const differs: string[] = [];
  if (dropped.length) differs.push(`files ${dropped.join(", ")} repeat others without the same hash at unpack`);
  files.forEach((f, ord) => {
    const off = settled.offsets.get(ord) ?? 0;
    if (parse.results[ord].parts.length && off !== (used[ord] ?? 0)) differs.push(`file ${ord}: clock offset ${off} ms, stored with ${used[ord] ?? 0}`);
    if (target.has(ord) && settled.nodeOf(ord) !== target.get(ord))
      differs.push(`file ${ord}: records of no node go to ${settled.nodeOf(ord)}, stored on ${target.get(ord)}`);
    if ((settled.files[ord].node ?? null) !== (f.node ?? null)) differs.push(`file ${ord}: on node ${settled.files[ord].node}, listed on ${f.node}`);
  });
  if (differs.length) throw new Error(`the bundle's settle step decided other than its nodes were stored with: ${differs.join("; ")}`);
}
