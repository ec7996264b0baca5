/**
 * Review, compare and share timelines, on the two-boots scenario (the Calico
 * nodename race on boot 2 of the node, a healthy boot 3): search and filters narrow the
 * events table, j/k and Enter open events, a finding's evidence is highlighted; the
 * Markdown export holds the findings and links that open the right view; the PNG and SVG
 * of the view download; a note survives a reload and reaches the export; a pasted link
 * unfurls (Open Graph); the compare page stacks two boots, each from its own T+0.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { seedIncident, twoBootsBundle } from "./fixtures";
import { assertLocalBaseURL, screenshot, timelinePage, uniqueTitle } from "./pages";

interface TNodeBoot {
  id: number;
  bootKey: string;
  startMs: number;
  index: number;
}
interface TIncident {
  id: string;
  title: string;
  nodes: Array<{ name: string; boots: TNodeBoot[] }>;
  findings: Array<{
    id: number;
    detector: string;
    nodeName: string;
    bootKey: string;
    startMs: number;
    endMs: number | null;
    evidenceCount: number;
    metrics: Record<string, unknown>;
  }>;
}

let inc: TIncident;
let node: string;
let boot: TNodeBoot;
let win: TIncident["findings"][number];

const tPlus = (ms: number) => `T+${((ms - boot.startMs) / 1000).toFixed(3)}s`;
const bootUrl = (qs = "") => `/i/${inc.id}/n/${encodeURIComponent(node)}/b/${boot.bootKey}${qs}`;

test.beforeAll(async ({ baseURL, request }, info) => {
  assertLocalBaseURL(baseURL);
  test.setTimeout(180_000);
  const id = await seedIncident(request, await twoBootsBundle(), uniqueTitle(info, "review"));
  inc = (await (await request.get(`/api/incidents/${id}`)).json()) as TIncident;
  win = inc.findings.find((f) => f.detector === "sandbox-failure-window")!;
  node = win.nodeName;
  boot = inc.nodes.find((n) => n.name === node)!.boots.find((b) => b.bootKey === win.bootKey)!;
});

test.afterAll(async ({ request }) => {
  if (inc) await request.delete(`/api/incidents/${inc.id}`);
});

/** The events table has settled (no placeholder rows, nothing loading). */
async function settled(page: Page) {
  await expect(page.getByTestId("events-table")).toHaveAttribute("aria-busy", "false");
}

/** Column `i` (0-based) of every loaded row. */
async function column(page: Page, i: number): Promise<string[]> {
  return page.getByTestId("event-row").evaluateAll((rows, k) => rows.map((r) => (r.querySelectorAll('[role="cell"]')[k] as HTMLElement).innerText), i);
}

/** Clicks a download button and keeps the file: pictures in e2e/screenshots, the rest with the test's output. */
async function saveDownload(page: Page, testId: string, info: TestInfo, name: string): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testId).click()]);
  const target = name.endsWith(".png") ? path.join(info.project.testDir, "screenshots", name) : info.outputPath(name);
  await download.saveAs(target);
  return readFile(target);
}

