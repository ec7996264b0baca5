"use client";
import { useQuery } from "@tanstack/react-query";
import type { TBootPatterns } from "@/lib/queries/get-boot-patterns";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

/** A boot's message templates, new and stopped ones (the timeline's patterns panel). */
export function useBootPatternsQuery(incidentId: string, bootId: number) {
  return useQuery({
    queryKey: queryKeys.bootPatterns(incidentId, bootId),
    queryFn: ({ signal }) => fetchJson<TBootPatterns>(`/api/incidents/${encodeURIComponent(incidentId)}/boots/${bootId}/patterns`, { signal }),
    staleTime: 60_000,
  });
}
