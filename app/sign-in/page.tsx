import type { Metadata } from "next";
import { cookies } from "next/headers";
import { configuredToken, safeNext, SESSION_COOKIE } from "@/lib/auth/auth";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · bootline" };

type Search = Promise<{ next?: string | string[]; error?: string | string[] }>;

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Sign-in page: the access token (BOOTLINE_AUTH_TOKEN) in, an httpOnly session cookie out; with
 * a session cookie, also a sign-out button (ends the session server side). Plain forms: work
 * without JavaScript.
 */
export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const next = safeNext(one(sp.next));
  const open = configuredToken() === null;
  const hasSession = !open && (await cookies()).has(SESSION_COOKIE);
  return (
    <section className="panel" aria-labelledby="sign-in-h" style={{ maxWidth: 520, margin: "3rem auto" }}>
      <h1 id="sign-in-h">Sign in</h1>
      {open ? (
        <p className="muted">This bootline needs no token (BOOTLINE_AUTH_TOKEN is not set).</p>
      ) : (
        <p className="muted">Enter the access token of this bootline (the value of BOOTLINE_AUTH_TOKEN).</p>
      )}
      {one(sp.error) && (
        <p className="bad error-box" role="alert" data-testid="sign-in-error">
          That token is not right.
        </p>
      )}
      <form method="post" action="/api/auth/sign-in">
        <input type="hidden" name="next" value={next} />
        <label>
          Access token
          <input name="token" type="password" autoComplete="current-password" required={!open} autoFocus />
        </label>{" "}
        <button type="submit" className="btn">
          Sign in
        </button>
      </form>
      {hasSession && (
        <form method="post" action="/api/auth/sign-out" style={{ marginTop: "1.5rem" }}>
          <p className="muted">This browser has a session.</p>
          <button type="submit" className="btn">
            Sign out
          </button>
        </form>
      )}
    </section>
  );
}
