/**
 * The timeline's lanes, one per source family, in display order (docs/definitions.md "Event
 * kinds and lanes"). `other` holds events no source lane claims. A component's lane is in
 * lib/model/components.ts.
 */
export const LANES = ["kernel", "runtime", "kubelet", "cni-plugin", "cni-agent", "events", "other"] as const;

/** A timeline lane. */
export type Lane = (typeof LANES)[number];
