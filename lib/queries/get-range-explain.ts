/**
 * "Explain this range" (lib/explain/rank.ts): a boot's events in [fromMs, toMs) against a
 * baseline, per message template, pod, component and error class.
 *
 * - baseline `before`: the span of the same length just before the range (cut at the boot's
 *   first event: shorter, or empty, near T+0); `boot`: the boot's other events (all of its
 *   events, those without a time too, less the range's).
 * - pods, components and error classes: counted on the boot's rows of each span, one grouped
 *   scan of the (bootId, ts) index per span (`GROUPING SETS`); for `boot`, the boot's stored
 *   facets (counted at ingest, lib/ingest/facet-rows.ts) less the range's counts.
 * - templates: a span of at most `EXACT_MAX` events has its messages read and each counted for
 *   the stored template it joins (lib/explain/assign.ts): exact. A larger span is estimated from
 *   the stored per-template histograms (`LogPattern.buckets`, lib/explain/rank.ts
 *   `histogramCount`): exact to the bucket, whose width is a minute or more. `boot` takes the
 *   stored totals less the range's counts.
 *
 * Each template row carries its key (the timeline's `pat`); a component row its lane.
 */
import { getDb } from "@/lib/db/connection";
import type { DbHandles } from "../db/connection";
import { readBootFacets } from "../incidents/boot-facets";
import { bootPatterns } from "../incidents/boot-patterns";
import { TemplateCounter } from "../explain/assign";
import { EXPLAIN_DIMENSIONS, histogramCount, type RangeCount, rankOverRepresented, type TExplainDimension, type TExplainRow } from "../explain/rank";
import type { MergedPattern } from "../patterns/merge";
import type { TExplainBaseline } from "../view/view-state";

/** Events of a span read to count its templates exactly; past it, the histograms estimate. */
export const EXACT_MAX = 30_000;

// the baselines are part of the timeline's view state (the URL's `xbase`), re-exported for the route
export { EXPLAIN_BASELINES, type TExplainBaseline } from "../view/view-state";

export interface TRangeExplainRow extends TExplainRow {
  /** a template's key (null: a template the boot's stored ones do not hold), a component's lane; else null */
  key: string | null;
  lane: string | null;
}

export interface TRangeExplain {
  bootId: number;
  range: { fromMs: number; toMs: number; events: number };
  baseline: { kind: TExplainBaseline; fromMs: number; toMs: number; events: number };
  /** how each side's templates were counted */
  patternsCounted: { range: "exact" | "histogram"; baseline: "exact" | "histogram" };
  /** per dimension, most over-represented first */
  rows: Record<TExplainDimension, TRangeExplainRow[]>;
}

interface Span {
  total: number;
  /** per dimension (not pattern), value → events */
  values: Record<Exclude<TExplainDimension, "pattern">, Map<string, number>>;
  lanes: Map<string, string>;
}

const DIM_BITS: Array<[number, Exclude<TExplainDimension, "pattern">]> = [
  [3, "pod"],
  [5, "component"],
  [6, "errorClass"],
];

/** One grouped scan: the span's event count and its events per pod, component (with its lane) and error class. */
async function countSpan(db: DbHandles, bootId: number, fromMs: number, toMs: number): Promise<Span> {
  const rows = await db.sql.query<{ g: number; pod: string | null; component: string | null; errorClass: string | null; lane: string | null; n: number }>(
    `SELECT GROUPING(pod, component, "errorClass") AS g, pod, component, "errorClass", min(lane) AS lane, count(*)::int AS n
     FROM "Event" WHERE "bootId" = $1 AND ts >= $2::timestamptz AND ts < $3::timestamptz
     GROUP BY GROUPING SETS ((pod), (component), ("errorClass"), ())`,
    [bootId, new Date(fromMs).toISOString(), new Date(toMs).toISOString()],
  );
  const span: Span = { total: 0, values: { pod: new Map(), component: new Map(), errorClass: new Map() }, lanes: new Map() };
  for (const r of rows) {
    const g = Number(r.g);
    if (g === 7) span.total = r.n;
    for (const [bits, dim] of DIM_BITS) {
      const v = r[dim];
      if (g !== bits || v === null) continue;
      span.values[dim].set(v, r.n);
      if (dim === "component" && r.lane) span.lanes.set(v, r.lane);
    }
  }
  return span;
}

/** The boot's counts over all of its events (the `boot` baseline), from its stored facets (lib/incidents/boot-facets.ts). */
async function wholeBoot(db: DbHandles, incidentId: string, bootId: number): Promise<Span> {
  const facets = (await readBootFacets(db, incidentId, [bootId], ["pod", "component", "errorClass"])).get(bootId);
  const span: Span = { total: 0, values: { pod: new Map(), component: new Map(), errorClass: new Map() }, lanes: new Map() };
  for (const [, dim] of DIM_BITS) for (const [v, c] of facets?.get(dim) ?? []) span.values[dim].set(v, c.n);
  // every event has a component: their counts add up to the boot's events
  for (const [v, c] of facets?.get("component") ?? []) {
    span.total += c.n;
    if (c.lane) span.lanes.set(v, c.lane);
  }
  return span;
}

