/**
 * The by-node way of the streaming ingest (ingest-bundle.ts step 2a): one pass inside the
 * caller's transaction, each node parsed on one thread and stored as soon as it and the nodes
 * before it are; `NeedsTwoPasses` when the settle step at the end decides other than it assumed.
 */
import { mkdirSync } from "node:fs";
import { collectorNames, type BundleLayout } from "../bundle/collectors";
import { fileSize, type UnpackedFile } from "../bundle/unpack";
import type { SqlConn } from "../db/sql";
import { clockOffsets } from "../normalise/clock-skew";
import type { AnalysedFile } from "../model/event";
import { fileBase, latestMtime, type IngestOptions, type Progress } from "./analyse-bundle";
import { ByteProgress } from "./byte-progress";
import { requireReadable } from "./file-reason";
import { holdBytes } from "./ingest-bundle";
import { ingestExecutors } from "./ingest-pool";
import type { ParseFileResult } from "./parse-task";
import { duplicateScopes, findDuplicates, settleBundle } from "./settle";
import { BundleStore, type NodeGroup, type NodeReport, stateAt, type StoredBundle } from "./bundle-store";
import { storeGroups } from "./store-nodes";

/** Thrown by `ingestByNode` when a bundle-wide step changes what it already stored: run the two passes instead. */
export class NeedsTwoPasses extends Error {}

/**
 * Whether `ingestByNode` may take the bundle: at least one file is placed on a node by its path
 * (the collector layout) or by the bundle's `node` option, and no clock offsets are given by hand.
 * Files no path places (a cluster's events file, say) are parsed first; their records join the
 * nodes they name.
 */
export function canIngestByNode(unpacked: UnpackedFile[], layout: BundleLayout, opts: IngestOptions): boolean {
  if (opts.skew !== null && opts.skew !== undefined && (typeof opts.skew === "number" || Object.keys(opts.skew).length)) return false;
  return layout.files.some((l, ord) => unpacked[ord].status === "read" && !!(opts.node || l.node));
}

/**
 * The bundle node by node, in one pass, inside the caller's transaction `tx`: each node's files
 * are parsed on one thread (nodes taken in name order by whichever thread is free) and the node
 * is stored as soon as it and the nodes before it are, so the database COPYs while the threads
 * parse; a thread does not start a node more than `executors + 2` ahead of the last one stored,
 * so memory is bounded by a few nodes, not by the bundle. Files that repeat another are known
 * from the hashes taken at unpack (`UnpackedFile.sha256`) and not parsed. What the two passes
 * only know at the end is assumed: no clock offset to apply (lib/normalise/clock-skew.ts
 * estimates one for Kubernetes events files only), no record placed elsewhere than where it went.
 * The offset is checked as each node is parsed (from the files parsed so far, so a skewed bundle
 * gives way early), and the whole settle step (settle.ts) once every file is; when it decides
 * otherwise, this throws `NeedsTwoPasses` (the caller rolls back and runs `parseFiles`,
 * `settleParsed` and `storeParsed`, which then store exactly the same). Files no path places are parsed first; their
 * records join the nodes they name, records of no node are stored last. Throws on a database or
 * thread error, and when nothing in the bundle could be read (`requireReadable`). Reports
 * progress as phase `ingest` (half bytes parsed, half bytes of the nodes stored, over twice the
 * bundle's bytes), then `detect`.
 */
