/**
 * Next 16 proxy (formerly middleware): with BOOTLINE_AUTH_TOKEN set, every page and API needs
 * the token (lib/auth/auth.ts): pages without it go to /sign-in, APIs answer 401 in the one
 * error shape. Open: /api/health, the sign-in flow, static assets.
 *
 * `/api/uploads` is left out of the matcher on purpose: Next buffers the body of every request
 * the proxy sees and cuts it at `proxyClientMaxBodySize` (10 MB by default), which would
 * silently truncate bundles; the upload route checks the token itself (`requireAuth`).
 */
import { NextResponse, type NextRequest } from "next/server";
import { configuredToken, isAuthorized, isOpenPath, unauthorizedBody } from "./lib/auth/auth";

export async function proxy(req: NextRequest) {
  const token = configuredToken();
  if (!token) return NextResponse.next();
  const { pathname, search } = req.nextUrl;
  if (isOpenPath(pathname) || (await isAuthorized(req.headers, token))) return NextResponse.next();
  if (pathname.startsWith("/api/")) return NextResponse.json(unauthorizedBody(), { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="bootline"' } });
  const url = req.nextUrl.clone();
  url.pathname = "/sign-in";
  url.search = `?next=${encodeURIComponent(pathname + search)}`;
  return NextResponse.redirect(url);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico|icon\\.svg|api/uploads).*)"],
};
