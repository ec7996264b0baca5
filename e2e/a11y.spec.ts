/**
 * Accessibility of every page kind (home, incident, timeline, compare) in Chromium with axe-core
 * (WCAG 2.0 and 2.1, levels A and AA), in the dark theme and in the light one the system may ask
 * for: no serious or critical violation. And the timeline's skip link reaches the events table
 * in a few key presses.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { assertLocalBaseURL, uniqueTitle } from "./pages";
import { seedSample, timelineUrl, type TSeededSample } from "./sample";

let sample: TSeededSample;

test.beforeAll(async ({ request, baseURL }, info) => {
  assertLocalBaseURL(baseURL);
  sample = await seedSample(request, uniqueTitle(info, "a11y sample"));
});

test.afterAll(async ({ request }) => {
  if (sample) await request.delete(`/api/incidents/${sample.id}`);
});

/** Serious and critical violations on the page as it stands, one line each (rule, impact, first elements). */
async function seriousViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")})`,
    );
}

const PAGES: Array<[string, (s: TSeededSample) => string, string]> = [
  ["home", () => "/", "incidents-table"],
  ["incident", (s) => `/i/${s.id}`, "incident-title"],
  ["timeline", (s) => timelineUrl(s, s.boots[s.boots.length - 1].bootKey), "events-table"],
  ["compare", (s) => `/i/${s.id}/compare?boots=${s.boots.map((b) => b.id).join(",")}`, "compare-title"],
];

for (const scheme of ["dark", "light"] as const) {
  for (const [name, url, ready] of PAGES) {
    test(`${name} page (${scheme}): no serious or critical WCAG 2 A/AA violation`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(url(sample));
      await expect(page.getByTestId(ready)).toBeVisible();
      await expect(page.locator("h1")).toHaveCount(1);
      if (name === "timeline") await expect(page.getByTestId("lanes-chart")).toHaveAttribute("data-ready", "true");
      await page.waitForLoadState("networkidle");
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
}

test("the timeline's skip link takes the keyboard to the events table", async ({ page }) => {
  await page.goto(timelineUrl(sample, sample.boots[sample.boots.length - 1].bootKey));
  await expect(page.getByTestId("events-table")).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  // past the top bar (brand, upload) to the timeline's own skip link
  const skip = page.getByTestId("skip-to-events");
  let toSkip = 1;
  for (; toSkip < 6 && !(await skip.evaluate((el) => el === document.activeElement)); toSkip++) await page.keyboard.press("Tab");
  await expect(skip).toBeFocused();
  expect(toSkip).toBeLessThanOrEqual(4);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#events$/);
  // from the events panel, through its filters, to the table's rows
  let presses = 0;
  for (; presses < 20; presses++) {
    if (await page.evaluate(() => !!document.activeElement?.closest("[data-testid=events-table]"))) break;
    await page.keyboard.press("Tab");
  }
  expect(presses).toBeLessThan(20);
});

/** Targets smaller than 24 by 24 px without the room around them WCAG 2.2 asks (axe `target-size`), one line each. */
async function smallTargets(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withRules(["target-size"]).analyze();
  return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

for (const [name, url, ready] of PAGES.filter(([n]) => n === "incident" || n === "timeline")) {
  test(`${name} page: every touch target at least 24 px or with room around it (WCAG 2.2 target size)`, async ({ page }) => {
    await page.goto(url(sample));
    await expect(page.getByTestId(ready)).toBeVisible();
    if (name === "timeline") await expect(page.getByTestId("lanes-chart")).toHaveAttribute("data-ready", "true");
    await page.waitForLoadState("networkidle");
    expect(await smallTargets(page)).toEqual([]);
  });
}
