/**
 * Accepts an upload: creates the incident when needed, the `Bundle` row (status
 * `queued`), and stores the uploaded files for the ingest worker. Parsing happens later,
 * outside the request (worker.ts), so an upload returns at once.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, openSync, readSync, rmSync } from "node:fs";
import type { DbHandles } from "../db/connection";
import type { SqlConn } from "../db/sql";
import { saveUpload, uploadsDir, type BundleOptions } from "./uploads";

/**
 * One uploaded file: its bytes, or `path`, a file on disk (in `incomingDir`, where the upload
 * route streams large uploads instead of holding them in memory) that `enqueueBundle` moves into
 * the bundle's uploads folder, or removes when the upload is not kept (a repeat).
 */
export type UploadedFile = { name: string; data: Buffer } | { name: string; path: string };

/** Feeds a file's bytes to `hash` in reads of `buf`'s size; returns its size in bytes. */
function hashFile(file: string, hash: ReturnType<typeof createHash>, buf: Buffer): number {
  const fd = openSync(file, "r");
  try {
    let size = 0;
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; size += n) hash.update(buf.subarray(0, n));
    return size;
  } finally {
    closeSync(fd);
  }
}

/** sha256 (hex) and size in bytes of the files' bytes one after another (files on disk read in 4 MiB pieces). */
export function digestFiles(files: UploadedFile[]): { sha256: string; bytes: number } {
  const hash = createHash("sha256");
  let bytes = 0;
  const buf = files.some((f) => "path" in f) ? Buffer.allocUnsafe(4 << 20) : null;
  for (const f of files) {
    if ("path" in f) bytes += hashFile(f.path, hash, buf!);
    else {
      hash.update(f.data);
      bytes += f.data.length;
    }
  }
  return { sha256: hash.digest("hex"), bytes };
}

/**
 * The `digest` of files that arrive as streams (the upload route's multipart files): their
 * bytes hashed one file after another, in the order the files were opened with `file()`, even
 * when a later file's first chunks come before an earlier file's last ones (busboy pushes the
 * tail of a file whose disk write is paused, then starts the next file in the same pass). A
 * later file's chunks wait in memory until the files before it end: at most what busboy pushes
 * before the paused file is read again, a body chunk or two.
 */
export class StreamDigest {
  private readonly hash = createHash("sha256");
  private readonly files: Array<{ chunks: Buffer[]; ended: boolean }> = [];
  private current = 0;
  private bytes = 0;

  /** Opens the next file; feed it its chunks in its own order (`data`), then `end`. */
  file(): { data(chunk: Buffer): void; end(): void } {
    const f = { chunks: [] as Buffer[], ended: false };
    this.files.push(f);
    return {
      data: (chunk) => {
        f.chunks.push(chunk);
        this.bytes += chunk.length;
        this.flush();
      },
      end: () => {
        f.ended = true;
        this.flush();
      },
    };
  }

  /** sha256 (hex) and bytes of every file, in order. Throws when a file has not ended. */
  digest(): { sha256: string; bytes: number } {
    const open = this.files.findIndex((f) => !f.ended);
    if (open >= 0) throw new Error(`upload digest: file ${open + 1} of ${this.files.length} did not end`);
    return { sha256: this.hash.digest("hex"), bytes: this.bytes };
  }

  private flush(): void {
    for (; this.current < this.files.length; this.current++) {
      const f = this.files[this.current];
      for (const c of f.chunks) this.hash.update(c);
      f.chunks = [];
      if (!f.ended) return;
    }
  }
}

export interface EnqueueInput {
  /** an existing incident id to add to; when it names no incident it is used as the title of a new one */
  incident?: string | null;
  /** title of a new incident (default: the first file's name) */
  title?: string | null;
  files: UploadedFile[];
  options?: BundleOptions;
  /**
   * sha256 (hex) and size in bytes of the files' bytes one after another, in order, when the
   * caller took them as the bytes arrived (the upload route does, so a large upload is not read
   * again here on the request's thread); computed from the files otherwise
   */
  digest?: { sha256: string; bytes: number };
}

/** 16 URL-safe characters from 96 random bits: unguessable incident ids. */
export function newIncidentId(): string {
  return randomBytes(12).toString("base64url");
}

/**
 * What enqueueBundle did. `duplicateOf`: the incident already stored a bundle with the same
 * sha256 (`storedOriginal`), so this upload is recorded as a bundle that points at it (status
 * `ready`, no files, no events) and is not ingested again; `bundleId` is that new record.
 */
export interface EnqueueResult {
  incidentId: string;
  bundleId: string;
  created: boolean;
  duplicateOf: string | null;
}

