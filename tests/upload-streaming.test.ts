/**
 * Uploads on disk, not in memory: the upload route streams each file into `<data dir>/incoming/`
 * and `enqueueBundle` moves it into the bundle's uploads folder (or removes it when the upload
 * repeats one already in the incident). Checked: the stored upload and its sha256 are the same as
 * for the bytes given in memory (also the sha256 the route takes as the bytes pass), repeats and refused uploads leave nothing behind, and an upload
 * over BOOTLINE_MAX_UPLOAD_BYTES (set low here, before the route is loaded) is refused with 413
 * from the bytes that arrive when the request announces no length.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, type DbHandles } from "../lib/db/connection";
import { useTestDatabaseUrl } from "../lib/db/test-db";
import { caseBytes } from "./cases/cases";

// the route hands an accepted bundle to the ingest worker: here it is only recorded
const enqueued: string[] = [];
vi.mock("../lib/ingest/worker", () => ({ startIngestWorker: async () => ({ enqueue: async (id: string) => void enqueued.push(id) }) }));

const LIMIT = 64 * 1024;
// the route opens the process-wide handles (getDb): the tests use the same
let t: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
let db: DbHandles;
let dataDir: string;
beforeAll(async () => {
  t = await useTestDatabaseUrl();
  db = await getDb();
  dataDir = mkdtempSync(path.join(process.cwd(), ".tmp-upload-"));
  process.env.BOOTLINE_DATA_DIR = dataDir;
  process.env.BOOTLINE_MAX_UPLOAD_BYTES = String(LIMIT);
});
afterAll(async () => {
  await t?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  delete process.env.BOOTLINE_MAX_UPLOAD_BYTES;
});

const incoming = () => (existsSync(path.join(dataDir, "incoming")) ? readdirSync(path.join(dataDir, "incoming")) : []);

/** A multipart body streamed in 1 KiB pieces with no content-length (as a browser's chunked upload). */
function multipart(files: Array<{ name: string; data: Buffer }>): Request {
  const boundary = "----bootline-stream";
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      f.data,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const all = Buffer.concat(parts);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < all.length; i += 1024) c.enqueue(all.subarray(i, i + 1024));
      c.close();
    },
  });
  return new Request("http://127.0.0.1/api/uploads", {
    method: "POST",
    body,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    duplex: "half",
  } as RequestInit);
}

