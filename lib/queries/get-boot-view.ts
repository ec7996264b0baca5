/**
 * Everything the node boot page needs besides the per-range data: the incident, the node,
 * the boot (N of M, siblings for navigation), the data extent, the boot's findings,
 * milestones and the clock offsets applied to the node's files. Times are UTC ms.
 */
import { getDb } from "@/lib/db/connection";
import type { SqlConn } from "@/lib/db/sql";
import { ApiError } from "@/lib/http/errors";
import type { TFindingView } from "@/lib/incidents/get-incident";
import { findingSeverityRank } from "../view/lanes";
import { getMilestones, type TMilestone } from "./get-milestones";

export interface TBootView {
  incident: { id: string; title: string };
  /** `nameSource`: `logs`, `upload` (made from the upload's file name: not named by the logs) or `reviewer` (absent: `logs`) */
  node: { id: number; name: string; aliases: string[]; nameSource?: string };
  boot: {
    id: number;
    bootKey: string;
    /** T+0, UTC ms */
    startMs: number;
    endMs: number | null;
    detectedBy: string;
    startApprox: boolean;
    /** 1-based position among the node's boots */
    index: number;
    count: number;
  };
  /** the node's boots by start, for navigation */
  boots: Array<{ bootKey: string; startMs: number; index: number }>;
  /** first and last event time in this boot, UTC ms; null when it has no timed events */
  extent: { firstMs: number; lastMs: number } | null;
  /** the whole boot as a range: [min(T+0, first event), max(end, last event) + 1 ms) */
  range: { fromMs: number; toMs: number };
  findings: TFindingView[];
  milestones: TMilestone[];
  /** files of this node with a clock offset applied (ms) or an assumed zone */
  clock: Array<{ path: string; clockOffsetMs: number; timeZone: string; zoneSource: string }>;
}

interface FindingRow {
  id: number;
  detector: string;
  severity: string;
  start: Date | string;
  end: Date | string | null;
  title: string;
  explanation: string;
  /** jsonb: an object from pg and PGlite (text when a driver leaves it unparsed) */
  metrics: unknown;
  evidenceCount: number;
}

/** A finding's metrics as an object ({} for anything else). */
function metricsOf(v: unknown): Record<string, unknown> {
  let m = v;
  if (typeof m === "string") {
    try {
      m = JSON.parse(m);
    } catch {
      return {};
    }
  }
  return m && typeof m === "object" && !Array.isArray(m) ? (m as Record<string, unknown>) : {};
}

interface ExtentRow {
  first: number | null;
  last: number | null;
}

/**
 * The time span of a boot's events (UTC ms of the first and last timed event), or null when it has
 * none.
 */
export async function bootExtent(sql: SqlConn, bootId: number): Promise<{ firstMs: number; lastMs: number } | null> {
  const [e] = await sql.query<ExtentRow>(
    `SELECT (extract(epoch FROM min(ts)) * 1000)::float8 AS first, (extract(epoch FROM max(ts)) * 1000)::float8 AS last
     FROM "Event" WHERE "bootId" = $1 AND ts IS NOT NULL`,
    [bootId],
  );
  return e && e.first != null && e.last != null ? { firstMs: Number(e.first), lastMs: Number(e.last) } : null;
}

/**
 * The whole boot as a range, UTC ms: [min(T+0, first event), max(end, last event) + 1 ms), the
 * timeline's widest view (`TBootView.range`) and where notes may be pinned.
 */
export function bootRange(startMs: number, endMs: number | null, extent: { firstMs: number; lastMs: number } | null): { fromMs: number; toMs: number } {
  const fromMs = Math.min(startMs, extent?.firstMs ?? startMs);
  return { fromMs, toMs: Math.max(endMs ?? startMs, extent?.lastMs ?? startMs, fromMs) + 1 };
}

