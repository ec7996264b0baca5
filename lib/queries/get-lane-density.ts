/**
 * Event density per lane per time bucket over a visible range of one node boot: the
 * timeline chart's data, aggregated in SQL, not in the browser. One
 * query, the same text on PostgreSQL and PGlite; it reads the (bootId, ts) index for
 * the range (the boot is checked against the incident once).
 */
import { getDb } from "@/lib/db/connection";
import { bucketGrid, TARGET_BUCKETS } from "../view/buckets";
import { LANES, type TLane } from "../view/lanes";

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
  /** bucket start, UTC ms */
  t: number;
  n: number;
  errors: number;
}

// date_bin puts each event in its bucket (origin = start of bucket 0); no ORDER BY so the
// planner can hash the (few) groups instead of sorting every row: the caller orders them.
const SQL = `
SELECT e.lane,
       (extract(epoch FROM date_bin(make_interval(secs => $6::float8 / 1000), e.ts, $5::timestamptz)) * 1000)::float8 AS t,
       count(*)::int AS n,
       (count(*) FILTER (WHERE e.severity >= 3))::int AS errors
FROM "Event" e
WHERE e."bootId" = (SELECT b.id FROM "Boot" b WHERE b.id = $2 AND b."incidentId" = $1)
  AND e.ts >= $3::timestamptz
  AND e.ts < $4::timestamptz
  AND e.lane = ANY($7::text[])
GROUP BY e.lane, date_bin(make_interval(secs => $6::float8 / 1000), e.ts, $5::timestamptz)`;

// Buckets of whole seconds come from the per-second rollup written at ingest
// (EventDensity), so the cost does not grow with the number of events in the range.
// Buckets are aligned to the epoch, so every second falls into exactly one bucket.
const ROLLUP_SQL = `
SELECT d.lane,
       ((d.sec * 1000 - $5::bigint) / $6::bigint * $6::bigint + $5::bigint)::float8 AS t,
       sum(d.n)::int AS n,
       sum(d.errors)::int AS errors
FROM "EventDensity" d
WHERE d."bootId" = (SELECT b.id FROM "Boot" b WHERE b.id = $2 AND b."incidentId" = $1)
  AND d.sec >= $3::bigint
  AND d.sec < $4::bigint
  AND d.lane = ANY($7::text[])
GROUP BY 1, 2`;

/**
 * Density of events per lane and bucket in [fromMs, toMs) (UTC ms) for one boot. Buckets
 * of a second or more read the rollup (the seconds that hold `fromMs` and `toMs` are
 * counted whole); finer buckets count the events themselves.
 */
export async function getLaneDensity(opts: TLaneDensityOptions): Promise<TLaneDensity> {
  const lanes = LANES.filter((l) => (opts.lanes ?? LANES).includes(l));
  const grid = bucketGrid(opts.fromMs, opts.toMs, opts.buckets ?? TARGET_BUCKETS);
  const { sql } = await getDb();
  const rollup = grid.bucketMs >= 1000 && grid.bucketMs % 1000 === 0;
  const rows = rollup
    ? await sql.query<Row>(ROLLUP_SQL, [
        opts.incidentId,
        opts.bootId,
        Math.floor(opts.fromMs / 1000),
        Math.ceil(opts.toMs / 1000),
        grid.startMs,
        grid.bucketMs,
        lanes,
      ])
    : await sql.query<Row>(SQL, [
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
    s.buckets.push([Math.round((Number(r.t) - grid.startMs) / grid.bucketMs), n, errors]);
    s.total += n;
    s.errors += errors;
    if (n > s.max) s.max = n;
  }
  for (const s of byLane.values()) s.buckets.sort((a, b) => a[0] - b[0]);
  return { fromMs: opts.fromMs, toMs: opts.toMs, ...grid, lanes: [...byLane.values()] };
}
