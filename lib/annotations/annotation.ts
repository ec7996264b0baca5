/**
 * The annotation as the API and the UI see it, and its input rules (shared by the route
 * handlers, the lib functions and the client). A note is plain text: rendered as text in
 * the UI and escaped in the Markdown export, never as HTML.
 */
import { z } from "zod";
import { ZEventId, ZInstant } from "@/lib/view/view-state";

/** Longest note kept. */
export const MAX_ANNOTATION_TEXT = 2000;

export interface TAnnotation {
  id: number;
  bootId: number;
  /** the pinned instant, UTC ms */
  ts: number;
  /** the event it is pinned to (BIGINT as text), or null for a time */
  eventId: string | null;
  text: string;
  /** UTC ms */
  createdAt: number;
}

/**
 * Note text: control characters other than tab and line feed dropped, CRLF as LF, trimmed;
 * 1 to MAX_ANNOTATION_TEXT characters.
 */
export const ZAnnotationText = z
  .string()
  .transform((s) =>
    s
      .replace(/\r\n?/g, "\n")
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
      .trim(),
  )
  .pipe(z.string().min(1, "the note is empty").max(MAX_ANNOTATION_TEXT, `at most ${MAX_ANNOTATION_TEXT} characters`));

/** `POST …/boots/:bootId/annotations` body: a time or an event (the event's time wins). */
export const ZCreateAnnotation = z
  .object({
    text: ZAnnotationText,
    ts: ZInstant.optional(),
    eventId: ZEventId.optional(),
  })
  .refine((v) => v.ts !== undefined || v.eventId !== undefined, { message: "give a time (ts) or an event (eventId)", path: ["ts"] });

export type TCreateAnnotation = z.infer<typeof ZCreateAnnotation>;

export const ZAnnotationId = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().positive().max(2_147_483_647));
