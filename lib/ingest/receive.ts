/**
 * The pipeline's receive step: an upload request's multipart body (busboy) streamed to disk file
 * by file (`incomingDir()`), with the bundle's sha256 taken as the bytes pass (`StreamDigest`),
 * so a 2 GiB upload never sits in memory. What the caller does not move away (`enqueueBundle`
 * moves the files it keeps) is removed once it returns or throws.
 *
 * Limits: `LIMITS.maxUploadBytes` for the whole body (BOOTLINE_MAX_UPLOAD_BYTES, lib/bundle/limits.ts),
 * `MAX_UPLOAD_FILES` files, 32 fields of at most 64 KiB. Errors are `ApiError`s: 413
 * (`payload_too_large`) past a limit, 400 (`bad_request`) for a body that is not multipart, is cut
 * or broken, holds no file, or holds a NUL character in a field or a file name.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream, rmSync, type WriteStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import busboy from "busboy";
import { fmtSize, LIMIT_ENV, LIMITS } from "../bundle/limits";
import { ApiError } from "../http/errors";
import { StreamDigest } from "./enqueue-bundle";
import { incomingDir } from "./uploads";

/** Largest upload accepted, bytes (BOOTLINE_MAX_UPLOAD_BYTES, default 2 GiB; lib/bundle/limits.ts). */
const MAX_UPLOAD = LIMITS.maxUploadBytes;
/** Most files in one upload request. */
const MAX_UPLOAD_FILES = 1000;
const tooLarge = (what: string) =>
  new ApiError("payload_too_large", `${what} is larger than the upload limit of ${fmtSize(MAX_UPLOAD)} (${LIMIT_ENV.maxUploadBytes})`);

/** A received upload: its non-empty fields, its files on disk (request order) and their digest. */
export interface ReceivedUpload {
  fields: Record<string, string>;
  files: Array<{ name: string; path: string }>;
  digest: { sha256: string; bytes: number };
}

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
 * Streams `req`'s multipart body to disk and runs `use` on it; then removes every received file
 * `use` left in place (once all are closed), whether it returned or threw.
 */
export async function receiveUpload<T>(req: Request, use: (upload: ReceivedUpload) => Promise<T>): Promise<T> {
  // refuse a body announced too large before reading it (multipart framing allowed for)
  const announced = Number(req.headers.get("content-length") ?? "NaN");
  if (announced > MAX_UPLOAD + 64 * 1024) throw tooLarge("the upload");
  const type = req.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data") || !req.body) throw new ApiError("bad_request", "send the files as multipart/form-data");
  const fields: Record<string, string> = {};
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
      bb.on("fieldsLimit", () => fail(new ApiError("payload_too_large", "more than 32 form fields in one upload")));
      bb.on("field", (name, value, info) => {
        if (info.valueTruncated) return fail(new ApiError("payload_too_large", `the "${name}" field is longer than 64 KiB`));
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
    return await use({ fields, files, digest: digest.digest() });
  } finally {
    // files the caller kept were moved away; the rest go (once closed)
    await Promise.all(writes);
    for (const file of files) rmSync(file.path, { force: true });
  }
}
