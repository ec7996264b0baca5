/**
 * Hostile log text in the browser: a bundle whose lines carry a `<script>` tag, an
 * HTML event handler and a bearer token is uploaded through the page. The markup shows as
 * literal text and never runs; the token is replaced by `[REDACTED:bearer]` everywhere (table,
 * event detail, raw source lines, report) and counted on the incident page. Then the incident
 * is deleted with its button. A truncated archive is stored with a warning that the incident
 * page shows at its top and on the bundle, naming the file cut short.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { calicoBundle } from "./fixtures";
import { assertLocalBaseURL, incidentPage, screenshot, timelinePage, uniqueTitle, uploadPage } from "./pages";

const TOKEN = "9f8e7d6c5b4a39281706f5e4d3c2b1a0ffee";
const SCRIPT = "<script>window.__pwned=1</script>";
const IMG = '<img src=x onerror="window.__pwned=2">';

function line(sec: number, msg: string): string {
  const t = `02:10:${String(sec).padStart(2, "0")}`;
  return `Mar 14 ${t} node-x kubelet[1234]: I0314 ${t}.123456    1234 kubelet.go:2321] ${msg}`;
}

async function hostileLog(): Promise<string> {
  const lines = [
    line(1, '"Starting kubelet main sync loop"'),
    line(2, `"pod annotation" value="${SCRIPT}"`),
    line(3, `"GET /api/v1/nodes" headers="Authorization: Bearer ${TOKEN}"`),
    line(4, `"label" text="${IMG.replace(/"/g, "'")}"`),
    line(5, '"done"'),
  ];
  const dir = await mkdtemp(path.join(tmpdir(), "bootline-e2e-hostile-"));
  const file = path.join(dir, "node-x-kubelet.log");
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

test.beforeAll(({ baseURL }) => assertLocalBaseURL(baseURL));

test("log text with markup and a bearer token is shown safely: markup as text, token redacted", async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.accept();
  });
  const title = uniqueTitle(info, "hostile");
  const upload = uploadPage(page);
  await upload.open();
  await upload.upload(await hostileLog(), title);
  const incidentId = await upload.waitForIncident();

  // the report counts the redaction, and nothing of the token is stored
  const report = await (await request.get(`/api/incidents/${incidentId}/report`)).json();
  expect(report.files).toHaveLength(1);
  expect(report.files[0].redacted).toEqual({ bearer: 1 });
  expect(JSON.stringify(report)).not.toContain(TOKEN);
  await expect(page.getByTestId("file-redacted").first()).toHaveText("bearer 1");

  // the timeline: markup is literal text in the table, the detail and the raw lines
  await incidentPage(page).openBoot("node-x");
  const tl = timelinePage(page);
  const scriptRow = tl.rows().filter({ hasText: SCRIPT });
  await expect(scriptRow).toHaveCount(1);
  await scriptRow.click();
  await expect(page.getByTestId("event-message")).toContainText(SCRIPT);
  await expect(page.getByTestId("event-raw")).toContainText(SCRIPT);
  const imgRow = tl.rows().filter({ hasText: "<img src=x onerror=" });
  await expect(imgRow).toHaveCount(1);
  const tokenRow = tl.rows().filter({ hasText: "Authorization: Bearer [REDACTED:bearer]" });
  await expect(tokenRow).toHaveCount(1);
  await tokenRow.click();
  await expect(page.getByTestId("event-message")).toContainText("Bearer [REDACTED:bearer]");
  await expect(page.getByTestId("event-raw")).toContainText("Bearer [REDACTED:bearer]");
  await screenshot(page, info, "hostile-timeline");

  // nothing ran, nothing was parsed as markup, the token is nowhere on the page
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator("img[src='x']").count()).toBe(0);
  expect(await page.evaluate(() => Array.from(document.scripts).some((s) => s.textContent?.includes("__pwned")))).toBe(false);
  expect(await page.content()).not.toContain(TOKEN);

  // delete the incident with its button: gone, with its API
  await page.goto(`/i/${incidentId}`);
  await page.getByTestId("delete-incident").click();
  await page.waitForURL((u) => u.pathname === "/");
  expect(dialogs[0]).toContain(title);
  expect((await request.get(`/api/incidents/${incidentId}`)).status()).toBe(404);
});

test("a truncated archive is stored with warnings the incident page shows, naming the file cut short", async ({ page }, info) => {
  test.setTimeout(120_000);
  // the Calico nodename race as an EKS archive, cut at 60% of its bytes (an upload that broke off)
  const whole = await readFile(await calicoBundle());
  const dir = await mkdtemp(path.join(tmpdir(), "bootline-e2e-cut-"));
  const file = path.join(dir, "eks_cut.tar.gz");
  await writeFile(file, whole.subarray(0, Math.floor(whole.length * 0.6)));
  const upload = uploadPage(page);
  await upload.open();
  await upload.upload(file, uniqueTitle(info, "truncated"));
  await upload.waitForIncident();

  // near the top of the incident page: which bundle has warnings, linking to it
  const notice = page.getByTestId("incident-warnings");
  await expect(notice).toContainText("eks_cut.tar.gz (2 warnings)");
  await notice.getByRole("link", { name: "eks_cut.tar.gz" }).click();
  // the bundle says which file was read only in part, and why, and counts the line it cut
  const warnings = page.getByTestId("bundle-warnings");
  await expect(warnings.locator('[data-kind="read-in-part"]')).toContainText(
    /^1 file read with problems: var_log\/calico\/cni\/cni\.log \(cut short: the archive ends inside this file after [\d,]+ of its [\d,]+ bytes/,
  );
  await expect(warnings.locator('[data-kind="lines-skipped"]')).toContainText(/^1 line of logs could not be parsed/);
  await expect(page.getByTestId("bundle").getByText("2 warnings")).toBeVisible();
  await screenshot(page, info, "truncated-archive-warning");
});
