/**
 * The upload form's optional fields (node, time zone, year, collection time) checked in the
 * browser with the zod fields the routes use (lib/ingest/upload-options.ts, `POST /api/uploads`
 * and `POST /api/preview`), so the form refuses what the server would refuse, in the same terms;
 * the zone also through the parser's own zone reader (lib/parse/zone.ts), where the server finds
 * an unknown zone only when it parses.
 */
import { z } from "zod";
import { collectedField, uploadOptionFields } from "../ingest/upload-options";
import { resolveZone } from "../parse/zone";

/** The fields as typed (any may be empty). */
export interface TUploadFieldText {
  node: string;
  tz: string;
  year: string;
  collected: string;
}

/** The fields checked: empty ones left out; `collectedMs` UTC ms. */
export interface TUploadOptions {
  node?: string;
  tz?: string;
  year?: number;
  collectedMs?: number;
}

/**
 * A collection time as the server reads it: `T` for the space of `2026-03-14 02:30:00`, and a
 * time without a zone taken as UTC (`Z` added); a date alone is left as it is.
 */
export function normaliseCollected(s: string): string {
  const t = s.trim().replace(" ", "T");
  return /(Z|[+-]\d{2}:?\d{2})$/i.test(t) || !/T/.test(t) ? t : `${t}Z`;
}

const knownZone = (tz: string | undefined) => {
  if (!tz) return true;
  try {
    resolveZone(tz);
    return true;
  } catch {
    return false;
  }
};
const UNKNOWN_ZONE = "unknown time zone";
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** The form's fields: the server's own, an empty field as none. */
export const ZUploadFormFields = z.object({
  node: z.preprocess(blank, uploadOptionFields.node),
  tz: z.preprocess(blank, uploadOptionFields.tz.refine(knownZone, UNKNOWN_ZONE)),
  year: z.preprocess(blank, uploadOptionFields.year),
  collected: z.preprocess((v) => (typeof v === "string" ? normaliseCollected(v) : v), collectedField),
});

/** Checks the fields; the options as the server takes them, or the first problem in words. */
export function checkUploadFields(v: TUploadFieldText): { ok: true; options: TUploadOptions } | { ok: false; message: string } {
  const r = ZUploadFormFields.safeParse(v);
  if (r.success) {
    const { node, tz, year, collected } = r.data;
    return { ok: true, options: { node, tz, year, collectedMs: collected } };
  }
  const issue = r.error.issues[0];
  const field = issue?.path[0];
  if (field === "tz" && issue.message !== UNKNOWN_ZONE) return { ok: false, message: `time zone: ${issue.message}` };
  if (field === "tz") return { ok: false, message: `unknown time zone “${v.tz}” (use an IANA name such as Europe/Berlin, or an offset such as +02:00)` };
  if (field === "year") return { ok: false, message: "year must be a four-digit year between 1970 and 2100" };
  if (field === "collected") return { ok: false, message: `collection time: ${issue.message}` };
  return { ok: false, message: `node name: ${issue?.message ?? "not accepted"}` };
}
