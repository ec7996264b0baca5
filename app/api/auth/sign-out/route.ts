import { clearedSessionCookie } from "@/lib/auth/auth";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** POST: ends the browser session (clears the cookie) and goes to the sign-in page. */
export async function POST() {
  return new Response(null, { status: 303, headers: { Location: "/sign-in", "Set-Cookie": clearedSessionCookie() } });
}
