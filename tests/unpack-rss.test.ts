/**
 * Refusing an archive bomb costs little memory, in the process that ingests it: a child process
 * (tests/unpack-rss-child.ts) ingests three refused uploads on PostgreSQL through the ingest
 * threads and samples its own resident memory. Each one inflates to gigabytes; the limits stop
 * them as the bytes stream, so the process's peak and final RSS stay within a generous bound of
 * where they started, the good member before the bomb lands, and the next upload lands too.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

interface Run {
  name: string;
  status: string;
  error: string | null;
  peakGrowthMb: number;
  afterGrowthMb: number;
  files: Array<{ path: string; status: string; reason: string | null; records: number }>;
}

/** Resident memory the ingest may add while refusing a bomb, MiB (each bomb inflates to 1 to 3 GiB). */
const BOUND_MB = 300;

describe("refused bombs in the ingesting process", () => {
  it("keep its RSS growth under 300 MB, keep the good member before the bomb, and the next upload lands", () => {
    const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", path.join(__dirname, "unpack-rss-child.ts")], {
      cwd: path.join(__dirname, ".."),
      encoding: "utf8",
      env: { ...process.env, BOOTLINE_INGEST_THREADS: "2" },
      maxBuffer: 16 << 20,
    });
    const result = JSON.parse(out.trim().split("\n").pop()!) as { runs: Run[]; next: { status: string; events: number } };
    const by = Object.fromEntries(result.runs.map((r) => [r.name, r]));

    // a 2 GiB member refused from its header; the members around it are read
    expect(by["too-large.tar.gz"].status).toBe("ready");
    expect(by["too-large.tar.gz"].files.map((f) => [f.path, f.status, f.records])).toEqual([
      ["node-h1/kubelet.log", "read", 40],
      ["node-h1/huge.bin", "skipped", 0],
      ["node-h1/noise.bin", "skipped", 0],
    ]);
    expect(by["too-large.tar.gz"].files[1].reason).toMatch(/^too-large: larger than 512 MiB unpacked \(BOOTLINE_MAX_FILE_BYTES\)/);

    // 3 GiB of zeros in 3 MB: the ratio budget stops the stream inside the refused member
    expect(by["bomb.tar.gz"].status).toBe("ready");
    expect(by["bomb.tar.gz"].files.map((f) => [f.path, f.status, f.records])).toEqual([
      ["node-h1/kubelet.log", "read", 40],
      ["node-h1/huge.bin", "skipped", 0],
    ]);
    expect(by["bomb.tar.gz"].files[1].reason).toMatch(/^too-large: .*; the archive was not read past it: unpacks to more than 200 times the upload's size/);

    // a plain .gz past the per-file limit: nothing else in it, so the bundle fails with the reason
    expect(by["big.log.gz"].status).toBe("failed");
    expect(by["big.log.gz"].error).toMatch(/big\.log: too-large: larger than 512 MiB unpacked/);

    for (const r of result.runs) {
      expect(r.peakGrowthMb, `${r.name} peak`).toBeLessThan(BOUND_MB);
      expect(r.afterGrowthMb, `${r.name} after`).toBeLessThan(BOUND_MB);
    }
    expect(result.next).toEqual({ status: "ready", events: 30 });
  }, 300_000);
});