test("search narrows the rows; lane, severity, pod and kind filters; j/k and Enter open events; a finding's evidence is highlighted", async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  // from the incident page, a finding opens its window with the finding selected
  await page.goto(`/i/${inc.id}`);
  await page.getByTestId("finding").filter({ hasText: "sandbox-failure-window" }).getByRole("link", { name: "open in timeline" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]finding=${win.id}(&|$)`));
  const tl = timelinePage(page);
  await tl.expectFindingBand(tPlus(win.startMs), tPlus(win.endMs!));
  await expect(page.getByTestId("evidence-note")).toContainText(`${win.evidenceCount} events`);
  await settled(page);
  const evidenceRows = page.locator('[data-testid="event-row"][data-evidence="true"]');
  await expect(evidenceRows.first()).toBeVisible();
  expect(await evidenceRows.count()).toBeGreaterThan(5);
  await expect(page.locator(`[data-testid="finding"][data-finding-id="${win.id}"]`)).toHaveAttribute("aria-current", "true");
  await screenshot(page, info, "review-evidence");

  // the whole boot, then a search: the count and the rows narrow, the URL carries it
  await page.goto(bootUrl());
  await settled(page);
  const count = page.getByTestId("events-count");
  await expect(count).toHaveText(/^[\d,]+ events$/);
  const total = Number(await count.getAttribute("data-total"));
  await page.getByTestId("events-search").fill("nodename");
  await expect(page).toHaveURL(/[?&]q=nodename/);
  await expect(count).toHaveText(new RegExp(`^[\\d,]+ of ${total.toLocaleString("en-US")}$`));
  await settled(page);
  const matching = Number(await count.getAttribute("data-matching"));
  expect(matching).toBeGreaterThan(0);
  expect(matching).toBeLessThan(total);
  // every row shown matches (the table is virtualised: the rows in the DOM)
  const hits = await tl.rows().evaluateAll((rows) => rows.map((r) => r.textContent ?? ""));
  expect(hits.length).toBeGreaterThan(0);
  expect(hits.length).toBeLessThanOrEqual(matching);
  for (const h of hits) expect(h.toLowerCase()).toContain("nodename");
  await screenshot(page, info, "review-search");

  // kind: only failed sandbox attempts that mention the nodename
  await page.getByTestId("filter-kind").selectOption("sandbox.create.failed");
  await expect(page).toHaveURL(/[?&]kind=sandbox\.create\.failed/);
  await settled(page);
  expect(new Set(await column(page, 5))).toEqual(new Set(["sandbox.create.failed"]));
  // pod: one pod's attempts (the first row's pod)
  const pod = (await column(page, 4)).find((p) => p.includes("/"))!;
  await page.getByTestId("filter-pod").fill(pod);
  await expect(page).toHaveURL(new RegExp(`[?&]pod=${encodeURIComponent(pod).replace(/%2F/g, "(/|%2F)")}`));
  await settled(page);
  expect(new Set(await column(page, 4))).toEqual(new Set([pod]));
  // lane and severity: the kubelet's errors
  await page.getByTestId("filter-lane").selectOption("kubelet");
  await expect(page).toHaveURL(/[?&]lanes=kubelet(&|$)/);
  await page.getByTestId("filter-sev").selectOption("3");
  await expect(page).toHaveURL(/[?&]sev=3/);
  await settled(page);
  const lanes = await tl
    .rows()
    .locator(".ev-lane")
    .evaluateAll((els) => els.map((e) => e.getAttribute("title") ?? ""));
  expect(lanes.length).toBeGreaterThan(0);
  for (const l of lanes) expect(l.startsWith("kubelet /")).toBe(true);
  expect(new Set((await column(page, 3)).map((s) => s.toLowerCase()))).toEqual(new Set(["error"]));
  await screenshot(page, info, "review-filters");

  // j/k move the cursor, Enter opens the event under it, Escape closes it
  await page.getByRole("button", { name: "clear filters" }).click();
  await expect(page).not.toHaveURL(/[?&](q|pod|kind|sev|lanes)=/);
  await settled(page);
  await page.locator("body").click({ position: { x: 5, y: 5 } });
  const ids = await tl.rows().evaluateAll((rows) => rows.slice(0, 3).map((r) => r.getAttribute("data-event-id")));
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("k");
  await expect(page.locator('[data-testid="event-row"][aria-current="true"]')).toHaveAttribute("data-event-id", ids[1]!);
  await expect(page).not.toHaveURL(/[?&]ev=/);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`[?&]ev=${ids[1]}(&|$)`));
  await expect(page.getByTestId("event-detail")).toContainText(`event ${ids[1]}`);
  await page.keyboard.press("Escape");
  await expect(page).not.toHaveURL(/[?&]ev=/);
  await expect(page.getByTestId("event-detail")).toHaveCount(0);
});

test("the Markdown export holds the findings with working permalinks; the view downloads as PNG and SVG", async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const res = await request.get(`/api/incidents/${inc.id}/export.md`);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
  const md = await res.text();
  expect(md).toContain("## Nodes and boots");
  expect(md).toContain("## Findings");
  expect(md).toContain(`sandbox-failure-window`);
  // pasted as plain text it shows no backslash before a hyphen, dot or plus sign
  expect(md).not.toMatch(/\\[-.+]/);
  expect(md).toContain(`- **Window:** `);
  expect(md).toContain(`(${tPlus(win.startMs)}) → `);
  expect(md).toContain(`  - failed attempts: ${win.metrics.attempts}\n  - pods: ${win.metrics.pods}\n`);
  // the window's cause: what it means, what to do, with its public reports and fixes
  expect(md).toContain("- **Cause:** Calico nodename not written yet.");
  const appOrigin = /\*\*Incident:\*\* \[[^\]]*\]\((https?:\/\/[^/]+)\//.exec(md)![1];
  // every link to the app is absolute and answers (the causes' public reports point elsewhere)
  const links = [...md.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1]).filter((l) => l.startsWith(appOrigin));
  expect(links.length).toBeGreaterThan(inc.findings.length);
  for (const l of new Set(links)) expect((await request.get(l)).status(), l).toBe(200);
  // the finding's permalink opens its window with its evidence highlighted
  const link = links.find((l) => l.includes(`finding=${win.id}`))!;
  expect(link).toBeTruthy();
  await page.goto(link);
  const tl = timelinePage(page);
  await tl.expectFindingBand(tPlus(win.startMs), tPlus(win.endMs!));
  const u = new URL(link);
  expect(await tl.visibleRange()).toEqual({ from: Date.parse(u.searchParams.get("from")!), to: Date.parse(u.searchParams.get("to")!) });
  await expect(page.getByTestId("evidence-note")).toBeVisible();
  await settled(page);
  await expect(page.locator('[data-testid="event-row"][data-evidence="true"]').first()).toBeVisible();

  // the buttons: the same Markdown, and pictures of this view
  const mdFile = (await saveDownload(page, "export-md", info, "export.md")).toString("utf8");
  expect(mdFile.split("\n").slice(4)).toEqual(md.split("\n").slice(4)); // line 3 holds the export time
  const png = await saveDownload(page, "export-png", info, "review-export-picture.png");
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  const svg = (await saveDownload(page, "export-svg", info, "review-export.svg")).toString("utf8");
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1200" height="630"/);
  expect(svg).toContain(`failure window ${tPlus(win.startMs)} → ${tPlus(win.endMs!)}`);
  expect(svg).toContain(`boot ${boot.index} of `);
  await screenshot(page, info, "review-export");
});

test("a note pinned to an event and one pinned to a time survive a reload and reach the export", async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const text = `e2e note ${Date.now().toString(36)}: <b>calico</b> *not* ready`;
  await page.goto(bootUrl(`?from=${new Date(win.startMs - 2000).toISOString()}&to=${new Date(win.endMs! + 2000).toISOString()}`));
  const tl = timelinePage(page);
  await settled(page);
  // pin to the selected event
  const row = tl.rows().nth(2);
  const eventId = (await row.getAttribute("data-event-id"))!;
  await row.click();
  await expect(page).toHaveURL(new RegExp(`[?&]ev=${eventId}`));
  await page.getByTestId("note-input").fill(text);
  await expect(page.getByText(`pin to event ${eventId}`)).toBeVisible();
  await page.getByTestId("note-save").click();
  await expect(page.getByTestId("note-text").filter({ hasText: text })).toHaveCount(1);
  // pin to a time picked on the chart's notes row (the middle of the view)
  const notesRow = page.getByTestId("notes-row");
  const box = (await notesRow.boundingBox())!;
  await notesRow.click({ position: { x: box.width / 2, y: box.height / 2 } });
  const { from, to } = await tl.visibleRange();
  const offset = Number(await page.getByTestId("note-offset").inputValue());
  expect(Math.abs(boot.startMs + offset * 1000 - (from + to) / 2)).toBeLessThan((to - from) / 50);
  await page.getByTestId("note-input").fill("second note, at a time");
  await page.getByTestId("note-save").click();
  await expect(page.getByTestId("note")).toHaveCount(2);
  await expect(page.getByTestId("note-marker")).toHaveCount(2);

  await page.reload();
  await expect(page.getByTestId("note")).toHaveCount(2);
  await expect(page.getByTestId("note-text").first()).toHaveText(text);
  await expect(page.getByTestId("note").first()).toContainText(`event ${eventId}`);
  await expect(page.getByTestId("note-marker")).toHaveCount(2);
  // a note's text stays text
  expect(await page.locator("[data-testid=notes-panel] b:text('calico')").count()).toBe(0);
  await screenshot(page, info, "review-notes");

  const md = await (await request.get(`/api/incidents/${inc.id}/export.md`)).text();
  expect(md).toContain("## Notes");
  expect(md).toContain(`\\<b>calico\\</b> \\*not\\* ready`);
  expect(md).toContain(`[event ${eventId}](`);
  expect(md).toContain("second note, at a time");
});

test("a pasted timeline link unfurls: og:title, og:description with the window's numbers, og:image of the view", async ({ request }) => {
  const qs = `?from=${new Date(win.startMs - 2000).toISOString()}&to=${new Date(win.endMs! + 2000).toISOString()}`;
  const html = await (await request.get(bootUrl(qs), { headers: { "user-agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" } })).text();
  const head = html.split("</head>")[0];
  const meta = (p: string) => new RegExp(`<meta property="${p}" content="([^"]*)"`).exec(head)?.[1]?.replace(/&amp;/g, "&") ?? null;
  expect(meta("og:title")).toBe(`${inc.title} · ${node} · boot ${boot.index} of ${inc.nodes.find((n) => n.name === node)!.boots.length}`);
  expect(meta("og:description")).toContain(`Sandbox failure window ${tPlus(win.startMs)} → ${tPlus(win.endMs!)}`);
  expect(meta("og:description")).toContain(`${win.metrics.attempts} attempts, ${win.metrics.pods} pods`);
  const image = meta("og:image")!;
  expect(image).toMatch(
    new RegExp(`^https?://[^/]+/api/incidents/${inc.id}/boots/${boot.id}/timeline\\.png\\?from=${win.startMs - 2000}&to=${win.endMs! + 2000}$`),
  );
  const png = await request.get(image);
  expect(png.status()).toBe(200);
  expect(png.headers()["content-type"]).toBe("image/png");
  expect(head).toContain('<meta name="twitter:card" content="summary_large_image"/>');
});

