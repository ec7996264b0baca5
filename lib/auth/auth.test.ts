import { describe, expect, it } from "vitest";
import {
  checkToken,
  configuredToken,
  isAuthorized,
  isOpenPath,
  MIN_TOKEN_LENGTH,
  readCookie,
  safeEqual,
  safeNext,
  SESSION_COOKIE,
  sessionCookie,
  tokenProblem,
} from "./auth";
import { DEFAULT_THROTTLE, TokenThrottle } from "./throttle";
import { markServed } from "../http/serve";

// requests as bootline's server hands them on: the client address in its header (lib/http/serve.ts)
markServed();

const TOKEN = "s3cret-token-0123456789";

describe("auth", () => {
  it("is open when no token is configured", async () => {
    expect(configuredToken({})).toBeNull();
    expect(configuredToken({ BOOTLINE_AUTH_TOKEN: "  " })).toBeNull();
    expect(await isAuthorized(new Headers(), null)).toBe(true);
  });

  it("accepts the bearer token, nothing else, without a session", async () => {
    // each check from its own address, so the throttle does not come into it
    let n = 0;
    const h = (o: Record<string, string>) => new Headers({ ...o, "x-bootline-client": `10.9.0.${++n}` });
    expect(await isAuthorized(h({ authorization: `Bearer ${TOKEN}` }), TOKEN)).toBe(true);
    expect(await isAuthorized(h({ authorization: `bearer ${TOKEN}` }), TOKEN)).toBe(true);
    expect(await isAuthorized(h({ authorization: `Bearer ${TOKEN}x` }), TOKEN)).toBe(false);
    expect(await isAuthorized(h({ authorization: `Basic ${TOKEN}` }), TOKEN)).toBe(false);
    expect(await isAuthorized(h({}), TOKEN)).toBe(false);
    // the raw token as a cookie is not a session, and neither is anything not shaped like an id
    // (refused before any database read: this test has no database)
    expect(await isAuthorized(h({ cookie: `${SESSION_COOKIE}=${TOKEN}` }), TOKEN)).toBe(false);
    expect(await isAuthorized(h({ cookie: `${SESSION_COOKIE}=%E0%A4%A` }), TOKEN)).toBe(false);
  });

  it("past the cap over all addresses, refuses every token unchecked until the minute is over", () => {
    const g = globalThis as unknown as { __bootlineTokenThrottle?: TokenThrottle };
    const before = g.__bootlineTokenThrottle;
    g.__bootlineTokenThrottle = new TokenThrottle({ ...DEFAULT_THROTTLE, globalPerMinute: 3 });
    try {
      const from = (a: string) => new Headers({ "x-bootline-client": a });
      for (let i = 0; i < 3; i++) expect(checkToken(from(`10.8.0.${i}`), "wrong-token-0123456789", TOKEN, 1_000)).toEqual({ ok: false });
      expect(checkToken(from("10.8.1.1"), "wrong-token-0123456789", TOKEN, 2_000)).toEqual({ ok: false, retryAfterS: 59 });
      // the right token too: past the cap no token is compared, so many addresses guess no faster
      expect(checkToken(from("10.8.1.2"), TOKEN, TOKEN, 2_000)).toEqual({ ok: false, retryAfterS: 59 });
      expect(checkToken(from("10.8.1.2"), TOKEN, TOKEN, 61_000)).toEqual({ ok: true });
    } finally {
      g.__bootlineTokenThrottle = before;
    }
  });

  it("refuses a token shorter than the minimum", () => {
    expect(MIN_TOKEN_LENGTH).toBe(16);
    expect(tokenProblem({ BOOTLINE_AUTH_TOKEN: "x" })).toBe(
      "BOOTLINE_AUTH_TOKEN is 1 character long; it must have at least 16 (for example the output of: openssl rand -base64 24)",
    );
    expect(tokenProblem({ BOOTLINE_AUTH_TOKEN: "a".repeat(15) })).toContain("is 15 characters long");
    expect(tokenProblem({ BOOTLINE_AUTH_TOKEN: "a".repeat(16) })).toBeNull();
    expect(tokenProblem({})).toBeNull();
  });

  it("reads a malformed cookie as no cookie", () => {
    expect(readCookie(`${SESSION_COOKIE}=%E0%A4%A`, SESSION_COOKIE)).toBeNull();
    expect(readCookie(`a=%E0%A4%A; ${SESSION_COOKIE}=abc`, SESSION_COOKIE)).toBe("abc");
    expect(readCookie(`${SESSION_COOKIE}=a%20b`, SESSION_COOKIE)).toBe("a b");
  });

  it("sets an httpOnly, SameSite cookie (Secure over HTTPS)", () => {
    const id = "A".repeat(43);
    const c = sessionCookie(id, true);
    expect(c).toBe(`${SESSION_COOKIE}=${id}; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax; Secure`);
    expect(sessionCookie(id, false)).not.toContain("Secure");
    expect(readCookie(c.split(";")[0], SESSION_COOKIE)).toBe(id);
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
    for (const bad of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
      null,
      "/x\r\nSet-Cookie: a=b",
      "/\t/evil.example",
      "/\n/evil.example",
    ])
      expect(safeNext(bad)).toBe("/");
  });

  it("compares in constant time and exactly", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "ab")).toBe(false);
    expect(safeEqual("", "a")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });
});
