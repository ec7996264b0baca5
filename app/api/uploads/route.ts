import { randomBytes } from "node:crypto";
import { createWriteStream, rmSync, type WriteStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import busboy from "busboy";
import { z } from "zod";
import { uploadOptionFields } from "@/lib/ingest/upload-options";
import { requireAuth } from "@/lib/auth/auth";
import { fmtSize, LIMIT_ENV, LIMITS } from "@/lib/bundle/limits";
import { getDb } from "@/lib/db/connection";
import { ApiError, route } from "@/lib/http/errors";
import { enqueueBundle, StreamDigest } from "@/lib/ingest/enqueue-bundle";
import { incomingDir } from "@/lib/ingest/process-bundle";
import { startIngestWorker } from "@/lib/ingest/worker";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Largest upload accepted, bytes (BOOTLINE_MAX_UPLOAD_BYTES, default 2 GiB; lib/bundle/limits.ts). */
const MAX_UPLOAD = LIMITS.maxUploadBytes;
/** Most files in one upload request. */
const MAX_UPLOAD_FILES = 1000;
const tooLarge = (what: string) =>
  new ApiError("payload_too_large", `${what} is larger than the upload limit of ${fmtSize(MAX_UPLOAD)} (${LIMIT_ENV.maxUploadBytes})`);

const ZUploadFields = z.object({
  incidentId: z.string().trim().max(200).optional(),
  title: z.string().trim().max(200).optional(),
  ...uploadOptionFields,
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
        if (o && typeof o === "object" && !Array.isArray(o) && Object.values(o).every((v) => typeof v === "number" && Number.isFinite(v)))
          return o as Record<string, number>;
      } catch {
        // fall through
      }
      ctx.addIssue({ code: "custom", message: "skew: seconds, or a JSON object of path to seconds" });
      return z.NEVER;
    })
    .optional(),
});

/**
 * Refuses text no database column can hold: PostgreSQL's text and jsonb take no NUL character
 * (U+0000), so one in a field or a file name answers 400 before anything is stored.
 */
function refuseNul(fields: Record<string, string>, files: Array<{ name: string }>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (value.includes("\0")) throw new ApiError("bad_request", `the ${JSON.stringify(name)} field holds a NUL character; send it without one`);
  }
  if (files.some((f) => f.name.includes("\0"))) throw new ApiError("bad_request", "a file name holds a NUL character; rename the file");
}

/**
 * POST multipart/form-data: `files` (one or more) and optional fields incidentId, title,
 * node, tz, year, collected, skew. Answers 202 `{ incidentId, bundleId }`; parsing runs in the
 * ingest worker (poll GET /api/bundles/:bundleId). The same upload (sha256) again into an
 * incident that holds it answers 200 `{ incidentId, bundleId, duplicateOf }` and is not
 * ingested twice. Too large: 413 (BOOTLINE_MAX_UPLOAD_BYTES). A NUL character in a field or a
 * file name: 400, nothing stored.
 */
