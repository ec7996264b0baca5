/**
 * The README's pictures, taken in Chromium against the sample incident: docs/home.png,
 * docs/incident.png, docs/timeline.png (dark), docs/timeline-light.png (the light theme the
 * system may ask for) and docs/compare.png, 1440 x 900. Not a test (the test run leaves the
 * checkout as it was): `npm run screenshots` takes them, against a running app with
 * `E2E_BASE_URL=http://127.0.0.1:3000` (best on an empty database, so only the sample shows), or
 * else against an app started as for the end-to-end tests (playwright.docs.config.ts).
 */
import { expect, test, type Page } from "@playwright/test";
import path from "node:path";
import { SAMPLE_TITLE } from "../lib/sample/load-sample";
import { assertLocalBaseURL } from "./pages";
import { seedSample, timelineUrl, type TSeededSample } from "./sample";

let sample: TSeededSample;

test.beforeAll(async ({ request, baseURL }) => {
  assertLocalBaseURL(baseURL);
  sample = await seedSample(request, SAMPLE_TITLE);
});

test.afterAll(async ({ request }) => {
  if (sample) await request.delete(`/api/incidents/${sample.id}`);
});

async function shoot(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(test.info().project.testDir, "..", "docs", `${name}.png`) });
}

test("home, incident, timeline (dark and light) and compare", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await expect(page.getByTestId("incidents-table")).toBeVisible();
  await shoot(page, "home");

  await page.goto(`/i/${sample.id}`);
  await expect(page.getByTestId("incident-title")).toBeVisible();
  await shoot(page, "incident");

  const storm = sample.boots[sample.boots.length - 1];
  for (const scheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(timelineUrl(sample, storm.bootKey));
    await expect(page.getByTestId("lanes-chart")).toHaveAttribute("data-ready", "true");
    await expect(page.getByTestId("event-row").first()).toBeVisible();
    await shoot(page, scheme === "dark" ? "timeline" : "timeline-light");
  }

  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(`/i/${sample.id}/compare?boots=${sample.boots.map((b) => b.id).join(",")}`);
  await expect(page.getByTestId("compare-title")).toBeVisible();
  await shoot(page, "compare");
});
