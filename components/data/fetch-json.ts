/**
 * The one fetch helper of the client: GET/POST JSON, and turn the API's error shape
 * (`{ error: { code, message } }`, see lib/http/errors.ts) back into a typed error.
 */

export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

/** Reads an error body in the API's shape (or a plain `{ error: "text" }`) into an ApiClientError. */
export function errorFromBody(status: number, body: unknown, fallback: string): ApiClientError {
  const b = body as { error?: unknown; message?: unknown } | null;
  if (b && typeof b.error === "object" && b.error) {
    const e = b.error as { code?: unknown; message?: unknown; details?: unknown };
    return new ApiClientError(status, String(e.code ?? "error"), String(e.message ?? fallback), e.details);
  }
  if (b && typeof b.error === "string") return new ApiClientError(status, "error", b.error);
  if (b && typeof b.message === "string") return new ApiClientError(status, "error", b.message);
  return new ApiClientError(status, "error", fallback);
}

export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  } catch (e) {
    throw new ApiClientError(0, "network", `network error: ${(e as Error).message}`);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) throw errorFromBody(res.status, body, `${res.status} ${res.statusText || "request failed"}`);
  return body as T;
}

/** Query string from defined values (arrays joined with commas). */
export function qs(params: Record<string, string | number | readonly string[] | null | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === "") continue;
    p.set(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}
