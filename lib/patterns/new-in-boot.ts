/**
 * "New in this boot": the templates a boot logged that its baseline did not, and (against the
 * node's previous boot) those that stopped. The baseline is the node's previous boot (the boot
 * of the same node with the latest T+0 before this one's); without one, the boots of the other
 * nodes of the incident over the same T+ span (their templates first seen no later after their
 * own T+0 than this boot lasts). Templates are matched by merging both sides again (merge.ts).
 */
import type { PatternStat } from "./boot-miner";
import { type MergedPattern, mergeSides } from "./merge";

/** A boot as the comparison needs it: T+0 and end, UTC ms. */
export interface BootSpan {
  id: number;
  nodeId: number;
  start: number;
  end: number | null;
}

/** One template of a "new" or "stopped" list. */
export interface ChangedPattern {
  template: string;
  key: string;
  /** events of the template in the boot the list is about (the baseline's for `stopped`) */
  count: number;
  /** seconds from that boot's T+0 to the template's first event (null: no event had a time) */
  firstT: number | null;
  /** the template's first event in that boot (timeline link) */
  firstId: number | null;
}

export interface NewInBoot {
  bootId: number;
  /** `previous`: the node's boot before; `other-nodes`: the other nodes' boots over the same T+ span; `none`: nothing to compare with */
  baseline: { kind: "previous"; bootId: number } | { kind: "other-nodes"; bootIds: number[] } | { kind: "none" };
  /** templates of this boot the baseline did not log, most events first */
  new: ChangedPattern[];
  /** templates of the previous boot this one did not log, most events first (empty unless `baseline.kind` is `previous`) */
  stopped: ChangedPattern[];
  /** every template of this boot as matched against the baseline, most events first; `new` as in `new` */
  patterns: Array<ChangedPattern & { new: boolean }>;
}

const changed = (p: MergedPattern, side: number, start: number): ChangedPattern => {
  const s = p.sides[side];
  return {
    template: p.template,
    key: p.key,
    count: s.count,
    firstT: s.firstTs === null ? null : Math.round(s.firstTs - start) / 1000,
    firstId: s.firstId,
  };
};

const byCount = (a: ChangedPattern, b: ChangedPattern) =>
  b.count - a.count || (a.firstT ?? Infinity) - (b.firstT ?? Infinity) || a.template.localeCompare(b.template);

/** The node's boot before `b` (latest T+0 before its own), or null. */
export function previousBoot(b: BootSpan, boots: readonly BootSpan[]): BootSpan | null {
  let best: BootSpan | null = null;
  for (const o of boots) if (o.nodeId === b.nodeId && o.id !== b.id && o.start < b.start && (!best || o.start > best.start)) best = o;
  return best;
}

/** The lists of `NewInBoot` from both sides merged (side 0 the baseline, side 1 the boot). */
function lists(merged: MergedPattern[], start: number, prevStart: number | null): Pick<NewInBoot, "new" | "stopped" | "patterns"> {
  const mine = merged.filter((p) => p.sides[1].count > 0);
  return {
    new: mine
      .filter((p) => p.sides[0].count === 0)
      .map((p) => changed(p, 1, start))
      .sort(byCount),
    stopped:
      prevStart === null
        ? []
        : merged
            .filter((p) => p.sides[0].count > 0 && p.sides[1].count === 0)
            .map((p) => changed(p, 0, prevStart))
            .sort(byCount),
    patterns: mine.map((p) => ({ ...changed(p, 1, start), new: p.sides[0].count === 0 })).sort(byCount),
  };
}

/**
 * "New in this boot" for boot `b` among `boots` (the incident's), from each boot's stored pattern
 * rows (`rows`, any bundles; a boot without rows logged nothing). With no baseline, nothing is new.
 */
export function newInBoot(b: BootSpan, boots: readonly BootSpan[], rows: ReadonlyMap<number, PatternStat[]>): NewInBoot {
  const mine = rows.get(b.id) ?? [];
  const prev = previousBoot(b, boots);
  if (prev)
    return { bootId: b.id, baseline: { kind: "previous", bootId: prev.id }, ...lists(mergeSides([rows.get(prev.id) ?? [], mine]), b.start, prev.start) };
  const others = boots.filter((o) => o.nodeId !== b.nodeId);
  if (!others.length) {
    const l = lists(mergeSides([[], mine]), b.start, null);
    return { bootId: b.id, baseline: { kind: "none" }, new: [], stopped: [], patterns: l.patterns.map((p) => ({ ...p, new: false })) };
  }
  const span = b.end === null ? Infinity : b.end - b.start;
  const baseline = others.flatMap((o) => (rows.get(o.id) ?? []).filter((p) => p.firstTs === null || p.firstTs - o.start <= span));
  return { bootId: b.id, baseline: { kind: "other-nodes", bootIds: others.map((o) => o.id) }, ...lists(mergeSides([baseline, mine]), b.start, null) };
}
