/**
 * Upload a reboot log bundle and see its node boot timeline with the sandbox failure
 * window: upload through the page, wait for parsing, open the node boot, see the shaded
 * window with its start and end, zoom (the URL changes), and reopen the copied permalink
 * in a new page to the same view.
 */
import { expect, test } from "@playwright/test";
import { calicoBundle, seedIncident, twoBootsBundle } from "./fixtures";
import { assertLocalBaseURL, incidentPage, screenshot, timelinePage, uniqueTitle, uploadPage } from "./pages";

interface ReportFinding {
  detector: string;
  node: string;
  bootId: string;
  bootStart: string;
  start: string;
  end: string | null;
}

const tPlus = (ms: number, t0: number) => `T+${((ms - t0) / 1000).toFixed(3)}s`;

test.beforeAll(({ baseURL }) => assertLocalBaseURL(baseURL));

test("upload a bundle, read the failure window on the node boot timeline, zoom and reopen the permalink", async ({ page, context, request }, info) => {
  test.setTimeout(180_000);
  const title = uniqueTitle(info, "calico");
  const bundle = await calicoBundle();

  // 1. upload through the page and wait for the parse to finish
  const upload = uploadPage(page);
  await upload.open();
  await screenshot(page, info, "upload");
  await upload.upload(bundle, title);
  await expect(page.getByTestId("upload-progress").or(page.getByTestId("parse-progress")).first()).toBeVisible();
  const incidentId = await upload.waitForIncident();

  // 2. the incident page lists the node, its boots and the finding
  const incident = incidentPage(page);
  await expect(incident.title()).toHaveText(title);
  await expect(page.getByTestId("finding").filter({ hasText: "sandbox-failure-window" }).first()).toBeVisible();
  await screenshot(page, info, "incident");

  // the expected window, from the incident's JSON report (ISO times, boot T+0)
  const res = await request.get(`/api/incidents/${incidentId}/report`);
  expect(res.ok()).toBeTruthy();
  const report = (await res.json()) as { findings: ReportFinding[] };
  const win = report.findings.find((f) => f.detector === "sandbox-failure-window");
  expect(win, "the calico bundle has a sandbox failure window").toBeTruthy();
  const t0 = Date.parse(win!.bootStart);
  const start = Date.parse(win!.start);
  const end = win!.end ? Date.parse(win!.end) : null;

  // 3. open the node boot timeline: the window is shaded with its start and end
  await incident.openBoot(win!.node, win!.bootId);
  const tl = timelinePage(page);
  await tl.expectFindingBand(tPlus(start, t0), end === null ? "open" : tPlus(end, t0));
  await expect(page.getByTestId("crumb-node")).toHaveText(win!.node);
  for (const lane of ["kernel", "runtime", "kubelet", "cni-plugin", "cni-agent", "events"]) await expect(page.getByTestId(`lane-${lane}`)).toBeVisible();
  await expect(tl.rows().first()).toBeVisible();
  await screenshot(page, info, "timeline");

  // 4. zoom onto the window by dragging across the lanes: the URL carries the range
  const before = page.url();
  const zoomFrom = start - 2_000;
  const zoomTo = (end ?? start + 10_000) + 2_000;
  await tl.zoomTo(zoomFrom, zoomTo);
  expect(page.url()).not.toBe(before);
  const zoomed = await tl.visibleRange();
  expect(Math.abs(zoomed.from - zoomFrom)).toBeLessThan(500);
  expect(Math.abs(zoomed.to - zoomTo)).toBeLessThan(500);
  await tl.expectFindingBand(tPlus(start, t0), end === null ? "open" : tPlus(end, t0));
  // the events table follows the range
  await expect(page.getByTestId("events-table")).toHaveAttribute("aria-busy", "false");
  await expect(tl.rows().first()).toBeVisible();
  const firstT = Number((await tl.rows().first().locator('[role="cell"]').nth(1).innerText()).replace("+", ""));
  expect(t0 + firstT * 1000).toBeGreaterThanOrEqual(zoomed.from - 1);
  expect(t0 + firstT * 1000).toBeLessThan(zoomed.to);

  // select an event: it shows its source file and line, and joins the URL
  await tl.rows().nth(1).click();
  await expect(page).toHaveURL(/[?&]ev=\d+/);
  await expect(page.getByTestId("event-source")).toContainText(/:\d+(-\d+)?$/);
  // its raw line(s), read back from the stored source file, with the record's lines marked
  await expect(page.getByTestId("event-raw").locator("span.own").first()).toBeVisible();
  const source = await page.getByTestId("event-source").innerText();
  await screenshot(page, info, "timeline-zoomed");

  // zoom out changes the URL too; Back returns to the zoomed view
  const zoomedUrl = page.url();
  await tl.zoomOut();
  await expect(page).not.toHaveURL(zoomedUrl);
  await page.goBack();
  await expect(page).toHaveURL(zoomedUrl);

  // 5. copy the link and open it in a new page: same range, same window, same event
  const link = await tl.copyLink();
  expect(link).toContain("from=");
  const other = await context.newPage();
  await other.goto(link);
  const tl2 = timelinePage(other);
  await tl2.expectFindingBand(tPlus(start, t0), end === null ? "open" : tPlus(end, t0));
  expect(await tl2.visibleRange()).toEqual(zoomed);
  expect(await other.getByTestId("visible-range").innerText()).toBe(await page.getByTestId("visible-range").innerText());
  await expect(other.getByTestId("event-source")).toHaveText(source);
  await expect(other.locator('[data-testid="event-row"][aria-selected="true"]')).toHaveCount(1);
  await screenshot(other, info, "permalink");

  // a damaged permalink still opens, with the defaults
  await other.goto(`${new URL(link).pathname}?from=yesterday&to=2026-99-99&lanes=nope&sev=x&ev=1e9`);
  await expect(other.getByTestId("lane-kubelet")).toBeVisible();
  await tl2.expectFindingBand(tPlus(start, t0), end === null ? "open" : tPlus(end, t0));
});

