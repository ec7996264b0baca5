import { getDb } from "@/lib/db/connection";
import { ApiError, route } from "@/lib/http/errors";
import { paramsOf } from "@/lib/http/params";
import { getIncidentReport } from "@/lib/incidents/get-incident-report";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The incident as JSON (same shape as `npm run ingest -- --json`). */
export const GET = route(async (_req: Request, ctx: { params: Promise<{ incidentId: string }> }) => {
  const { incidentId } = await paramsOf(ctx);
  const db = await getDb();
  const exists = await db.prisma.incident.findUnique({ where: { id: incidentId }, select: { id: true } });
  if (!exists) throw new ApiError("not_found", `no incident ${incidentId}`);
  return Response.json(await getIncidentReport(db, incidentId));
});
