/**
 * The stored patterns (`LogPattern`, lib/patterns) read back: one query for the rows of an
 * incident's boots (or some of them), merged per boot across its bundles; "new in this boot" for
 * every boot of an incident. The rows are few per boot (one per template and bundle), so these
 * reads cost the same on a boot of 500,000 events as on one of 50.
 */
import type { DbHandles } from "../db/connection";
import type { PatternStat } from "../patterns/boot-miner";
import { type MergedPattern, mergePatterns, templatesMatch } from "../patterns/merge";
import { type BootSpan, newInBoot, type NewInBoot } from "../patterns/new-in-boot";

interface Row {
  bootId: number;
  template: string;
  count: number;
  firstTs: Date | null;
  lastTs: Date | null;
  firstEventId: string;
  lanes: string;
  components: string;
  bucketMs: number;
  buckets: string;
}

const ms = (d: Date | null) => (d === null ? null : new Date(d).getTime());

/** The stored rows of incident `incidentId` by boot id (of `bootIds` only when given). */
export async function readPatternRows(db: DbHandles, incidentId: string, bootIds?: number[]): Promise<Map<number, PatternStat[]>> {
  const rows = await db.sql.query<Row>(
    `SELECT "bootId", template, count, "firstTs", "lastTs", "firstEventId"::text AS "firstEventId", lanes, components, "bucketMs", buckets
     FROM "LogPattern" WHERE "incidentId" = $1 ${bootIds ? `AND "bootId" = ANY($2::int[])` : ""}
     ORDER BY "bootId", count DESC, template, id`,
    bootIds ? [incidentId, bootIds] : [incidentId],
  );
  const out = new Map<number, PatternStat[]>();
  for (const r of rows) {
    let list = out.get(r.bootId);
    if (!list) out.set(r.bootId, (list = []));
    list.push({
      template: r.template,
      count: r.count,
      firstTs: ms(r.firstTs),
      lastTs: ms(r.lastTs),
      firstId: Number(r.firstEventId),
      lanes: r.lanes ? r.lanes.split(",") : [],
      components: r.components ? r.components.split(",") : [],
      bucketMs: r.bucketMs,
      buckets: JSON.parse(r.buckets) as Array<[number, number]>,
    });
  }
  return out;
}

/** One boot's patterns, its bundles merged, most events first (empty for a boot of another incident). */
export async function bootPatterns(db: DbHandles, incidentId: string, bootId: number): Promise<MergedPattern[]> {
  return mergePatterns((await readPatternRows(db, incidentId, [bootId])).get(bootId) ?? []);
}

/** The incident's boots as the comparisons need them. */
export async function bootSpans(db: DbHandles, incidentId: string): Promise<BootSpan[]> {
  const rows = await db.sql.query<{ id: number; nodeId: number; start: Date; end: Date | null }>(
    `SELECT id, "nodeId", start, "end" FROM "Boot" WHERE "incidentId" = $1 ORDER BY start, id`,
    [incidentId],
  );
  return rows.map((r) => ({ id: r.id, nodeId: r.nodeId, start: new Date(r.start).getTime(), end: ms(r.end) }));
}

/** "New in this boot" for every boot of the incident (lib/patterns/new-in-boot.ts), by boot id. */
export async function newInIncident(db: DbHandles, incidentId: string): Promise<Map<number, NewInBoot>> {
  const [boots, rows] = await Promise.all([bootSpans(db, incidentId), readPatternRows(db, incidentId)]);
  return new Map(boots.map((b) => [b.id, newInBoot(b, boots, rows)]));
}

/** One boot's top "new" templates for the incident page, each with the key its timeline's filter knows. */
export interface TNewInBootSummary {
  bootId: number;
  baseline: NewInBoot["baseline"]["kind"];
  /** how many templates are new in all */
  newCount: number;
  stoppedCount: number;
  top: Array<{ template: string; key: string; count: number; firstT: number | null; firstId: string | null }>;
}

/**
 * "New in this boot" for every boot of the incident with a baseline, the `top` most frequent new
 * templates each; their `key` is the one the boot's own patterns give the template (the timeline's
 * `pat`), since the comparison's merge may word a template a little wider.
 */
export async function newInBootsSummary(db: DbHandles, incidentId: string, top = 5): Promise<Map<number, TNewInBootSummary>> {
  const [boots, rows] = await Promise.all([bootSpans(db, incidentId), readPatternRows(db, incidentId)]);
  const out = new Map<number, TNewInBootSummary>();
  for (const b of boots) {
    const r = newInBoot(b, boots, rows);
    if (r.baseline.kind === "none") continue;
    const own = mergePatterns(rows.get(b.id) ?? []);
    out.set(b.id, {
      bootId: b.id,
      baseline: r.baseline.kind,
      newCount: r.new.length,
      stoppedCount: r.stopped.length,
      top: r.new.slice(0, top).map((p) => ({
        template: p.template,
        key: own.find((o) => templatesMatch(o.template, p.template))?.key ?? p.key,
        count: p.count,
        firstT: p.firstT,
        firstId: p.firstId === null ? null : String(p.firstId),
      })),
    });
  }
  return out;
}
