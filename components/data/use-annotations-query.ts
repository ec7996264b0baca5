"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TAnnotation } from "@/lib/annotations/annotation";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

const base = (incidentId: string) => `/api/incidents/${encodeURIComponent(incidentId)}`;

/** The notes of one boot, by time. */
export function useAnnotationsQuery(incidentId: string, bootId: number) {
  return useQuery({
    queryKey: queryKeys.annotations(incidentId, bootId),
    queryFn: ({ signal }) => fetchJson<TAnnotation[]>(`${base(incidentId)}/boots/${bootId}/annotations`, { signal }),
    staleTime: 30_000,
  });
}

/** Adding and removing notes of one boot; the list is refetched after each. */
export function useAnnotationMutations(incidentId: string, bootId: number) {
  const client = useQueryClient();
  const invalidate = () => client.invalidateQueries({ queryKey: queryKeys.annotations(incidentId, bootId) });
  const create = useMutation({
    mutationFn: (body: { text: string; ts?: number; eventId?: string }) =>
      fetchJson<TAnnotation>(`${base(incidentId)}/boots/${bootId}/annotations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    onSuccess: invalidate,
  });
  const remove = useMutation({
    mutationFn: (id: number) => fetchJson<{ id: number }>(`${base(incidentId)}/annotations/${id}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
  return { create, remove };
}
