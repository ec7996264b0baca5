import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests in Debian's Chromium (Playwright cannot download browsers here).
 * The app under test is started by `webServer` on E2E_PORT with the database the test
 * runner (scripts/test-all.ts) created; set E2E_BASE_URL to test a running app instead.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  timeout: 120_000,
  expect: { timeout: 30_000 },
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    timezoneId: "UTC",
    locale: "en-US",
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        // bootline's own server, as `npm start` runs it; the tests stand for a proxy on the
        // loopback that names its clients (X-Forwarded-For), so the throttle tells them apart
        command: "npx tsx scripts/serve.ts",
        env: { PORT: String(port), HOST: "127.0.0.1", BOOTLINE_TRUSTED_PROXIES: "127.0.0.1" },
        url: `${baseURL}/api/health`,
        timeout: 120_000,
        reuseExistingServer: false,
        stdout: "pipe",
        stderr: "pipe",
      },
});
