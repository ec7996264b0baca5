/**
 * Reads a small JSON request body for a route handler: refuses bodies over `maxBytes`
 * (413), text that is not JSON or nests deeper than `MAX_JSON_DEPTH` (400) and strings holding a
 * NUL (400), in the one error shape
 * (lib/http/errors.ts).
 */
import { ApiError } from "./errors";

/** Deepest nesting of arrays and objects a body may have (the API's bodies nest 2 deep; a deeper one would cost recursion in every reader). */
export const MAX_JSON_DEPTH = 64;

/** How deep arrays and objects nest in JSON text, counted in one pass without parsing (brackets in strings do not count). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

export async function readJson(req: Request, maxBytes = 16 * 1024): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new ApiError("payload_too_large", `body over ${maxBytes} bytes`);
  const text = await req.text();
  if (Buffer.byteLength(text) > maxBytes) throw new ApiError("payload_too_large", `body over ${maxBytes} bytes`);
  if (nestingDepth(text) > MAX_JSON_DEPTH) throw new ApiError("bad_request", `the body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("bad_request", "the body is not JSON");
  }
  if (hasNul(value)) throw new ApiError("bad_request", "the body contains a NUL character");
  return value;
}

/** Whether a string anywhere in a parsed JSON value (keys included) holds a NUL, which PostgreSQL text cannot store. */
function hasNul(v: unknown): boolean {
  if (typeof v === "string") return v.includes("\0");
  if (Array.isArray(v)) return v.some(hasNul);
  if (v && typeof v === "object") return Object.entries(v).some(([k, x]) => k.includes("\0") || hasNul(x));
  return false;
}
