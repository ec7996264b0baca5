/**
 * One error table and one JSON error shape for every route handler (after dub's route
 * wrapper): `{ error: { code, message } }` with the HTTP status of the code.
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
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function errorResponse(e: unknown): Response {
  if (e instanceof ApiError) return Response.json({ error: { code: e.code, message: e.message } }, { status: ERROR_STATUS[e.code] });
  if (e instanceof ZodError) {
    const message = e.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
    return Response.json({ error: { code: "bad_request", message } }, { status: 400 });
  }
  console.error(e);
  return Response.json({ error: { code: "internal", message: (e as Error)?.message ?? "internal error" } }, { status: 500 });
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
