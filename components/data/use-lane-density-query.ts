"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TLaneDensity } from "@/lib/queries/get-lane-density";
import { fetchJson, qs } from "./fetch-json";
import { queryKeys, type TRangeKey } from "./query-keys";

/** Lane density for the visible range; keeps the previous data while zooming. */
export function useLaneDensityQuery(k: TRangeKey & { buckets: number }) {
  return useQuery({
    queryKey: queryKeys.laneDensity(k),
    queryFn: ({ signal }) =>
      fetchJson<TLaneDensity>(
        `/api/incidents/${encodeURIComponent(k.incidentId)}/boots/${k.bootId}/density${qs({ from: k.from, to: k.to, lanes: k.lanes, buckets: k.buckets })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
