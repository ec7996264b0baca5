/**
 * A boot's stored facets (`BootFacet`, lib/ingest/facet-rows.ts) read back: per dimension and
 * value, its events summed across the boot's bundles, the earliest time and the lowest event id.
 * A few rows per value and bundle, so the read costs the same on a boot of 500,000 events as on
 * one of 50.
 */
import type { DbHandles } from "../db/connection";
import type { FacetDim } from "../ingest/facet-rows";

export interface FacetCount {
  n: number;
  /** UTC ms, null when no event of the value has a time */
  firstTs: number | null;
  firstId: number;
  /** a component's lane; null for the other dimensions */
  lane: string | null;
}

/** Per boot id, per dimension, value → count, for the boots `bootIds` of incident `incidentId` (a boot with no events: no entry). */
export async function readBootFacets(
  db: DbHandles,
  incidentId: string,
  bootIds: number[],
  dims: readonly FacetDim[],
): Promise<Map<number, Map<FacetDim, Map<string, FacetCount>>>> {
  const rows = await db.sql.query<{ bootId: number; dim: FacetDim; value: string; n: number; first: Date | null; fid: string; lane: string | null }>(
    `SELECT "bootId", dim, value, sum(n)::int AS n, min("firstTs") AS first, min("firstEventId")::text AS fid, min(lane) AS lane
     FROM "BootFacet" WHERE "incidentId" = $1 AND "bootId" = ANY($2::int[]) AND dim = ANY($3::text[])
     GROUP BY "bootId", dim, value`,
    [incidentId, bootIds, [...dims]],
  );
  const out = new Map<number, Map<FacetDim, Map<string, FacetCount>>>();
  for (const r of rows) {
    let boot = out.get(r.bootId);
    if (!boot) out.set(r.bootId, (boot = new Map()));
    let values = boot.get(r.dim);
    if (!values) boot.set(r.dim, (values = new Map()));
    values.set(r.value, { n: r.n, firstTs: r.first === null ? null : new Date(r.first).getTime(), firstId: Number(r.fid), lane: r.lane });
  }
  return out;
}