export async function enqueueBundle(db: DbHandles, input: EnqueueInput): Promise<EnqueueResult> {
  if (!input.files.length) throw new Error("no files in the upload");
  let incidentId: string | null = null;
  if (input.incident) {
    const found = await db.prisma.incident.findUnique({ where: { id: input.incident } });
    if (found) incidentId = found.id;
  }
  let created = false;
  if (!incidentId) {
    const title =
      storable(input.incident || input.title || input.files[0].name)
        .trim()
        .slice(0, 200) || "untitled incident";
    const inc = await db.prisma.incident.create({ data: { id: newIncidentId(), title } });
    incidentId = inc.id;
    created = true;
  }
  const bundleId = randomBytes(9).toString("base64url");
  const incident = incidentId;
  let duplicateOf: string | null;
  try {
    duplicateOf = await insertBundle(db, input, incident, bundleId, created);
  } catch (e) {
    // nothing of a refused upload stays: its files, and the incident made for it
    rmSync(uploadsDir(bundleId), { recursive: true, force: true });
    if (created)
      await db.sql.query(`DELETE FROM "Incident" WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM "Bundle" WHERE "incidentId" = $1)`, [incident]).catch(() => {});
    throw e;
  }
  // a repeat keeps no files: those waiting on disk go
  if (duplicateOf) for (const f of input.files) if ("path" in f) rmSync(f.path, { force: true });
  return { incidentId, bundleId, created, duplicateOf };
}

/**
 * The bundle of incident `incidentId` whose uploads hash to `sha256` and are stored (`ready`, not
 * itself a repeat), other than `bundleId`; null when there is none. Only a stored original makes
 * an upload a repeat: one still queued or running may yet fail, and its repeat must then be
 * ingested (the pipeline asks again when the repeat's turn comes, pipeline.ts).
 */
export async function storedOriginal(tx: SqlConn, incidentId: string, sha256: string, bundleId: string): Promise<string | null> {
  const [dup] = await tx.query<{ id: string }>(
    `SELECT id FROM "Bundle" WHERE "incidentId" = $1 AND sha256 = $2 AND status = 'ready' AND "duplicateOf" IS NULL AND id <> $3
     ORDER BY "createdAt", id LIMIT 1`,
    [incidentId, sha256, bundleId],
  );
  return dup?.id ?? null;
}

/** Text PostgreSQL can store (its text and jsonb take no NUL character): NULs dropped. */
const storable = (s: string) => s.replace(/\0/g, "");

/**
 * In one transaction: the `Bundle` row (a repeat of a bundle the incident has stored, or a
 * queued one whose files move into its uploads folder). Returns the bundle it repeats, or null.
 */
async function insertBundle(db: DbHandles, input: EnqueueInput, incident: string, bundleId: string, created: boolean): Promise<string | null> {
  const { sha256, bytes: size } = input.digest ?? digestFiles(input.files);
  const names = input.files.map((f) => storable(f.name));
  const fileName = names.length === 1 ? names[0] : `${names[0]} and ${names.length - 1} more`;
  const options = JSON.stringify({ ...(input.options ?? {}), uploads: names }, (_k, v: unknown) => (typeof v === "string" ? storable(v) : v));
  return db.sql.transaction(async (tx) => {
    // one upload at a time per incident decides whether it repeats one stored there
    await tx.query(`SELECT pg_advisory_xact_lock(72707371, hashtext($1))`, [incident]);
    const dup = created ? null : await storedOriginal(tx, incident, sha256, bundleId);
    if (dup) {
      await tx.query(
        `INSERT INTO "Bundle" (id, "incidentId", "fileName", sha256, "byteSize", status, phase, progress, options, "duplicateOf", "startedAt", "finishedAt")
         VALUES ($1, $2, $3, $4, $5, 'ready', 'done', 1, $6::jsonb, $7, now(), now())`,
        [bundleId, incident, fileName, sha256, size, options, dup],
      );
      return dup;
    }
    await tx.query(
      `INSERT INTO "Bundle" (id, "incidentId", "fileName", sha256, "byteSize", status, phase, options)
       VALUES ($1, $2, $3, $4, $5, 'queued', 'queued', $6::jsonb)`,
      [bundleId, incident, fileName, sha256, size, options],
    );
    // moved once the row is in: a row that cannot be written leaves the files where they were
    // (the caller's to remove); files moved when the commit then fails go with the caller's cleanup
    input.files.forEach((f, i) => saveUpload(bundleId, i, f.name, "path" in f ? f.path : f.data));
    return null;
  });
}
