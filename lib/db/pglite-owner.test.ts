/**
 * One process at a time in an embedded database folder: a live holder is named and refused, a
 * holder gone (a crash left its owner file) is taken over, and closing lets the folder go.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, openDb, pgliteDir, pgliteOwner } from "./connection";

const base = mkdtempSync(path.join(tmpdir(), "bootline-owner-"));
const before = process.env.BOOTLINE_DATA_DIR;
process.env.BOOTLINE_DATA_DIR = base;
afterAll(() => {
  if (before === undefined) delete process.env.BOOTLINE_DATA_DIR;
  else process.env.BOOTLINE_DATA_DIR = before;
  rmSync(base, { recursive: true, force: true });
});

describe("embedded database owner", () => {
  it("refuses a folder another live process holds, takes over one whose holder is gone, and lets go on close", async () => {
    const dir = pgliteDir();
    mkdirSync(dir, { recursive: true });
    const owner = path.join(dir, "bootline.owner");
    const holder = spawn("sleep", ["60"]);
    try {
      writeFileSync(owner, JSON.stringify({ pid: holder.pid, port: "3457", since: Date.UTC(2026, 10, 30, 8) }));
      expect(pgliteOwner()).toEqual({ pid: holder.pid, port: "3457", since: Date.UTC(2026, 10, 30, 8) });
      await expect(openDb(null)).rejects.toThrow(
        `the embedded database in ${dir} is open in the app on port 3457 (pid ${holder.pid}, since 2026-11-30T08:00:00.000Z); it allows one process at a time: send to the app (the CLI does so when PORT=3457), or set DATABASE_URL`,
      );
      // a live process with the pid, started after the holder was: the pid was reused, the folder is free
      writeFileSync(owner, JSON.stringify({ pid: holder.pid, started: "1", port: "3457", since: Date.UTC(2026, 10, 30, 8) }));
      expect(pgliteOwner()).toBeNull();
    } finally {
      holder.kill();
      await new Promise((r) => holder.once("exit", r));
    }
    // the holder is gone: its file is stale
    expect(pgliteOwner()).toBeNull();
    const db = await openDb(null);
    expect(JSON.parse(readFileSync(owner, "utf8")).pid).toBe(process.pid);
    expect(pgliteOwner()).toBeNull(); // this process is no other holder
    expect(await db.prisma.incident.count()).toBe(0);
    await closeDb(db);
    expect(existsSync(owner)).toBe(false);
  });
});
