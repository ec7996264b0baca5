import { getTimelinePicture, pictureThemeOf } from "@/lib/export/get-timeline-picture";
import { renderTimelineSvg } from "@/lib/export/timeline-picture";
import { route } from "@/lib/http/errors";
import { paramsOf, queryOf } from "@/lib/http/params";
import { ZBootParams, ZPictureQuery } from "@/lib/view/api-schemas";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** `GET …/boots/:bootId/timeline.svg[?from&to&lanes&theme=light|dark&download=1]` → the view as an SVG picture (1200 x 630), light with `theme=light` (default dark). */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string; bootId: string }> }) => {
  const params = ZBootParams.parse(await paramsOf(ctx));
  const q = ZPictureQuery.parse(queryOf(req));
  const { picture, view } = await getTimelinePicture({ ...params, from: q.from, to: q.to, lanes: q.lanes, theme: pictureThemeOf(req) });
  const name = `bootline-${view.node.name}-boot${view.boot.index}.svg`.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(renderTimelineSvg(picture), {
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "content-disposition": `${q.download ? "attachment" : "inline"}; filename="${name}"`,
      // the picture is data: no scripts, no outside resources, even when opened on its own
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      "x-content-type-options": "nosniff",
      "cache-control": "private, max-age=60",
    },
  });
});
