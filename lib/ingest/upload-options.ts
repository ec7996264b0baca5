/**
 * The options a reviewer gives with an upload or a paste (the upload form, `POST /api/uploads`,
 * `POST /api/preview`): the node of records that name none, the zone of zone-less stamps, the
 * year of year-less stamps. zod fields, spread into each route's schema.
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
