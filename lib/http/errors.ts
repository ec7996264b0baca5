/**
 * One error table and one JSON error shape for every route handler (after dub's route
 * wrapper): `{ error: { code, message } }` with the HTTP status of the code. Errors that are
 * not an `ApiError` or a `ZodError` answer 500 with a reference only; their message and stack
 * go to the server log, so a client never sees stack traces, server paths or database text.
 */
import { ZodError } from "zod";

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unprocessable: 422,
  internal: 500,
  too_many_requests: 429,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** extra response headers (`Retry-After` of a 429) */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export function errorResponse(e: unknown): Response {
  if (e instanceof ApiError) return Response.json({ error: { code: e.code, message: e.message } }, { status: ERROR_STATUS[e.code], headers: e.headers });
  if (e instanceof ZodError) {
    const message = e.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
    return Response.json({ error: { code: "bad_request", message } }, { status: 400 });
  }
  // the details (stack, server paths, database messages) go to the log, never to the client
  const ref = Math.random().toString(36).slice(2, 10);
  console.error(`bootline: internal error ${ref}:`, e);
  return Response.json({ error: { code: "internal", message: `internal error (reference ${ref} in the server log)` } }, { status: 500 });
}

/** Wraps a route handler so that every thrown error becomes the JSON error shape. */
export function route<A extends unknown[]>(fn: (...args: A) => Promise<Response>): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (e) {
      return errorResponse(e);
    }
  };
}