/** Loads the boot page data; `ApiError("not_found")` when incident, node or boot do not exist. */
export async function getBootView(opts: { incidentId: string; node: string; bootKey: string }): Promise<TBootView> {
  const { prisma, sql } = await getDb();
  const node = await prisma.node.findUnique({
    where: { incidentId_name: { incidentId: opts.incidentId, name: opts.node } },
    include: { incident: { select: { id: true, title: true } }, boots: { orderBy: [{ start: "asc" }, { id: "asc" }] } },
  });
  if (!node) {
    const inc = await prisma.incident.findUnique({ where: { id: opts.incidentId }, select: { id: true } });
    throw new ApiError("not_found", inc ? `node ${opts.node} not found in this incident` : "incident not found");
  }
  const idx = node.boots.findIndex((b) => b.bootKey === opts.bootKey);
  if (idx < 0) throw new ApiError("not_found", `boot ${opts.bootKey} not found on node ${node.name}`);
  const boot = node.boots[idx];
  const startMs = boot.start.getTime();
  const endMs = boot.end ? boot.end.getTime() : null;

  const [extent, findings, milestones, files] = await Promise.all([
    bootExtent(sql, boot.id),
    // the evidence ids only counted (a storm's findings cite hundreds of thousands of events)
    sql.query<FindingRow>(
      `SELECT id, detector, severity, start, "end", title, explanation, metrics, cardinality(evidence)::int AS "evidenceCount"
       FROM "Finding" WHERE "incidentId" = $1 AND "bootId" = $2 ORDER BY start, id`,
      [opts.incidentId, boot.id],
    ),
    getMilestones({ incidentId: opts.incidentId, bootId: boot.id, bootStartMs: startMs }),
    prisma.sourceFile.findMany({
      where: { incidentId: opts.incidentId, nodeName: node.name, OR: [{ clockOffsetMs: { not: 0 } }, { timeZone: { not: "UTC" } }] },
      select: { path: true, clockOffsetMs: true, timeZone: true, zoneSource: true },
      orderBy: [{ bundleId: "asc" }, { ord: "asc" }],
      take: 50,
    }),
  ]);
  const { fromMs, toMs } = bootRange(startMs, endMs, extent);

  return {
    incident: node.incident,
    node: { id: node.id, name: node.name, aliases: node.aliases, nameSource: node.nameSource },
    boot: {
      id: boot.id,
      bootKey: boot.bootKey,
      startMs,
      endMs,
      detectedBy: boot.detectedBy,
      startApprox: boot.startApprox,
      index: idx + 1,
      count: node.boots.length,
    },
    boots: node.boots.map((b, i) => ({ bootKey: b.bootKey, startMs: b.start.getTime(), index: i + 1 })),
    extent,
    range: { fromMs, toMs },
    findings: findings
      .map((f) => ({
        id: f.id,
        detector: f.detector,
        severity: f.severity,
        nodeName: node.name,
        bootKey: boot.bootKey,
        bootStartMs: startMs,
        startMs: new Date(f.start).getTime(),
        endMs: f.end ? new Date(f.end).getTime() : null,
        title: f.title,
        explanation: f.explanation,
        metrics: metricsOf(f.metrics),
        evidenceCount: Number(f.evidenceCount ?? 0),
      }))
      .sort((a, b) => findingSeverityRank(a.severity) - findingSeverityRank(b.severity) || a.startMs - b.startMs || a.id - b.id),
    milestones,
    clock: files,
  };
}

/**
 * The current name of the incident's node that had `alias` as a name (a reviewer renamed it) or
 * has it as another name (an instance id), so links to the old name still lead to the node; null
 * when no node has that alias.
 */
export async function nodeNameByAlias(opts: { incidentId: string; alias: string }): Promise<string | null> {
  const { prisma } = await getDb();
  const n = await prisma.node.findFirst({
    where: { incidentId: opts.incidentId, aliases: { has: opts.alias } },
    orderBy: { id: "asc" },
    select: { name: true },
  });
  return n?.name ?? null;
}

/** The same for a boot id of the incident (the API's addressing); `ApiError("not_found")` when it is not there. */
export async function getBootViewById(opts: { incidentId: string; bootId: number }): Promise<TBootView> {
  const { prisma } = await getDb();
  const b = await prisma.boot.findFirst({
    where: { id: opts.bootId, incidentId: opts.incidentId },
    select: { bootKey: true, node: { select: { name: true } } },
  });
  if (!b) throw new ApiError("not_found", "boot not found in this incident");
  return getBootView({ incidentId: opts.incidentId, node: b.node.name, bootKey: b.bootKey });
}