export const POST = route(async (req: Request) => {
  // the proxy leaves this route alone (it would cut large bodies): check the token here
  await requireAuth(req);
  // refuse a body announced too large before reading it (multipart framing allowed for)
  const announced = Number(req.headers.get("content-length") ?? "NaN");
  if (announced > MAX_UPLOAD + 64 * 1024) throw tooLarge("the upload");
  const type = req.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data") || !req.body) throw new ApiError("bad_request", "send the files as multipart/form-data");
  const fields: Record<string, string> = {};
  // each file streams to disk as it arrives (a 2 GiB upload never sits in memory); whatever is
  // not handed to enqueueBundle (a refused upload, a repeat) is removed below
  const files: Array<{ name: string; path: string }> = [];
  const writes: Array<Promise<void>> = [];
  const dir = incomingDir();
  let total = 0;
  // the bundle's sha256 (every file's bytes, in file order), taken as they pass, so
  // enqueueBundle need not read a large upload back on this thread
  const digest = new StreamDigest();
  try {
    await new Promise<void>((resolve, reject) => {
      const pipes: Array<{ from: Readable; to: WriteStream }> = [];
      // a refused upload stops writing at once; the rest of the body is read and dropped
      let failed = false;
      const fail = (e: Error) => {
        if (failed) return;
        failed = true;
        reject(e);
        for (const { from, to } of pipes) {
          from.unpipe(to);
          to.destroy();
          from.resume();
        }
      };
      let bb: ReturnType<typeof busboy>;
      try {
        // fileSize + 1: busboy reports a file that reaches the limit, and one of exactly the limit is allowed
        bb = busboy({ headers: { "content-type": type }, limits: { fileSize: MAX_UPLOAD + 1, files: MAX_UPLOAD_FILES, fields: 32, fieldSize: 64 * 1024 } });
      } catch (e) {
        return reject(new ApiError("bad_request", `broken upload: ${(e as Error).message}`));
      }
      bb.on("filesLimit", () => fail(new ApiError("payload_too_large", `more than ${MAX_UPLOAD_FILES} files in one upload: pack them in an archive`)));
      bb.on("field", (name, value) => {
        if (value !== "") fields[name] = value;
      });
      bb.on("file", (_name, stream, info) => {
        if (failed) {
          // refused already: read and drop it (a body cut inside it errors it: nothing to report)
          stream.on("error", () => {});
          return void stream.resume();
        }
        const file = { name: info.filename || "upload", path: path.join(dir, randomBytes(12).toString("hex")) };
        files.push(file);
        const to = createWriteStream(file.path);
        pipes.push({ from: stream, to });
        // settles once the file is closed, written out or not (its errors go to `fail`)
        writes.push(new Promise<void>((done) => to.on("close", () => done())));
        to.on("error", (e) => fail(new Error(`could not store ${file.name}: ${e.message}`)));
        const hashed = digest.file();
        stream.on("end", hashed.end);
        stream.on("data", (c: Buffer) => {
          // a refused upload is drained, not hashed (nothing would wait for its digest)
          if (!failed) hashed.data(c);
          total += c.length;
          if (total > MAX_UPLOAD) fail(tooLarge("the upload"));
        });
        stream.on("limit", () => fail(tooLarge(info.filename || "a file")));
        // a body cut inside this file errors it too (unhandled, that would end the process)
        stream.on("error", (e) => fail(new ApiError("bad_request", `broken upload: ${e.message}`)));
        stream.pipe(to);
      });
      bb.on("error", (e) => fail(new ApiError("bad_request", `broken upload: ${(e as Error).message}`)));
      bb.on("close", () => void Promise.all(writes).then(() => resolve()));
      const body = Readable.fromWeb(req.body as import("node:stream/web").ReadableStream);
      body.on("error", (e) => fail(new ApiError("bad_request", `the upload was interrupted: ${e.message}`)));
      body.pipe(bb);
    });
    if (!files.length) throw new ApiError("bad_request", "no files in the upload");
    refuseNul(fields, files);
    const f = ZUploadFields.parse(fields);
    const db = await getDb();
    const r = await enqueueBundle(db, {
      incident: f.incidentId,
      title: f.title,
      files,
      digest: digest.digest(),
      options: {
        node: f.node ?? null,
        tz: f.tz ?? null,
        year: f.year ?? null,
        collected: f.collected ? new Date(f.collected).toISOString() : null,
        skew: f.skew ?? null,
      },
    });
    // the same upload already in this incident: recorded, not queued again (200, `duplicateOf`)
    if (r.duplicateOf) return Response.json({ incidentId: r.incidentId, bundleId: r.bundleId, duplicateOf: r.duplicateOf }, { status: 200 });
    await (await startIngestWorker()).enqueue(r.bundleId);
    return Response.json({ incidentId: r.incidentId, bundleId: r.bundleId }, { status: 202 });
  } finally {
    // files enqueueBundle kept were moved away; the rest go (once closed)
    await Promise.all(writes);
    for (const file of files) rmSync(file.path, { force: true });
  }
});