test("the compare page stacks two boots, each from its own T+0, failure window shaded, zoom in the URL", async ({ page }, info) => {
  test.setTimeout(120_000);
  const bootsOfNode = inc.nodes.find((n) => n.name === node)!.boots;
  const other = bootsOfNode.find((b) => b.id !== boot.id && b.index > boot.index) ?? bootsOfNode.find((b) => b.id !== boot.id)!;
  await page.goto(`/i/${inc.id}`);
  await page.locator(`[data-testid="boot-row"][data-boot="${boot.bootKey}"] [data-testid="compare-check"]`).check();
  await page.locator(`[data-testid="boot-row"][data-boot="${other.bootKey}"] [data-testid="compare-check"]`).check();
  await page.getByTestId("compare-selected").click();
  await expect(page).toHaveURL(new RegExp(`/i/${inc.id}/compare\\?boots=${boot.id},${other.id}$`));
  await expect(page.getByTestId("compare-title")).toHaveText("2 boots compared, each from its own T+0");
  const blocks = page.getByTestId("compare-boot");
  await expect(blocks).toHaveCount(2);
  await expect(blocks.nth(0)).toHaveAttribute("data-boot-id", String(boot.id));
  await expect(blocks.nth(0)).toContainText(`boot ${boot.index} of ${bootsOfNode.length}`);
  await expect(blocks.nth(1)).toContainText(`boot ${other.index} of ${bootsOfNode.length}`);
  // boot 2's failure window is shaded at its T+ offsets; boot 3 has none
  const band = blocks.nth(0).getByTestId("compare-window");
  await expect(band).toHaveCount(1);
  await expect(band).toHaveAttribute("data-start", String(win.startMs - boot.startMs));
  await expect(blocks.nth(0).getByTestId("compare-window-summary")).toContainText(`failure window ${tPlus(win.startMs)} → ${tPlus(win.endMs!)}`);
  await expect(blocks.nth(1).getByTestId("compare-window")).toHaveCount(0);
  // both boots have density lanes with events, once their lanes are in (loading… until then)
  for (const b of [0, 1]) {
    await expect(blocks.nth(b)).toHaveAttribute("data-status", "ready");
    await expect(blocks.nth(b).getByTestId("compare-boot-loading")).toHaveCount(0);
    const totals = await blocks
      .nth(b)
      .locator(".compare-lane")
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-total"))));
    expect(totals.reduce((x, y) => x + y, 0)).toBeGreaterThan(0);
  }
  await screenshot(page, info, "compare");

  // zoom onto the failure windows: T+ seconds in the URL, both boots follow
  await page.getByRole("button", { name: "failure windows" }).click();
  await expect(page).toHaveURL(/[?&]from=-?[\d.]+&to=[\d.]+/);
  const range = page.getByTestId("compare-range");
  const from = Number(await range.getAttribute("data-from"));
  const to = Number(await range.getAttribute("data-to"));
  expect(from).toBeLessThan(win.startMs - boot.startMs);
  expect(to).toBeGreaterThan(win.endMs! - boot.startMs);
  await expect(blocks.nth(0).getByRole("link", { name: "open timeline" })).toHaveAttribute(
    "href",
    new RegExp(`from=${new Date(boot.startMs + from).toISOString().replace(/\./, "\\.")}`),
  );
  await screenshot(page, info, "compare-zoomed");
});

