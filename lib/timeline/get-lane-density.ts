/**
 * Event density per lane per time bucket over a visible range of one node boot: the
 * timeline chart's data, aggregated in SQL (DESIGN.md "Timeline and permalinks"). One
 * query, the same text on PostgreSQL and PGlite; it reads the (incidentId, nodeId, ts)
 * index for the range.
 */
import { getDb } from "@/lib/db/connection";
import { bucketGrid, TARGET_BUCKETS } from "./buckets";
import { LANES, type TLane } from "./lanes";

export interface TLaneDensityOptions {
  incidentId: string;
  bootId: number;
  /** visible range [fromMs, toMs), UTC ms */
  fromMs: number;
  toMs: number;
  lanes?: readonly TLane[];
  /** wanted number of buckets (default 300; the grid gives about 0.75x to 1.9x of it) */
  buckets?: number;
}

export interface TLaneSeries {
  lane: TLane;
  /** events of this lane in the range */
  total: number;
  /** of which severity >= 3 (error, fatal) */
  errors: number;
  /** largest bucket count */
  max: number;
  /** non-empty buckets only: [bucket index, count, errors] */
  buckets: Array<[number, number, number]>;
}

export interface TLaneDensity {
  fromMs: number;
  toMs: number;
  /** bucket width, ms */
  bucketMs: number;
  /** start of bucket 0, UTC ms (aligned to a multiple of bucketMs, <= fromMs) */
  startMs: number;
  /** number of buckets covering the range */
  count: number;
  /** one series per requested lane, in LANES order */
  lanes: TLaneSeries[];
}

interface Row {
  lane: string;
  b: number;
  n: number;
  errors: number;
}

const SQL = `
SELECT e.lane,
       floor(extract(epoch FROM (e.ts - $5::timestamptz)) * 1000 / $6)::int AS b,
       count(*)::int AS n,
       (count(*) FILTER (WHERE e.severity >= 3))::int AS errors
FROM "Event" e
WHERE e."incidentId" = $1
  AND e."nodeId" = (SELECT b."nodeId" FROM "Boot" b WHERE b.id = $2 AND b."incidentId" = $1)
  AND e."bootId" = $2
  AND e.ts >= $3::timestamptz
  AND e.ts < $4::timestamptz
  AND e.lane = ANY($7::text[])
GROUP BY 1, 2
ORDER BY 1, 2`;

/** Density of events per lane and bucket in [fromMs, toMs) (UTC ms) for one boot. */
export async function getLaneDensity(opts: TLaneDensityOptions): Promise<TLaneDensity> {
  const lanes = LANES.filter((l) => (opts.lanes ?? LANES).includes(l));
  const grid = bucketGrid(opts.fromMs, opts.toMs, opts.buckets ?? TARGET_BUCKETS);
  const { sql } = await getDb();
  const rows = await sql.query<Row>(SQL, [
    opts.incidentId,
    opts.bootId,
    new Date(opts.fromMs).toISOString(),
    new Date(opts.toMs).toISOString(),
    new Date(grid.startMs).toISOString(),
    grid.bucketMs,
    lanes,
  ]);
  const byLane = new Map<string, TLaneSeries>(lanes.map((l) => [l, { lane: l, total: 0, errors: 0, max: 0, buckets: [] }]));
  for (const r of rows) {
    const s = byLane.get(r.lane);
    if (!s) continue;
    const n = Number(r.n);
    const errors = Number(r.errors);
    s.buckets.push([Number(r.b), n, errors]);
    s.total += n;
    s.errors += errors;
    if (n > s.max) s.max = n;
  }
  return { fromMs: opts.fromMs, toMs: opts.toMs, ...grid, lanes: [...byLane.values()] };
}
