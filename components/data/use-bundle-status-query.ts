"use client";
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

/** `GET /api/bundles/:bundleId` (the ingest API's status shape). */
export interface TBundleStatus {
  id: string;
  incidentId: string;
  status: "queued" | "parsing" | "ready" | "failed";
  phase: string;
  /** 0..1 of the current phase */
  progress: number;
  error: string | null;
  counts: Record<string, unknown>;
}

export const isBundleDone = (s: TBundleStatus | undefined) => s?.status === "ready" || s?.status === "failed";

/** Polls a bundle's status every `intervalMs` (default 500) until it is ready or failed. */
export function useBundleStatusQuery(bundleId: string | null, intervalMs = 500) {
  return useQuery({
    queryKey: queryKeys.bundle(bundleId ?? ""),
    queryFn: ({ signal }) => fetchJson<TBundleStatus>(`/api/bundles/${encodeURIComponent(bundleId!)}`, { signal }),
    enabled: !!bundleId,
    refetchInterval: (q) => (isBundleDone(q.state.data) ? false : intervalMs),
    refetchIntervalInBackground: true,
    retry: 3,
  });
}
