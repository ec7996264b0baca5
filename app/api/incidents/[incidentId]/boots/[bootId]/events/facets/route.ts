import { route } from "@/lib/http/errors";
import { bootOfIncident, paramsOf, queryOf } from "@/lib/http/params";
import { ZBootParams, ZRangeQuery } from "@/lib/view/api-schemas";
import { getEventFacets } from "@/lib/queries/get-event-facets";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET …/boots/:bootId/events/facets?from&to[&lanes]` → `TEventFacets` (kinds and pods for the filters). */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string; bootId: string }> }) => {
  const params = ZBootParams.parse(await paramsOf(ctx));
  await bootOfIncident(params);
  const q = ZRangeQuery.parse(queryOf(req));
  return Response.json(await getEventFacets({ ...params, fromMs: q.from, toMs: q.to, lanes: q.lanes }));
});
