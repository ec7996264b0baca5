/**
 * The patterns of the events of one bundle, per boot, mined as the rows are formatted on the
 * ingest threads (lib/ingest/node-task.ts `nodeRows`): one Drain tree per boot (drain.ts),
 * and per template its count, first and last time, first event id, lanes, components and a
 * sparse histogram (`buckets`). `PatternStat` rows are what is stored (`LogPattern`, one per
 * boot, bundle and template); merge.ts merges them again across bundles and boots.
 */
import { Drain, templateText } from "./drain";

/** Widest histogram kept per template: past it, buckets double in width (`bucketMs`). */
export const MAX_BUCKETS = 240;
/** Width of a histogram bucket to start with, ms. */
export const BUCKET_MS = 60_000;

/** What one template holds, as stored. */
export interface PatternStat {
  template: string;
  count: number;
  /** first and last event time, UTC ms (null when no event had one) */
  firstTs: number | null;
  lastTs: number | null;
  /** id of the template's earliest event (of the first without a time when none had one) */
  firstId: number;
  lanes: string[];
  components: string[];
  /** histogram: bucket width, ms (`BUCKET_MS` doubled as often as needed) */
  bucketMs: number;
  /** [bucket index (epoch ms / bucketMs, floored), events] pairs, by index */
  buckets: Array<[number, number]>;
}

interface Stat {
  count: number;
  firstTs: number | null;
  lastTs: number | null;
  firstId: number;
  lanes: Set<string>;
  components: Set<string>;
  bucketMs: number;
  buckets: Map<number, number>;
}

const newStat = (): Stat => ({
  count: 0,
  firstTs: null,
  lastTs: null,
  firstId: -1,
  lanes: new Set(),
  components: new Set(),
  bucketMs: BUCKET_MS,
  buckets: new Map(),
});

/** Halves a histogram's resolution (bucket width doubled). */
export function coarsen(buckets: Map<number, number>): Map<number, number> {
  const out = new Map<number, number>();
  for (const [k, n] of buckets) {
    const j = Math.floor(k / 2);
    out.set(j, (out.get(j) ?? 0) + n);
  }
  return out;
}

/** The event fields the miner reads. */
export interface MinedEvent {
  message: string;
  ts: number | null;
  lane: string;
  component: string;
}

/** Mines the events of several boots (by boot id) as they come. */
export class BootMiners {
  private readonly boots = new Map<number, Drain<Stat>>();

  /** One event of boot `bootId`, with its event id. */
  add(bootId: number, e: MinedEvent, id: number): void {
    let d = this.boots.get(bootId);
    if (!d) this.boots.set(bootId, (d = new Drain(newStat)));
    const s = d.addMessage(e.message).stats;
    s.count++;
    s.lanes.add(e.lane);
    s.components.add(e.component);
    if (e.ts === null) {
      if (s.firstId < 0) s.firstId = id;
      return;
    }
    if (s.firstTs === null || e.ts < s.firstTs) {
      s.firstTs = e.ts;
      s.firstId = id;
    }
    if (s.lastTs === null || e.ts > s.lastTs) s.lastTs = e.ts;
    const k = Math.floor(e.ts / s.bucketMs);
    s.buckets.set(k, (s.buckets.get(k) ?? 0) + 1);
    while (s.buckets.size > MAX_BUCKETS) {
      s.buckets = coarsen(s.buckets);
      s.bucketMs *= 2;
    }
  }

  /** Every boot's templates, most frequent first. */
  result(): Array<{ bootId: number; patterns: PatternStat[] }> {
    return [...this.boots].map(([bootId, d]) => ({
      bootId,
      patterns: d.clusters
        .map(({ tokens, stats: s }) => ({
          template: templateText(tokens),
          count: s.count,
          firstTs: s.firstTs,
          lastTs: s.lastTs,
          firstId: s.firstId,
          lanes: [...s.lanes].sort(),
          components: [...s.components].sort(),
          bucketMs: s.bucketMs,
          buckets: [...s.buckets].sort((a, b) => a[0] - b[0]),
        }))
        .sort((a, b) => b.count - a.count || a.template.localeCompare(b.template)),
    }));
  }
}