describe("uploads streamed to disk", () => {
  it("enqueueBundle moves a file from disk into the bundle's uploads, with the sha256 of its bytes; a repeat leaves nothing", async () => {
    const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
    const { incomingDir, uploadsDir } = await import("../lib/ingest/uploads");
    const data = caseBytes("056-kind-journald-containerd-kubelet-cilium-cni-retry.log");
    const tmp = path.join(incomingDir(), "a");
    writeFileSync(tmp, data);
    const r = await enqueueBundle(db, { title: "on disk", files: [{ name: "kind.log", path: tmp }] });
    expect(existsSync(tmp)).toBe(false);
    const stored = readdirSync(uploadsDir(r.bundleId));
    expect(stored).toEqual(["0000__kind.log"]);
    expect(readFileSync(path.join(uploadsDir(r.bundleId), stored[0])).equals(data)).toBe(true);
    const [row] = await db.sql.query<{ sha256: string; byteSize: number }>(`SELECT sha256, "byteSize"::int AS "byteSize" FROM "Bundle" WHERE id = $1`, [
      r.bundleId,
    ]);
    expect(row).toEqual({ sha256: createHash("sha256").update(data).digest("hex"), byteSize: data.length });

    // once it is stored, the same bytes again into that incident: recorded as a repeat, the file on disk removed
    const { processBundle } = await import("../lib/ingest/pipeline");
    expect((await processBundle(db, r.bundleId)).status).toBe("ready");
    const again = path.join(incomingDir(), "b");
    writeFileSync(again, data);
    const dup = await enqueueBundle(db, { incident: r.incidentId, files: [{ name: "kind.log", path: again }] });
    expect(dup.duplicateOf).toBe(r.bundleId);
    expect(existsSync(again)).toBe(false);
    expect(existsSync(uploadsDir(dup.bundleId))).toBe(false);
  });

  it("the route refuses an upload whose bytes pass the limit (no length announced) with 413 and keeps none of it", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const res = await POST(
      multipart([
        { name: "small.log", data: Buffer.alloc(1000, 0x61) },
        { name: "big.log", data: Buffer.alloc(LIMIT * 2, 0x62) },
      ]),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: "payload_too_large",
      // busboy's per-file limit (the same number) trips first and names the file
      message: "big.log is larger than the upload limit of 64 KiB (BOOTLINE_MAX_UPLOAD_BYTES)",
    });
    expect(incoming()).toEqual([]);
    // every file under the limit, together over it
    const many = await POST(multipart([1, 2, 3].map((i) => ({ name: `part-${i}.log`, data: Buffer.alloc(30 * 1024, 0x60 + i) }))));
    expect(many.status).toBe(413);
    expect(((await many.json()) as { error: { message: string } }).error.message).toBe(
      "the upload is larger than the upload limit of 64 KiB (BOOTLINE_MAX_UPLOAD_BYTES)",
    );
    expect(incoming()).toEqual([]);
  });

  it("sweepIncoming removes what unfinished uploads left, older than a day, and nothing newer", async () => {
    const { incomingDir, sweepIncoming } = await import("../lib/ingest/uploads");
    const old = path.join(incomingDir(), "old");
    const fresh = path.join(incomingDir(), "fresh");
    writeFileSync(old, "x");
    writeFileSync(fresh, "y");
    const twoDaysAgo = (Date.now() - 48 * 3600_000) / 1000;
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    expect(sweepIncoming()).toBe(1);
    expect(incoming()).toEqual(["fresh"]);
    rmSync(fresh);
  });

  it("after a refusal, a later file cut by the end of the body is dropped without an unhandled error", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const boundary = "----bootline-cut";
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.log"\r\n\r\n`),
      Buffer.alloc(LIMIT + 36 * 1024, 0x61),
      Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="b.log"\r\n\r\nbbbb`),
    ]);
    const res = await POST(
      new Request("http://127.0.0.1/api/uploads", { method: "POST", body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } }),
    );
    expect(res.status).toBe(413);
    expect(incoming()).toEqual([]);
  });

  it("the route stores a two-file upload with the sha256 and size of both files' bytes in order, and queues it", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const { uploadsDir } = await import("../lib/ingest/uploads");
    // both past the disk writer's 16 KiB buffer, so the first file's tail is pushed after the
    // second file has begun (a hash fed in arrival order came out wrong)
    const a = Buffer.from("Mar 14 02:10:05 node-a kubelet[1]: first file\n".repeat(640));
    const b = Buffer.from("Mar 14 02:10:06 node-b kubelet[1]: second file\n".repeat(600));
    expect(a.length + b.length).toBeLessThan(LIMIT);
    const res = await POST(
      multipart([
        { name: "a.log", data: a },
        { name: "b.log", data: b },
      ]),
    );
    expect(res.status).toBe(202);
    const { bundleId } = (await res.json()) as { bundleId: string };
    expect(enqueued).toEqual([bundleId]);
    const [row] = await db.sql.query<{ sha256: string; byteSize: number }>(`SELECT sha256, "byteSize"::int AS "byteSize" FROM "Bundle" WHERE id = $1`, [
      bundleId,
    ]);
    // what enqueueBundle computes from the same files in memory
    expect(row).toEqual({ sha256: createHash("sha256").update(a).update(b).digest("hex"), byteSize: a.length + b.length });
    expect(readdirSync(uploadsDir(bundleId)).map((n) => readFileSync(path.join(uploadsDir(bundleId), n)).length)).toEqual([a.length, b.length]);
    expect(incoming()).toEqual([]);
  });

  it("StreamDigest hashes files in their order whatever order their chunks come in", async () => {
    const { StreamDigest } = await import("../lib/ingest/enqueue-bundle");
    const d = new StreamDigest();
    const [a, b, c] = [d.file(), d.file(), d.file()];
    b.data(Buffer.from("b1"));
    a.data(Buffer.from("a1"));
    c.end(); // an empty file
    b.data(Buffer.from("b2"));
    a.data(Buffer.from("a2"));
    expect(() => d.digest()).toThrow("upload digest: file 1 of 3 did not end");
    a.end();
    b.end();
    expect(d.digest()).toEqual({ sha256: createHash("sha256").update("a1a2b1b2").digest("hex"), bytes: 8 });
  });

  it("the route answers 400 to a multipart type without a boundary", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const res = await POST(new Request("http://127.0.0.1/api/uploads", { method: "POST", body: "x", headers: { "content-type": "multipart/form-data" } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^broken upload: /);
  });

  it("stores an upload under a name with no control characters, at most 200 characters long, its end kept", async () => {
    const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
    const { uploadsDir } = await import("../lib/ingest/uploads");
    const name = `${"n".repeat(300)}\u0001node-a.tar.gz`;
    const r = await enqueueBundle(db, { title: "long name", files: [{ name, data: Buffer.from("Mar 14 02:10:05 node-a kubelet[1]: x\n") }] });
    expect(readdirSync(uploadsDir(r.bundleId))).toEqual([`0000__${"n".repeat(186)}_node-a.tar.gz`]);
  });

  it("the route refuses a broken multipart body with 400 and keeps none of it", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const good = multipart([{ name: "x.log", data: Buffer.alloc(5000, 0x63) }]);
    // the same body cut before its closing boundary
    const bytes = Buffer.from(await good.arrayBuffer());
    const cut = new Request("http://127.0.0.1/api/uploads", {
      method: "POST",
      body: bytes.subarray(0, 3000),
      headers: { "content-type": good.headers.get("content-type")! },
    });
    const res = await POST(cut);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: "bad_request",
      message: "broken upload: Unexpected end of form",
    });
    expect(incoming()).toEqual([]);
  });
});
