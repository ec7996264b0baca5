/**
 * Pins a reviewer's note to an instant of a node boot, or to one of its events (then the
 * note takes the event's time). The boot must belong to the incident, and the event to
 * the boot.
 */
import { getDb } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";
import { ZAnnotationText, type TAnnotation } from "./annotation";

export async function createAnnotation(opts: { incidentId: string; bootId: number; ts?: number; eventId?: string; text: string }): Promise<TAnnotation> {
  const text = ZAnnotationText.parse(opts.text);
  const { prisma, sql } = await getDb();
  const boot = await prisma.boot.findFirst({ where: { id: opts.bootId, incidentId: opts.incidentId }, select: { id: true } });
  if (!boot) throw new ApiError("not_found", "boot not found in this incident");
  let ts = opts.ts;
  if (opts.eventId !== undefined) {
    if (!/^\d{1,19}$/.test(opts.eventId)) throw new ApiError("bad_request", "invalid event id");
    const [e] = await sql.query<{ bootId: number | null; ts: number | null }>(
      `SELECT "bootId", (extract(epoch FROM ts) * 1000)::float8 AS ts FROM "Event" WHERE id = $1::bigint AND "incidentId" = $2`,
      [opts.eventId, opts.incidentId],
    );
    if (!e) throw new ApiError("not_found", "event not found in this incident");
    if (e.bootId !== opts.bootId) throw new ApiError("unprocessable", "the event belongs to another boot");
    if (e.ts !== null) ts = Number(e.ts);
  }
  if (ts === undefined || !Number.isFinite(ts)) throw new ApiError("bad_request", "give a time (ts) or an event with a time");
  const a = await prisma.annotation.create({
    data: { incidentId: opts.incidentId, bootId: opts.bootId, ts: new Date(ts), eventId: opts.eventId === undefined ? null : BigInt(opts.eventId), text },
  });
  return toAnnotation(a);
}

export function toAnnotation(a: { id: number; bootId: number; ts: Date; eventId: bigint | null; text: string; createdAt: Date }): TAnnotation {
  return { id: a.id, bootId: a.bootId, ts: a.ts.getTime(), eventId: a.eventId === null ? null : String(a.eventId), text: a.text, createdAt: a.createdAt.getTime() };
}