test("the upload panel explains what is missing", async ({ page }) => {
  const upload = uploadPage(page);
  await upload.open();
  await page.getByRole("button", { name: "Upload and parse" }).click();
  await expect(upload.error()).toContainText("choose at least one file");
});

test("a link to an event far into the boot opens with the events table scrolled to it", async ({ page, request }, info) => {
  test.setTimeout(180_000);
  const incidentId = await seedIncident(request, await calicoBundle(), uniqueTitle(info, "deep-event"));
  const report = (await (await request.get(`/api/incidents/${incidentId}/report`)).json()) as { findings: ReportFinding[] };
  const win = report.findings.find((f) => f.detector === "sandbox-failure-window")!;
  await page.goto(`/i/${incidentId}`);
  // the table's own first request names the boot's events endpoint
  const first = page.waitForRequest((r) => /\/boots\/\d+\/events\?/.test(r.url()));
  await incidentPage(page).openBoot(win.node, win.bootId);
  const api = new URL((await first).url());
  // the last event of the boot's second page or later (past the rows the table loads first)
  let cursor: string | null = null;
  let rows: Array<{ id: string }> = [];
  let pages = 0;
  do {
    if (cursor) api.searchParams.set("cursor", cursor);
    const next = (await (await request.get(api.pathname + api.search)).json()) as { events: Array<{ id: string }>; nextCursor: string | null };
    rows = next.events;
    cursor = next.nextCursor;
    pages++;
  } while (cursor && pages < 3);
  expect(pages, "the boot has more than one page of events").toBeGreaterThanOrEqual(2);
  const deep = rows[rows.length - 1].id;
  await page.goto(`${new URL(page.url()).pathname}?ev=${deep}`);
  const selected = page.locator('[data-testid="event-row"][aria-selected="true"]');
  await expect(selected).toHaveCount(1, { timeout: 20_000 });
  await expect(selected).toHaveAttribute("data-event-id", deep);
  // in the window (the page scrolled down to the table), inside the table's own scroll area
  await expect(selected).toBeInViewport();
  const [box, area] = await Promise.all([selected.boundingBox(), page.locator(".ev-scroll").boundingBox()]);
  expect(box!.y).toBeGreaterThanOrEqual(area!.y);
  expect(box!.y + box!.height).toBeLessThanOrEqual(area!.y + area!.height);
  await screenshot(page, info, "deep-event");
});

/** The lane totals the chart states for the visible range, once it has them: lane → [count text, data-total]. */
async function laneTotals(page: import("@playwright/test").Page): Promise<Record<string, [string, string | null]>> {
  await expect(page.getByTestId("lanes-chart")).toHaveAttribute("data-ready", "true");
  const out: Record<string, [string, string | null]> = {};
  for (const lane of await page.locator('[data-testid^="lane-"][data-lane]').all()) {
    const name = (await lane.getAttribute("data-lane"))!;
    const text = (await lane.getByTestId("lane-total").count()) ? await lane.getByTestId("lane-total").innerText() : "";
    out[name] = [text, await lane.getAttribute("data-total")];
  }
  return out;
}

