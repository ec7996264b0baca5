import { ZCreateAnnotation } from "@/lib/annotations/annotation";
import { createAnnotation } from "@/lib/annotations/create-annotation";
import { listAnnotations } from "@/lib/annotations/list-annotations";
import { route } from "@/lib/http/errors";
import { readJson } from "@/lib/http/read-json";
import { ZBootParams } from "@/lib/view/api-schemas";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

type Ctx = { params: Promise<{ incidentId: string; bootId: string }> };

/** `GET …/boots/:bootId/annotations` → `TAnnotation[]` (by time). */
export const GET = route(async (_req: Request, ctx: Ctx) => {
  const params = ZBootParams.parse(await ctx.params);
  return Response.json(await listAnnotations(params));
});

/** `POST …/boots/:bootId/annotations` `{ text, ts? , eventId? }` → 201 `TAnnotation`. */
export const POST = route(async (req: Request, ctx: Ctx) => {
  const params = ZBootParams.parse(await ctx.params);
  const body = ZCreateAnnotation.parse(await readJson(req));
  return Response.json(await createAnnotation({ ...params, ...body }), { status: 201 });
});