/** A span's events per template key: its messages matched when they are few, else the histograms. */
async function countTemplates(
  db: DbHandles,
  bootId: number,
  own: MergedPattern[],
  fromMs: number,
  toMs: number,
  events: number,
  exactMax: number,
): Promise<{ how: "exact" | "histogram"; counts: Map<string, { key: string | null; template: string; count: number }> }> {
  if (events <= exactMax) {
    const counter = new TemplateCounter(own);
    if (events > 0) {
      // the miner reads a message's first 600 characters (lib/patterns/mask.ts); one more tells a cut
      const rows = await db.sql.query<{ m: string }>(
        `SELECT left(message, 601) AS m FROM "Event" WHERE "bootId" = $1 AND ts >= $2::timestamptz AND ts < $3::timestamptz`,
        [bootId, new Date(fromMs).toISOString(), new Date(toMs).toISOString()],
      );
      for (const r of rows) counter.add(r.m);
    }
    return { how: "exact", counts: counter.counts() };
  }
  const counts = new Map<string, { key: string | null; template: string; count: number }>();
  for (const p of own) {
    const n = histogramCount(p, fromMs, toMs);
    if (n > 0) counts.set(p.key, { key: p.key, template: p.template, count: Math.round(n) });
  }
  return { how: "histogram", counts };
}

/**
 * The explanation of [fromMs, toMs) in boot `bootId` of incident `incidentId` against
 * `baseline`; null when the boot is not the incident's.
 */
export async function getRangeExplain(opts: {
  incidentId: string;
  bootId: number;
  fromMs: number;
  toMs: number;
  baseline: TExplainBaseline;
  /** spans of at most this many events have their templates counted exactly (default `EXACT_MAX`) */
  exactMax?: number;
}): Promise<TRangeExplain | null> {
  const exactMax = opts.exactMax ?? EXACT_MAX;
  const db = await getDb();
  const [boot] = await db.sql.query<{ start: Date }>(`SELECT start FROM "Boot" WHERE id = $1 AND "incidentId" = $2`, [opts.bootId, opts.incidentId]);
  if (!boot) return null;
  const { fromMs, toMs } = opts;
  const [first] = await db.sql.query<{ ms: number | null }>(`SELECT (extract(epoch FROM min(ts)) * 1000)::float8 AS ms FROM "Event" WHERE "bootId" = $1`, [
    opts.bootId,
  ]);
  const startMs = Math.min(new Date(boot.start).getTime(), first?.ms ?? Number.POSITIVE_INFINITY);
  const before = { fromMs: Math.min(fromMs, Math.max(startMs, fromMs - (toMs - fromMs))), toMs: fromMs };
  const [own, range] = await Promise.all([bootPatterns(db, opts.incidentId, opts.bootId), countSpan(db, opts.bootId, fromMs, toMs)]);
  const base = opts.baseline === "before" ? await countSpan(db, opts.bootId, before.fromMs, before.toMs) : await wholeBoot(db, opts.incidentId, opts.bootId);
  const isBoot = opts.baseline === "boot";
  const rangeT = await countTemplates(db, opts.bootId, own, fromMs, toMs, range.total, exactMax);
  const baseT = isBoot
    ? {
        how: rangeT.how,
        counts: new Map(
          own.map((p) => [p.key, { key: p.key as string | null, template: p.template, count: Math.max(0, p.count - (rangeT.counts.get(p.key)?.count ?? 0)) }]),
        ),
      }
    : await countTemplates(db, opts.bootId, own, before.fromMs, before.toMs, base.total, exactMax);

  const totals: RangeCount = { range: range.total, baseline: isBoot ? Math.max(0, base.total - range.total) : base.total };
  const rows = {} as TRangeExplain["rows"];
  const templateOf = new Map<string, { key: string | null; template: string }>();
  for (const dim of EXPLAIN_DIMENSIONS) {
    const counts = new Map<string, RangeCount>();
    if (dim === "pattern") {
      for (const [k, c] of rangeT.counts) {
        templateOf.set(k, c);
        counts.set(k, { range: c.count, baseline: baseT.counts.get(k)?.count ?? 0 });
      }
    } else {
      for (const [v, n] of range.values[dim]) {
        const b = base.values[dim].get(v) ?? 0;
        counts.set(v, { range: n, baseline: isBoot ? Math.max(0, b - n) : b });
      }
    }
    rows[dim] = rankOverRepresented(dim, counts, totals).map((r) => {
      const t = dim === "pattern" ? templateOf.get(r.value) : undefined;
      return {
        ...r,
        value: t ? t.template : r.value,
        key: t ? t.key : null,
        lane: dim === "component" ? (range.lanes.get(r.value) ?? null) : null,
      };
    });
  }
  return {
    bootId: opts.bootId,
    range: { fromMs, toMs, events: range.total },
    baseline: isBoot
      ? { kind: "boot", fromMs: startMs, toMs: Math.max(toMs, startMs), events: totals.baseline }
      : { kind: "before", fromMs: before.fromMs, toMs: before.toMs, events: base.total },
    patternsCounted: { range: rangeT.how, baseline: baseT.how },
    rows,
  };
}
