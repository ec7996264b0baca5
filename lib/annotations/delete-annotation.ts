/** Removes one note of the incident; `ApiError("not_found")` when it is not there. */
import { getDb } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";

export async function deleteAnnotation(opts: { incidentId: string; annotationId: number }): Promise<{ id: number }> {
  const { prisma } = await getDb();
  const r = await prisma.annotation.deleteMany({ where: { id: opts.annotationId, incidentId: opts.incidentId } });
  if (r.count === 0) throw new ApiError("not_found", "note not found");
  return { id: opts.annotationId };
}
