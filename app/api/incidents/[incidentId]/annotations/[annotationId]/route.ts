import { z } from "zod";
import { ZAnnotationId } from "@/lib/annotations/annotation";
import { deleteAnnotation } from "@/lib/annotations/delete-annotation";
import { route } from "@/lib/http/errors";
import { ZIncidentId } from "@/lib/view/api-schemas";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const ZParams = z.object({ incidentId: ZIncidentId, annotationId: ZAnnotationId });

/** `DELETE /api/incidents/:incidentId/annotations/:annotationId` → `{ id }` (404 when unknown). */
export const DELETE = route(async (_req: Request, ctx: { params: Promise<{ incidentId: string; annotationId: string }> }) => {
  const params = ZParams.parse(await ctx.params);
  return Response.json(await deleteAnnotation(params));
});