test("lane counts after a drag-zoom equal those after a reload of the same URL", async ({ page, request }, info) => {
  test.setTimeout(180_000);
  const incidentId = await seedIncident(request, await calicoBundle(), uniqueTitle(info, "drag-counts"));
  const report = (await (await request.get(`/api/incidents/${incidentId}/report`)).json()) as { findings: ReportFinding[] };
  const win = report.findings.find((f) => f.detector === "sandbox-failure-window")!;
  await page.goto(`/i/${incidentId}`);
  await incidentPage(page).openBoot(win.node, win.bootId);
  const tl = timelinePage(page);
  const whole = await laneTotals(page);
  expect(Object.values(whole).some(([, n]) => Number(n) > 0)).toBe(true);

  // drag across the window; the pointer stays over the lanes afterwards
  const start = Date.parse(win.start);
  const end = win.end ? Date.parse(win.end) : start + 10_000;
  await tl.zoomTo(start - 1_000, end + 1_000);
  const dragged = await laneTotals(page);
  expect(Object.values(dragged).some(([, n]) => Number(n) > 0)).toBe(true);
  // a hover over the lanes shows the bucket under the cursor in its own label, not in the lane counts
  await expect(page.getByTestId("crosshair-label")).toContainText("events in this");
  expect(await laneTotals(page)).toEqual(dragged);

  await page.reload();
  expect(await laneTotals(page)).toEqual(dragged);
  // and the zoom buttons agree with the API's density of the same range
  const { from, to } = await tl.visibleRange();
  const bootId = (await page.locator("[data-testid=export-png]").getAttribute("href"))!.match(/\/boots\/(\d+)\//)![1];
  const density = (await (await request.get(`/api/incidents/${incidentId}/boots/${bootId}/density?from=${from}&to=${to}&buckets=300`)).json()) as {
    lanes: Array<{ lane: string; total: number }>;
  };
  for (const l of density.lanes) if (dragged[l.lane]) expect(dragged[l.lane][1], l.lane).toBe(String(l.total));
});

test("a pod search and a pod filter on a large boot give exact counts", async ({ page, request }, info) => {
  test.setTimeout(300_000);
  // a Calico storm of 25 pods over 700 s: about 70,000 events in one boot, some 1,700 per pod,
  // more than one count request reads, so the count goes on in slices until it is exact
  const { bundleTarGz, generateScenario } = await import("../lib/sample/index");
  const { mkdtemp, writeFile } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const dir = await mkdtemp(path.join(tmpdir(), "bootline-e2e-"));
  const file = path.join(dir, "calico-storm.tar.gz");
  await writeFile(file, bundleTarGz(generateScenario("calico", { pods: 25, nodenameDelayS: 700, retryIntervalS: 2, seed: 11 })));
  const incidentId = await seedIncident(request, file, uniqueTitle(info, "pod-count"));
  const report = (await (await request.get(`/api/incidents/${incidentId}/report`)).json()) as { findings: ReportFinding[] };
  const win = report.findings.find((f) => f.detector === "sandbox-failure-window")!;

  await page.goto(`/i/${incidentId}`);
  const first = page.waitForRequest((r) => /\/boots\/\d+\/events\?/.test(r.url()));
  await incidentPage(page).openBoot(win.node, win.bootId);
  const api = new URL((await first).url());
  const base = api.pathname;
  const range = `from=${api.searchParams.get("from")}&to=${api.searchParams.get("to")}`;
  const count = page.getByTestId("events-count");
  await expect(count).toHaveAttribute("data-total", /\d+/);
  const total = Number(await count.getAttribute("data-total"));
  expect(total).toBeGreaterThan(50_000);

  // the pod with the most signal events
  const facets = (await (await request.get(`${base}/facets?${range}`)).json()) as { pods: Array<{ pod: string; n: number }> };
  const pod = facets.pods[0].pod;
  // its events, read page by page through the events API
  const eventsOf = async (param: string) => {
    let n = 0;
    let cursor: string | null = null;
    do {
      const r = (await (await request.get(`${base}?${range}&${param}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)).json()) as {
        events: unknown[];
        nextCursor: string | null;
      };
      n += r.events.length;
      cursor = r.nextCursor;
    } while (cursor);
    return n;
  };
  const bySearch = await eventsOf(`q=${encodeURIComponent(pod)}`);
  const byPod = await eventsOf(`pod=${encodeURIComponent(pod)}`);
  expect(byPod).toBeGreaterThan(1_000);
  // one count request does not cover the boot: the count stops at a bound and the table goes on
  const slice = (await (await request.get(`${base}/count?${range}&q=${encodeURIComponent(pod)}`)).json()) as { matching: number; scannedToMs?: number };
  expect(slice.scannedToMs).toBeDefined();
  expect(slice.matching).toBeLessThan(bySearch);

  // the search box: the count finishes, exact
  await page.getByTestId("events-search").fill(pod);
  await expect(count).toHaveAttribute("data-matching", String(bySearch), { timeout: 60_000 });
  await expect(count).toHaveText(`${bySearch.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}`);
  await screenshot(page, info, "pod-search-count");

  // the pod filter: exact in one request, and its rows at once
  await page.getByTestId("events-search").fill("");
  await page.getByTestId("filter-pod").fill(pod);
  await expect(count).toHaveAttribute("data-matching", String(byPod), { timeout: 30_000 });
  await expect(count).toHaveText(`${byPod.toLocaleString("en-US")} of ${total.toLocaleString("en-US")}`);
  const podCount = (await (await request.get(`${base}/count?${range}&pod=${encodeURIComponent(pod)}`)).json()) as {
    matching: number;
    capped: boolean;
    scannedToMs?: number;
  };
  expect(podCount).toEqual({ total, matching: byPod, capped: false });
  await expect(timelinePage(page).rows().first()).toBeVisible();
  await expect(timelinePage(page).rows().first().locator(".ev-pod")).toHaveText(pod);
});

test("keyboard zoom and pan on the focused lanes and whole-boot strip change the URL's range", async ({ page, request }, info) => {
  test.setTimeout(180_000);
  const incidentId = await seedIncident(request, await calicoBundle(), uniqueTitle(info, "keys"));
  const report = (await (await request.get(`/api/incidents/${incidentId}/report`)).json()) as { findings: ReportFinding[] };
  const win = report.findings.find((f) => f.detector === "sandbox-failure-window")!;
  await page.goto(`/i/${incidentId}`);
  await incidentPage(page).openBoot(win.node, win.bootId);
  const tl = timelinePage(page);
  const urlRange = () => {
    const u = new URL(page.url());
    return { from: u.searchParams.get("from"), to: u.searchParams.get("to") };
  };
  const whole = await tl.visibleRange();
  expect(urlRange()).toEqual({ from: null, to: null });

  const lanes = page.getByTestId("lanes-keys");
  await expect(lanes).toHaveAttribute("aria-label", /timeline lanes, showing T\+.* arrow keys pan, plus and minus zoom, 0 shows the whole boot/);
  await lanes.focus();
  // + halves the span around its middle
  await page.keyboard.press("+");
  await expect.poll(() => urlRange().from).not.toBeNull();
  const zoomed = await tl.visibleRange();
  expect(zoomed.to - zoomed.from).toBeLessThan((whole.to - whole.from) * 0.6);
  expect(Date.parse(urlRange().from!)).toBe(zoomed.from);
  expect(Date.parse(urlRange().to!)).toBe(zoomed.to);
  // → moves the view later by a quarter of its span, keeping the span
  await page.keyboard.press("ArrowRight");
  await expect.poll(async () => (await tl.visibleRange()).from).toBeGreaterThan(zoomed.from);
  const panned = await tl.visibleRange();
  expect(Math.abs(panned.to - panned.from - (zoomed.to - zoomed.from))).toBeLessThanOrEqual(2);
  expect(Date.parse(urlRange().from!)).toBe(panned.from);
  // ← on the whole-boot strip moves it back
  await page.getByTestId("overview-keys").focus();
  await page.keyboard.press("ArrowLeft");
  await expect.poll(async () => (await tl.visibleRange()).from).toBeLessThan(panned.from);
  // − widens it, 0 shows the whole boot again (no range in the URL)
  await lanes.focus();
  const before = await tl.visibleRange();
  await page.keyboard.press("-");
  await expect.poll(async () => ((r) => r.to - r.from)(await tl.visibleRange())).toBeGreaterThan(before.to - before.from);
  await page.keyboard.press("0");
  await expect.poll(urlRange).toEqual({ from: null, to: null });
  expect(await tl.visibleRange()).toEqual(whole);
});

test("a boot with no findings says what was checked on its timeline; the picture exports follow a light page", async ({ page, request }, info) => {
  test.setTimeout(180_000);
  const incidentId = await seedIncident(request, await twoBootsBundle(), uniqueTitle(info, "healthy"));
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`/i/${incidentId}`);
  // the incident page's healthy boot links to its timeline, which says the same
  const item = page.getByTestId("healthy-boot").first();
  const said = await item.innerText();
  expect(said).toContain("sandbox failure window: none; failed sandbox attempts: 0; milestones seen:");
  await item.getByRole("link").click();
  await page.waitForURL(/\/n\/[^/]+\/b\/[^/?]+/);
  const here = page.getByTestId("boot-healthy");
  await expect(here.getByRole("heading", { name: "Findings" })).toBeVisible();
  await expect(here.getByTestId("healthy-boot")).toHaveCount(1);
  expect(await here.getByTestId("healthy-boot").innerText()).toBe(said);
  // light page: light pictures; dark page: the default (dark)
  await expect(page.getByTestId("export-png")).toHaveAttribute("href", /[?&]theme=light(&|$)/);
  await expect(page.getByTestId("export-svg")).toHaveAttribute("href", /[?&]theme=light(&|$)/);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.getByTestId("export-png")).not.toHaveAttribute("href", /theme=/);
});
