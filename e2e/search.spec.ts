/**
 * Incident-wide search: an incident of three nodes (journals of kubelet and containerd, the
 * first node with two boots) is searched for a sandbox id from the incident page; the hits come
 * grouped by node and boot with exact counts, and each hit opens its boot's timeline with that
 * event selected.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { buildTarGz } from "../lib/bundle/tar-build";
import { BOOTS, NODES, RARE_SANDBOX, searchFixtureFiles } from "../lib/search/search-fixture";
import { seedIncident } from "./fixtures";
import { assertLocalBaseURL, screenshot, uniqueTitle } from "./pages";

test.beforeAll(({ baseURL }) => assertLocalBaseURL(baseURL));

/** The three nodes' journals as one archive (collected 2026-03-14 05:00 UTC, which dates their year-less stamps). */
async function threeNodesBundle(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "bootline-e2e-"));
  const file = path.join(dir, "three-nodes.tar.gz");
  const collected = Date.UTC(2026, 2, 14, 5);
  await writeFile(file, buildTarGz(searchFixtureFiles().map((f) => ({ path: `journals/${f.name}`, content: f.content, mtimeMs: collected }))));
  return file;
}

/**
 * Search `q` on an incident page just opened: text typed before the page hydrated is reset by
 * React, so the search is typed again until the page took it (the query is in the URL).
 */
async function searchFreshPage(page: Page, q: string): Promise<void> {
  await expect(async () => {
    await page.getByTestId("incident-search-input").fill(q);
    await page.getByTestId("incident-search-submit").click();
    await expect(page).toHaveURL((u) => u.searchParams.get("search") === q, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}

test("incident search for a sandbox id: exact counts per node boot, each hit opens its boot at that event", async ({ page, request }, info) => {
  test.setTimeout(180_000);
  const incidentId = await seedIncident(request, await threeNodesBundle(), uniqueTitle(info, "search"));
  const [n1, , n3] = NODES;

  await page.goto(`/i/${incidentId}`);
  await searchFreshPage(page, RARE_SANDBOX);
  await expect(page.getByTestId("incident-search-results")).toHaveAttribute("data-status", "ready");
  await expect(page.getByTestId("incident-search-summary")).toContainText("3 events");
  const groups = page.getByTestId("incident-search-group");
  await expect(groups).toHaveCount(2);
  const rows = await groups.evaluateAll((els) => els.map((e) => [e.getAttribute("data-node"), e.getAttribute("data-boot"), e.getAttribute("data-count")]));
  expect(rows).toEqual([
    [n1, BOOTS[n1][1], "2"],
    [n3, BOOTS[n3][0], "1"],
  ]);
  await expect(groups.nth(0).getByTestId("incident-search-hit")).toHaveCount(2);
  expect(new URL(page.url()).searchParams.get("search")).toBe(RARE_SANDBOX);
  await screenshot(page, info, "incident-search");

  // the third node's hit: its only boot, the event selected and shown
  await groups.nth(1).getByTestId("incident-search-hit").getByRole("link").click();
  await page.waitForURL(new RegExp(`/i/${incidentId}/n/${n3}/b/${BOOTS[n3][0]}\\?.*ev=\\d+`));
  await expect(page.getByTestId("event-detail")).toContainText(RARE_SANDBOX);
  await expect(page.getByTestId("event-message")).toContainText("StopPodSandbox from runtime service failed");

  // back to the results (kept in the URL), then the first node's second boot, not its first
  await page.goBack();
  await expect(page.getByTestId("incident-search-group")).toHaveCount(2);
  await page.getByTestId("incident-search-group").nth(0).getByTestId("incident-search-hit").nth(1).getByRole("link").click();
  await page.waitForURL(new RegExp(`/i/${incidentId}/n/${n1}/b/${BOOTS[n1][1]}\\?.*ev=\\d+`));
  await expect(page.getByTestId("event-detail")).toContainText(RARE_SANDBOX);
  await expect(page.getByTestId("event-message")).toContainText("RunPodSandbox from runtime service failed");

  // the id cut short as crictl prints it (13 hex digits): the same three events as whole words;
  // a part from its middle is no word, but as part of a word it finds them too
  await page.goto(`/i/${incidentId}`);
  await searchFreshPage(page, RARE_SANDBOX.slice(0, 13));
  await expect(page.getByTestId("incident-search-summary")).toContainText("3 events");
  await expect(page.getByTestId("incident-search-summary")).toContainText("(whole words)");
  await expect(page.getByTestId("incident-search-group")).toHaveCount(2);
  await page.getByTestId("incident-search-input").fill(RARE_SANDBOX.slice(5, 18));
  await page.getByTestId("incident-search-submit").click();
  await expect(page.getByTestId("incident-search-summary")).toContainText("No events match");
  await page.getByTestId("incident-search-substring").check();
  await page.getByTestId("incident-search-submit").click();
  await expect(page.getByTestId("incident-search-summary")).toContainText("3 events");
  await expect(page.getByTestId("incident-search-group")).toHaveCount(2);
});
