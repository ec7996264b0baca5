/**
 * "What changed" between two boots of an incident (lib/patterns/diff.ts): their stored patterns
 * merged, and their events' kinds, error classes and components from the boots' stored facets
 * (lib/incidents/boot-facets.ts; the first event of a value is its lowest id: the first stored).
 * Each row carries, per boot, the timeline path at its first event (filtered to the template or
 * the kind when the row is one).
 */
import { getDb } from "@/lib/db/connection";
import { readBootFacets } from "../incidents/boot-facets";
import { readPatternRows } from "../incidents/boot-patterns";
import { diffPatterns, diffValues, type TDiffDimension, type TDiffRow, type ValueCount } from "../patterns/diff";
import { mergePatterns, templatesMatch } from "../patterns/merge";
import { bootPath } from "../view/view-state";

export interface TBootDiffRow extends TDiffRow {
  /** the row's timeline links in each boot (null where the boot has none of it) */
  hrefA: string | null;
  hrefB: string | null;
}

export interface TBootDiff {
  a: { id: number; node: string; bootKey: string };
  b: { id: number; node: string; bootKey: string };
  rows: TBootDiffRow[];
}

const DIMS = ["kind", "errorClass", "component"] as const satisfies readonly TDiffDimension[];

/** The diff of boots `a` and `b` of incident `incidentId`; null when either is not one of its boots. */
export async function getBootDiff(opts: { incidentId: string; a: number; b: number }): Promise<TBootDiff | null> {
  const db = await getDb();
  const boots = await db.sql.query<{ id: number; start: Date; node: string; bootKey: string }>(
    `SELECT b.id, b.start, n.name AS node, b."bootKey" FROM "Boot" b JOIN "Node" n ON n.id = b."nodeId" WHERE b."incidentId" = $1 AND b.id = ANY($2::int[])`,
    [opts.incidentId, [opts.a, opts.b]],
  );
  const ba = boots.find((x) => x.id === opts.a);
  const bb = boots.find((x) => x.id === opts.b);
  if (!ba || !bb) return null;
  const starts = { a: new Date(ba.start).getTime(), b: new Date(bb.start).getTime() };
  const rows = await readPatternRows(db, opts.incidentId, [ba.id, bb.id]);
  const ra = rows.get(ba.id) ?? [];
  const rb = rows.get(bb.id) ?? [];
  const out: TDiffRow[] = diffPatterns(ra, rb, starts);
  const facets = await readBootFacets(db, opts.incidentId, [ba.id, bb.id], DIMS);
  for (const dim of DIMS) {
    const side = (bootId: number) => {
      const m = new Map<string, ValueCount>();
      for (const [value, c] of facets.get(bootId)?.get(dim) ?? []) m.set(value, { count: c.n, firstTs: c.firstTs, firstId: c.firstId });
      return m;
    };
    out.push(...diffValues(dim, side(ba.id), side(bb.id), starts));
  }
  const own = { a: mergePatterns(ra), b: mergePatterns(rb) };
  const href = (r: TDiffRow, which: "a" | "b") => {
    const s = r[which];
    const boot = which === "a" ? ba : bb;
    if (!s.count || s.firstId === null) return null;
    const view: Parameters<typeof bootPath>[3] = { ev: String(s.firstId) };
    if (r.dimension === "pattern") view.pat = own[which].find((p) => templatesMatch(p.template, r.value))?.key ?? null;
    if (r.dimension === "kind") view.kind = r.value;
    return bootPath(opts.incidentId, boot.node, boot.bootKey, view);
  };
  return {
    a: { id: ba.id, node: ba.node, bootKey: ba.bootKey },
    b: { id: bb.id, node: bb.node, bootKey: bb.bootKey },
    rows: out.map((r) => ({ ...r, hrefA: href(r, "a"), hrefB: href(r, "b") })),
  };
}
