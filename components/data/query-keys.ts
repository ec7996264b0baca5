/**
 * The one key factory for TanStack Query (one query hook per resource, as umami does):
 * `['lane-density', { … }]` and so on, so invalidation can match by prefix.
 */
import type { TLane } from "@/lib/view/lanes";
import type { TTextMatchMode } from "@/lib/view/view-state";

export interface TRangeKey {
  incidentId: string;
  bootId: number;
  from: number;
  to: number;
  lanes: readonly TLane[];
}

/** The events table's filters on top of a range. */
export interface TEventsFilterKey extends TRangeKey {
  sev: number;
  q: string;
  /** how `q` matches */
  match: TTextMatchMode;
  pod: string;
  kind: string;
  /** the message template shown alone (its key), "" for any; and those hidden */
  pat?: string;
  xpat?: readonly string[];
}

export const queryKeys = {
  incidents: () => ["incidents"] as const,
  incident: (incidentId: string) => ["incident", { incidentId }] as const,
  bundle: (bundleId: string) => ["bundle", { bundleId }] as const,
  laneDensity: (k: TRangeKey & { buckets: number }) => ["lane-density", k] as const,
  eventsPage: (k: TEventsFilterKey) => ["events-page", k] as const,
  eventsCount: (k: TEventsFilterKey) => ["events-count", k] as const,
  eventFacets: (k: TRangeKey) => ["event-facets", k] as const,
  event: (incidentId: string, eventId: string) => ["event", { incidentId, eventId }] as const,
  findingEvidence: (incidentId: string, findingId: number) => ["finding-evidence", { incidentId, findingId }] as const,
  annotations: (incidentId: string, bootId: number) => ["annotations", { incidentId, bootId }] as const,
  bootPatterns: (incidentId: string, bootId: number) => ["boot-patterns", { incidentId, bootId }] as const,
  pastePreview: (k: { textKey: string; name?: string; node?: string; tz?: string; year?: number; collectedMs?: number }) => ["paste-preview", k] as const,
  rangeExplain: (k: { incidentId: string; bootId: number; from: number; to: number; baseline: string }) => ["range-explain", k] as const,
};
