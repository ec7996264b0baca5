/**
 * `npm start` refuses to start with a token too short to protect anything, saying why. (PATH is
 * emptied so that, were the check missing, the script would fail at once instead of building.)
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

describe("start with a short token", () => {
  it("exits 1 with the reason before doing anything", () => {
    const r = spawnSync(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), path.join(root, "scripts/start.ts")], {
      cwd: root,
      env: { NODE_ENV: "production", PATH: "", HOME: process.env.HOME, BOOTLINE_AUTH_TOKEN: "abc", DATABASE_URL: "postgresql://127.0.0.1:1/none" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "bootline: not starting: BOOTLINE_AUTH_TOKEN is 3 characters long; it must have at least 16 (for example the output of: openssl rand -base64 24)",
    );
    expect(r.stdout).not.toContain("building");
  });
});
