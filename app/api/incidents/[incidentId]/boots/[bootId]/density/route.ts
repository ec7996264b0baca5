import { route } from "@/lib/http/errors";
import { bootOfIncident, paramsOf, queryOf } from "@/lib/http/params";
import { ZBootParams, ZDensityQuery } from "@/lib/view/api-schemas";
import { getLaneDensity } from "@/lib/queries/get-lane-density";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET …/boots/:bootId/density?from&to[&lanes][&buckets]` (times UTC ms or ISO) → `TLaneDensity`. */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string; bootId: string }> }) => {
  const params = ZBootParams.parse(await paramsOf(ctx));
  await bootOfIncident(params);
  const q = ZDensityQuery.parse(queryOf(req));
  return Response.json(await getLaneDensity({ ...params, fromMs: q.from, toMs: q.to, lanes: q.lanes, buckets: q.buckets }));
});
