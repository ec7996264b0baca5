"use client";
import { useQuery } from "@tanstack/react-query";
import type { TFindingEvidence } from "@/lib/queries/get-finding-evidence";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

/** The evidence event ids of the selected finding; disabled when none is selected. */
export function useFindingEvidenceQuery(incidentId: string, findingId: number | null) {
  return useQuery({
    queryKey: queryKeys.findingEvidence(incidentId, findingId ?? 0),
    queryFn: ({ signal }) => fetchJson<TFindingEvidence>(`/api/incidents/${encodeURIComponent(incidentId)}/findings/${findingId}/evidence`, { signal }),
    enabled: findingId !== null,
    staleTime: Infinity,
    retry: (n, e) => n < 2 && !(e as { status?: number }).status?.toString().startsWith("4"),
  });
}