export async function ingestByNode(
  tx: SqlConn,
  ids: { incidentId: string; bundleId: string },
  unpacked: UnpackedFile[],
  layout: BundleLayout,
  opts: IngestOptions,
  dir: string,
  token: string,
  progress: Progress = () => {},
  onNode: NodeReport = () => {},
): Promise<{ files: AnalysedFile[]; collector: string | null; stored: StoredBundle }> {
  mkdirSync(dir, { recursive: true });
  const executors = await ingestExecutors();
  const collectedMs = opts.collectedMs ?? latestMtime(unpacked);
  const limit = holdBytes();
  const sizes = unpacked.map(fileSize);
  // progress: half for the bytes parsed, half for the bytes of the nodes stored
  const bytes = new ByteProgress(sizes, (f) => progress("ingest", f), 2);
  progress("ingest", 0);
  const filesOf = new Map<string, number[]>();
  const loose: number[] = []; // files no node owns: left out by the layout or unreadable (listings only)
  layout.files.forEach((l, ord) => {
    const node = opts.node || l.node;
    if (!node) return loose.push(ord);
    const list = filesOf.get(node);
    if (list) list.push(ord);
    else filesOf.set(node, [ord]);
  });

  // files that repeat an earlier one are known from the hashes taken at unpack: not parsed
  const shas = unpacked.map((u, ord) => (u.status === "read" && u.sha256 && !layout.files[ord].duplicateOf && !layout.files[ord].skipReason ? u.sha256 : null));
  const scopes = duplicateScopes(unpacked, layout, opts);
  const repeats = findDuplicates(unpacked.map((u, ord) => ({ sha: shas[ord], path: u.path, byteSize: sizes[ord], scope: scopes[ord] })));
  const results = new Array<ParseFileResult>(unpacked.length);
  repeats.forEach((dupOf, ord) => {
    if (dupOf === null) return;
    const base = fileBase(unpacked[ord], ord);
    const file: AnalysedFile = { ...base, status: "duplicate", reason: "same content as another file", duplicateOf: dupOf }; // as settle.ts lists it
    results[ord] = { file, base, sha: shas[ord], skew: { failures: [], events: [] }, parts: [], blocksPath: null };
  });
  const parse = async (x: number, ord: number) => {
    if (results[ord]) return; // a repeat
    results[ord] = await executors[x].call(
      "parseFileTask",
      { token, ord, file: unpacked[ord], layout: layout.files[ord], opts, collectedMs, dir, holdBytes: limit },
      [],
      bytes.reader(ord),
    );
    bytes.done(ord);
  };
  // files no path places go first: their records join the nodes they name (held where parsed,
  // handed over on disk when the node is prepared elsewhere), or none
  const looseHolder = new Map<number, number>();
  await Promise.all(
    loose.map((ord, i) => {
      looseHolder.set(ord, i % executors.length);
      return parse(i % executors.length, ord);
    }),
  );
  const looseEvents = new Map<string | null, Map<number, number>>(); // node -> executor -> events
  for (const ord of loose) {
    for (const p of results[ord].parts) {
      let byEx = looseEvents.get(p.node);
      if (!byEx) looseEvents.set(p.node, (byEx = new Map()));
      const x = looseHolder.get(ord)!;
      byEx.set(x, (byEx.get(x) ?? 0) + p.events);
    }
  }
  const names = [...new Set([...filesOf.keys(), ...[...looseEvents.keys()].filter((n): n is string => n !== null)])].sort((a, b) => a.localeCompare(b));
  // records no path, record or folder places (settle.ts `placeUnplaced`): a Kubernetes events
  // file's stay on no node in a bundle of several nodes; for any other, the two passes decide with
  // every node known
  const nowhere = looseEvents.get(null);
  if (nowhere && loose.some((ord) => results[ord].file.kind !== "k8s-events" && results[ord].parts.some((p) => p.node === null))) {
    throw new NeedsTwoPasses("records that name no node");
  }
  if (nowhere && names.length === 1) throw new NeedsTwoPasses("records of no node in a bundle of one node");
  const store = new BundleStore(tx, ids, executors, token, dir);
  await store.open(unpacked.length, names, layout.aliases);
  // a node's bytes count as stored as it moves through its store step
  const nodeBytes = names.map((n) => (filesOf.get(n) ?? []).reduce((s, ord) => s + sizes[ord], 0));
  const share = names.map(() => 0);
  store.onStep = (k, f) => {
    if (k >= names.length || f <= share[k]) return; // the cluster events on no node
    bytes.add((f - share[k]) * nodeBytes[k]);
    share[k] = f;
    onNode(names[k], stateAt(f));
  };

  // threads take nodes in name order; node k waits for node k - window to be stored
  const window = executors.length + 2;
  const parsed = names.map(() => defer<number>());
  const stored = names.map(() => defer<void>());
  let nextNode = 0;
  let aborted = false;
  // stops the threads taking further nodes, and lets every wait on a slot or a parsed node go
  const abort = (e: unknown) => {
    aborted = true;
    stored.forEach((d) => d.reject(e));
    parsed.forEach((d) => d.reject(e));
  };
  // every thread's loop ends before `parsing` settles (a thread still parsing when the bundle has
  // failed would spill into a working folder already removed)
  const parsing = Promise.allSettled(
    executors.map(async (_, x) => {
      try {
        for (let k = nextNode++; k < names.length && !aborted; k = nextNode++) {
          if (k >= window) await stored[k - window].promise;
          if (!aborted) onNode(names[k], "parsing");
          for (const ord of filesOf.get(names[k]) ?? []) if (!aborted) await parse(x, ord);
          if (!aborted) onNode(names[k], "parsed");
          parsed[k].resolve(x);
        }
      } catch (e) {
        abort(e);
        throw e;
      }
    }),
  ).then((ends) => {
    const failed = ends.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  });
  parsing.catch(() => {}); // awaited below
  const unused: string[] = [];
  // an offset already estimated from the files parsed so far is very likely due at the end too:
  // give way to the two passes now rather than after storing everything
  const offsetDue = () => {
    const seen = results.map((r, ord) => r?.file ?? { path: unpacked[ord].path, kind: "unknown" });
    const { offsets } = clockOffsets(
      seen,
      results.map((r) => r?.skew ?? null),
      null,
    );
    return [...offsets.values()].some((off) => off !== 0);
  };
  const groups: Array<() => Promise<NodeGroup | null>> = names.map((node, k) => async () => {
    const x = await parsed[k].promise;
    if (offsetDue()) throw new NeedsTwoPasses("a clock offset to apply");
    const held = new Map(looseEvents.get(node) ?? []);
    const own = (filesOf.get(node) ?? []).reduce((s, ord) => s + results[ord].parts.reduce((t, p) => t + p.events, 0), 0);
    if (own) held.set(x, (held.get(x) ?? 0) + own);
    const events = [...held.values()].reduce((s, n) => s + n, 0);
    if (!events) {
      unused.push(node);
      return null;
    }
    return { node, sources: [{ node }], held, events };
  });
  // then the cluster events on no node (no boots), last as in the two passes
  if (nowhere) {
    groups.push(async () => {
      await Promise.all(parsed.map((d) => d.promise));
      if (offsetDue()) throw new NeedsTwoPasses("a clock offset to apply");
      const withEvents = names.filter((n) => looseEvents.has(n) || (filesOf.get(n) ?? []).some((ord) => results[ord].parts.length));
      if (withEvents.length === 1) throw new NeedsTwoPasses("records of no node in a bundle of one node");
      return { node: null, sources: [{ node: null }], held: new Map(nowhere), events: [...nowhere.values()].reduce((s, n) => s + n, 0) };
    });
  }
  // a node's files go in once its rows are in: their listings are final by then
  const fileRows = (ords: number[]) => ords.map((ord) => ({ file: results[ord].file, blocksPath: results[ord].blocksPath }));
  try {
    await storeGroups(store, groups, {}, window, {
      after: async (k) => {
        if (k >= names.length) return; // the cluster events on no node
        stored[k].resolve();
        await store.files(fileRows(filesOf.get(names[k]) ?? []));
      },
      abort,
    });
    await parsing;
    progress("ingest", 1);
  } catch (e) {
    abort(e); // storeGroups did already when it threw; not when `parsing` did
    await parsing.catch(() => {});
    throw e;
  }

  // the settle step, as the two passes take it with every file in hand (settle.ts): this pass
  // stands only where it decides what the pass assumed (no repeat parsed, no record placed
  // elsewhere than where it went, no clock offset), else the two passes store the bundle
  let parsedTwice = false;
  const settled = settleBundle(results, unpacked, layout, opts, {
    drop: (r) => (parsedTwice ||= r.parts.length > 0),
    recordNodes: (r) => r.parts.map((p) => p.node),
    skewInputs: () => results.map((r) => r.skew),
  });
  if (parsedTwice) throw new NeedsTwoPasses("a file repeats another one without the same hash at unpack");
  const { files } = settled;
  requireReadable(files);
  if ([...settled.offsets.values()].some((off) => off !== 0)) throw new NeedsTwoPasses("a clock offset to apply");
  const placedElsewhere = loose.some((ord) => results[ord].parts.some((p) => p.node === null) && settled.nodeOf(ord) !== null);
  if (placedElsewhere || settled.unnamed.size || files.some((f) => f.node !== null && !names.includes(f.node))) {
    throw new NeedsTwoPasses("records that name no node");
  }

  await store.files(fileRows(loose));
  return { files, collector: collectorNames(layout), stored: await store.finish(unused, progress) };
}

function defer<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => {});
  return { promise, resolve, reject };
}
