import { z } from "zod";
import { collectedField, skewField, uploadOptionFields } from "@/lib/ingest/upload-options";
import { requireAuth } from "@/lib/auth/auth";
import { getDb } from "@/lib/db/connection";
import { ApiError, route } from "@/lib/http/errors";
import { enqueueBundle } from "@/lib/ingest/enqueue-bundle";
import { receiveUpload } from "@/lib/ingest/receive";
import { startIngestWorker } from "@/lib/ingest/worker";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const ZUploadFields = z.object({
  incidentId: z.string().trim().max(200).optional(),
  title: z.string().trim().max(200).optional(),
  ...uploadOptionFields,
  collected: collectedField,
  skew: skewField,
});

/**
 * POST multipart/form-data: `files` (one or more) and optional fields incidentId, title,
 * node, tz, year, collected, skew. Answers 202 `{ incidentId, bundleId }`; parsing runs in the
 * ingest worker (poll GET /api/bundles/:bundleId). The same upload (sha256) again into an
 * incident that holds it answers 200 `{ incidentId, bundleId, duplicateOf }` and is not
 * ingested twice. Too large: 413 (BOOTLINE_MAX_UPLOAD_BYTES). A NUL character in a field or a
 * file name: 400, nothing stored. A `collected` time outside 1970 to a day from now, or a `skew`
 * that is not finite or past 100 years: 400 naming the field. An `incidentId` of no incident: 404.
 */
export const POST = route(async (req: Request) => {
  // the proxy leaves this route alone (it would cut large bodies): check the token here
  await requireAuth(req);
  // the body streams to disk (lib/ingest/receive.ts); what enqueueBundle does not keep is removed after
  return receiveUpload(req, async ({ fields, files, digest }) => {
    const f = ZUploadFields.parse(fields);
    const db = await getDb();
    // an id names an incident that exists: an unknown one is a 404, never a new incident
    if (f.incidentId && !(await db.prisma.incident.findUnique({ where: { id: f.incidentId }, select: { id: true } })))
      throw new ApiError("not_found", `no incident ${f.incidentId}: leave incidentId out (and give a title) to start a new incident`);
    const r = await enqueueBundle(db, {
      incident: f.incidentId,
      title: f.title,
      files,
      digest,
      options: {
        node: f.node ?? null,
        tz: f.tz ?? null,
        year: f.year ?? null,
        collected: f.collected !== undefined ? new Date(f.collected).toISOString() : null,
        skew: f.skew ?? null,
      },
    });
    // the same upload already in this incident: recorded, not queued again (200, `duplicateOf`)
    if (r.duplicateOf) return Response.json({ incidentId: r.incidentId, bundleId: r.bundleId, duplicateOf: r.duplicateOf }, { status: 200 });
    await (await startIngestWorker()).enqueue(r.bundleId);
    return Response.json({ incidentId: r.incidentId, bundleId: r.bundleId }, { status: 202 });
  });
});
