import { z } from "zod";
import { collectedField, uploadOptionFields } from "@/lib/ingest/upload-options";
import { ApiError, route } from "@/lib/http/errors";
import { readJson } from "@/lib/http/read-json";
import { PREVIEW_MAX_BYTES, previewText } from "@/lib/ingest/preview-text";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Largest JSON body: the text's limit plus room for JSON escapes (quotes, backslashes, tabs). */
const MAX_BODY = Math.floor(PREVIEW_MAX_BYTES * 1.8);

const ZPreview = z.object({
  text: z.string(),
  name: z.string().trim().max(255).optional(),
  ...uploadOptionFields,
  collected: collectedField,
});

/**
 * `POST /api/preview` JSON `{ text, name?, node?, tz?, year?, collected? }` → `TPreview`
 * (lib/ingest/preview-text.ts): what bootline recognises in a pasted text, analysed in memory
 * as a one-file upload named `name`; nothing is stored. A text over 5 MiB: 413.
 */
export const POST = route(async (req: Request) => {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY)
    throw new ApiError(
      "payload_too_large",
      `the pasted text is over the preview's limit of ${PREVIEW_MAX_BYTES / 1048576} MiB: save it as a file and upload that instead`,
    );
  const body = ZPreview.parse(await readJson(req, MAX_BODY));
  return Response.json(
    previewText({
      text: body.text,
      name: body.name,
      node: body.node,
      tz: body.tz,
      year: body.year,
      collectedMs: body.collected ?? null,
      nowMs: Date.now(),
    }),
  );
});
