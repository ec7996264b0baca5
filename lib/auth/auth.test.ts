import { describe, expect, it } from "vitest";
import { configuredToken, isAuthorized, isOpenPath, readCookie, safeEqual, safeNext, SESSION_COOKIE, sessionCookie, sessionValue } from "./auth";

const TOKEN = "s3cret-token-0123456789";

describe("auth", () => {
  it("is open when no token is configured", async () => {
    expect(configuredToken({})).toBeNull();
    expect(configuredToken({ BOOTLINE_AUTH_TOKEN: "  " })).toBeNull();
    expect(await isAuthorized(new Headers(), null)).toBe(true);
  });

  it("accepts the bearer token or the session cookie, nothing else", async () => {
    expect(await isAuthorized(new Headers({ authorization: `Bearer ${TOKEN}` }), TOKEN)).toBe(true);
    expect(await isAuthorized(new Headers({ authorization: `bearer ${TOKEN}` }), TOKEN)).toBe(true);
    expect(await isAuthorized(new Headers({ authorization: `Bearer ${TOKEN}x` }), TOKEN)).toBe(false);
    expect(await isAuthorized(new Headers({ authorization: `Basic ${TOKEN}` }), TOKEN)).toBe(false);
    expect(await isAuthorized(new Headers(), TOKEN)).toBe(false);
    const v = await sessionValue(TOKEN);
    expect(v).toMatch(/^[0-9a-f]{64}$/);
    expect(v).not.toContain(TOKEN);
    expect(await isAuthorized(new Headers({ cookie: `a=b; ${SESSION_COOKIE}=${v}` }), TOKEN)).toBe(true);
    // the raw token as a cookie is not a session, and an old session dies with a new token
    expect(await isAuthorized(new Headers({ cookie: `${SESSION_COOKIE}=${TOKEN}` }), TOKEN)).toBe(false);
    expect(await isAuthorized(new Headers({ cookie: `${SESSION_COOKIE}=${v}` }), `${TOKEN}-rotated`)).toBe(false);
  });

  it("sets an httpOnly, SameSite cookie (Secure over HTTPS)", async () => {
    const c = await sessionCookie(TOKEN, true);
    expect(c).toMatch(new RegExp(`^${SESSION_COOKIE}=[0-9a-f]{64}; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax; Secure$`));
    expect(await sessionCookie(TOKEN, false)).not.toContain("Secure");
    expect(readCookie(c.split(";")[0], SESSION_COOKIE)).toBe(await sessionValue(TOKEN));
  });

  it("keeps /api/health and the sign-in flow open", () => {
    expect(isOpenPath("/api/health")).toBe(true);
    expect(isOpenPath("/sign-in")).toBe(true);
    expect(isOpenPath("/api/auth/sign-in")).toBe(true);
    expect(isOpenPath("/")).toBe(false);
    expect(isOpenPath("/api/incidents")).toBe(false);
    expect(isOpenPath("/api/health/../incidents")).toBe(false);
  });

  it("redirects after sign-in only to this site", () => {
    expect(safeNext("/i/abc?x=1")).toBe("/i/abc?x=1");
    for (const bad of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", null, "/x\r\nSet-Cookie: a=b"]) expect(safeNext(bad)).toBe("/");
  });

  it("compares in constant time and exactly", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "ab")).toBe(false);
    expect(safeEqual("", "a")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });
});
