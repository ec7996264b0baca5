/**
 * What the compare page needs for each boot (several nodes or boots side by side on
 * T+seconds): node, boot N of M, T+0, the data's extent as offsets
 * from T+0, failure windows and milestones (as offsets too), so every boot lines up on one
 * T+ axis. Boots that are not in the incident are listed in `missing`, not an error: a
 * damaged link still opens with what is there. `ApiError("not_found")` for no incident.
 */
import { getDb } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";
import { getBootViewById } from "./get-boot-view";
import { FAILURE_WINDOW_DETECTOR } from "../view/lanes";
import type { EventKind } from "../model/event-kinds";

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

export interface TCompareBoot {
  id: number;
  node: string;
  bootKey: string;
  /** 1-based position among the node's boots, and their number */
  index: number;
  count: number;
  /** T+0, UTC ms */
  t0: number;
  startApprox: boolean;
  /** the boot's whole range as offsets from T+0, ms */
  fromOffset: number;
  toOffset: number;
  /** sandbox failure windows as offsets from T+0, ms (end null: open to the end of data) */
  windows: Array<{ id: number; start: number; end: number | null; attempts?: number; pods?: number; errorClass?: string }>;
  /** end of the boot's data as an offset, ms */
  dataEnd: number;
  milestones: Array<{ kind: EventKind; label: string; at: number }>;
}

export interface TCompareView {
  incident: { id: string; title: string };
  boots: TCompareBoot[];
  /** asked-for ids that are not boots of this incident */
  missing: number[];
  /** the union of the boots' ranges, offsets in ms */
  extent: { fromOffset: number; toOffset: number };
}

export async function getCompareView(opts: { incidentId: string; bootIds: readonly number[] }): Promise<TCompareView> {
  const { prisma } = await getDb();
  const inc = await prisma.incident.findUnique({ where: { id: opts.incidentId }, select: { id: true, title: true } });
  if (!inc) throw new ApiError("not_found", "incident not found");
  const boots: TCompareBoot[] = [];
  const missing: number[] = [];
  // one boot at a time: each is a handful of small queries
  for (const id of opts.bootIds) {
    try {
      const v = await getBootViewById({ incidentId: inc.id, bootId: id });
      const t0 = v.boot.startMs;
      const dataEndMs = v.extent?.lastMs ?? v.boot.endMs ?? v.range.toMs;
      boots.push({
        id,
        node: v.node.name,
        bootKey: v.boot.bootKey,
        index: v.boot.index,
        count: v.boot.count,
        t0,
        startApprox: v.boot.startApprox,
        fromOffset: v.range.fromMs - t0,
        toOffset: v.range.toMs - t0,
        windows: v.findings
          .filter((f) => f.detector === FAILURE_WINDOW_DETECTOR)
          .sort((a, b) => a.startMs - b.startMs)
          .map((f) => ({
            id: f.id,
            start: f.startMs - t0,
            end: f.endMs === null ? null : f.endMs - t0,
            attempts: num(f.metrics.attempts),
            pods: num(f.metrics.pods),
            errorClass: typeof f.metrics.errorClass === "string" ? f.metrics.errorClass : undefined,
          })),
        dataEnd: dataEndMs - t0,
        milestones: v.milestones.map((m) => ({ kind: m.kind, label: m.label, at: m.ts - t0 })),
      });
    } catch (e) {
      if (e instanceof ApiError && e.code === "not_found") missing.push(id);
      else throw e;
    }
  }
  const extent = boots.length
    ? { fromOffset: Math.min(...boots.map((b) => b.fromOffset)), toOffset: Math.max(...boots.map((b) => b.toOffset)) }
    : { fromOffset: 0, toOffset: 60_000 };
  return { incident: inc, boots, missing, extent };
}
