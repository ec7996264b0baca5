/**
 * `npm run ingest` on input it refuses (an empty .tar.gz, a binary file, gzip layers nested
 * deeper than `maxDepth`): exit 1, nothing on stdout, and on stderr the reason in one line,
 * naming the file and what is wrong, with no stack; `--verbose` adds the pipeline's log.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTarGz } from "../lib/bundle/tar-build";
import { useTestDatabaseUrl } from "../lib/db/test-db";

const run = promisify(execFile);
let db: Awaited<ReturnType<typeof useTestDatabaseUrl>>;
let dir: string;
beforeAll(async () => {
  db = await useTestDatabaseUrl();
  dir = mkdtempSync(path.join(tmpdir(), "bootline-cli-refused-"));
  writeFileSync(path.join(dir, "empty.tar.gz"), buildTarGz([]));
  // random bytes with NULs: not a text log
  writeFileSync(path.join(dir, "blob.bin"), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)));
  let deep: Buffer = Buffer.from("I0314 02:10:11.000000    1234 kubelet.go:1] hello\n");
  for (let i = 0; i < 4; i++) deep = gzipSync(deep);
  writeFileSync(path.join(dir, "deep.log.gz.gz.gz.gz"), deep);
});
afterAll(async () => {
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function ingest(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(path.join("node_modules", ".bin", "tsx"), ["scripts/ingest.ts", ...args], {
      env: { ...process.env, DATABASE_URL: db.url, BOOTLINE_DATA_DIR: dir },
    });
    return { code: 0, ...r };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

describe("npm run ingest: refused input reads as one line of reason", { timeout: 120_000 }, () => {
  it.each([
    ["empty.tar.gz", "empty.tar: empty-archive: an empty tar archive"],
    ["blob.bin", "blob.bin: binary: not a text log (NUL bytes in its first 8 KiB)"],
    ["deep.log.gz.gz.gz.gz", "nesting-too-deep: an archive nested more than 3 levels deep"],
  ])("%s", async (file, reason) => {
    const r = await ingest(path.join(dir, file));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const reasons = r.stderr.split("\n").filter((l) => l.includes("could be read"));
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^bootline: nothing in this bundle could be read \(/);
    expect(reasons[0]).toContain(reason);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).not.toContain("Error:");
    // the reason alone: no note naming the database before it (that comes with --verbose, or once stored)
    expect(r.stderr.trim().split("\n")).toEqual([reasons[0]]);
  });

  it("--verbose adds the pipeline's log of the refusal", async () => {
    const r = await ingest("--verbose", path.join(dir, "blob.bin"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bundle \S+ refused: nothing in this bundle could be read/);
    expect(r.stderr).toMatch(/^bootline: ingesting into /m);
  });
});
