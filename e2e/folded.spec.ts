/**
 * A storm reads as one finding with its pods inside: on the sample incident (40 DaemonSet pods
 * retrying every 15 s) the incident page shows one retry-storm finding and the boot table counts
 * "1 storm, 40 pods"; its pod table opens, sorts by attempts, and a pod's link opens the
 * timeline with the storm selected, the pod's own row under the storm's and the events
 * filtered to the pod.
 */
import { expect, test } from "@playwright/test";
import { assertLocalBaseURL, uniqueTitle } from "./pages";
import { seedSample, type TSeededSample } from "./sample";

let sample: TSeededSample;

test.beforeAll(async ({ request, baseURL }, info) => {
  assertLocalBaseURL(baseURL);
  sample = await seedSample(request, uniqueTitle(info, "folded storm"));
});

test.afterAll(async ({ request }) => {
  if (sample) await request.delete(`/api/incidents/${sample.id}`);
});

test("one storm finding, its 40 pods in a sortable table; a pod opens its own timeline row", async ({ page }) => {
  await page.goto(`/i/${sample.id}`);
  const storms = page.locator('[data-testid=finding][data-detector="retry-storm"]');
  await expect(storms).toHaveCount(1);
  const bootRow = page.locator(`[data-testid=boot-row][data-boot="${sample.boots[sample.boots.length - 1].bootKey}"]`);
  await expect(bootRow.getByTestId("boot-findings")).toContainText("1 storm, 40 pods");

  const table = storms.getByTestId("part-table");
  await table.locator("summary").click();
  const rows = table.getByTestId("part-row");
  await expect(rows).toHaveCount(25); // the first 25, then "show all"
  await table.getByTestId("part-show-all").click();
  await expect(rows).toHaveCount(40);

  // sort by attempts, most first: the first row has the most
  await table.getByTestId("part-sort").filter({ hasText: "attempts" }).click();
  const attempts = (await rows.locator("td:nth-child(2)").allTextContents()).map(Number);
  expect(attempts).toEqual([...attempts].sort((a, b) => b - a));
  expect(attempts[0]).toBeGreaterThanOrEqual(4);

  // follow the top pod to its timeline row
  const pod = (await rows.first().getAttribute("data-part"))!;
  await rows.first().getByTestId("part-timeline").click();
  await expect(page).toHaveURL(new RegExp(`[?&]pod=${encodeURIComponent(pod).replace(/%2F/g, "(%2F|/)")}`));
  const podRow = page.locator(`[data-testid=part-row-band][data-part="${pod}"]`);
  await expect(podRow).toBeVisible();
  await expect(podRow).toContainText(`${attempts[0]} attempts`);
  // the storm's card on the timeline marks the pod's row in its table, opened
  await expect(page.locator(`[data-testid=part-row][data-part="${pod}"]`)).toHaveAttribute("aria-current", "true");
  // and the events table shows the pod's events only
  await expect(page.getByTestId("events-table")).toBeVisible();
  const pods = page.locator("[data-testid=events-table] [data-testid=event-row] .ev-pod");
  await expect(pods.first()).toBeVisible();
  for (const t of await pods.allTextContents()) expect(t).toContain(pod.split("/")[1]);
});
