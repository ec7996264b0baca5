import { ImageResponse } from "next/og";
import { TimelinePictureImage } from "@/components/timeline/timeline-picture-image";
import { getTimelinePicture, pictureThemeOf } from "@/lib/export/get-timeline-picture";
import { route } from "@/lib/http/errors";
import { paramsOf, queryOf } from "@/lib/http/params";
import { ZBootParams, ZPictureQuery } from "@/lib/view/api-schemas";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * `GET …/boots/:bootId/timeline.png[?from&to&lanes&theme=light|dark&download=1]` → the view as a PNG
 * (1200 x 630): the timeline page's og:image and its "PNG" download. Same layout as
 * `timeline.svg`, rasterised by next/og; `theme=light` for a white page (default dark).
 */
export const GET = route(async (req: Request, ctx: { params: Promise<{ incidentId: string; bootId: string }> }) => {
  const params = ZBootParams.parse(await paramsOf(ctx));
  const q = ZPictureQuery.parse(queryOf(req));
  const { picture, view } = await getTimelinePicture({ ...params, from: q.from, to: q.to, lanes: q.lanes, theme: pictureThemeOf(req) });
  const name = `bootline-${view.node.name}-boot${view.boot.index}.png`.replace(/[^A-Za-z0-9._-]/g, "_");
  return new ImageResponse(TimelinePictureImage({ picture }), {
    width: picture.width,
    height: picture.height,
    headers: {
      "content-disposition": `${q.download ? "attachment" : "inline"}; filename="${name}"`,
      "cache-control": "private, max-age=60",
    },
  });
});
