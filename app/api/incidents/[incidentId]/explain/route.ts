import { ApiError, route } from "@/lib/http/errors";
import { paramsOf, queryOf } from "@/lib/http/params";
import { ZBootId, ZIncidentParams } from "@/lib/view/api-schemas";
import { ZInstant } from "@/lib/view/view-state";
import { EXPLAIN_BASELINES, getRangeExplain } from "@/lib/queries/get-range-explain";
import { z } from "zod";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const ZExplainQuery = z
  .object({ boot: ZBootId, from: ZInstant, to: ZInstant, baseline: z.enum(EXPLAIN_BASELINES).default("before") })
  .refine((v) => v.from < v.to, { message: "from must be before to", path: ["to"] });

/**
 * `GET …/explain?boot=<bootId>&from=&to=[&baseline=before|boot]` → `TRangeExplain`: the templates,
 * pods, components and error classes over-represented in [from, to) of the boot against the span
 * before it (default) or the rest of the boot.
 */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string }> }) => {
  const params = ZIncidentParams.parse(await paramsOf(ctx));
  const q = ZExplainQuery.parse(queryOf(req));
  const out = await getRangeExplain({ incidentId: params.incidentId, bootId: q.boot, fromMs: q.from, toMs: q.to, baseline: q.baseline });
  if (!out) throw new ApiError("not_found", `no boot ${q.boot} in incident ${params.incidentId}`);
  return Response.json(out);
});
