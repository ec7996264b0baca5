import { clearedSessionCookie, endSession } from "@/lib/auth/auth";
import { route } from "@/lib/http/errors";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** POST: ends the browser session (deletes it server side, clears the cookie) and goes to the sign-in page. */
export const POST = route(async (req: Request) => {
  await endSession(req.headers);
  return new Response(null, { status: 303, headers: { Location: "/sign-in", "Set-Cookie": clearedSessionCookie() } });
});
