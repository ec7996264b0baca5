"use client";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import type { TEventsPage } from "@/lib/queries/get-events-page";
import { fetchJson, qs } from "./fetch-json";
import { queryKeys, type TEventsFilterKey } from "./query-keys";

export const EVENTS_PAGE_SIZE = 300;

/** Pages of the events table for the visible range and filters (keyset cursor). */
export function useEventsPageQuery(k: TEventsFilterKey) {
  return useInfiniteQuery({
    queryKey: queryKeys.eventsPage(k),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      fetchJson<TEventsPage>(
        `/api/incidents/${encodeURIComponent(k.incidentId)}/boots/${k.bootId}/events${qs({
          from: k.from,
          to: k.to,
          lanes: k.lanes,
          sev: k.sev || null,
          q: k.q || null,
          match: k.q ? k.match : null,
          pod: k.pod || null,
          kind: k.kind || null,
          pat: k.pat || null,
          xpat: k.xpat?.length ? k.xpat.join(",") : null,
          cursor: pageParam,
          limit: EVENTS_PAGE_SIZE,
        })}`,
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
