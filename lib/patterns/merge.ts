/**
 * Stored patterns merged again (the same Drain tree, drain.ts, fed with templates): the rows of
 * several bundles of one boot become one list, and two sides (two boots, a range and its
 * baseline) become one list with each side's count and first time, so a template mined a little
 * wider in one bundle still meets its narrower twin.
 */
import { coarsen, type PatternStat } from "./boot-miner";
import { Drain, templateText, templateTokens } from "./drain";

/** A merged template: the stats of every side added up, plus each side's own count, first time and first event. */
export interface MergedPattern extends PatternStat {
  /** a short stable key of the template (URL state: `patternKey`) */
  key: string;
  /** per side (index as given to `mergeSides`) */
  sides: Array<{ count: number; firstTs: number | null; firstId: number | null }>;
}

/** FNV-1a 32-bit of the template, base 36: the pattern's key in URLs. */
export function patternKey(template: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < template.length; i++) {
    h ^= template.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

interface Acc {
  stat: PatternStat;
  sides: MergedPattern["sides"];
}

function addBuckets(into: PatternStat, from: PatternStat): void {
  let a = new Map(into.buckets);
  let b = new Map(from.buckets);
  let wa = into.bucketMs;
  let wb = from.bucketMs;
  while (wa < wb) [a, wa] = [coarsen(a), wa * 2];
  while (wb < wa) [b, wb] = [coarsen(b), wb * 2];
  for (const [k, n] of b) a.set(k, (a.get(k) ?? 0) + n);
  into.bucketMs = wa;
  into.buckets = [...a].sort((x, y) => x[0] - y[0]);
}

const minTs = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const maxTs = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * Merges the pattern lists of `sides` (each a list of stored rows, of any bundles); returns the
 * merged templates, most frequent first, with each side's share.
 */
export function mergeSides(sides: PatternStat[][]): MergedPattern[] {
  const n = sides.length;
  const emptySides = () => Array.from({ length: n }, () => ({ count: 0, firstTs: null as number | null, firstId: null as number | null }));
  const d = new Drain<Acc | null>(() => null);
  const accs: Acc[] = [];
  // the most frequent first: they set the templates the rarer ones join
  const all = sides.flatMap((list, side) => list.map((p) => ({ p, side }))).sort((x, y) => y.p.count - x.p.count || x.p.template.localeCompare(y.p.template));
  for (const { p, side } of all) {
    const c = d.add(templateTokens(p.template));
    if (!c.stats) {
      c.stats = { stat: { ...p, lanes: [...p.lanes], components: [...p.components], buckets: [...p.buckets] }, sides: emptySides() };
      accs.push(c.stats);
    } else {
      const s = c.stats.stat;
      if (p.firstTs !== null && (s.firstTs === null || p.firstTs < s.firstTs)) s.firstId = p.firstId;
      s.count += p.count;
      s.firstTs = minTs(s.firstTs, p.firstTs);
      s.lastTs = maxTs(s.lastTs, p.lastTs);
      s.lanes = [...new Set([...s.lanes, ...p.lanes])].sort();
      s.components = [...new Set([...s.components, ...p.components])].sort();
      addBuckets(s, p);
    }
    const sd = c.stats.sides[side];
    if (p.firstTs !== null && (sd.firstTs === null || p.firstTs < sd.firstTs)) sd.firstId = p.firstId;
    else if (sd.firstId === null) sd.firstId = p.firstId;
    sd.count += p.count;
    sd.firstTs = minTs(sd.firstTs, p.firstTs);
  }
  // the tree's clusters hold the final (widest) template text
  const text = new Map<Acc, string>();
  for (const c of d.clusters) if (c.stats) text.set(c.stats, templateText(c.tokens));
  return accs
    .map((a) => {
      const template = text.get(a) ?? a.stat.template;
      return { ...a.stat, template, key: patternKey(template), sides: a.sides };
    })
    .sort((x, y) => y.count - x.count || x.template.localeCompare(y.template));
}

/** One list's rows merged (`mergeSides` with one side). */
export const mergePatterns = (rows: PatternStat[]): MergedPattern[] => mergeSides([rows]);

/**
 * A histogram re-binned into `bins` equal bins over [fromMs, toMs) (a sparkline): counts of the
 * buckets whose start falls in each bin.
 */
export function sparkline(p: Pick<PatternStat, "bucketMs" | "buckets">, fromMs: number, toMs: number, bins: number): number[] {
  const out = new Array<number>(bins).fill(0);
  const span = Math.max(1, toMs - fromMs);
  for (const [k, n] of p.buckets) {
    const t = k * p.bucketMs;
    const i = Math.floor(((t - fromMs) / span) * bins);
    out[Math.max(0, Math.min(bins - 1, i))] += n;
  }
  return out;
}

/**
 * `ILIKE`-free `LIKE` patterns (with `\` escapes) that match the messages of a template: the
 * first line is the template with each wildcard as `%`; a message with further lines matches
 * the second. A superset: a wildcard also matches spaces.
 */
export function likePatterns(template: string): [string, string] {
  const esc = template
    .split(" ")
    .map((t) => t.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll("<*>", "%"))
    .join(" ");
  return [esc, `${esc}\n%`];
}

/** True when templates `a` and `b` may stand for the same message: as many tokens, each equal or holding a wildcard on either side. */
export function templatesMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const x = templateTokens(a);
  const y = templateTokens(b);
  return x.length === y.length && x.every((t, i) => t === y[i] || t.includes("<*>") || y[i].includes("<*>"));
}
