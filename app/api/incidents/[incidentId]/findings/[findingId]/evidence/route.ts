import { route } from "@/lib/http/errors";
import { ZFindingParams } from "@/lib/view/api-schemas";
import { getFindingEvidence } from "@/lib/queries/get-finding-evidence";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET /api/incidents/:incidentId/findings/:findingId/evidence` → `TFindingEvidence` (404 when unknown). */
export const GET = route(async (_req: Request, ctx: { params: Promise<{ incidentId: string; findingId: string }> }) => {
  const params = ZFindingParams.parse(await ctx.params);
  return Response.json(await getFindingEvidence(params));
});
