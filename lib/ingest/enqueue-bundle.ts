/**
 * Accepts an upload: creates the incident when needed, the `Bundle` row (status
 * `queued`), and stores the uploaded files for the ingest worker. Parsing happens later,
 * outside the request (worker.ts), so an upload returns at once.
 */
import { createHash, randomBytes } from "node:crypto";
import type { DbHandles } from "../db/connection";
import { saveUpload, type BundleOptions } from "./process-bundle";

export interface UploadedFile {
  name: string;
  data: Buffer;
}

export interface EnqueueInput {
  /** an existing incident id to add to; when it names no incident it is used as the title of a new one */
  incident?: string | null;
  /** title of a new incident (default: the first file's name) */
  title?: string | null;
  files: UploadedFile[];
  options?: BundleOptions;
}

/** 16 URL-safe characters from 96 random bits: unguessable incident ids. */
export function newIncidentId(): string {
  return randomBytes(12).toString("base64url");
}

export async function enqueueBundle(db: DbHandles, input: EnqueueInput): Promise<{ incidentId: string; bundleId: string; created: boolean }> {
  if (!input.files.length) throw new Error("no files in the upload");
  let incidentId: string | null = null;
  if (input.incident) {
    const found = await db.prisma.incident.findUnique({ where: { id: input.incident } });
    if (found) incidentId = found.id;
  }
  let created = false;
  if (!incidentId) {
    const title = (input.incident || input.title || input.files[0].name).trim().slice(0, 200) || "untitled incident";
    const inc = await db.prisma.incident.create({ data: { id: newIncidentId(), title } });
    incidentId = inc.id;
    created = true;
  }
  const hash = createHash("sha256");
  let size = 0;
  for (const f of input.files) {
    hash.update(f.data);
    size += f.data.length;
  }
  const bundleId = randomBytes(9).toString("base64url");
  input.files.forEach((f, i) => saveUpload(bundleId, i, f.name, f.data));
  await db.prisma.bundle.create({
    data: {
      id: bundleId,
      incidentId,
      fileName: input.files.length === 1 ? input.files[0].name : `${input.files[0].name} and ${input.files.length - 1} more`,
      sha256: hash.digest("hex"),
      byteSize: BigInt(size),
      status: "queued",
      phase: "queued",
      options: { ...(input.options ?? {}), uploads: input.files.map((f) => f.name) },
    },
  });
  return { incidentId, bundleId, created };
}
