import { route } from "@/lib/http/errors";
import { bootOfIncident, paramsOf, queryOf } from "@/lib/http/params";
import { ZBootParams, ZPatternsQuery } from "@/lib/view/api-schemas";
import { getBootPatterns } from "@/lib/queries/get-boot-patterns";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET …/boots/:bootId/patterns[?bins]` → `TBootPatterns` (the boot's message templates, new and stopped ones). */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string; bootId: string }> }) => {
  const params = ZBootParams.parse(await paramsOf(ctx));
  await bootOfIncident(params);
  const q = ZPatternsQuery.parse(queryOf(req));
  return Response.json(await getBootPatterns({ ...params, bins: q.bins }));
});
