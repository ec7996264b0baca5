/**
 * Server-side sessions through the sign-in and sign-out routes, on a test database: a session
 * works until sign-out and not after, an expired one is refused, a new token ends the old
 * sessions, and wrong tokens at sign-in are answered 429 with Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as signIn } from "../../app/api/auth/sign-in/route";
import { POST as signOut } from "../../app/api/auth/sign-out/route";
import { getDb } from "../db/connection";
import { useTestDatabaseUrl } from "../db/test-db";
import { authorize, SESSION_COOKIE } from "./auth";
import { createSession, sessionValid, sha256Hex } from "./sessions";
import { markServed } from "../http/serve";

// requests as bootline's server hands them on: the client address in its header (lib/http/serve.ts)
markServed();

const TOKEN = "sessions-test-token-0123456789";
let t: Awaited<ReturnType<typeof useTestDatabaseUrl>>;

beforeAll(async () => {
  t = await useTestDatabaseUrl();
  process.env.BOOTLINE_AUTH_TOKEN = TOKEN;
});
afterAll(async () => {
  delete process.env.BOOTLINE_AUTH_TOKEN;
  await t?.drop();
});

function form(token: string, addr: string): Request {
  const body = new URLSearchParams({ token, next: "/i/abc" });
  return new Request("http://127.0.0.1/api/auth/sign-in", {
    method: "POST",
    body,
    headers: { "content-type": "application/x-www-form-urlencoded", "x-bootline-client": addr },
  });
}

const cookieOf = (res: Response) => /^bootline_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1] ?? null;
const withCookie = (id: string) => new Headers({ cookie: `other=1; ${SESSION_COOKIE}=${id}` });

describe("sessions", () => {
  it("sign-in makes a random session kept server side; sign-out revokes it", async () => {
    const a = await signIn(form(TOKEN, "10.1.0.1"));
    expect(a.status).toBe(303);
    expect(a.headers.get("location")).toBe("/i/abc");
    const id = cookieOf(a)!;
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.headers.get("set-cookie")).toContain("HttpOnly; SameSite=Lax");
    // a second sign-in gets another id: the cookie is not derived from the token
    const id2 = cookieOf(await signIn(form(TOKEN, "10.1.0.1")))!;
    expect(id2).not.toBe(id);
    // only the hash of the id is stored
    const { sql } = await getDb();
    const rows = await sql.query<{ idHash: string; tokenTag: string; expiresAt: Date }>(`SELECT "idHash", "tokenTag", "expiresAt" FROM "Session"`);
    expect(rows.map((r) => r.idHash).sort()).toEqual([sha256Hex(id), sha256Hex(id2)].sort());
    expect(JSON.stringify(rows)).not.toContain(id);
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    const ttlS = (new Date(rows[0].expiresAt).getTime() - Date.now()) / 1000;
    expect(ttlS).toBeGreaterThan(7 * 24 * 3600 - 60);
    expect(ttlS).toBeLessThanOrEqual(7 * 24 * 3600);

    expect(await authorize(withCookie(id), TOKEN)).toEqual({ ok: true });
    const out = await signOut(new Request("http://127.0.0.1/api/auth/sign-out", { method: "POST", headers: withCookie(id) }));
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/^bootline_session=; Path=\/; Max-Age=0/);
    // the old cookie no longer works (this process and the table both forgot it)
    expect(await authorize(withCookie(id), TOKEN)).toEqual({ ok: false });
    expect(await sql.query(`SELECT 1 FROM "Session" WHERE "idHash" = $1`, [sha256Hex(id)])).toHaveLength(0);
    // the other browser's session is untouched
    expect(await authorize(withCookie(id2), TOKEN)).toEqual({ ok: true });
  });

  it("refuses an expired session, and one opened with another token", async () => {
    const past = Date.now() - 8 * 24 * 3600 * 1000;
    const old = await createSession(TOKEN, { now: past });
    expect(await sessionValid(old.id, TOKEN, { now: past + 1000 })).toBe(true);
    expect(await sessionValid(old.id, TOKEN)).toBe(false);
    expect(await authorize(withCookie(old.id), TOKEN)).toEqual({ ok: false });
    const live = await createSession(TOKEN, { ttlS: 60 });
    expect(await sessionValid(live.id, TOKEN)).toBe(true);
    expect(await sessionValid(live.id, TOKEN, { now: Date.now() + 61_000 })).toBe(false);
    expect(await sessionValid(live.id, `${TOKEN}-rotated`)).toBe(false);
    // making a session removes the expired rows
    const { sql } = await getDb();
    expect(await sql.query(`SELECT 1 FROM "Session" WHERE "idHash" = $1`, [sha256Hex(old.id)])).toHaveLength(0);
  });

  it("a malformed cookie is no session (not an error)", async () => {
    expect(await authorize(new Headers({ cookie: `${SESSION_COOKIE}=%E0%A4%A` }), TOKEN)).toEqual({ ok: false });
    const res = await signOut(new Request("http://127.0.0.1/api/auth/sign-out", { method: "POST", headers: { cookie: `${SESSION_COOKIE}=%E0%A4%A` } }));
    expect(res.status).toBe(303);
  });

  it("throttles wrong tokens at sign-in: 429 with Retry-After, even for the right token", async () => {
    const addr = "10.1.0.99";
    for (let i = 0; i < 5; i++) {
      const r = await signIn(form("wrong-token-guess-000", addr));
      expect(r.status).toBe(303);
      expect(r.headers.get("location")).toBe("/sign-in?error=1&next=%2Fi%2Fabc");
    }
    // the sixth wrong token locks the address for 1 s
    expect((await signIn(form("wrong-token-guess-000", addr))).status).toBe(303);
    const locked = await signIn(form(TOKEN, addr));
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("1");
    expect(await locked.text()).toBe("too many wrong tokens from this address: try again in 1 s.\n");
    expect(cookieOf(locked)).toBeNull();
    // another address is not affected
    expect(cookieOf(await signIn(form(TOKEN, "10.1.0.100")))).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // the same throttle guards Bearer tokens
    expect(await authorize(new Headers({ authorization: `Bearer ${TOKEN}`, "x-bootline-client": addr }), TOKEN)).toEqual({ ok: false, retryAfterS: 1 });
  });
});
