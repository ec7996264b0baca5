import { route } from "@/lib/http/errors";
import { ZEventParams } from "@/lib/view/api-schemas";
import { getEvent } from "@/lib/queries/get-event";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET /api/incidents/:incidentId/events/:eventId` → `TEventDetail` (raw line, file, line number). */
export const GET = route(async (_req: Request, ctx: { params: Promise<{ incidentId: string; eventId: string }> }) => {
  const params = ZEventParams.parse(await ctx.params);
  return Response.json(await getEvent(params));
});
