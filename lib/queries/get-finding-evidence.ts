/**
 * The evidence of one finding: the ids of the events its detector cited (Finding.evidence),
 * with the finding's boot and window, so the timeline can highlight those rows and the
 * incident page can link to the window with the finding selected.
 */
import { getDb } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";

export interface TFindingEvidence {
  findingId: number;
  bootId: number;
  detector: string;
  /** UTC ms */
  startMs: number;
  endMs: number | null;
  /** event ids (BIGINT as text), ascending */
  eventIds: string[];
}

/** `ApiError("not_found")` when the incident has no such finding. */
export async function getFindingEvidence(opts: { incidentId: string; findingId: number }): Promise<TFindingEvidence> {
  const { prisma } = await getDb();
  const f = await prisma.finding.findFirst({
    where: { id: opts.findingId, incidentId: opts.incidentId },
    select: { id: true, bootId: true, detector: true, start: true, end: true, evidence: true },
  });
  if (!f) throw new ApiError("not_found", "finding not found");
  return {
    findingId: f.id,
    bootId: f.bootId,
    detector: f.detector,
    startMs: f.start.getTime(),
    endMs: f.end ? f.end.getTime() : null,
    eventIds: [...f.evidence].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String),
  };
}
