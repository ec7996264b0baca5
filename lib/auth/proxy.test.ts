/**
 * The proxy (proxy.ts) on its own, without a server: pages get a nonce Content-Security-Policy
 * on the response and on the request (where Next.js reads the nonce); with a token, an API
 * without credentials gets 401 and a page goes to sign-in; a token too short answers 503.
 */
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { proxy } from "../../proxy";
import { markServed } from "../http/serve";

// requests as bootline's server hands them on: the client address in its header (lib/http/serve.ts)
markServed();

const req = (path: string, headers: Record<string, string> = {}) => new NextRequest(`http://127.0.0.1:3000${path}`, { headers });

afterEach(() => {
  delete process.env.BOOTLINE_AUTH_TOKEN;
});

describe("proxy", () => {
  it("sets a fresh nonce policy on pages, on the response and the request", async () => {
    const a = await proxy(req("/"));
    const b = await proxy(req("/"));
    const csp = a.headers.get("content-security-policy")!;
    expect(csp).toMatch(/^default-src 'self'; script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'; style-src 'self' 'unsafe-inline';/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(b.headers.get("content-security-policy")).not.toBe(csp);
    // NextResponse.next({ request: { headers } }) passes the request headers on as x-middleware-request-*
    expect(a.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    // APIs get theirs from next.config.ts
    expect((await proxy(req("/api/incidents"))).headers.get("content-security-policy")).toBeNull();
  });

  it("with a token: 401 for an API, sign-in for a page, open health", async () => {
    process.env.BOOTLINE_AUTH_TOKEN = "proxy-test-token-0123456789";
    const api = await proxy(req("/api/incidents", { "x-bootline-client": "10.7.0.1" }));
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({ error: { code: "unauthorized" } });
    const page = await proxy(req("/i/abc?x=1", { "x-bootline-client": "10.7.0.1" }));
    expect(page.status).toBe(307);
    expect(new URL(page.headers.get("location")!).pathname + new URL(page.headers.get("location")!).search).toBe("/sign-in?next=%2Fi%2Fabc%3Fx%3D1");
    expect((await proxy(req("/api/health"))).status).toBe(200);
    // a malformed cookie is no session, not an error
    expect((await proxy(req("/api/incidents", { cookie: "bootline_session=%E0%A4%A", "x-bootline-client": "10.7.0.1" }))).status).toBe(401);
    const ok = await proxy(req("/api/incidents", { authorization: "Bearer proxy-test-token-0123456789", "x-bootline-client": "10.7.0.1" }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-middleware-next")).toBe("1");
  });

  it("answers 503 with the reason when the token is too short", async () => {
    process.env.BOOTLINE_AUTH_TOKEN = "short";
    const api = await proxy(req("/api/incidents"));
    expect(api.status).toBe(503);
    expect(await api.json()).toEqual({
      error: {
        code: "unavailable",
        message: "BOOTLINE_AUTH_TOKEN is 5 characters long; it must have at least 16 (for example the output of: openssl rand -base64 24)",
      },
    });
    expect((await proxy(req("/"))).status).toBe(503);
  });
});
