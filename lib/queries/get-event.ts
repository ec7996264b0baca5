/**
 * One event with everything the detail panel shows: the full message, the raw line(s)
 * read back from the stored source file (SourceBlock) with a few lines of context, the
 * file it came from (path in the bundle, line number, clock offset and zone applied) and
 * its structured fields. Rendered as text by the UI, never as HTML.
 */
import { getDb } from "@/lib/db/connection";
import { ApiError } from "@/lib/http/errors";
import { readSourceLines } from "./read-source-lines";
import { fieldsOfMessage } from "@/lib/model/message-fields";

/** Lines of context shown before and after the event's own lines. */
export const CONTEXT_LINES = 3;

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
  /** the record's physical lines joined with "\n" ("" when the source text is not stored) */
  raw: string;
  /** the record's lines and CONTEXT_LINES around them; `own` marks the record's lines */
  context: Array<{ n: number; text: string; own: boolean }>;
  fields: Record<string, unknown> | null;
  /** 1-based physical line of the record's first line */
  line: number;
  /** physical lines the record spans (continuations included) */
  span: number;
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
  /** JSON text (Event.fields) */
  fields: string | null;
  /** where the fields' pairs start in the message when they are not stored apart (Event.fieldsAt) */
  fieldsAt: number | null;
  line: number;
  span: number;
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
       e.severity, e.kind, e.pod, e."sandboxId", e."errorClass", e.message, e.fields, e."fieldsAt", e.line, e.span,
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
  const span = Math.max(1, Number(r.span) || 1);
  const last = r.line + span - 1;
  const lines = await readSourceLines(sql, r.fileId, Math.max(1, r.line - CONTEXT_LINES), last + CONTEXT_LINES);
  const context = lines.map((l) => ({ n: l.n, text: l.text, own: l.n >= r.line && l.n <= last }));
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
    raw: context
      .filter((l) => l.own)
      .map((l) => l.text)
      .join("\n"),
    context,
    fields: r.fieldsAt === null ? parseFields(r.fields) : fieldsOfMessage(r.message, r.fieldsAt),
    line: r.line,
    span,
    file: {
      id: r.fileId,
      path: r.path,
      kind: r.fileKind,
      format: r.format,
      clockOffsetMs: r.clockOffsetMs,
      timeZone: r.timeZone,
      zoneSource: r.zoneSource,
      yearSource: r.yearSource,
    },
    bundle: { id: r.bundleId, fileName: r.fileName },
    node: r.node,
    bootKey: r.bootKey,
  };
}

/** Event.fields holds JSON text; a damaged value shows as `{ _unparsed: text }` rather than failing the page. */
function parseFields(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { _unparsed: text };
  }
}
