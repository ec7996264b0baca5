import { checkToken, configuredToken, safeNext, sessionCookie, throttledMessage, tokenProblem } from "@/lib/auth/auth";
import { createSession } from "@/lib/auth/sessions";
import { route } from "@/lib/http/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Relative 303 redirect (the browser resolves it against this site, whatever the Host header says). */
function seeOther(location: string, cookie?: string): Response {
  const headers = new Headers({ Location: location });
  if (cookie) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/**
 * POST form `token`, `next` (the sign-in page): with the right token, opens a server-side
 * session (lib/auth/sessions.ts), sets its id in the httpOnly cookie and goes to `next`;
 * otherwise back to the sign-in page with `error=1`. Wrong tokens are throttled per client
 * address: while an address is locked out the answer is 429 with `Retry-After` (seconds) and
 * the token is not looked at.
 */
export const POST = route(async (req: Request) => {
  const form = await req.formData().catch(() => null);
  const given = String(form?.get("token") ?? "").trim();
  const next = safeNext(String(form?.get("next") ?? "/"));
  const token = configuredToken();
  if (!token) return seeOther(next);
  const problem = tokenProblem();
  if (problem) return new Response(problem, { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } });
  const verdict = checkToken(req.headers, given, token);
  if (verdict.retryAfterS)
    return new Response(`${throttledMessage(verdict.retryAfterS)}.\n`, {
      status: 429,
      headers: { "Retry-After": String(verdict.retryAfterS), "content-type": "text/plain; charset=utf-8" },
    });
  if (!verdict.ok) return seeOther(`/sign-in?error=1&next=${encodeURIComponent(next)}`);
  const secure = new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
  const { id } = await createSession(token);
  return seeOther(next, sessionCookie(id, secure));
});
