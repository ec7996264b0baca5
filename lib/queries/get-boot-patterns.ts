/**
 * The timeline's patterns panel: a boot's message templates (its bundles merged) with count,
 * first and last T+, lanes, components and a sparkline over the boot, plus "new in this boot"
 * (lib/patterns/new-in-boot.ts) against the node's previous boot or the other nodes. Reads the
 * incident's `LogPattern` rows only (no event), so it costs the same whatever the boot's size.
 */
import { getDb } from "@/lib/db/connection";
import { bootSpans, readPatternRows } from "../incidents/boot-patterns";
import { mergePatterns, sparkline, templatesMatch } from "../patterns/merge";
import { type ChangedPattern, type NewInBoot, newInBoot } from "../patterns/new-in-boot";

/** Sparkline bins per template by default. */
export const PATTERN_BINS = 40;

export interface TPatternRow {
  key: string;
  template: string;
  count: number;
  /** seconds after T+0 of the first and last event (null: none had a time) */
  firstT: number | null;
  lastT: number | null;
  /** id of the first event (BIGINT as text) */
  firstId: string;
  lanes: string[];
  components: string[];
  /** events per equal bin of [T+0, end of the boot] */
  spark: number[];
  /** not logged by the baseline (`TBootPatterns.baseline`) */
  new: boolean;
}

export interface TBootPatterns {
  bootId: number;
  /** T+0 and the boot's end, UTC ms (the sparklines' span) */
  startMs: number;
  endMs: number;
  patterns: TPatternRow[];
  baseline: NewInBoot["baseline"];
  new: ChangedPattern[];
  stopped: ChangedPattern[];
}

/** The panel's data for boot `bootId` of incident `incidentId` (an empty list for a boot it does not have). */
export async function getBootPatterns(opts: { incidentId: string; bootId: number; bins?: number }): Promise<TBootPatterns> {
  const db = await getDb();
  const [spans, rows] = await Promise.all([bootSpans(db, opts.incidentId), readPatternRows(db, opts.incidentId)]);
  const boot = spans.find((b) => b.id === opts.bootId);
  if (!boot) return { bootId: opts.bootId, startMs: 0, endMs: 0, patterns: [], baseline: { kind: "none" }, new: [], stopped: [] };
  const own = mergePatterns(rows.get(boot.id) ?? []);
  const endMs = Math.max(boot.end ?? boot.start, ...own.map((p) => p.lastTs ?? boot.start), boot.start + 1000);
  const fresh = newInBoot(boot, spans, rows);
  const t = (ms: number | null) => (ms === null ? null : (ms - boot.start) / 1000);
  return {
    bootId: boot.id,
    startMs: boot.start,
    endMs,
    patterns: own.map((p) => ({
      key: p.key,
      template: p.template,
      count: p.count,
      firstT: t(p.firstTs),
      lastT: t(p.lastTs),
      firstId: String(p.firstId),
      lanes: p.lanes,
      components: p.components,
      spark: sparkline(p, boot.start, endMs, opts.bins ?? PATTERN_BINS),
      new: fresh.new.some((n) => templatesMatch(n.template, p.template)),
    })),
    baseline: fresh.baseline,
    new: fresh.new,
    stopped: fresh.stopped,
  };
}
