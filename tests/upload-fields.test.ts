/**
 * Text the database cannot hold, and uploads that fail after their files arrived: a NUL character
 * (U+0000; PostgreSQL's text and jsonb take none) in any field or file name of `POST /api/uploads`
 * answers 400 with a plain message and leaves no incident, no bundle and no file; an upload whose
 * bundle row cannot be written leaves no incident made for it and no files; deleting an incident
 * removes the upload files of its bundles, failed ones included. After each, the next upload lands.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { appTestDb } from "../lib/testing/app-db";

// the route hands an accepted bundle to the ingest worker: here the test processes it
const enqueued: string[] = [];
vi.mock("../lib/ingest/worker", () => ({ startIngestWorker: async () => ({ enqueue: async (id: string) => void enqueued.push(id) }) }));

const app = appTestDb("upload-fields");

const LOG = Array.from(
  { length: 12 },
  (_, i) =>
    `Mar 14 02:10:${String(i).padStart(2, "0")} node-f kubelet[1234]: I0314 02:10:${String(i).padStart(2, "0")}.123456    1234 kubelet.go:2321] "sync loop ${i}"\n`,
).join("");

/** Files (and the folders they are kept in) under the data folder: `incoming/…`, `uploads/<bundle>/…`. */
function dataFiles(): string[] {
  const out: string[] = [];
  for (const top of ["incoming", "uploads"]) {
    const dir = path.join(app.dataDir, top);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir, { recursive: true }) as string[]) out.push(`${top}/${name}`);
  }
  return out.sort();
}

async function rows(table: string): Promise<number> {
  const [r] = await app.db.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${table}"`);
  return Number(r.n);
}

function upload(fields: Record<string, string>, fileName = "kubelet.log"): Request {
  const boundary = "----bootline-fields";
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename${fileName.startsWith("*=") ? fileName : `="${fileName}"`}\r\nContent-Type: text/plain\r\n\r\n${LOG}\r\n--${boundary}--\r\n`,
    ),
  );
  return new Request("http://127.0.0.1/api/uploads", {
    method: "POST",
    body: Buffer.concat(parts),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  });
}

/** Uploads a good log through the route and ingests it: the next upload lands. */
async function nextUploadLands(): Promise<void> {
  const { POST } = await import("../app/api/uploads/route");
  const { processBundle } = await import("../lib/ingest/pipeline");
  const res = await POST(upload({ node: "node-f", year: "2026" }));
  expect(res.status).toBe(202);
  const { bundleId } = (await res.json()) as { bundleId: string };
  expect(await processBundle(app.db, bundleId)).toMatchObject({ status: "ready", events: 12 });
}

describe("NUL characters in an upload's text", () => {
  it("in the node field, any other field or a file name: 400 with a plain message, and nothing stored", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ node: "node\u0000-a" }, "kubelet.log", 'the "node" field holds a NUL character; send it without one'],
      [{ title: "t\u0000" }, "kubelet.log", 'the "title" field holds a NUL character; send it without one'],
      [{ tz: "UTC\u0000" }, "kubelet.log", 'the "tz" field holds a NUL character; send it without one'],
      [{ incidentId: "\u0000" }, "kubelet.log", 'the "incidentId" field holds a NUL character; send it without one'],
      [{ skew: '{"a\u0000": 1}' }, "kubelet.log", 'the "skew" field holds a NUL character; send it without one'],
      // a NUL in the header itself is a broken part header; one percent-encoded (RFC 5987) decodes to U+0000
      [{}, "kube\u0000let.log", "broken upload: Malformed part header"],
      [{}, "*=UTF-8''kube%00let.log", "a file name holds a NUL character; rename the file"],
    ];
    for (const [fields, name, message] of cases) {
      const res = await POST(upload(fields, name));
      expect(res.status, message).toBe(400);
      expect(await res.json()).toEqual({ error: { code: "bad_request", message } });
    }
    expect(await rows("Incident")).toBe(0);
    expect(await rows("Bundle")).toBe(0);
    expect(dataFiles().filter((f) => !/^(incoming|uploads)$/.test(f))).toEqual([]);
    expect(enqueued).toEqual([]);
    await nextUploadLands();
  });

  it("a field past the form's limits: 413 with a plain message, and nothing stored", async () => {
    const { POST } = await import("../app/api/uploads/route");
    const bundles = await rows("Bundle");
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}`, "x"]));
    const cases: Array<[Record<string, string>, string]> = [
      [{ title: "t".repeat(70 * 1024) }, 'the "title" field is longer than 64 KiB'],
      [many, "more than 32 form fields in one upload"],
    ];
    for (const [fields, message] of cases) {
      const res = await POST(upload(fields));
      expect(res.status, message).toBe(413);
      expect(await res.json()).toEqual({ error: { code: "payload_too_large", message } });
    }
    expect(await rows("Bundle")).toBe(bundles);
    await nextUploadLands();
  });

  it("the preview's options refuse a NUL in the node too", async () => {
    const { uploadOptionFields } = await import("../lib/ingest/upload-options");
    expect(uploadOptionFields.node.safeParse("a\u0000b").success).toBe(false);
    expect(uploadOptionFields.node.safeParse("node-a").success).toBe(true);
  });
});

describe("failed uploads leave nothing behind", () => {
  it("a bundle row that cannot be written removes the incident made for it and its files", async () => {
    const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
    const { incomingDir } = await import("../lib/ingest/uploads");
    const incidents = await rows("Incident");
    const before = dataFiles();
    const file = path.join(incomingDir(), "waiting");
    writeFileSync(file, LOG);
    // a size the column refuses (bigint): the INSERT fails inside the transaction
    await expect(
      enqueueBundle(app.db, { title: "refused", files: [{ name: "a.log", path: file }], digest: { sha256: "0".repeat(64), bytes: Number.NaN } }),
    ).rejects.toThrow();
    expect(await rows("Incident")).toBe(incidents);
    // the file is still the caller's (the route removes it); no bundle folder was made
    expect(dataFiles()).toEqual([...before, "incoming/waiting"].sort());
    rmSync(file);
    await nextUploadLands();
  });

  it("deleting an incident removes its upload files, those of failed bundles too", async () => {
    const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
    const { processBundle } = await import("../lib/ingest/pipeline");
    const { uploadsDir } = await import("../lib/ingest/uploads");
    const { deleteIncident } = await import("../lib/incidents/delete-incident");
    const failed = await enqueueBundle(app.db, { title: "to delete", files: [{ name: "notes.txt", data: Buffer.from("just words\n") }] });
    expect((await processBundle(app.db, failed.bundleId)).status).toBe("failed");
    const queued = await enqueueBundle(app.db, { incident: failed.incidentId, files: [{ name: "later.log", data: Buffer.from(LOG) }] });
    expect(existsSync(uploadsDir(failed.bundleId))).toBe(true);
    expect(existsSync(uploadsDir(queued.bundleId))).toBe(true);
    await deleteIncident(app.db, { incidentId: failed.incidentId });
    expect(existsSync(uploadsDir(failed.bundleId))).toBe(false);
    expect(existsSync(uploadsDir(queued.bundleId))).toBe(false);
    await nextUploadLands();
  });
});
