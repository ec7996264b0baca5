"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TEventFacets } from "@/lib/queries/get-event-facets";
import { fetchJson, qs } from "./fetch-json";
import { queryKeys, type TRangeKey } from "./query-keys";

/** Kinds and pods of the visible range, for the events table's filters. */
export function useEventFacetsQuery(k: TRangeKey, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.eventFacets(k),
    queryFn: ({ signal }) =>
      fetchJson<TEventFacets>(
        `/api/incidents/${encodeURIComponent(k.incidentId)}/boots/${k.bootId}/events/facets${qs({ from: k.from, to: k.to, lanes: k.lanes })}`,
        { signal },
      ),
    enabled: opts.enabled ?? true,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
