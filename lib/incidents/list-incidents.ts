/**
 * The incidents list for the home page, newest first.
 */
import { getDb } from "@/lib/db/connection";

export interface TIncidentSummary {
  id: string;
  title: string;
  /** UTC ms */
  createdAt: number;
  bundles: number;
  nodes: number;
  findings: number;
  /** bundle statuses: how many are queued, parsing, ready, failed */
  bundleStatus: Record<string, number>;
}

/** Lists incidents (newest first, at most `limit`, default 100) with counts of bundles, nodes and findings. */
export async function listIncidents(opts: { limit?: number } = {}): Promise<TIncidentSummary[]> {
  const { prisma } = await getDb();
  const rows = await prisma.incident.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: Math.min(Math.max(opts.limit ?? 100, 1), 1000),
    select: {
      id: true,
      title: true,
      createdAt: true,
      bundles: { select: { status: true } },
      _count: { select: { nodes: true, findings: true } },
    },
  });
  return rows.map((r) => {
    const bundleStatus: Record<string, number> = {};
    for (const b of r.bundles) bundleStatus[b.status] = (bundleStatus[b.status] ?? 0) + 1;
    return {
      id: r.id,
      title: r.title,
      createdAt: r.createdAt.getTime(),
      bundles: r.bundles.length,
      nodes: r._count.nodes,
      findings: r._count.findings,
      bundleStatus,
    };
  });
}
