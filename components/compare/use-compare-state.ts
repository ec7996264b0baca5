"use client";
/**
 * The compare page's view state in the URL through nuqs, with parsers built from
 * lib/view/compare-state.ts (the same forgiving fields the server page reads).
 * Range changes push a history entry (Back undoes a zoom).
 */
import { createParser, useQueryStates } from "nuqs";
import { useCallback, useMemo } from "react";
import { compareStateField, DEFAULT_COMPARE_STATE, type TCompareState } from "@/lib/view/compare-state";
import { LANES, type TLane } from "@/lib/view/lanes";
import { viewStateField } from "@/lib/view/view-state";

const parseOffset = createParser<number>({ parse: compareStateField.offset, serialize: compareStateField.serializeOffset });
const parseBoots = createParser<number[]>({
  parse: compareStateField.boots,
  serialize: compareStateField.serializeBoots,
  eq: (a, b) => a.length === b.length && a.every((x, i) => x === b[i]),
}).withDefault([]);
const parseLanes = createParser<TLane[]>({
  parse: viewStateField.lanes,
  serialize: viewStateField.serializeLanes,
  eq: (a, b) => a.length === b.length && a.every((l) => b.includes(l)),
}).withDefault([...LANES]);

/** `align=shared`: every boot on the union of their ranges; absent: each boot framed on its own range until a zoom */
const parseAlign = createParser<"shared">({ parse: (s) => (s === "shared" ? "shared" : null), serialize: (s) => s });

export const compareStateParsers = { boots: parseBoots, from: parseOffset, to: parseOffset, lanes: parseLanes, align: parseAlign };

export function useCompareState() {
  const [raw, set] = useQueryStates(compareStateParsers, { history: "replace", shallow: true, scroll: false });
  const state = useMemo<TCompareState>(() => {
    const bad = raw.from !== null && raw.to !== null && raw.from >= raw.to;
    return { boots: raw.boots, from: bad ? null : raw.from, to: bad ? null : raw.to, lanes: raw.lanes.length ? raw.lanes : DEFAULT_COMPARE_STATE.lanes };
  }, [raw]);
  const setRange = useCallback(
    (from: number | null, to: number | null) =>
      void set({ from: from === null ? null : Math.floor(from), to: to === null ? null : Math.ceil(to) }, { history: "push" }),
    [set],
  );
  const setLanes = useCallback((lanes: TLane[]) => void set({ lanes: lanes.length ? lanes : null }), [set]);
  const setShared = useCallback((shared: boolean) => void set({ align: shared ? "shared" : null }, { history: "push" }), [set]);
  /** one T+ range for every boot: a zoom, or `align=shared`; else each boot on its own range */
  const shared = state.from !== null || state.to !== null || raw.align === "shared";
  return { state, shared, setRange, setLanes, setShared };
}
