import { getDb } from "@/lib/db/connection";
import { ApiError, route } from "@/lib/http/errors";
import { paramsOf } from "@/lib/http/params";
import { liveStatus } from "@/lib/ingest/live-status";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Bundle status for the progress bar: `{ id, incidentId, status, phase, progress (0..1), error, counts }`, and while it
 * runs in this process `nodes`: the nodes found so far, `{ name, state }` (lib/ingest/live-status.ts `LiveNode`).
 */
export const GET = route(async (_req: Request, ctx: { params: Promise<{ bundleId: string }> }) => {
  const { bundleId } = await paramsOf(ctx);
  // ingesting in this process: its live status (a read of the row could wait for the ingest's
  // transaction on PGlite; lib/ingest/live-status.ts)
  const l = liveStatus(bundleId);
  if (l) return Response.json({ ...l, error: null, counts: null });
  const db = await getDb();
  const b = await db.prisma.bundle.findUnique({ where: { id: bundleId } });
  if (!b) throw new ApiError("not_found", `no bundle ${bundleId}`);
  return Response.json({
    id: b.id,
    incidentId: b.incidentId,
    fileName: b.fileName,
    status: b.status,
    phase: b.phase,
    progress: b.progress,
    error: b.error,
    counts: b.counts,
  });
});
