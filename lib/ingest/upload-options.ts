/**
 * The options a reviewer gives with an upload or a paste (the upload form, `POST /api/uploads`,
 * `POST /api/preview`): the node of records that name none, the zone of zone-less stamps, the
 * year of year-less stamps, when the bundle was collected and the clock offsets of its files.
 * zod fields, spread into each route's schema; a 400 names the field (lib/http/errors.ts).
 */
import { z } from "zod";

/** PostgreSQL's text and jsonb take no NUL character (U+0000). */
const noNul = (s: string) => !s.includes("\0");
const NUL = "holds a NUL character";

export const uploadOptionFields = {
  node: z.string().trim().max(253).refine(noNul, NUL).optional(),
  tz: z.string().trim().max(64).refine(noNul, NUL).optional(),
  year: z.coerce.number().int().min(1970).max(2100).optional(),
};

/** Latest `collected` time accepted: a day past the server's clock (clocks differ; a bundle is not collected in the future). */
export const COLLECTED_AHEAD_MS = 86_400_000;
/** Earliest `collected` time accepted, UTC ms (1970-01-01: the year field's floor too). */
export const COLLECTED_MIN_MS = 0;
/** Largest clock offset a reviewer may give, seconds: 100 years either way (a node whose clock fell back to 1970 is about 56 years off). */
export const MAX_SKEW_S = 100 * 365.25 * 86_400;

/** When the bundle was collected (ISO 8601, or empty for none): a date between 1970-01-01 and a day from now, as UTC ms. */
export const collectedField = z
  .string()
  .trim()
  .transform((s, ctx) => {
    if (s === "") return undefined;
    const ms = Date.parse(s);
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: "custom", message: "not a date (ISO 8601, as 2026-03-14T02:10:00Z)" });
      return z.NEVER;
    }
    if (ms < COLLECTED_MIN_MS || ms > Date.now() + COLLECTED_AHEAD_MS) {
      ctx.addIssue({ code: "custom", message: `${s.slice(0, 40)} is not between 1970-01-01 and a day from now` });
      return z.NEVER;
    }
    return ms;
  })
  .optional();

const finiteSkew = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && Math.abs(n) <= MAX_SKEW_S;
const SKEW_SHAPE = `seconds within ±${MAX_SKEW_S} (100 years), or a JSON object of bundle path to such seconds`;

/** Clock offsets (lib/normalise/clock-skew.ts `SkewOption`): seconds for every events file, or JSON `{"<path>": seconds}`; finite and within `MAX_SKEW_S`. */
export const skewField = z
  .string()
  .trim()
  .transform((s, ctx): number | Record<string, number> => {
    const n = Number(s);
    if (s !== "" && finiteSkew(n)) return n;
    try {
      const o = JSON.parse(s) as unknown;
      if (finiteSkew(o)) return o;
      if (o && typeof o === "object" && !Array.isArray(o) && Object.values(o).every(finiteSkew)) return o as Record<string, number>;
    } catch {
      // not JSON: the message below
    }
    ctx.addIssue({ code: "custom", message: SKEW_SHAPE });
    return z.NEVER;
  })
  .optional();
