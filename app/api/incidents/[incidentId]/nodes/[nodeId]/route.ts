import { z } from "zod";
import { getDb } from "@/lib/db/connection";
import { route } from "@/lib/http/errors";
import { readJson } from "@/lib/http/read-json";
import { renameNode } from "@/lib/incidents/rename-node";
import { ZIncidentId } from "@/lib/view/api-schemas";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const ZParams = z.object({ incidentId: ZIncidentId, nodeId: z.coerce.number().int().positive().max(2_147_483_647) });
const ZBody = z.object({ name: z.string().max(1000) });

/**
 * `PATCH /api/incidents/:incidentId/nodes/:nodeId` JSON `{ name }` → `{ id, name, aliases,
 * nameSource, previous }`: the reviewer names the node (lib/incidents/rename-node.ts). 400 for an
 * empty or over-long name, 404 for an unknown node, 409 when another node of the incident has it.
 */
export const PATCH = route(async (req: Request, ctx: { params: Promise<{ incidentId: string; nodeId: string }> }) => {
  const params = ZParams.parse(await ctx.params);
  const body = ZBody.parse(await readJson(req));
  return Response.json(await renameNode(await getDb(), { incidentId: params.incidentId, nodeId: params.nodeId, name: body.name }));
});
