import { ApiError, route } from "@/lib/http/errors";
import { paramsOf, queryOf } from "@/lib/http/params";
import { ZBootId, ZIncidentParams } from "@/lib/view/api-schemas";
import { getBootDiff } from "@/lib/queries/get-boot-diff";
import { z } from "zod";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const ZDiffQuery = z.object({ a: ZBootId, b: ZBootId });

/** `GET …/diff?a=<bootId>&b=<bootId>` → `TBootDiff` (what changed between two boots of the incident). */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string }> }) => {
  const params = ZIncidentParams.parse(await paramsOf(ctx));
  const q = ZDiffQuery.parse(queryOf(req));
  const diff = await getBootDiff({ incidentId: params.incidentId, a: q.a, b: q.b });
  if (!diff) throw new ApiError("not_found", `boots ${q.a} and ${q.b} are not both boots of incident ${params.incidentId}`);
  return Response.json(diff);
});
