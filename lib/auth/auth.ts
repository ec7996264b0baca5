/**
 * Access control: when `BOOTLINE_AUTH_TOKEN` is set, every page and API needs it, either as
 * `Authorization: Bearer <token>` (API clients, the CLI) or as the session cookie the sign-in
 * page sets (browsers). `/api/health` stays open for probes. Without the variable the app is
 * open (a single reviewer on their own machine). A token shorter than `MIN_TOKEN_LENGTH` is
 * refused: the start script will not start, and the proxy answers 503 to every request.
 *
 * The cookie holds a random session id kept server side (lib/auth/sessions.ts: expiry,
 * revocation at sign-out); it is httpOnly and SameSite=Lax (no cross-site POST or DELETE
 * carries it). Wrong tokens, at sign-in or as a Bearer, are throttled per client address
 * (lib/auth/throttle.ts). Token comparisons are constant-time. Runs in the proxy (proxy.ts,
 * Node.js runtime) and in route handlers.
 */
import { revokeSession, SESSION_TTL_S, sessionValid } from "./sessions";
import { clientAddress, tokenThrottle } from "./throttle";

export const AUTH_ENV = "BOOTLINE_AUTH_TOKEN";
export const SESSION_COOKIE = "bootline_session";
/** Session cookie lifetime, seconds (the server-side expiry, lib/auth/sessions.ts). */
export const SESSION_MAX_AGE = SESSION_TTL_S;
/** Shortest token accepted, characters (16 random characters of base64 are 96 bits). */
export const MIN_TOKEN_LENGTH = 16;

/** The configured token, or null when access is open. */
export function configuredToken(env: Record<string, string | undefined> = process.env): string | null {
  const t = env[AUTH_ENV]?.trim();
  return t ? t : null;
}

/** Why the configured token cannot be used (too short), or null when it can or none is set. */
export function tokenProblem(env: Record<string, string | undefined> = process.env): string | null {
  const t = configuredToken(env);
  if (t === null || t.length >= MIN_TOKEN_LENGTH) return null;
  return `${AUTH_ENV} is ${t.length} character${t.length === 1 ? "" : "s"} long; it must have at least ${MIN_TOKEN_LENGTH} (for example the output of: openssl rand -base64 24)`;
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

/** The value of cookie `name` in a `Cookie` header, or null (also when it is not valid percent-encoding). */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The outcome of a request's credentials: allowed, refused, or refused for `retryAfterS` seconds (throttled). */
export interface AuthOutcome {
  ok: boolean;
  /** set when refused for being throttled: seconds to wait */
  retryAfterS?: number;
}

/**
 * Checks a request's credentials against `token` (always allowed when none is configured): a
 * Bearer token (throttled per client address: a locked address is refused before the token is
 * looked at), else the session cookie (lib/auth/sessions.ts). `now` in ms.
 */
export async function authorize(headers: Headers, token: string | null = configuredToken(), now = Date.now()): Promise<AuthOutcome> {
  if (!token) return { ok: true };
  const auth = headers.get("authorization");
  const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  if (m) {
    const verdict = checkToken(headers, m[1], token, now);
    if (verdict.ok || verdict.retryAfterS) return verdict;
  }
  return (await sessionValid(readCookie(headers.get("cookie"), SESSION_COOKIE), token, { now })) ? { ok: true } : { ok: false };
}

/**
 * Compares a presented token (sign-in form and Bearer), throttled per client address
 * (lib/auth/throttle.ts `clientAddress`: the socket's, through bootline's server) and over all
 * addresses: a locked address, or any address while the cap over all is reached, is refused
 * before the token is looked at.
 */
export function checkToken(headers: Headers, given: string, token: string, now = Date.now()): AuthOutcome {
  const addr = clientAddress(headers);
  const throttle = tokenThrottle();
  const wait = Math.max(throttle.retryAfterS(addr, now), throttle.globalRetryAfterS(now));
  if (wait > 0) return { ok: false, retryAfterS: wait };
  if (given && safeEqual(given, token)) {
    throttle.success(addr);
    return { ok: true };
  }
  throttle.failure(addr, now);
  return { ok: false };
}

/** Whether a request with these headers may proceed (always, when no token is configured). */
export async function isAuthorized(headers: Headers, token: string | null = configuredToken()): Promise<boolean> {
  return (await authorize(headers, token)).ok;
}

/** The message of a 429 answer. */
export function throttledMessage(retryAfterS: number): string {
  return `too many wrong tokens from this address: try again in ${retryAfterS} s`;
}

/** The body of a 401 answer, in the one error shape (lib/http/errors.ts). */
export function unauthorizedBody() {
  return { error: { code: "unauthorized", message: `sign in first: send Authorization: Bearer <token> (${AUTH_ENV}) or sign in at /sign-in` } };
}

/** Where to go after signing in: a path on this site only (no open redirect), default `/`. */
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(next)) return "/";
  // browsers drop tabs and newlines from URLs, so only a path that stays on this origin passes
  const url = new URL(next, "http://bootline.invalid");
  return url.origin === "http://bootline.invalid" && !next.startsWith("//") ? next : "/";
}

/** `Set-Cookie` value for session `id` (lib/auth/sessions.ts `createSession`), `secure` over HTTPS. */
export function sessionCookie(id: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/; Max-Age=${SESSION_MAX_AGE}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** `Set-Cookie` value that ends the session in the browser. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;
}

/** Ends the session a request's cookie names (sign-out). */
export async function endSession(headers: Headers): Promise<void> {
  await revokeSession(readCookie(headers.get("cookie"), SESSION_COOKIE));
}

/** For route handlers the proxy does not cover (uploads: their bodies must not pass through it): throws 401. */
export async function requireAuth(req: Request): Promise<void> {
  const problem = tokenProblem();
  const { ApiError } = await import("../http/errors");
  if (problem) throw new ApiError("unavailable", problem);
  const verdict = await authorize(req.headers);
  if (verdict.ok) return;
  if (verdict.retryAfterS) throw new ApiError("too_many_requests", throttledMessage(verdict.retryAfterS), { "Retry-After": String(verdict.retryAfterS) });
  throw new ApiError("unauthorized", unauthorizedBody().error.message);
}
