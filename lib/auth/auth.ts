/**
 * Access control (issue 7): when `BOOTLINE_AUTH_TOKEN` is set, every page and API needs it,
 * either as `Authorization: Bearer <token>` (API clients, the CLI) or as the session cookie
 * the sign-in page sets (browsers). `/api/health` stays open for probes. Without the variable
 * the app is open (a single reviewer on their own machine).
 *
 * The cookie holds a SHA-256 of the token (never the token itself), is httpOnly and
 * SameSite=Lax (no cross-site POST or DELETE carries it), and stops working when the token
 * changes. Comparisons are constant-time. Runs in the proxy (proxy.ts) and in route handlers,
 * so only Web APIs are used.
 */

export const AUTH_ENV = "BOOTLINE_AUTH_TOKEN";
export const SESSION_COOKIE = "bootline_session";
/** Session cookie lifetime, seconds (30 days). */
export const SESSION_MAX_AGE = 30 * 24 * 3600;

/** The configured token, or null when access is open. */
export function configuredToken(env: Record<string, string | undefined> = process.env): string | null {
  const t = env[AUTH_ENV]?.trim();
  return t ? t : null;
}

/** Paths that need no token: the health probe and the sign-in flow. */
export function isOpenPath(pathname: string): boolean {
  return pathname === "/api/health" || pathname === "/sign-in" || pathname === "/api/auth/sign-in" || pathname === "/api/auth/sign-out";
}

/** Equal strings, compared in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  // past the end charCodeAt gives NaN, and NaN | 0 is 0: same work whatever the lengths
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

/** The session cookie's value for `token`: hex SHA-256 of a labelled token. */
export async function sessionValue(token: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`bootline-session:v1:${token}`)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The value of cookie `name` in a `Cookie` header, or null. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/** Whether a request with these headers may proceed (always, when no token is configured). */
export async function isAuthorized(headers: Headers, token: string | null = configuredToken()): Promise<boolean> {
  if (!token) return true;
  const auth = headers.get("authorization");
  const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  if (m && safeEqual(m[1], token)) return true;
  const cookie = readCookie(headers.get("cookie"), SESSION_COOKIE);
  return cookie !== null && safeEqual(cookie, await sessionValue(token));
}

/** The body of a 401 answer, in the one error shape (lib/http/errors.ts). */
export function unauthorizedBody() {
  return { error: { code: "unauthorized", message: `sign in first: send Authorization: Bearer <token> (${AUTH_ENV}) or sign in at /sign-in` } };
}

/** Where to go after signing in: a path on this site only (no open redirect), default `/`. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\") || /[\r\n]/.test(next)) return "/";
  return next;
}

/** `Set-Cookie` value for a signed-in session (`secure` over HTTPS). */
export async function sessionCookie(token: string, secure: boolean): Promise<string> {
  return `${SESSION_COOKIE}=${await sessionValue(token)}; Path=/; Max-Age=${SESSION_MAX_AGE}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** `Set-Cookie` value that ends the session. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;
}

/** For route handlers the proxy does not cover (uploads: their bodies must not pass through it): throws 401. */
export async function requireAuth(req: Request): Promise<void> {
  if (await isAuthorized(req.headers)) return;
  const { ApiError } = await import("../http/errors");
  throw new ApiError("unauthorized", unauthorizedBody().error.message);
}
