"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TEventCounts } from "@/lib/queries/count-events";
import { fetchJson, qs } from "./fetch-json";
import { queryKeys, type TEventsFilterKey } from "./query-keys";

/** A count still under way: `matching` is the exact count of [from, scannedToMs), so a lower bound of the range's. */
export interface TEventsCountProgress {
  total: number;
  matching: number;
  /** UTC ms, exclusive */
  scannedToMs: number;
}

/**
 * `{ total, matching, capped }` for the events table header, exact: the server counts a filtered
 * range in slices of a bounded number of rows (lib/queries/count-events.ts), and this hook asks
 * for the next slice from where the last one stopped until the range is done, adding them up.
 * `progress` says how far it got meanwhile (null when the count is complete or not started).
 */
export function useEventsCountQuery(k: TEventsFilterKey, opts: { enabled?: boolean } = {}) {
  const key = queryKeys.eventsCount(k);
  const keyText = JSON.stringify(key);
  const [progress, setProgress] = useState<{ key: string; p: TEventsCountProgress } | null>(null);
  const q = useQuery({
    queryKey: key,
    queryFn: async ({ signal }): Promise<TEventCounts> => {
      let from = k.from;
      let total: number | null = null;
      let matching = 0;
      for (;;) {
        const r = await fetchJson<TEventCounts>(
          `/api/incidents/${encodeURIComponent(k.incidentId)}/boots/${k.bootId}/events/count${qs({
            from,
            to: k.to,
            lanes: k.lanes,
            sev: k.sev || null,
            q: k.q || null,
            match: k.q ? k.match : null,
            pod: k.pod || null,
            kind: k.kind || null,
            pat: k.pat || null,
            xpat: k.xpat?.length ? k.xpat.join(",") : null,
          })}`,
          { signal },
        );
        total ??= r.total;
        matching += r.matching;
        // the last slice (or a server that does not slice): done
        if (r.scannedToMs == null || r.scannedToMs <= from || r.scannedToMs >= k.to)
          return { total, matching, capped: r.scannedToMs == null ? r.capped : false };
        from = r.scannedToMs;
        if (!signal.aborted) setProgress({ key: keyText, p: { total, matching, scannedToMs: from } });
      }
    },
    enabled: opts.enabled ?? true,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  return { ...q, progress: progress && progress.key === keyText && q.isFetching ? progress.p : null };
}
