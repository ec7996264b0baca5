/**
 * "What changed in this boot", on the two-boots scenario (the Calico nodename race on boot 2 of
 * the node, a healthy boot 3): the compare page's "what changed" lists a template boot 2 logged
 * and boot 3 did not, and its count opens boot 2's timeline at its first event with the events
 * filtered to that template; on the timeline, "Explain window" on the failure window ranks the
 * sandbox failures first (against the span before it; among the first against the rest of the boot),
 * a reload of its URL shows the same explanation, and a row filters the events table.
 */
import { expect, test, type Page } from "@playwright/test";
import { seedIncident, twoBootsBundle } from "./fixtures";
import { assertLocalBaseURL, uniqueTitle } from "./pages";

interface TIncident {
  id: string;
  nodes: Array<{ name: string; boots: Array<{ id: number; bootKey: string; index: number }> }>;
  findings: Array<{ detector: string; nodeName: string; bootKey: string }>;
}

let inc: TIncident;
let node: string;
let failing: TIncident["nodes"][number]["boots"][number];
let healthy: TIncident["nodes"][number]["boots"][number];

test.beforeAll(async ({ baseURL, request }, info) => {
  assertLocalBaseURL(baseURL);
  test.setTimeout(180_000);
  const id = await seedIncident(request, await twoBootsBundle(), uniqueTitle(info, "what-changed"));
  inc = (await (await request.get(`/api/incidents/${id}`)).json()) as TIncident;
  const win = inc.findings.find((f) => f.detector === "sandbox-failure-window")!;
  node = win.nodeName;
  const boots = inc.nodes.find((n) => n.name === node)!.boots;
  failing = boots.find((b) => b.bootKey === win.bootKey)!;
  healthy = boots.find((b) => b.id !== failing.id && b.index > failing.index)!;
});

test.afterAll(async ({ request }) => {
  if (inc) await request.delete(`/api/incidents/${inc.id}`);
});

/** The events count once settled: [matching, total]. */
async function counts(page: Page): Promise<[number, number]> {
  const c = page.getByTestId("events-count");
  await expect(c).toHaveAttribute("data-total", /\d+/);
  await expect(c).toHaveAttribute("data-matching", /\d+/);
  return [Number(await c.getAttribute("data-matching")), Number(await c.getAttribute("data-total"))];
}

test("compare → what changed → a template only boot 2 logged opens its timeline filtered to it", async ({ page }) => {
  await page.goto(`/i/${inc.id}/compare?boots=${failing.id},${healthy.id}`);
  const changed = page.getByTestId("what-changed");
  // streamed in after the page: "loading…" until the diff is read, never an empty table
  await expect(page.getByTestId("what-changed-loading")).toHaveCount(0);
  await expect(changed).toHaveAttribute("data-status", "ready");
  await expect(changed).toBeVisible();
  // the boots' lanes say when they are in
  await expect(page.getByTestId("compare-boot")).toHaveCount(2);
  for (const b of await page.getByTestId("compare-boot").all()) await expect(b).toHaveAttribute("data-status", "ready");
  await expect(page.getByTestId("compare-boot-loading")).toHaveCount(0);
  const row = changed
    .locator('[data-testid="changed-row"][data-dimension="pattern"]', { hasText: "only in A" })
    .filter({ hasText: /sandbox/i })
    .first();
  await expect(row).toBeVisible();
  const template = (await row.locator("td").nth(2).textContent())!;
  // A's count links into boot 2's timeline at the template's first event, filtered to it
  await row.locator("td").nth(3).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/i/${inc.id}/n/${encodeURIComponent(node)}/b/${failing.bootKey}\\?.*pat=[0-9a-z]+`));
  await expect(page).toHaveURL(/[?&]ev=\d+/);
  const pat = new URL(page.url()).searchParams.get("pat")!;
  await expect(page.locator(`[data-testid="pattern-row"][data-key="${pat}"]`)).toContainText(template.replaceAll("<*>", "").trim().split(" ")[0]);
  await expect(page.getByTestId("pattern-clear")).toBeVisible();
  const [matching, total] = await counts(page);
  expect(matching).toBeGreaterThan(0);
  expect(matching).toBeLessThan(total);
  // the selected event (the first of the template) is open
  await expect(page.getByTestId("event-detail")).toBeVisible();
});

test("timeline → Explain window on the failure window ranks the sandbox failures first; a row filters the events", async ({ page }) => {
  await page.goto(`/i/${inc.id}/n/${encodeURIComponent(node)}/b/${failing.bootKey}`);
  await page.getByTestId("explain-window").first().click();
  const panel = page.getByTestId("explain-panel");
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId("explain-summary")).toContainText("events in the range");
  const first = panel.locator('[data-testid="explain-pattern"] [data-testid="explain-row"]').first();
  await expect(first).toContainText(/sandbox/i);
  const key = (await first.getAttribute("data-key"))!;
  // the rest of the boot as the baseline: the window's other failure messages rank with it, the sandbox template among the first
  await panel.getByTestId("explain-baseline").selectOption("boot");
  await expect(panel.getByTestId("explain-loading")).toHaveCount(0);
  await expect(panel.getByTestId("explain-summary")).toContainText("in the rest of the boot");
  const keys = await panel
    .locator('[data-testid="explain-pattern"] [data-testid="explain-row"]')
    .evaluateAll((rows) => rows.slice(0, 5).map((r) => r.getAttribute("data-key")));
  expect(keys).toContain(key);
  // the explained range and its baseline are in the URL: a reload shows the same explanation
  await expect(page).toHaveURL(/[?&]xfrom=-?\d+(\.\d+)?&xto=-?\d+(\.\d+)?&xbase=boot(&|$)/);
  const heading = (await panel.getByRole("heading", { level: 2 }).textContent())!;
  expect(heading).toMatch(/^Explain the window of /);
  const summary = (await panel.getByTestId("explain-summary").textContent())!;
  await page.reload();
  await expect(panel.getByTestId("explain-summary")).toHaveText(summary);
  await expect(panel.getByRole("heading", { level: 2 })).toHaveText(heading);
  await expect(panel.getByTestId("explain-baseline")).toHaveValue("boot");
  const keysAfter = await panel
    .locator('[data-testid="explain-pattern"] [data-testid="explain-row"]')
    .evaluateAll((rows) => rows.slice(0, 5).map((r) => r.getAttribute("data-key")));
  expect(keysAfter).toEqual(keys);
  await panel.locator(`[data-testid="explain-pattern"] [data-testid="explain-row"][data-key="${key}"]`).getByRole("button").click();
  await expect(page).toHaveURL(new RegExp(`[?&]pat=${key}(&|$)`));
  const [matching, total] = await counts(page);
  expect(matching).toBeGreaterThan(0);
  expect(matching).toBeLessThan(total);
  // a pod row fills the pod filter
  const pod = panel.locator('[data-testid="explain-pod"] [data-testid="explain-row"]').first();
  if ((await pod.count()) > 0) {
    const value = (await pod.getAttribute("data-value"))!;
    await pod.getByRole("button").click();
    await expect(page.getByTestId("filter-pod")).toHaveValue(value);
  }
});
