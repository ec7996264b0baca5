/**
 * The notes of an incident (optionally of one boot), by time then creation: the timeline's
 * markers and the Markdown export's "Notes".
 */
import { getDb } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";
import type { TAnnotation } from "./annotation";
import { toAnnotation } from "./create-annotation";

/** `ApiError("not_found")` when `bootId` is given and is not a boot of the incident. */
export async function listAnnotations(opts: { incidentId: string; bootId?: number }): Promise<TAnnotation[]> {
  const { prisma } = await getDb();
  if (opts.bootId !== undefined) {
    const boot = await prisma.boot.findFirst({ where: { id: opts.bootId, incidentId: opts.incidentId }, select: { id: true } });
    if (!boot) throw new ApiError("not_found", "boot not found in this incident");
  }
  const rows = await prisma.annotation.findMany({
    where: { incidentId: opts.incidentId, ...(opts.bootId !== undefined ? { bootId: opts.bootId } : {}) },
    orderBy: [{ ts: "asc" }, { id: "asc" }],
  });
  return rows.map(toAnnotation);
}
