/**
 * The node steps of the ingest's store (ingest-nodes.ts): `storeGroups` keeps a few nodes in
 * flight through a `BundleStore` (bundle-store.ts) and lets go of everything on a failure.
 */
import { type BundleStore, dropNodeOut, type NodeGroup, type NodeOut } from "./bundle-store";

/**
 * Runs `store.node` for every group with at most `window` in flight and `store.copy` of each in
 * group order. `groups[k]()` gives group k when it can start (null: nothing to store); `after(k)`
 * runs once group k is copied.
 *
 * On the first failure (a copy, a node's step, a hook) `abort(e)` runs before anything is waited
 * for: a group still in flight may wait for something only a later success would give (a thread
 * waits for the slot of a node `window` before its own, given once that node is stored), so
 * `abort` must let every such wait go (reject it); then the groups in flight are waited for, so
 * nothing of the bundle still runs on the threads when this throws `e`.
 */
export async function storeGroups(
  store: BundleStore,
  groups: Array<() => Promise<NodeGroup | null>>,
  window: number,
  hooks: { after?: (k: number) => Promise<void>; abort?: (e: unknown) => void } = {},
): Promise<void> {
  const inflight: Array<Promise<NodeOut | null>> = [];
  let next = 0;
  const launch = () => {
    const k = next++;
    const p = groups[k]().then((g) => (g ? store.node(g, k) : null));
    p.catch(() => {}); // awaited in order below; this only keeps a later failure from going unhandled meanwhile
    inflight.push(p);
  };
  while (next < groups.length && inflight.length < window) launch();
  try {
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
