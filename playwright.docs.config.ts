import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * `npm run screenshots`: the README's pictures (e2e/screenshots.docs.ts), with the end-to-end
 * tests' browser and app settings; the test run (playwright.config.ts) does not match this file.
 */
export default defineConfig({ ...base, testMatch: /screenshots\.docs\.ts$/ });
