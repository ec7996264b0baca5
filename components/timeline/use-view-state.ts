"use client";
/**
 * The node boot page's view state in the URL, through nuqs, with parsers built from the
 * field schemas of lib/view/view-state.ts (one forgiving schema for server and client).
 * Range changes push a history entry (Back undoes a zoom); the rest replaces it.
 */
import { createParser, useQueryStates } from "nuqs";
import { useCallback, useMemo } from "react";
import { LANES, type TLane } from "@/lib/view/lanes";
import { DEFAULT_VIEW_STATE, isExplainRange, type TExplainBaseline, type TTextMatchMode, viewStateField, type TViewState } from "@/lib/view/view-state";

const parseInstant = createParser<number>({
  parse: viewStateField.instant,
  serialize: viewStateField.serializeInstant,
});

const parseLanes = createParser<TLane[]>({
  parse: viewStateField.lanes,
  serialize: viewStateField.serializeLanes,
  eq: (a, b) => a.length === b.length && a.every((l) => b.includes(l)),
}).withDefault([...LANES]);

const parseSev = createParser<number>({ parse: viewStateField.sev, serialize: String }).withDefault(0);
const parseQ = createParser<string>({ parse: viewStateField.q, serialize: (s) => s }).withDefault("");
const parseMatch = createParser<TTextMatchMode>({ parse: viewStateField.match, serialize: (s) => s }).withDefault("words");
const parsePod = createParser<string>({ parse: viewStateField.pod, serialize: (s) => s }).withDefault("");
const parseKind = createParser<string>({ parse: viewStateField.kind, serialize: (s) => s }).withDefault("");
const parseEv = createParser<string>({ parse: viewStateField.ev, serialize: (s) => s });
const parseFinding = createParser<number>({ parse: viewStateField.finding, serialize: String });
const parsePat = createParser<string>({ parse: viewStateField.pat, serialize: (s) => s });
const parseXpat = createParser<string[]>({
  parse: viewStateField.xpat,
  serialize: (ks) => ks.join(","),
  eq: (a, b) => a.length === b.length && a.every((k, i) => k === b[i]),
}).withDefault([]);
const parseOffset = createParser<number>({ parse: viewStateField.offset, serialize: viewStateField.serializeOffset });
const parseXbase = createParser<TExplainBaseline>({ parse: viewStateField.xbase, serialize: (s) => s }).withDefault("before");

export const viewStateParsers = {
  from: parseInstant,
  to: parseInstant,
  lanes: parseLanes,
  sev: parseSev,
  q: parseQ,
  match: parseMatch,
  pod: parsePod,
  kind: parseKind,
  ev: parseEv,
  finding: parseFinding,
  pat: parsePat,
  xpat: parseXpat,
  xfrom: parseOffset,
  xto: parseOffset,
  xbase: parseXbase,
};

export interface TViewStateApi {
  /** the state as in the URL (from/to null = whole boot) */
  state: TViewState;
  setRange(from: number | null, to: number | null): void;
  setLanes(lanes: TLane[]): void;
  setSev(sev: number): void;
  setQ(q: string): void;
  setMatch(match: TTextMatchMode): void;
  setPod(pod: string): void;
  setKind(kind: string): void;
  setEv(ev: string | null): void;
  /** selects a finding (its evidence is highlighted) and shows its window (a history entry) */
  selectFinding(finding: number | null, range?: { from: number; to: number }): void;
  /** shows only the events of one message template (its key), or of any (null) */
  setPat(pat: string | null): void;
  /** the message templates hidden (their keys) */
  setXpat(xpat: string[]): void;
  /** shows `range` with one filter set (a history entry): an explained value followed into the events */
  showFiltered(range: { from: number; to: number }, filter: { pat?: string; pod?: string; lanes?: TLane[]; q?: string }): void;
  /** opens "explain this range" on [from, to) in ms after T+0 (a history entry), or closes it (null) */
  setExplain(range: { from: number; to: number } | null): void;
  /** the explained range's baseline */
  setXbase(xbase: TExplainBaseline): void;
}

export function useViewState(): TViewStateApi {
  const [raw, set] = useQueryStates(viewStateParsers, { history: "replace", shallow: true, scroll: false });
  const state = useMemo<TViewState>(() => {
    const badRange = raw.from !== null && raw.to !== null && raw.from >= raw.to;
    return {
      from: badRange ? null : raw.from,
      to: badRange ? null : raw.to,
      lanes: raw.lanes.length ? raw.lanes : DEFAULT_VIEW_STATE.lanes,
      sev: raw.sev,
      q: raw.q,
      match: raw.match,
      pod: raw.pod,
      kind: raw.kind,
      ev: raw.ev,
      finding: raw.finding,
      pat: raw.pat,
      xpat: raw.xpat,
      ...(isExplainRange(raw.xfrom, raw.xto) ? { xfrom: raw.xfrom, xto: raw.xto } : { xfrom: null, xto: null }),
      xbase: raw.xbase,
    };
  }, [raw]);
  const setRange = useCallback(
    (from: number | null, to: number | null) =>
      void set({ from: from === null ? null : Math.floor(from), to: to === null ? null : Math.ceil(to) }, { history: "push" }),
    [set],
  );
  const setLanes = useCallback((lanes: TLane[]) => void set({ lanes: lanes.length ? lanes : null }), [set]);
  const setSev = useCallback((sev: number) => void set({ sev: sev || null }), [set]);
  const setQ = useCallback((q: string) => void set({ q: q || null }), [set]);
  const setMatch = useCallback((match: TTextMatchMode) => void set({ match: match === "words" ? null : match }), [set]);
  const setPod = useCallback((pod: string) => void set({ pod: pod || null }), [set]);
  const setKind = useCallback((kind: string) => void set({ kind: kind || null }), [set]);
  const setEv = useCallback((ev: string | null) => void set({ ev }), [set]);
  const selectFinding = useCallback(
    (finding: number | null, range?: { from: number; to: number }) =>
      void set(range ? { finding, from: Math.floor(range.from), to: Math.ceil(range.to) } : { finding }, { history: "push" }),
    [set],
  );
  const setPat = useCallback((pat: string | null) => void set({ pat }), [set]);
  const setXpat = useCallback((xpat: string[]) => void set({ xpat: xpat.length ? xpat : null }), [set]);
  const showFiltered = useCallback(
    (range: { from: number; to: number }, filter: { pat?: string; pod?: string; lanes?: TLane[]; q?: string }) =>
      void set({ from: Math.floor(range.from), to: Math.ceil(range.to), ...filter }, { history: "push" }),
    [set],
  );
  const setExplain = useCallback(
    (range: { from: number; to: number } | null) =>
      void set(range ? { xfrom: Math.floor(range.from), xto: Math.ceil(range.to) } : { xfrom: null, xto: null, xbase: null }, { history: "push" }),
    [set],
  );
  const setXbase = useCallback((xbase: TExplainBaseline) => void set({ xbase: xbase === "before" ? null : xbase }), [set]);
  return { state, setRange, setLanes, setSev, setQ, setMatch, setPod, setKind, setEv, selectFinding, setPat, setXpat, showFiltered, setExplain, setXbase };
}
