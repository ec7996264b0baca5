/**
 * The node steps of the streaming ingest's store (ingest-bundle.ts): `storeGroups` keeps a few
 * nodes in flight through a `BundleStore` (bundle-store.ts) and lets go of everything on a
 * failure; `storeParsed` is pass 2 over the bundle pass 1 left on the threads.
 */
import {
  BLOCKS_SHARE,
  BundleStore,
  dropNodeOut,
  type NodeGroup,
  type NodeOut,
  type NodeReport,
  type ParsedBundle,
  stateAt,
  type StoredBundle,
} from "./bundle-store";
import { statSync } from "node:fs";
import type { SqlConn } from "../db/sql";
import type { Progress } from "./analyse-bundle";

/**
 * Runs `store.node` for every group (`offsets`: clock offset by file ord, ms) with at most
 * `window` in flight and `store.copy` of each in group order. `groups[k]()` gives group k when it
 * can start (null: nothing to store); `first` runs once the first groups are launched, before any
 * copy; `after(k)` runs once group k is copied.
 *
 * On the first failure (a copy, a node's step, a hook) `abort(e)` runs before anything is waited
 * for: a group still in flight may wait for something only a later success would give (by node, a
 * thread waits for the slot of a node `window` before its own, given once that node is stored),
 * so `abort` must let every such wait go (reject it); then the groups in flight are waited for,
 * so nothing of the bundle still runs on the threads when this throws `e`.
 */
export async function storeGroups(
  store: BundleStore,
  groups: Array<() => Promise<NodeGroup | null>>,
  offsets: Record<number, number>,
  window: number,
  hooks: { first?: () => Promise<void>; after?: (k: number) => Promise<void>; abort?: (e: unknown) => void } = {},
): Promise<void> {
  const inflight: Array<Promise<NodeOut | null>> = [];
  let next = 0;
  const launch = () => {
    const k = next++;
    const p = groups[k]().then((g) => (g ? store.node(g, k, offsets) : null));
    p.catch(() => {}); // awaited in order below; this only keeps a later failure from going unhandled meanwhile
    inflight.push(p);
  };
  while (next < groups.length && inflight.length < window) launch();
  try {
    if (hooks.first) await hooks.first();
    for (let k = 0; inflight.length; k++) {
      const out = await inflight.shift()!;
      if (next < groups.length) launch();
      if (out) await store.copy(out);
      await hooks.after?.(k);
    }
  } catch (e) {
    // first let go what the groups in flight may wait for (the failed node's slot among it), then
    // wait for them: what they leave on the threads is then forgotten with the bundle
    hooks.abort?.(e);
    // nodes whose rows are on their way but will not be copied: their threads stop formatting them
    const left = await Promise.allSettled(inflight);
    await Promise.all(left.map((r) => (r.status === "fulfilled" && r.value ? dropNodeOut(r.value) : null)));
    throw e;
  }
}

/**
 * Pass 2 (see the module comment), inside the caller's transaction `tx`. Reports progress as
 * phase `store` (each node's step weighted by its events: boots, rows, then its COPY by bytes;
 * `STEP_BOOTS`, `STEP_ROWS`), then `detect`. Throws on a database or thread error
 * (the caller's transaction then rolls everything back).
 */
export async function storeParsed(
  tx: SqlConn,
  ids: { incidentId: string; bundleId: string },
  parsed: ParsedBundle,
  progress: Progress = () => {},
  onNode: NodeReport = () => {},
): Promise<StoredBundle> {
  const store = new BundleStore(tx, ids, parsed.executors, parsed.token, parsed.dir);
  const names = parsed.groups.map((g) => g.node).filter((n): n is string => n !== null);
  await store.open(parsed.files.length, names, parsed.aliases, parsed.unnamed);
  const total = Math.max(
    1,
    parsed.groups.reduce((s, g) => s + g.events, 0),
  );
  const share = parsed.groups.map(() => 0);
  let done = 0;
  // the source blocks' COPY takes `BLOCKS_SHARE` of the phase, by bytes sent, when there are any
  const blockBytes = parsed.blocks.reduce((s, p) => s + (p ? statSync(p).size : 0), 0);
  const blocksShare = blockBytes ? BLOCKS_SHARE : 0;
  let blocksSent = 0;
  const tell = () => progress("store", (blocksShare * Math.min(blockBytes, blocksSent)) / (blockBytes || 1) + ((1 - blocksShare) * done) / total);
  for (const g of parsed.groups) if (g.node !== null) onNode(g.node, "parsed");
  store.onStep = (gi, f) => {
    if (f <= share[gi]) return;
    done += (f - share[gi]) * parsed.groups[gi].events;
    share[gi] = f;
    const node = parsed.groups[gi].node;
    if (node !== null) onNode(node, stateAt(f));
    tell();
  };
  progress("store", 0);
  // keep two nodes more in flight than there are threads: the next is ready when a COPY ends;
  // the source files and blocks go in while the threads prepare the first nodes
  const groups = parsed.groups.map((group) => () => Promise.resolve(group));
  const files = parsed.files.map((file, ord) => ({ file, blocksPath: parsed.blocks[ord] }));
  await storeGroups(store, groups, parsed.offsets, parsed.executors.length + 2, {
    first: () => store.files(files, (n) => ((blocksSent += n), tell())),
  });
  progress("store", 1);
  return store.finish([], progress);
}
