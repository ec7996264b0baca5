/**
 * The one key factory for TanStack Query (STYLE.md "Client data: one query hook per
 * resource"): `['lane-density', { … }]` and so on, so invalidation can match by prefix.
 */
import type { TLane } from "@/lib/timeline/lanes";

export interface TRangeKey {
  incidentId: string;
  bootId: number;
  from: number;
  to: number;
  lanes: readonly TLane[];
}

export const queryKeys = {
  incidents: () => ["incidents"] as const,
  incident: (incidentId: string) => ["incident", { incidentId }] as const,
  bundle: (bundleId: string) => ["bundle", { bundleId }] as const,
  laneDensity: (k: TRangeKey & { buckets: number }) => ["lane-density", k] as const,
  eventsPage: (k: TRangeKey & { sev: number; q: string }) => ["events-page", k] as const,
  eventsCount: (k: TRangeKey & { sev: number; q: string }) => ["events-count", k] as const,
  event: (incidentId: string, eventId: string) => ["event", { incidentId, eventId }] as const,
};
