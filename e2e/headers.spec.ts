/**
 * Browser security headers and malformed requests against the running app: every page carries
 * a Content-Security-Policy with a fresh nonce and the pages run under it in Chromium with no
 * violation (the upload page, an incident, a boot timeline, the compare view, the sign-in
 * page); JSON answers carry the locked-down policy; both carry the anti-framing, no-sniff and
 * referrer headers. A malformed session cookie is no session (never a 500), a NUL byte in a
 * query parameter is a 400 in words, another incident's boot id is a 404.
 */
import { expect, test, type Page } from "@playwright/test";
import { calicoBundle, seedIncident } from "./fixtures";
import { assertLocalBaseURL } from "./pages";

const COMMON = { "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "no-referrer" };

/** Collects CSP violations (the DOM event, and Chromium's console message) seen by `page`. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(m.text())) seen.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => seen.push(`pageerror: ${e.message}`));
  return seen;
}

async function recordDomViolations(page: Page) {
  await page.addInitScript(() => {
    (window as unknown as { __csp: string[] }).__csp = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
}

test("pages carry a nonce CSP and run under it; JSON carries the locked-down headers", async ({ page, request, baseURL }) => {
  assertLocalBaseURL(baseURL);
  const incidentId = await seedIncident(request, await calicoBundle(), "headers e2e");
  const violations = watchViolations(page);
  await recordDomViolations(page);

  const home = await page.goto("/");
  const h = home!.headers();
  expect(h).toMatchObject(COMMON);
  const csp = h["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain("unsafe-eval");
  // the nonce is fresh per response and is the one on the page's scripts
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  const scriptNonces = await page.locator("script[nonce]").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
  expect(scriptNonces.length).toBeGreaterThan(0);
  expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
  const again = await request.get("/");
  expect(/'nonce-([^']+)'/.exec(again.headers()["content-security-policy"])![1]).not.toBe(nonce);
  await expect(page.getByRole("heading").first()).toBeVisible();

  await page.goto(`/i/${incidentId}`);
  await expect(page.getByTestId("incident-title")).toHaveText("headers e2e");
  await page
    .getByRole("link", { name: /timeline of/ })
    .first()
    .click();
  await page.waitForURL(/\/n\/[^/]+\/b\/[^/?]+/);
  await expect(page.getByTestId("event-row").first()).toBeVisible();
  await page.goto(`/i/${incidentId}/compare`);
  await page.goto("/sign-in");
  await page.goto("/no-such-page");
  expect(violations).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);

  const api = await request.get("/api/incidents");
  expect(api.status()).toBe(200);
  expect(api.headers()).toMatchObject({
    ...COMMON,
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  });
  const err = await request.get("/api/incidents/nope-not-there");
  expect(err.status()).toBe(404);
  expect(err.headers()).toMatchObject(COMMON);

  // a page cannot be framed
  await page.setContent(`<iframe id="f" src="${baseURL}/"></iframe>`);
  await page.waitForTimeout(1000);
  const framed = page.frames().find((f) => f !== page.mainFrame());
  expect(
    await framed
      ?.locator("body")
      .innerText()
      .catch(() => ""),
  ).not.toContain("bootline");
});

test("malformed cookie, NUL in a query parameter, another incident's boot id", async ({ request, baseURL }) => {
  assertLocalBaseURL(baseURL);
  // two incidents with a boot each
  const bundle = await calicoBundle();
  await seedIncident(request, bundle, "headers e2e a");
  await seedIncident(request, bundle, "headers e2e b");
  for (const path of ["/", "/sign-in", "/api/incidents", "/api/health"]) {
    const r = await request.get(path, { headers: { cookie: "bootline_session=%E0%A4%A" } });
    expect([path, r.status()]).toEqual([path, 200]);
  }
  const incidents = (await (await request.get("/api/incidents")).json()) as Array<{ id: string }>;
  const withBoots: Array<{ id: string; boot: number }> = [];
  for (const i of incidents) {
    const d = (await (await request.get(`/api/incidents/${i.id}`)).json()) as { nodes: Array<{ boots: Array<{ id: number }> }> };
    const boot = d.nodes.flatMap((n) => n.boots)[0];
    if (boot) withBoots.push({ id: i.id, boot: boot.id });
    if (withBoots.length === 2) break;
  }
  expect(withBoots.length).toBe(2);
  const [a, b] = withBoots;
  const range = "from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z";
  const nul = await request.get(`/api/incidents/${a.id}/boots/${a.boot}/events?${range}&q=a%00b`);
  expect(nul.status()).toBe(400);
  expect(await nul.json()).toEqual({ error: { code: "bad_request", message: "q: contains a NUL character" } });
  for (const route of ["density", "events", "events/count", "events/facets"]) {
    expect([route, (await request.get(`/api/incidents/${a.id}/boots/${a.boot}/${route}?${range}`)).status()]).toEqual([route, 200]);
    const other = await request.get(`/api/incidents/${a.id}/boots/${b.boot}/${route}?${range}`);
    expect([route, other.status()]).toEqual([route, 404]);
  }
});
