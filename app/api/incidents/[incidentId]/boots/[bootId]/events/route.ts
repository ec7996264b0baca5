import { route } from "@/lib/http/errors";
import { bootOfIncident, paramsOf, queryOf } from "@/lib/http/params";
import { ZBootParams, ZEventsPageQuery } from "@/lib/view/api-schemas";
import { getEventsPage } from "@/lib/queries/get-events-page";
import { withPatternFilter } from "@/lib/queries/pattern-filter";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET …/boots/:bootId/events?from&to[&lanes][&sev][&q][&match][&pod][&kind][&pat][&xpat][&cursor][&limit]` → `TEventsPage`. */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string; bootId: string }> }) => {
  const params = ZBootParams.parse(await paramsOf(ctx));
  await bootOfIncident(params);
  const q = ZEventsPageQuery.parse(queryOf(req));
  return Response.json(
    await getEventsPage(
      await withPatternFilter(
        {
          ...params,
          fromMs: q.from,
          toMs: q.to,
          lanes: q.lanes,
          minSeverity: q.sev,
          q: q.q,
          match: q.match,
          pod: q.pod,
          kind: q.kind,
          cursor: q.cursor,
          limit: q.limit,
        },
        q,
      ),
    ),
  );
});
