import { Readable } from "node:stream";
import busboy from "busboy";
import { z } from "zod";
import { getDb } from "@/lib/db/connection";
import { ApiError, route } from "@/lib/http/errors";
import { enqueueBundle, type UploadedFile } from "@/lib/ingest/enqueue-bundle";
import { startIngestWorker } from "@/lib/ingest/worker";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Largest upload accepted, bytes (BOOTLINE_MAX_UPLOAD_BYTES, default 2 GiB). */
const MAX_UPLOAD = Number(process.env.BOOTLINE_MAX_UPLOAD_BYTES ?? 2 * 1024 ** 3);

const ZUploadFields = z.object({
  incidentId: z.string().trim().max(200).optional(),
  title: z.string().trim().max(200).optional(),
  node: z.string().trim().max(253).optional(),
  tz: z.string().trim().max(64).optional(),
  year: z.coerce.number().int().min(1970).max(2100).optional(),
  collected: z
    .string()
    .trim()
    .refine((s) => !Number.isNaN(Date.parse(s)), "not a date")
    .optional(),
  /** clock offsets (lib/timeline/clock-skew.ts): seconds for every events file, or JSON `{"<path>": seconds}` */
  skew: z
    .string()
    .trim()
    .transform((s, ctx) => {
      const n = Number(s);
      if (s !== "" && Number.isFinite(n)) return n;
      try {
        const o = JSON.parse(s) as unknown;
        if (typeof o === "number" && Number.isFinite(o)) return o;
        if (o && typeof o === "object" && !Array.isArray(o) && Object.values(o).every((v) => typeof v === "number" && Number.isFinite(v))) return o as Record<string, number>;
      } catch {
        // fall through
      }
      ctx.addIssue({ code: "custom", message: "skew: seconds, or a JSON object of path to seconds" });
      return z.NEVER;
    })
    .optional(),
});

/**
 * POST multipart/form-data: `files` (one or more) and optional fields incidentId, title,
 * node, tz, year, collected, skew. Answers 202 `{ incidentId, bundleId }`; parsing runs in the
 * ingest worker (poll GET /api/bundles/:bundleId).
 */
export const POST = route(async (req: Request) => {
  const type = req.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data") || !req.body) throw new ApiError("bad_request", "send the files as multipart/form-data");
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    const bb = busboy({ headers: { "content-type": type }, limits: { fileSize: MAX_UPLOAD, files: 1000 } });
    bb.on("field", (name, value) => {
      if (value !== "") fields[name] = value;
    });
    bb.on("file", (_name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => {
        total += c.length;
        if (total > MAX_UPLOAD) {
          reject(new ApiError("payload_too_large", `upload larger than ${MAX_UPLOAD} bytes`));
          stream.resume();
          return;
        }
        chunks.push(c);
      });
      stream.on("limit", () => reject(new ApiError("payload_too_large", `${info.filename} is larger than ${MAX_UPLOAD} bytes`)));
      stream.on("end", () => files.push({ name: info.filename || "upload", data: Buffer.concat(chunks) }));
    });
    bb.on("error", (e) => reject(new ApiError("bad_request", `broken upload: ${(e as Error).message}`)));
    bb.on("close", () => resolve());
    Readable.fromWeb(req.body as import("node:stream/web").ReadableStream).pipe(bb);
  });
  if (!files.length) throw new ApiError("bad_request", "no files in the upload");
  const f = ZUploadFields.parse(fields);
  const db = await getDb();
  const r = await enqueueBundle(db, {
    incident: f.incidentId,
    title: f.title,
    files,
    options: {
      node: f.node ?? null,
      tz: f.tz ?? null,
      year: f.year ?? null,
      collected: f.collected ? new Date(f.collected).toISOString() : null,
      skew: f.skew ?? null,
    },
  });
  await (await startIngestWorker()).enqueue(r.bundleId);
  return Response.json({ incidentId: r.incidentId, bundleId: r.bundleId }, { status: 202 });
});
