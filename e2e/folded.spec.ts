/**
 * A storm reads as one finding with its pods inside: on the sample incident (40 DaemonSet pods
 * retrying every 15 s) the incident page shows one retry-storm finding and the boot table counts
 * "1 storm, 40 pods"; its pod table opens, sorts by attempts, and a pod's link opens the
 * timeline with the storm selected, the pod's own row under the storm's and the events
 * filtered to the pod. The incident page's findings filter (detector, severity) and the boot
 * table's sort live in the URL and survive a reload.
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

test("the findings filter by detector and severity: the findings shown, n of m, the same after a reload, show all", async ({ page, request }) => {
  const inc = (await (await request.get(`/api/incidents/${sample.id}`)).json()) as { findings: Array<{ detector: string; severity: string }> };
  const total = inc.findings.length;
  const storms = inc.findings.filter((f) => f.detector === "retry-storm");
  expect(storms.length).toBeGreaterThan(0);
  expect(storms.length).toBeLessThan(total);
  await page.goto(`/i/${sample.id}`);
  const shown = page.getByTestId("findings-shown");
  const scope = page.getByTestId("finding-filter-scope");
  await expect(shown).toContainText(`${total} of ${total} findings shown`);
  const det = page.getByTestId("finding-filter-det");
  await expect(det.locator('[data-value="retry-storm"]')).toContainText(`retry-storm (${storms.length})`);

  // text typed or clicks before hydration are lost: click until the URL took it
  await expect(async () => {
    await det.getByRole("checkbox", { name: /retry-storm/ }).check();
    await expect(page).toHaveURL(/[?&]det=retry-storm(&|$)/, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  const expectStormsOnly = async () => {
    await expect(scope).toHaveAttribute("data-status", "ready");
    await expect(shown).toContainText(`${storms.length} of ${total} findings shown`);
    const cards = page.locator("[data-testid=finding-filter-scope] [data-testid=finding]");
    await expect(cards).toHaveCount(storms.length);
    expect(new Set(await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-detector"))))).toEqual(new Set(["retry-storm"]));
    await expect(det.getByRole("checkbox", { name: /retry-storm/ })).toBeChecked();
  };
  await expectStormsOnly();

  // a severity none of the storms has: nothing shown, and said so
  const sevs = await page
    .getByTestId("finding-filter-sev")
    .locator("[data-value]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-value")!));
  const other = sevs.find((s) => !storms.some((f) => f.severity === s));
  if (other) {
    await page
      .getByTestId("finding-filter-sev")
      .getByRole("checkbox", { name: new RegExp(`^${other}`) })
      .check();
    await expect(page).toHaveURL(new RegExp(`[?&]sev=${other}(&|$)`));
    await expect(scope).toHaveAttribute("data-status", "ready");
    await expect(shown).toContainText(`0 of ${total} findings shown`);
    await expect(scope.getByText("No finding matches this filter.")).toBeVisible();
    await page
      .getByTestId("finding-filter-sev")
      .getByRole("checkbox", { name: new RegExp(`^${other}`) })
      .uncheck();
    await expect(page).not.toHaveURL(/[?&]sev=/);
  }
  await expectStormsOnly();

  await page.reload();
  await expectStormsOnly();

  await page.getByTestId("finding-filter-reset").click();
  await expect(page).not.toHaveURL(/[?&]det=/);
  await expect(scope).toHaveAttribute("data-status", "ready");
  await expect(shown).toContainText(`${total} of ${total} findings shown`);
  await expect(page.getByTestId("finding-filter-reset")).toHaveCount(0);
});

test("the boot table sorts by failed attempts, most first, with aria-sort; the sort survives a reload", async ({ page }) => {
  await page.goto(`/i/${sample.id}`);
  const table = page.getByTestId("nodes-table");
  const head = table.locator('[data-testid=boot-sort][data-column="attempts"]');
  const headCell = table.locator('th:has([data-testid=boot-sort][data-column="attempts"])');
  const bootKeys = () => table.getByTestId("boot-row").evaluateAll((els) => els.map((e) => e.getAttribute("data-boot")));
  // the table's own order: the node's boots by T+0, the storm's boot last
  expect(await bootKeys()).toEqual(sample.boots.map((b) => b.bootKey));
  await expect(async () => {
    await head.click();
    await expect(page).toHaveURL(/[?&]sort=attempts-desc(&|$)/, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  const sorted = async () => {
    await expect(headCell).toHaveAttribute("aria-sort", "descending");
    const attempts = (await table.getByTestId("boot-attempts").allTextContents()).map((t) => Number(t.replace(/,/g, "") || 0));
    expect(attempts[0]).toBeGreaterThan(0);
    expect(attempts).toEqual([...attempts].sort((a, b) => b - a));
  };
  await sorted();
  expect((await bootKeys())[0]).toBe(sample.boots[sample.boots.length - 1].bootKey);
  await page.reload();
  await sorted();
  // the keyboard sorts too: Enter on the head turns it around
  await head.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]sort=attempts-asc(&|$)/);
  await expect(headCell).toHaveAttribute("aria-sort", "ascending");
});
