/**
 * Next 16 proxy (formerly middleware; Node.js runtime), in front of every page and API:
 * - pages get a Content-Security-Policy with a fresh nonce per request (lib/http/security-headers.ts
 *   `pageCsp`); the policy also goes on the request, where Next.js reads the nonce and puts it on
 *   its scripts. The other security headers come from next.config.ts `headers()`;
 * - with BOOTLINE_AUTH_TOKEN set, every page and API needs the token or a session
 *   (lib/auth/auth.ts): pages without it go to /sign-in, APIs answer 401 in the one error shape,
 *   a client address locked out for wrong tokens gets 429 with `Retry-After`. Open: /api/health,
 *   the sign-in flow, static assets. A token too short to use answers 503 everywhere.
 *
 * `/api/uploads` is left out of the matcher on purpose: Next buffers the body of every request
 * the proxy sees and cuts it at `proxyClientMaxBodySize` (10 MB by default), which would
 * silently truncate bundles; the upload route checks the token itself (`requireAuth`).
 */
import { NextResponse, type NextRequest } from "next/server";
import { authorize, configuredToken, isOpenPath, throttledMessage, tokenProblem, unauthorizedBody } from "./lib/auth/auth";
import { newNonce, pageCsp } from "./lib/http/security-headers";

export async function proxy(req: NextRequest) {
  const { pathname, search } = req.nextUrl;
  const api = pathname.startsWith("/api/");
  const token = configuredToken();
  if (token) {
    const problem = tokenProblem();
    if (problem)
      return api ? NextResponse.json({ error: { code: "unavailable", message: problem } }, { status: 503 }) : new NextResponse(problem, { status: 503 });
    if (!isOpenPath(pathname)) {
      const verdict = await authorize(req.headers, token);
      if (!verdict.ok && verdict.retryAfterS) {
        const message = throttledMessage(verdict.retryAfterS);
        const headers = { "Retry-After": String(verdict.retryAfterS) };
        return api
          ? NextResponse.json({ error: { code: "too_many_requests", message } }, { status: 429, headers })
          : new NextResponse(message, { status: 429, headers });
      }
      if (!verdict.ok) {
        if (api) return NextResponse.json(unauthorizedBody(), { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="bootline"' } });
        const url = req.nextUrl.clone();
        url.pathname = "/sign-in";
        url.search = `?next=${encodeURIComponent(pathname + search)}`;
        return NextResponse.redirect(url);
      }
    }
  }
  if (api) return NextResponse.next();
  const csp = pageCsp(newNonce(), process.env.NODE_ENV === "development");
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("Content-Security-Policy", csp);
  const res = NextResponse.next({ request: { headers: requestHeaders } });
  res.headers.set("Content-Security-Policy", csp);
  return res;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico|icon\\.svg|api/uploads).*)"],
};
