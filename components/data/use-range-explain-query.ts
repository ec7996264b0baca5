"use client";
import { useQuery } from "@tanstack/react-query";
import type { TExplainBaseline, TRangeExplain } from "@/lib/queries/get-range-explain";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

/** What is over-represented in [from, to) of a boot against `baseline` (the timeline's explain panel); off while `range` is null. */
export function useRangeExplainQuery(incidentId: string, bootId: number, range: { from: number; to: number } | null, baseline: TExplainBaseline) {
  const k = { incidentId, bootId, from: range?.from ?? 0, to: range?.to ?? 0, baseline };
  return useQuery({
    queryKey: queryKeys.rangeExplain(k),
    queryFn: ({ signal }) => {
      const p = new URLSearchParams({ boot: String(bootId), from: String(k.from), to: String(k.to), baseline });
      return fetchJson<TRangeExplain>(`/api/incidents/${encodeURIComponent(incidentId)}/explain?${p}`, { signal });
    },
    enabled: range !== null,
    staleTime: 60_000,
  });
}
