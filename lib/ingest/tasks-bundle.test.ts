import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript module without types (the worker entry loads it outside any loader)
import { bundledTasks, buildTasks } from "./tasks-bundle.mjs";

const dir = mkdtempSync(path.join(os.tmpdir(), "bootline-tasks-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the ingest threads' bundle", () => {
  it("is built once and then reused while its inputs are unchanged, and holds the tasks", async () => {
    const out = await buildTasks(dir, "test");
    const built = statSync(out).mtimeMs;
    const url = await bundledTasks("test", dir);
    expect(fileURLToPath(url)).toBe(out);
    expect(statSync(out).mtimeMs).toBe(built);
    const { TASKS } = (await import(url)) as { TASKS: Record<string, unknown> };
    const { TASKS: source } = await import("./ingest-tasks");
    expect(Object.keys(TASKS).sort()).toEqual(Object.keys(source).sort());
    expect(Object.values(TASKS).every((t) => typeof t === "function")).toBe(true);
  });
});
