"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TEventCounts } from "@/lib/timeline/count-events";
import { fetchJson, qs } from "./fetch-json";
import { queryKeys, type TEventsFilterKey } from "./query-keys";

/** `{ total, matching, capped }` for the events table header. */
export function useEventsCountQuery(k: TEventsFilterKey, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.eventsCount(k),
    queryFn: ({ signal }) =>
      fetchJson<TEventCounts>(
        `/api/incidents/${encodeURIComponent(k.incidentId)}/boots/${k.bootId}/events/count${qs({
          from: k.from,
          to: k.to,
          lanes: k.lanes,
          sev: k.sev || null,
          q: k.q || null,
          pod: k.pod || null,
          kind: k.kind || null,
        })}`,
        { signal },
      ),
    enabled: opts.enabled ?? true,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
