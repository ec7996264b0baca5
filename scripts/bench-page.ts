/**
 * The boot page in Chromium for `npm run bench` (scripts/bench.ts): starts the built app
 * (`next start`, the build in NEXT_DIST_DIR or .next) on a free port against `databaseUrl`, opens
 * the boot timeline `pagePath` in Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium)
 * through Playwright, and times, from the navigation's start, until the page shows its lanes
 * with their counts (every lane row's total is in: `[data-testid=lane-total]` on each row).
 * Each run is a fresh browser context (no cache); the first run, cold, is included.
 *
 * Returns `{ lanesMs: { median, p95, runs } }` (ms), or `{ skipped: reason }` when there is no
 * build or no Chromium. The server is stopped before it returns.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export type PageBench = { lanesMs: { median: number; p95: number; runs: number }; url: string } | { skipped: string };

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: +q(0.5).toFixed(0), p95: +q(0.95).toFixed(0), runs: xs.length };
}

/** A TCP port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      s.close(() => (a && typeof a === "object" ? resolve(a.port) : reject(new Error("no port"))));
    });
  });
}

/** See the module comment. `root`: the repository; `runs`: page loads (default 5); `port`: the app's (default: a free one). */
export async function benchPage(opts: {
  root: string;
  databaseUrl: string;
  pagePath: string;
  runs?: number;
  port?: number;
  log: (s: string) => void;
}): Promise<PageBench> {
  const distDir = process.env.NEXT_DIST_DIR ?? ".next";
  if (!existsSync(path.join(opts.root, distDir, "BUILD_ID"))) return { skipped: `no build in ${distDir} (npx next build)` };
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) return { skipped: `no Chromium at ${chromium}` };
  const port = opts.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  opts.log(`page: starting the app on ${base}`);
  const server = spawn("npx", ["next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: opts.root,
    env: { ...process.env, DATABASE_URL: opts.databaseUrl, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const stop = () => {
    try {
      if (server.pid) process.kill(-server.pid, "SIGTERM");
    } catch {}
  };
  try {
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`the app ended (code ${server.exitCode}) before it answered`);
      const ok = await fetch(`${base}/api/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (i > 240) throw new Error("the app did not answer /api/health within 120 s");
      await new Promise((r) => setTimeout(r, 500));
    }
    const { chromium: pw } = await import("@playwright/test");
    const browser = await pw.launch({
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"],
    });
    try {
      const times: number[] = [];
      for (let i = 0; i < (opts.runs ?? 5); i++) {
        const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: "UTC" });
        const page = await ctx.newPage();
        const t = performance.now();
        await page.goto(`${base}${opts.pagePath}`, { waitUntil: "commit" });
        // every lane row has its count: the density of the view is in and drawn
        await page.waitForFunction(
          () => {
            const rows = [...document.querySelectorAll('[data-testid^="lane-"][data-lane]')];
            return rows.length > 0 && rows.every((r) => r.hasAttribute("data-total"));
          },
          null,
          { timeout: 120_000, polling: 20 },
        );
        times.push(performance.now() - t);
        await ctx.close();
      }
      opts.log(`page: lanes shown after ${times.map((x) => Math.round(x)).join(", ")} ms`);
      return { lanesMs: stats(times), url: opts.pagePath };
    } finally {
      await browser.close();
    }
  } finally {
    stop();
  }
}
