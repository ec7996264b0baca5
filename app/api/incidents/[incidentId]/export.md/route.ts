import { getIncidentMarkdown } from "@/lib/export/get-incident-markdown";
import { route } from "@/lib/http/errors";
import { publicOrigin } from "@/lib/http/public-origin";
import { ZIncidentParams } from "@/lib/view/api-schemas";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * `GET /api/incidents/:incidentId/export.md[?download=1]` → the postmortem summary as
 * `text/markdown` (nodes, boots, findings with their numbers and absolute permalinks, notes).
 */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string }> }) => {
  const { incidentId } = ZIncidentParams.parse(await ctx.params);
  const { markdown } = await getIncidentMarkdown({ incidentId, origin: publicOrigin(req.headers, req.url) });
  const download = new URL(req.url).searchParams.get("download") === "1";
  return new Response(markdown, {
    headers: {
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": `${download ? "attachment" : "inline"}; filename="bootline-${incidentId}.md"`,
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    },
  });
});
