/**
 * Accessibility of every page kind (home, incident, timeline, compare) in Chromium with axe-core
 * (WCAG 2.0 and 2.1, levels A and AA, and WCAG 2.2 AA's target size: every button, checkbox,
 * link and finding band at least 24 by 24 px or with that room around it), in the dark theme and
 * in the light one the system may ask for: no serious or critical violation. Colour contrast
 * also on the events table with a row selected (and the selected row one of a finding's
 * evidence), in both themes. And the timeline's skip link reaches the events table in a few key
 * presses.
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

/**
 * The rules axe runs, by tag: WCAG 2.0 and 2.1 A and AA (colour contrast among them) and WCAG 2.2
 * AA, which is `target-size` alone (axe-core 4.13); the 2.2 A rules and axe's best practices are left out.
 */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** Serious and critical violations on the page as it stands (or inside `within`), one line each (rule, impact, first elements). */
async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  const axe = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  const r = await (within ? axe.include(within) : axe).analyze();
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
    test(`${name} page (${scheme}): no serious or critical WCAG 2 A/AA or 2.2 target-size violation`, async ({ page }) => {
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

/** What axe measured for one element's contrast. */
type TContrastData = { fgColor?: string; bgColor?: string; contrastRatio?: number; messageKey?: string } | undefined;

/**
 * Colour contrast inside `within` (every impact): the failures and the elements axe could not
 * judge (a background it cannot tell), one line each with the colours it measured, and how many
 * text elements passed (so "no failure" is not "nothing measured").
 */
async function contrastOf(page: Page, within: string): Promise<{ failed: string[]; unsure: string[]; passed: number }> {
  const r = await new AxeBuilder({ page }).include(within).withRules(["color-contrast"]).analyze();
  const lines = (results: typeof r.violations) =>
    results.flatMap((v) =>
      v.nodes.map((n) => {
        const d = (n.any[0]?.data ?? undefined) as TContrastData;
        return `${v.id}: ${n.target.join(" ")} ${d?.messageKey ? `(${d.messageKey})` : `${d?.fgColor} on ${d?.bgColor} (${d?.contrastRatio})`}`;
      }),
    );
  return { failed: lines(r.violations), unsure: lines(r.incomplete), passed: r.passes.reduce((n, v) => n + v.nodes.length, 0) };
}

/** The events table's selected row measured: no failure, nothing axe could not judge, its cells passed. */
async function expectSelectedRowContrast(page: Page) {
  const row = await contrastOf(page, "[data-testid=events-table] [data-testid=event-row].selected");
  expect(row.failed).toEqual([]);
  expect(row.unsure).toEqual([]);
  expect(row.passed).toBeGreaterThanOrEqual(4);
  expect((await contrastOf(page, "[data-testid=events-table]")).failed).toEqual([]);
}

for (const scheme of ["dark", "light"] as const) {
  test(`timeline (${scheme}): the events table with a row selected, and a selected evidence row, keeps its contrast`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    // the failure window opened from the incident page: its range, its evidence rows marked
    await page.goto(`/i/${sample.id}`);
    const open = page
      .locator('[data-testid=finding][data-detector="sandbox-failure-window"]')
      .first()
      .getByRole("link", { name: /open in timeline/ });
    const href = (await open.getAttribute("href"))!;
    // the failed sandbox creations first, so evidence rows are among the rows drawn
    await page.goto(`${href}&kind=sandbox.create.failed`);
    const table = page.getByTestId("events-table");
    await expect(table).toBeVisible();
    await expect(page.getByTestId("lanes-chart")).toHaveAttribute("data-ready", "true");
    // the finding's evidence rows are marked; select one of them (selected and evidence at once)
    const evidence = table.locator("[data-testid=event-row].evidence");
    await expect(evidence.first()).toBeVisible();
    await expect(async () => {
      await evidence.first().click();
      await expect(page).toHaveURL(/[?&]ev=\d+/, { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await expect(table.locator("[data-testid=event-row].selected")).toHaveCount(1);
    await page.waitForLoadState("networkidle");
    // away from the row, so it shows as selected, not hovered
    await page.mouse.move(0, 0);
    await expectSelectedRowContrast(page);
    // a selected row that is not evidence: the window's first lines, every kind
    await page.goto(href);
    await expect(table).toBeVisible();
    const plain = table.locator("[data-testid=event-row]:not(.evidence)").first();
    await expect(async () => {
      await plain.click();
      await expect(page).toHaveURL(/[?&]ev=\d+/, { timeout: 5_000 });
    }).toPass({ timeout: 60_000 });
    await expect(plain).toHaveClass(/\bselected\b/);
    await page.mouse.move(0, 0);
    await expectSelectedRowContrast(page);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
