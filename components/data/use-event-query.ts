"use client";
import { useQuery } from "@tanstack/react-query";
import type { TEventDetail } from "@/lib/queries/get-event";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

/** One event's detail (raw line, file, line number); disabled when no event is selected. */
export function useEventQuery(incidentId: string, eventId: string | null) {
  return useQuery({
    queryKey: queryKeys.event(incidentId, eventId ?? ""),
    queryFn: ({ signal }) => fetchJson<TEventDetail>(`/api/incidents/${encodeURIComponent(incidentId)}/events/${encodeURIComponent(eventId!)}`, { signal }),
    enabled: !!eventId,
    staleTime: Infinity,
    retry: (n, e) => n < 2 && !(e as { status?: number }).status?.toString().startsWith("4"),
  });
}
