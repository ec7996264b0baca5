/**
 * One process at a time in an embedded database folder: a live holder is named and refused, a
 * holder gone (a crash left its owner file) is taken over, and closing lets the folder go.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, uptime } from "node:os";
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
      const since = Date.now() - 60_000;
      writeFileSync(owner, JSON.stringify({ pid: holder.pid, port: "3457", since }));
      expect(pgliteOwner()).toEqual({ pid: holder.pid, port: "3457", since });
      await expect(openDb(null)).rejects.toThrow(
        `the embedded database in ${dir} is open in the app on port 3457 (pid ${holder.pid}, since ${new Date(since).toISOString()}); it allows one process at a time ` +
          `(the CLI sends uploads to a running app by itself): stop that process, or set DATABASE_URL. If pid ${holder.pid} is no bootline process, delete ${owner}`,
      );
      // written before this machine booted: the live pid is another process
      writeFileSync(owner, JSON.stringify({ pid: holder.pid, port: "3457", since: Date.now() - uptime() * 1000 - 60_000 }));
      expect(pgliteOwner()).toBeNull();
      // a live process with the pid, started after the holder was: the pid was reused (where /proc tells)
      if (existsSync("/proc/self/stat")) {
        writeFileSync(owner, JSON.stringify({ pid: holder.pid, started: "1", port: "3457", since: Date.now() }));
        expect(pgliteOwner()).toBeNull();
      }
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