test("the incident list keeps up: a new incident shows on Back, a row deletes after a confirm, a failed upload is dismissed with its incident", async ({
  page,
  request,
}, info) => {
  await page.goto("/");
  const rows = page.getByTestId("incident-row");
  await expect(rows.filter({ hasText: inc.title })).toHaveCount(1);
  await rows.filter({ hasText: inc.title }).getByRole("link").click();
  await page.waitForURL(new RegExp(`/i/${inc.id}$`));
  // the healthy boot says what was checked and found
  await expect(page.getByTestId("healthy-boot").first()).toContainText("sandbox failure window: none; failed sandbox attempts: 0; milestones seen:");
  // an incident made elsewhere meanwhile (an API upload) is on the list after Back, with no reload
  const other = await seedIncident(request, await twoBootsBundle(), uniqueTitle(info, "keeps up"));
  const otherTitle = ((await (await request.get(`/api/incidents/${other}`)).json()) as { title: string }).title;
  await page.goBack();
  await expect(rows.filter({ hasText: otherTitle })).toHaveCount(1);
  // delete it from the list: asked first, gone from the list and the API
  page.once("dialog", (d) => void d.accept());
  await rows
    .filter({ hasText: otherTitle })
    .getByRole("button", { name: `delete incident ${otherTitle}` })
    .click();
  await expect(rows.filter({ hasText: otherTitle })).toHaveCount(0);
  expect((await request.get(`/api/incidents/${other}`)).status()).toBe(404);

  // a bundle nothing can be read from fails; "dismiss" deletes the incident it started
  const failedTitle = uniqueTitle(info, "failed upload");
  await page
    .getByTestId("upload-files")
    .setInputFiles({ name: "broken.tar.gz", mimeType: "application/gzip", buffer: Buffer.from("\x1f\x8b\x08\x00 not really gzip") });
  await page.getByLabel("Incident title").fill(failedTitle);
  await page.getByRole("button", { name: "Upload and parse" }).click();
  const error = page.getByTestId("upload-error");
  await expect(error).toBeVisible({ timeout: 60_000 });
  await expect(rows.filter({ hasText: failedTitle })).toHaveCount(1);
  page.once("dialog", (d) => void d.accept());
  await page.getByTestId("upload-dismiss").click();
  await expect(error).toHaveCount(0);
  await expect(rows.filter({ hasText: failedTitle })).toHaveCount(0);
});

test("the picture of a view comes light for white pages with theme=light, dark by default", async ({ request }) => {
  const base = `/api/incidents/${inc.id}/boots/${boot.id}/timeline`;
  const light = await request.get(`${base}.svg?theme=light`);
  expect(light.status()).toBe(200);
  expect(await light.text()).toContain('<rect width="1200" height="630" fill="#ffffff"/>');
  expect(await (await request.get(`${base}.svg`)).text()).toContain('<rect width="1200" height="630" fill="#0f1115"/>');
  const png = await request.get(`${base}.png?theme=light`);
  expect(png.headers()["content-type"]).toBe("image/png");
  expect((await png.body()).subarray(1, 4).toString("latin1")).toBe("PNG");
});
