import { route } from "@/lib/http/errors";
import { bootOfIncident, paramsOf, queryOf } from "@/lib/http/params";
import { ZBootParams, ZEventsFilterQuery } from "@/lib/view/api-schemas";
import { countEvents } from "@/lib/queries/count-events";
import { withPatternFilter } from "@/lib/queries/pattern-filter";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET …/boots/:bootId/events/count?from&to[&lanes][&sev][&q][&match][&pod][&kind][&pat][&xpat]` → `TEventCounts`. */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string; bootId: string }> }) => {
  const params = ZBootParams.parse(await paramsOf(ctx));
  await bootOfIncident(params);
  const q = ZEventsFilterQuery.parse(queryOf(req));
  return Response.json(
    await countEvents(
      await withPatternFilter(
        { ...params, fromMs: q.from, toMs: q.to, lanes: q.lanes, minSeverity: q.sev, q: q.q, match: q.match, pod: q.pod, kind: q.kind },
        q,
      ),
    ),
  );
});
