/**
 * bootline's server in front of Next.js (lib/http/serve.ts, lib/http/client-address.ts), over
 * real sockets on the loopback: the client address comes from the socket unless a trusted proxy
 * sends `X-Forwarded-For`; a forged one changes nothing, so the sign-in throttle locks the real
 * address; HSTS only over HTTPS as a trusted proxy reports it; malformed paths are a 400.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { checkToken } from "../auth/auth";
import { DEFAULT_THROTTLE, TokenThrottle } from "../auth/throttle";
import { CLIENT_HEADER, normaliseAddress, parseTrustedProxies, resolveClientAddress } from "./client-address";
import { HSTS, pathProblem, requestListener } from "./serve";

describe("client address", () => {
  it("parses addresses and CIDR ranges, and names a bad entry", () => {
    const l = parseTrustedProxies(" 127.0.0.1, 10.0.0.0/8 ,fd00::/8,,::1");
    expect(["127.0.0.1", "10.200.3.4", "fd00::5", "::1"].map((a) => l.check(a, a.includes(":") ? "ipv6" : "ipv4"))).toEqual([true, true, true, true]);
    expect(l.check("11.0.0.1", "ipv4")).toBe(false);
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow('BOOTLINE_TRUSTED_PROXIES: "10.0.0.0/33" is not an IPv4 or IPv6 address or CIDR range');
    expect(() => parseTrustedProxies("proxy.internal")).toThrow('"proxy.internal" is not');
    expect(() => parseTrustedProxies("10.0.0.1/8/2")).toThrow("is not");
    expect(parseTrustedProxies(undefined).check("127.0.0.1", "ipv4")).toBe(false);
  });

  it("is the peer unless trusted, then the rightmost untrusted X-Forwarded-For entry", () => {
    const none = parseTrustedProxies("");
    const lb = parseTrustedProxies("127.0.0.1,10.0.0.0/8");
    expect(resolveClientAddress("::ffff:192.0.2.1", "203.0.113.7", none)).toBe("192.0.2.1");
    expect(resolveClientAddress("127.0.0.1", "203.0.113.7", none)).toBe("127.0.0.1");
    expect(resolveClientAddress("127.0.0.1", "203.0.113.7", lb)).toBe("203.0.113.7");
    // entries left of the first untrusted one are the client's own word
    expect(resolveClientAddress("127.0.0.1", "198.51.100.1, 203.0.113.7, 10.0.0.5", lb)).toBe("203.0.113.7");
    // only proxies: the leftmost of them
    expect(resolveClientAddress("127.0.0.1", "10.0.0.9, 10.0.0.5", lb)).toBe("10.0.0.9");
    // an entry that is no address ends the walk at the hop right of it
    expect(resolveClientAddress("127.0.0.1", "203.0.113.7, evil, 10.0.0.5", lb)).toBe("10.0.0.5");
    expect(resolveClientAddress("127.0.0.1", "", lb)).toBe("127.0.0.1");
    expect(resolveClientAddress(undefined, "203.0.113.7", lb)).toBe("unknown");
    expect(normaliseAddress("[2001:db8::1]")).toBe("2001:db8::1");
    expect(normaliseAddress("fe80::1%eth0")).toBe("fe80::1");
  });

  it("finds the paths that cannot be served", () => {
    expect(pathProblem("/i/abc?q=%ZZ")).toBeNull();
    expect(pathProblem("/api/incidents/%E2%9C%93")).toBeNull();
    expect(pathProblem("/api/incidents/%ZZ")).toBe("the path is not valid percent-encoding (a % must start %XX of UTF-8 bytes)");
    expect(pathProblem("/i/%E0%A4%A")).toContain("not valid percent-encoding");
    expect(pathProblem("/i/abc%00")).toBe("the path holds a NUL character (%00)");
    expect(pathProblem("/i/a%0Ab")).toBe("the path holds a control character");
  });
});

describe("the server", () => {
  let server: Server | null = null;
  const stop = async () => {
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(null)));
    server = null;
  };
  afterEach(stop);

  /** Serves `trusted` (BOOTLINE_TRUSTED_PROXIES) with a handler that answers the headers it was handed on, or runs `handle`. */
  async function serve(trusted: string, handle?: (headers: IncomingHttpHeaders) => { status: number; body: unknown }): Promise<string> {
    server = createServer(
      requestListener((req, res) => {
        const out = handle ? handle(req.headers) : { status: 200, body: req.headers };
        res.writeHead(out.status, { "content-type": "application/json" });
        res.end(JSON.stringify(out.body));
      }, parseTrustedProxies(trusted)),
    );
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("from a peer that is no trusted proxy: the socket's address, forwarded headers removed, no HSTS", async () => {
    const base = await serve("");
    const res = await fetch(`${base}/api/incidents`, {
      headers: {
        "x-forwarded-for": "203.0.113.7",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "evil.example",
        forwarded: "for=1.2.3.4",
        [CLIENT_HEADER]: "203.0.113.9",
      },
    });
    const seen = (await res.json()) as Record<string, string>;
    expect(seen[CLIENT_HEADER]).toBe("127.0.0.1");
    expect([seen["x-forwarded-for"], seen["x-forwarded-proto"], seen["x-forwarded-host"], seen.forwarded]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });

  it("behind a trusted proxy: the client it names, and HSTS when it says HTTPS", async () => {
    const base = await serve("127.0.0.1");
    const res = await fetch(`${base}/`, { headers: { "x-forwarded-for": "198.51.100.1, 203.0.113.7", "x-forwarded-proto": "https" } });
    expect(((await res.json()) as Record<string, string>)[CLIENT_HEADER]).toBe("203.0.113.7");
    expect(res.headers.get("strict-transport-security")).toBe(HSTS);
    const plain = await fetch(`${base}/`, { headers: { "x-forwarded-proto": "http" } });
    expect(((await plain.json()) as Record<string, string>)[CLIENT_HEADER]).toBe("127.0.0.1");
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });

  it("answers 400 in words for a path that is not valid percent-encoding or holds a NUL", async () => {
    const base = await serve("");
    const api = await fetch(`${base}/api/incidents/%ZZ`);
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ error: { code: "bad_request", message: "the path is not valid percent-encoding (a % must start %XX of UTF-8 bytes)" } });
    const page = await fetch(`${base}/i/abc%00`);
    expect([page.status, await page.text()]).toEqual([400, "the path holds a NUL character (%00)\n"]);
  });

  it("locks out the socket's address however X-Forwarded-For changes", async () => {
    const g = globalThis as unknown as { __bootlineTokenThrottle?: TokenThrottle };
    const before = g.__bootlineTokenThrottle;
    g.__bootlineTokenThrottle = new TokenThrottle(DEFAULT_THROTTLE);
    const TOKEN = "serve-test-token-0123456789";
    const signIn = (h: IncomingHttpHeaders) => {
      const v = checkToken(new Headers(h as Record<string, string>), String(h["x-token"]), TOKEN);
      return { status: v.ok ? 200 : v.retryAfterS ? 429 : 401, body: v };
    };
    try {
      const base = await serve("", signIn);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++)
        statuses.push((await fetch(`${base}/api/auth/sign-in`, { headers: { "x-token": `wrong-${i}`, "x-forwarded-for": `203.0.113.${i}` } })).status);
      // five free, the sixth locks the one address the socket gives: then even the right token waits
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
      expect((await fetch(`${base}/`, { headers: { "x-token": TOKEN, "x-forwarded-for": "198.51.100.200" } })).status).toBe(429);
      await stop();
      // a trusted proxy's clients are told apart by what it forwards
      const behind = await serve("127.0.0.1", signIn);
      const other = await fetch(`${behind}/`, { headers: { "x-token": TOKEN, "x-forwarded-for": "198.51.100.200" } });
      expect(other.status).toBe(200);
    } finally {
      g.__bootlineTokenThrottle = before;
    }
  });
});
