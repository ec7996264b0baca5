/**
 * Access with BOOTLINE_AUTH_TOKEN (docs/hostile-input.md "Access"). Starts a second server of
 * the built app on its own port with the token set (same database), and checks: pages send a browser to the
 * sign-in page, which sets an httpOnly cookie and returns to the page asked for; APIs answer
 * 401 without the token and work with `Authorization: Bearer`; uploads (which the proxy leaves
 * alone) check the token themselves; /api/health stays open.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { assertLocalBaseURL } from "./pages";

const TOKEN = `e2e-${Math.random().toString(36).slice(2)}-token`;
const PORT = Number(process.env.E2E_AUTH_PORT ?? 3111);
const BASE = `http://127.0.0.1:${PORT}`;

let server: ChildProcess | null = null;

test.beforeAll(async ({ baseURL }) => {
  assertLocalBaseURL(baseURL);
  test.setTimeout(120_000);
  // bootline's server as `npm start` runs it, by node itself (not npx), so that the process killed
  // at the end is the server; the loopback is a trusted proxy: the tests name clients in X-Forwarded-For
  server = spawn(process.execPath, ["--import", "tsx", path.resolve("scripts/serve.ts")], {
    env: { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", BOOTLINE_TRUSTED_PROXIES: "127.0.0.1", BOOTLINE_AUTH_TOKEN: TOKEN, BOOTLINE_NO_WORKER: "1" },
    stdio: "ignore",
  });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the server with BOOTLINE_AUTH_TOKEN did not start");
});

test.afterAll(() => {
  server?.kill("SIGTERM");
  server = null;
});

test("with BOOTLINE_AUTH_TOKEN every page and API needs it; health stays open", async ({ page, context, request }) => {
  expect((await request.get(`${BASE}/api/health`)).status()).toBe(200);
  const denied = await request.get(`${BASE}/api/incidents`);
  expect(denied.status()).toBe(401);
  expect(await denied.json()).toMatchObject({ error: { code: "unauthorized" } });
  expect((await request.get(`${BASE}/api/incidents`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status()).toBe(200);
  expect((await request.get(`${BASE}/api/incidents`, { headers: { Authorization: "Bearer wrong" } })).status()).toBe(401);

  // uploads check the token themselves
  const file = { name: "x.log", mimeType: "text/plain", buffer: Buffer.from('Mar 14 02:10:01 node-z kubelet[1]: I0314 02:10:01.000000 1 k.go:1] "x"\n') };
  const refused = await request.post(`${BASE}/api/uploads`, { multipart: { files: file, title: "auth e2e" } });
  expect(refused.status()).toBe(401);
  const accepted = await request.post(`${BASE}/api/uploads`, { multipart: { files: file, title: "auth e2e" }, headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(accepted.status()).toBe(202);
  const { incidentId } = (await accepted.json()) as { incidentId: string };

  // a page sends the browser to sign in, and back where it wanted to go
  await page.goto(`${BASE}/i/${incidentId}`);
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=${encodeURIComponent(`/i/${incidentId}`)}`));
  await page.getByLabel("Access token").fill("not the token");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("sign-in-error")).toBeVisible();
  await page.getByLabel("Access token").fill(TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${BASE}/i/${incidentId}`);
  await expect(page.getByTestId("incident-title")).toHaveText("auth e2e");
  const cookie = (await context.cookies(BASE)).find((c) => c.name === "bootline_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  expect(cookie!.value).not.toContain(TOKEN);
  expect(cookie!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // the browser's own API calls carry the cookie
  expect(await page.evaluate(async (id) => (await fetch(`/api/incidents/${id}`)).status, incidentId)).toBe(200);
  // signing out ends the session: the old cookie no longer works, even sent by hand
  await page.goto(`${BASE}/sign-in`);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${BASE}/sign-in`);
  expect((await context.cookies(BASE)).find((c) => c.name === "bootline_session")).toBeUndefined();
  expect((await request.get(`${BASE}/api/incidents/${incidentId}`, { headers: { cookie: `bootline_session=${cookie!.value}` } })).status()).toBe(401);
  await page.goto(`${BASE}/i/${incidentId}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);

  // a malformed cookie is no session, not an error
  const bad = await request.get(`${BASE}/api/incidents`, { headers: { cookie: "bootline_session=%E0%A4%A" } });
  expect(bad.status()).toBe(401);
  expect((await request.get(`${BASE}/sign-in`, { headers: { cookie: "bootline_session=%E0%A4%A" } })).status()).toBe(200);

  // clean up through the API
  expect((await request.delete(`${BASE}/api/incidents/${incidentId}`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status()).toBe(200);
});

test("wrong tokens from one address are throttled: 429 with Retry-After", async ({ request }) => {
  const from = { "x-forwarded-for": "198.51.100.23" };
  const guess = (token: string) => request.post(`${BASE}/api/auth/sign-in`, { form: { token, next: "/" }, headers: from, maxRedirects: 0 });
  for (let i = 0; i < 6; i++) {
    const r = await guess(`wrong-guess-${i}-0123456789`);
    expect(r.status()).toBe(303);
    expect(r.headers().location).toBe("/sign-in?error=1&next=%2F");
  }
  const locked = await guess(TOKEN);
  expect(locked.status()).toBe(429);
  expect(Number(locked.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
  expect(locked.headers()["set-cookie"]).toBeUndefined();
  // the same address with a Bearer token is refused too while locked
  const api = await request.get(`${BASE}/api/incidents`, { headers: { ...from, Authorization: `Bearer ${TOKEN}` } });
  expect(api.status()).toBe(429);
  expect(await api.json()).toMatchObject({ error: { code: "too_many_requests" } });
  // another address is not affected
  expect((await request.get(`${BASE}/api/incidents`, { headers: { "x-forwarded-for": "198.51.100.24", Authorization: `Bearer ${TOKEN}` } })).status()).toBe(
    200,
  );
});
