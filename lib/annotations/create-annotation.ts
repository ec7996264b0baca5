/**
 * Pins a reviewer's note to an instant of a node boot, or to one of its events (then the
 * note takes the event's time). The boot must belong to the incident, and the event to
 * the boot; a time must lie in the boot's range (`bootRange`: T+0 or its first event to its end
 * or last event), where its timeline can show it: else `ApiError("unprocessable")`.
 */
import { getDb } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";
import { fmtOffset } from "@/lib/view/format";
import { bootExtent, bootRange } from "@/lib/queries/get-boot-view";
import { ZAnnotationText, type TAnnotation } from "./annotation";

export async function createAnnotation(opts: { incidentId: string; bootId: number; ts?: number; eventId?: string; text: string }): Promise<TAnnotation> {
  const text = ZAnnotationText.parse(opts.text);
  const { prisma, sql } = await getDb();
  const boot = await prisma.boot.findFirst({ where: { id: opts.bootId, incidentId: opts.incidentId }, select: { id: true, start: true, end: true } });
  if (!boot) throw new ApiError("not_found", "boot not found in this incident");
  let ts = opts.ts;
  let fromEvent = false;
  if (opts.eventId !== undefined) {
    if (!/^\d{1,19}$/.test(opts.eventId)) throw new ApiError("bad_request", "invalid event id");
    const [e] = await sql.query<{ bootId: number | null; ts: number | null }>(
      `SELECT "bootId", (extract(epoch FROM ts) * 1000)::float8 AS ts FROM "Event" WHERE id = $1::bigint AND "incidentId" = $2`,
      [opts.eventId, opts.incidentId],
    );
    if (!e) throw new ApiError("not_found", "event not found in this incident");
    if (e.bootId !== opts.bootId) throw new ApiError("unprocessable", "the event belongs to another boot");
    if (e.ts !== null) {
      ts = Number(e.ts);
      fromEvent = true;
    }
  }
  if (ts === undefined || !Number.isFinite(ts)) throw new ApiError("bad_request", "give a time (ts) or an event with a time");
  if (!fromEvent) {
    const startMs = boot.start.getTime();
    const range = bootRange(startMs, boot.end ? boot.end.getTime() : null, await bootExtent(sql, boot.id));
    if (ts < range.fromMs || ts >= range.toMs) {
      throw new ApiError(
        "unprocessable",
        `the time ${fmtOffset(ts, startMs)} is outside this boot (${fmtOffset(range.fromMs, startMs)} to ${fmtOffset(range.toMs - 1, startMs)}): pin the note inside it`,
      );
    }
  }
  const a = await prisma.annotation.create({
    data: { incidentId: opts.incidentId, bootId: opts.bootId, ts: new Date(ts), eventId: opts.eventId === undefined ? null : BigInt(opts.eventId), text },
  });
  return toAnnotation(a);
}

export function toAnnotation(a: { id: number; bootId: number; ts: Date; eventId: bigint | null; text: string; createdAt: Date }): TAnnotation {
  return {
    id: a.id,
    bootId: a.bootId,
    ts: a.ts.getTime(),
    eventId: a.eventId === null ? null : String(a.eventId),
    text: a.text,
    createdAt: a.createdAt.getTime(),
  };
}
