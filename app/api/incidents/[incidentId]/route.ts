import { route } from "@/lib/http/errors";
import { getIncident } from "@/lib/incidents/get-incident";
import { ZIncidentParams } from "@/lib/timeline/api-schemas";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET /api/incidents/:incidentId` → `TIncidentDetail` (404 when unknown). */
export const GET = route(async (_req: Request, ctx: { params: Promise<{ incidentId: string }> }) => {
  const params = ZIncidentParams.parse(await ctx.params);
  return Response.json(await getIncident(params));
});
