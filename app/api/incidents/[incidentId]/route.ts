import { getDb } from "@/lib/db/connection";
import { route } from "@/lib/http/errors";
import { deleteIncident } from "@/lib/incidents/delete-incident";
import { getIncident } from "@/lib/incidents/get-incident";
import { ZIncidentParams } from "@/lib/view/api-schemas";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET /api/incidents/:incidentId` → `TIncidentDetail` (404 when unknown). */
export const GET = route(async (_req: Request, ctx: { params: Promise<{ incidentId: string }> }) => {
  const params = ZIncidentParams.parse(await ctx.params);
  return Response.json(await getIncident(params));
});

/** `DELETE /api/incidents/:incidentId` → `{ incidentId, bundles, events }`: the incident and all its data are gone (404 when unknown). */
export const DELETE = route(async (_req: Request, ctx: { params: Promise<{ incidentId: string }> }) => {
  const params = ZIncidentParams.parse(await ctx.params);
  return Response.json(await deleteIncident(await getDb(), params));
});
