/**
 * The SQL page of an incident (two boots of one node, the Calico nodename race): a query given in
 * the URL runs from the page and its table shows what the API answers for it; a write is refused
 * with its plain message, and the URL keeps the query either way.
 */
import { expect, test, type Page } from "@playwright/test";
import { seedIncident, twoBootsBundle } from "./fixtures";
import { assertLocalBaseURL, uniqueTitle } from "./pages";

let id: string;

test.beforeAll(async ({ baseURL, request }, info) => {
  assertLocalBaseURL(baseURL);
  test.setTimeout(180_000);
  id = await seedIncident(request, await twoBootsBundle(), uniqueTitle(info, "sql"));
});

test.afterAll(async ({ request }) => {
  if (id) await request.delete(`/api/incidents/${id}`);
});

/** Opens the page with `q` and runs it; runs again until the page answered (a click before hydration is lost). */
async function runFromUrl(page: Page, q: string, answer: "sql-result" | "sql-error"): Promise<void> {
  await page.goto(`/i/${id}/sql?q=${encodeURIComponent(q)}`);
  await expect(page.getByTestId("sql-editor")).toHaveValue(q);
  await expect(async () => {
    await page.getByTestId("sql-run").click();
    await expect(page.getByTestId(answer)).toBeVisible({ timeout: 5_000 });
  }).toPass();
}

test("a query in the URL runs and its rows are the API's", async ({ page, request }) => {
  const q = "select lane, count(*) as n from events group by lane order by n desc, lane";
  const api = (await (await request.post(`/api/incidents/${id}/sql`, { data: { q } })).json()) as { rows: Array<[string, string]> };
  expect(api.rows.length).toBeGreaterThan(1);
  await runFromUrl(page, q, "sql-result");
  const result = page.getByTestId("sql-result");
  await expect(result.locator("th")).toHaveText(["lane", "n"]);
  const cells = await result.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
  expect(cells).toEqual(api.rows);
  await expect(page.getByTestId("sql-summary")).toContainText(`${api.rows.length} rows`);
  expect(new URL(page.url()).searchParams.get("q")).toBe(q);
});

test("a write is refused with its reason", async ({ page }) => {
  await runFromUrl(page, "delete from events", "sql-error");
  await expect(page.getByTestId("sql-error")).toContainText("read-only: this page cannot change data");
  expect(new URL(page.url()).searchParams.get("q")).toBe("delete from events");
});
