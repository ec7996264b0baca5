/**
 * One event with everything the detail panel shows: the full message, the raw line, the
 * file it came from (path in the bundle, line number, clock offset and zone applied) and
 * its structured fields. Rendered as text by the UI, never as HTML.
 */
import { getDb } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";

export interface TEventDetail {
  id: string;
  /** UTC ms; null when the record carries no time */
  ts: number | null;
  precision: string;
  flags: number;
  component: string;
  lane: string;
  severity: number;
  kind: string;
  pod: string | null;
  sandboxId: string | null;
  errorClass: string | null;
  message: string;
  raw: string;
  fields: Record<string, unknown> | null;
  /** 1-based physical line in the file */
  line: number;
  file: { id: number; path: string; kind: string; format: string; clockOffsetMs: number; timeZone: string; zoneSource: string; yearSource: string | null };
  bundle: { id: string; fileName: string };
  node: string | null;
  bootKey: string | null;
}

interface Row {
  id: string;
  ts: number | null;
  precision: string;
  flags: number;
  component: string;
  lane: string;
  severity: number;
  kind: string;
  pod: string | null;
  sandboxId: string | null;
  errorClass: string | null;
  message: string;
  raw: string;
  fields: unknown;
  line: number;
  fileId: number;
  path: string;
  fileKind: string;
  format: string;
  clockOffsetMs: number;
  timeZone: string;
  zoneSource: string;
  yearSource: string | null;
  bundleId: string;
  fileName: string;
  node: string | null;
  bootKey: string | null;
}

const SQL = `
SELECT e.id::text AS id, (extract(epoch FROM e.ts) * 1000)::float8 AS ts, e.precision, e.flags, e.component, e.lane,
       e.severity, e.kind, e.pod, e."sandboxId", e."errorClass", e.message, e.raw, e.fields, e.line,
       f.id AS "fileId", f.path, f.kind AS "fileKind", f.format, f."clockOffsetMs", f."timeZone", f."zoneSource", f."yearSource",
       bu.id AS "bundleId", bu."fileName", n.name AS node, bo."bootKey"
FROM "Event" e
JOIN "SourceFile" f ON f.id = e."fileId"
JOIN "Bundle" bu ON bu.id = e."bundleId"
LEFT JOIN "Node" n ON n.id = e."nodeId"
LEFT JOIN "Boot" bo ON bo.id = e."bootId"
WHERE e.id = $2::bigint AND e."incidentId" = $1`;

/** Loads one event of the incident; `ApiError("not_found")` when it is not there. */
export async function getEvent(opts: { incidentId: string; eventId: string }): Promise<TEventDetail> {
  if (!/^\d{1,19}$/.test(opts.eventId)) throw new ApiError("bad_request", "invalid event id");
  const { sql } = await getDb();
  const [r] = await sql.query<Row>(SQL, [opts.incidentId, opts.eventId]);
  if (!r) throw new ApiError("not_found", "event not found");
  return {
    id: r.id,
    ts: r.ts == null ? null : Number(r.ts),
    precision: r.precision,
    flags: r.flags,
    component: r.component,
    lane: r.lane,
    severity: r.severity,
    kind: r.kind,
    pod: r.pod,
    sandboxId: r.sandboxId,
    errorClass: r.errorClass,
    message: r.message,
    raw: r.raw,
    fields: r.fields && typeof r.fields === "object" ? (r.fields as Record<string, unknown>) : null,
    line: r.line,
    file: { id: r.fileId, path: r.path, kind: r.fileKind, format: r.format, clockOffsetMs: r.clockOffsetMs, timeZone: r.timeZone, zoneSource: r.zoneSource, yearSource: r.yearSource },
    bundle: { id: r.bundleId, fileName: r.fileName },
    node: r.node,
    bootKey: r.bootKey,
  };
}
