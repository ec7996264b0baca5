/**
 * What was checked on each node boot and found, for boots with no finding: a healthy boot says
 * so in numbers (no sandbox failure window, failed sandbox attempts 0, the milestones seen with
 * their T+ times) instead of an empty list. One query for the failure counts (the kinds
 * lib/model/event-kinds.ts marks `failure`) and one for the
 * milestones (the first event of each kind of lib/model/event-kinds.ts `MILESTONES` per boot).
 */
import type { DbHandles } from "../db/connection";
import { DETECTORS } from "../detect/index";
import { FAILURE_KINDS, MILESTONES } from "../model/event-kinds";

/** One boot's checks: counts of failure lines by kind and the milestones seen (UTC ms). */
export interface TBootCheck {
  bootId: number;
  /** failed sandbox creation lines (`sandbox.create.failed`) */
  failedCreations: number;
  /** other failure lines: every other kind the kind table marks a failure (failed stops, CNI ADD/DEL failures, network not ready, runtime unhealthy, failed image pulls) */
  otherFailures: number;
  milestones: Array<{ label: string; ts: number }>;
}

/** The detectors that ran on every boot, by display name. */
export const CHECKED_BY: string[] = DETECTORS.map((d) => d.title);

/** Checks of every boot of incident `incidentId`, by boot id. */
export async function getBootChecks(db: DbHandles, incidentId: string): Promise<Map<number, TBootCheck>> {
  const kinds = MILESTONES.map((m) => m.kind as string);
  const [counts, firsts] = await Promise.all([
    db.sql.query<{ bootId: number; kind: string; n: string }>(
      `SELECT "bootId", kind, count(*)::text AS n FROM "Event"
       WHERE "incidentId" = $1 AND "bootId" IS NOT NULL AND kind = ANY($2::text[])
       GROUP BY "bootId", kind`,
      [incidentId, [...FAILURE_KINDS]],
    ),
    db.sql.query<{ bootId: number; kind: string; ts: number }>(
      `SELECT DISTINCT ON ("bootId", kind) "bootId", kind, (extract(epoch FROM ts) * 1000)::float8 AS ts FROM "Event"
       WHERE "incidentId" = $1 AND "bootId" IS NOT NULL AND kind = ANY($2::text[]) AND kind <> 'log' AND ts IS NOT NULL
       ORDER BY "bootId", kind, ts`,
      [incidentId, kinds],
    ),
  ]);
  const out = new Map<number, TBootCheck>();
  const of = (bootId: number) => {
    let c = out.get(bootId);
    if (!c) out.set(bootId, (c = { bootId, failedCreations: 0, otherFailures: 0, milestones: [] }));
    return c;
  };
  for (const r of counts) {
    const c = of(r.bootId);
    if (r.kind === "sandbox.create.failed") c.failedCreations += Number(r.n);
    else c.otherFailures += Number(r.n);
  }
  for (const r of firsts) of(r.bootId).milestones.push({ label: MILESTONES.find((m) => m.kind === r.kind)!.label, ts: Number(r.ts) });
  for (const c of out.values()) c.milestones.sort((a, b) => a.ts - b.ts);
  return out;
}

/**
 * One boot's checks as short phrases: `sandbox failure window: none`, `failed sandbox attempts: 0`,
 * other failure lines when there are any, and the milestones with their T+ seconds (`kernel start
 * T+0.000 s`), or that none was seen. `bootStartMs` is the boot's T+0.
 */
export function bootCheckPhrases(c: TBootCheck | undefined, bootStartMs: number): { facts: string[]; milestones: string[] } {
  const failed = c?.failedCreations ?? 0;
  const other = c?.otherFailures ?? 0;
  const facts = ["sandbox failure window: none", `failed sandbox attempts: ${failed}`];
  if (other) facts.push(`other failure lines: ${other}`);
  const milestones = (c?.milestones ?? []).map((m) => {
    const s = (m.ts - bootStartMs) / 1000;
    return `${m.label} T${s < 0 ? "-" : "+"}${Math.abs(s).toFixed(3)} s`;
  });
  return { facts, milestones };
}
