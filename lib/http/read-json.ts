/**
 * Reads a small JSON request body for a route handler: refuses bodies over `maxBytes`
 * (413) and text that is not JSON (400), in the one error shape (lib/http/errors.ts).
 */
import { ApiError } from "./errors";

export async function readJson(req: Request, maxBytes = 16 * 1024): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new ApiError("payload_too_large", `body over ${maxBytes} bytes`);
  const text = await req.text();
  if (Buffer.byteLength(text) > maxBytes) throw new ApiError("payload_too_large", `body over ${maxBytes} bytes`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("bad_request", "the body is not JSON");
  }
}
