import { configuredToken, safeEqual, safeNext, sessionCookie } from "@/lib/auth/auth";
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
 * POST form `token`, `next` (the sign-in page): with the right token, sets the httpOnly
 * session cookie and goes to `next`; otherwise back to the sign-in page with `error=1`.
 */
export const POST = route(async (req: Request) => {
  const form = await req.formData().catch(() => null);
  const given = String(form?.get("token") ?? "").trim();
  const next = safeNext(String(form?.get("next") ?? "/"));
  const token = configuredToken();
  if (!token) return seeOther(next);
  if (!given || !safeEqual(given, token)) return seeOther(`/sign-in?error=1&next=${encodeURIComponent(next)}`);
  const secure = new URL(req.url).protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
  return seeOther(next, await sessionCookie(token, secure));
});
