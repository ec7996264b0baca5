/**
 * Page objects as plain objects of verbs (as cal.com's and dub's Playwright suites write them),
 * built on roles and test ids.
 */
import { expect, type Page, type TestInfo } from "@playwright/test";
import path from "node:path";

/** Refuses to upload test data anywhere but a local app. */
export function assertLocalBaseURL(baseURL: string | undefined) {
  const host = new URL(baseURL ?? "http://127.0.0.1").hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host) && !process.env.E2E_ALLOW_REMOTE)
    throw new Error(`refusing to run end-to-end tests against ${host} (set E2E_ALLOW_REMOTE=1 to override)`);
}

/** A unique incident title for one test. */
export function uniqueTitle(info: TestInfo, what: string): string {
  return `e2e ${what} ${info.workerIndex}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Saves a full-page screenshot as e2e/screenshots/<name>.png. */
export async function screenshot(page: Page, info: TestInfo, name: string) {
  // from the top, so the sticky toolbar sits where a reader sees it
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(info.project.testDir, "screenshots", `${name}.png`), fullPage: true });
}

export function uploadPage(page: Page) {
  return {
    async open() {
      await page.goto("/");
      await expect(page.getByRole("heading", { name: "Upload a log bundle" })).toBeVisible();
    },
    /** Picks the files, names a new incident and submits. */
    async upload(files: string | string[], title: string) {
      await page.getByTestId("upload-files").setInputFiles(files);
      await page.getByLabel("Incident title").fill(title);
      await page.getByRole("button", { name: "Upload and parse" }).click();
    },
    /** Waits until parsing is done and the page moved to the incident; returns its id. */
    async waitForIncident(): Promise<string> {
      await page.waitForURL(/\/i\/[A-Za-z0-9_-]+$/, { timeout: 90_000 });
      return new URL(page.url()).pathname.split("/")[2];
    },
    error: () => page.getByTestId("upload-error"),
  };
}

export function incidentPage(page: Page) {
  return {
    title: () => page.getByTestId("incident-title"),
    /** Opens the timeline of `node`'s boot with `bootKey` (or the last boot of the node). */
    async openBoot(node: string, bootKey?: string) {
      const rows = page.locator(`[data-testid="boot-row"][data-node="${node}"]`);
      const row = bootKey ? rows.and(page.locator(`[data-boot="${bootKey}"]`)) : rows.last();
      await row.getByRole("link", { name: /timeline of/ }).click();
      await page.waitForURL(/\/n\/[^/]+\/b\/[^/?]+/);
      await expect(page.getByTestId("events-table")).toBeVisible();
    },
  };
}

export function timelinePage(page: Page) {
  const range = page.getByTestId("visible-range");
  const self = {
    band: () => page.getByTestId("failure-window").first(),
    label: () => page.getByTestId("failure-window-label").first(),
    rows: () => page.getByTestId("event-row"),
    /** The visible range [from, to) in UTC ms, as the page states it. */
    async visibleRange(): Promise<{ from: number; to: number }> {
      return { from: Number(await range.getAttribute("data-from")), to: Number(await range.getAttribute("data-to")) };
    },
    /** The shaded failure window is there and names its start and end as T+ seconds. */
    async expectFindingBand(startText: string, endText: string) {
      await expect(self.band()).toBeVisible();
      await expect(self.label()).toContainText(startText);
      await expect(self.label()).toContainText(endText);
    },
    /** Drags across the lanes from `fromMs` to `toMs` (UTC ms inside the visible range) to zoom. */
    async zoomTo(fromMs: number, toMs: number) {
      const { from, to } = await self.visibleRange();
      const box = (await page.locator(".tl-overlay").boundingBox())!;
      const x = (t: number) => box.x + ((t - from) / (to - from)) * box.width;
      const y = box.y + Math.min(40, box.height / 3);
      await page.mouse.move(x(fromMs), y);
      await page.mouse.down();
      await page.mouse.move((x(fromMs) + x(toMs)) / 2, y, { steps: 4 });
      await page.mouse.move(x(toMs), y, { steps: 4 });
      await page.mouse.up();
      await expect(page).toHaveURL(/[?&]from=.*&to=/);
    },
    async zoomOut() {
      await page.getByRole("button", { name: "zoom out" }).click();
    },
    /** Clicks "copy link" and returns the permalink it offers. */
    async copyLink(): Promise<string> {
      await page.getByTestId("copy-link").click();
      const input = page.getByTestId("permalink");
      await expect(input).toBeVisible();
      return input.inputValue();
    },
  };
  return self;
}
