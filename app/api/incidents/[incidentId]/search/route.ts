import { z } from "zod";
import { route } from "@/lib/http/errors";
import { paramsOf, queryOf } from "@/lib/http/params";
import { MAX_HITS_PER_BOOT, MAX_QUERY, searchIncident } from "@/lib/search/search-incident";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const ZSearchQuery = z.object({
  q: z.string().trim().min(1, "type something to search for").max(MAX_QUERY),
  mode: z.enum(["words", "substring"]).default("words"),
  hits: z.coerce.number().int().min(1).max(MAX_HITS_PER_BOOT).default(5),
});

/**
 * `GET /api/incidents/:incidentId/search?q[&mode=words|substring][&hits=N]` → `TSearchResult`
 * (lib/search/search-incident.ts): the incident's matching events counted exactly per node
 * boot, each boot's first `hits` (default 5) with links into its timeline.
 */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string }> }) => {
  const { incidentId } = await paramsOf(ctx);
  const q = ZSearchQuery.parse(queryOf(req));
  return Response.json(await searchIncident({ incidentId, q: q.q, mode: q.mode, hitsPerBoot: q.hits }));
});
