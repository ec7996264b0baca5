/**
 * Reads a small JSON request body for a route handler: refuses bodies over `maxBytes`
 * (413), text that is not JSON (400) and strings holding a NUL (400), in the one error shape
 * (lib/http/errors.ts).
 */
import { ApiError } from "./errors";

export async function readJson(req: Request, maxBytes = 16 * 1024): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new ApiError("payload_too_large", `body over ${maxBytes} bytes`);
  const text = await req.text();
  if (Buffer.byteLength(text) > maxBytes) throw new ApiError("payload_too_large", `body over ${maxBytes} bytes`);
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
