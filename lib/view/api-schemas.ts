/**
 * Input schemas of the timeline's read API (strict: bad input is a 400, unlike the
 * forgiving URL view state). Shared by route handlers and the client's URL builders.
 */
import { z } from "zod";
import { MAX_BUCKETS } from "./buckets";
import { LANES } from "./lanes";
import { MAX_POD, MAX_SEARCH, TEXT_MATCHES, ZEventId, ZFindingId, ZInstant, ZKind, ZLanes, ZPatternKey, ZPatternKeys } from "./view-state";

export const ZIncidentId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "not an incident id");
export const ZBootId = z.coerce.number().int().positive().max(2_147_483_647);
export const ZEventIdParam = ZEventId;

export const ZIncidentParams = z.object({ incidentId: ZIncidentId });
export const ZBootParams = z.object({ incidentId: ZIncidentId, bootId: ZBootId });
export const ZEventParams = z.object({ incidentId: ZIncidentId, eventId: ZEventIdParam });
export const ZFindingParams = z.object({ incidentId: ZIncidentId, findingId: ZFindingId });

/** `from`/`to` (UTC ms or zoned ISO), `lanes` (comma list, default all). */
export const ZRangeQuery = z
  .object({
    from: ZInstant,
    to: ZInstant,
    lanes: ZLanes.optional().transform((v) => v ?? [...LANES]),
  })
  .refine((v) => v.from < v.to, { message: "from must be before to", path: ["to"] });

export const ZDensityQuery = ZRangeQuery.and(z.object({ buckets: z.coerce.number().int().min(10).max(MAX_BUCKETS).optional() }));

export const ZEventsFilterQuery = ZRangeQuery.and(
  z.object({
    sev: z.coerce.number().int().min(0).max(4).optional(),
    q: z.string().max(MAX_SEARCH).optional(),
    /** how `q` matches (lib/queries/event-filter.ts); default `substring` */
    match: z.enum(TEXT_MATCHES).optional(),
    pod: z.string().max(MAX_POD).optional(),
    kind: ZKind.optional(),
    /** a message template's key: only its events (lib/queries/pattern-filter.ts) */
    pat: ZPatternKey.optional(),
    /** templates hidden: their keys, comma-separated */
    xpat: ZPatternKeys.optional(),
  }),
);

export const ZEventsPageQuery = ZEventsFilterQuery.and(
  z.object({
    cursor: z.string().max(80).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
  }),
);

export type TRangeQuery = z.infer<typeof ZRangeQuery>;

/** A picture of a view (`timeline.svg`, `timeline.png`): range and lanes optional (default: the whole boot, all lanes). */
export const ZPictureQuery = z.object({
  from: ZInstant.optional(),
  to: ZInstant.optional(),
  lanes: ZLanes.optional(),
  download: z.literal("1").optional(),
});

/** The query string of a request as a plain object (last value wins) for the schemas above. */
export function queryOf(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams);
}

/** A boot's patterns (`…/boots/:bootId/patterns`): sparkline bins per template (default 40). */
export const ZPatternsQuery = z.object({ bins: z.coerce.number().int().min(4).max(200).optional() });
