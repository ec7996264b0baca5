/**
 * The one place where route handlers take their request parameters (path segments and the
 * query string) before any schema or database sees them. Text that PostgreSQL cannot store or
 * compare (a NUL character) or that is absurdly long is refused here with a 400 in words,
 * instead of reaching the database and coming back as a 500 with the driver's message.
 *
 * `bootOfIncident` checks that a boot id belongs to the incident of the URL, so that an id of
 * another incident answers 404 rather than an empty result.
 */
import { ApiError } from "./errors";

/** Longest single parameter value accepted, in characters (search text, lane lists, cursors). */
export const MAX_PARAM_CHARS = 4096;

/** Throws a 400 when `value` (parameter `name`) holds a NUL or is over `MAX_PARAM_CHARS`. */
export function checkParam(name: string, value: string): string {
  if (value.includes("\0")) throw new ApiError("bad_request", `${printable(name)}: contains a NUL character`);
  if (value.length > MAX_PARAM_CHARS) throw new ApiError("bad_request", `${printable(name)}: longer than ${MAX_PARAM_CHARS} characters`);
  return value;
}

/** A parameter name safe to echo in a message: control characters dropped, at most 40 characters. */
function printable(name: string): string {
  // eslint-disable-next-line no-control-regex
  const n = name.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 40);
  return n || "parameter";
}

/** The query string of `req` as a plain object (the last value of a repeated key wins); 400 for NUL or over-long values. */
export function queryOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URL(req.url).searchParams) {
    checkParam(k, k);
    out[k] = checkParam(k, v);
  }
  return out;
}

/** The route's path parameters (Next's `ctx.params`), checked like query values. */
export async function paramsOf<P extends Record<string, string | string[]>>(ctx: { params: Promise<P> }): Promise<P> {
  const p = await ctx.params;
  for (const [k, v] of Object.entries(p)) for (const one of Array.isArray(v) ? v : [v]) checkParam(k, one);
  return p;
}

/**
 * Throws 404 unless boot `bootId` belongs to incident `incidentId`. `exists` looks the pair up
 * (the default asks the database; tests pass their own).
 */
export async function bootOfIncident(
  params: { incidentId: string; bootId: number },
  exists: (incidentId: string, bootId: number) => Promise<boolean> = bootExists,
): Promise<void> {
  if (!(await exists(params.incidentId, params.bootId))) throw new ApiError("not_found", `no boot ${params.bootId} in incident ${params.incidentId}`);
}

async function bootExists(incidentId: string, bootId: number): Promise<boolean> {
  const { getDb } = await import("../db/connection");
  const { sql } = await getDb();
  const rows = await sql.query(`SELECT 1 FROM "Boot" WHERE id = $1 AND "incidentId" = $2`, [bootId, incidentId]);
  return rows.length > 0;
}
