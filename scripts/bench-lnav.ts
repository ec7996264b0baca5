/**
 * lnav on the bench's own input, for `npm run bench` (scripts/bench.ts): the same node files the
 * ingest reads, written out as plain files, opened and indexed by lnav headless and counted with
 * its SQL (`lnav -n -q -c ';SELECT count(*) AS n FROM all_logs' -c ':write-csv-to -' FILE...`),
 * timed from start to exit. lnav indexes every file it is given before it runs the commands, so
 * the time covers opening, format detection and indexing of all of them. Its state and config go
 * to a HOME of the bench's own (nothing of the user's is read or written).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";

export interface LnavResult {
  /** `lnav -V`, e.g. `lnav 0.11.1` */
  version: string;
  /** median of the runs, seconds */
  seconds: number;
  runsSeconds: number[];
  /** rows of `all_logs` (the lines lnav recognised as log messages) */
  rows: number;
  files: number;
}

/** `lnav -V`, or null when lnav is not on the PATH. */
export function lnavVersion(): string | null {
  const r = spawnSync("lnav", ["-V"], { encoding: "utf8" });
  if (r.error || r.status !== 0) return null;
  return r.stdout.trim().split("\n")[0] || null;
}

/** One headless run over `files`; seconds and the count it printed. */
function runOnce(files: string[], home: string): Promise<{ seconds: number; rows: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn("lnav", ["-n", "-q", "-c", ";SELECT count(*) AS n FROM all_logs", "-c", ":write-csv-to -", ...files], {
      env: { ...process.env, HOME: home, TERM: "dumb" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (err += s));
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = (performance.now() - t) / 1000;
      const m = /^n\s*\n\s*(\d+)/m.exec(out);
      if (code !== 0 || !m) reject(new Error(`lnav ended with code ${code}: ${(err || out).trim().slice(0, 300)}`));
      else resolve({ seconds, rows: Number(m[1]) });
    });
  });
}

/** `runs` headless runs of lnav over `files` (HOME in `work`); null when lnav is not installed. */
export async function benchLnav(files: string[], work: string, runs: number): Promise<LnavResult | null> {
  const version = lnavVersion();
  if (!version) return null;
  const home = path.join(work, "lnav-home");
  mkdirSync(home, { recursive: true });
  const all: Array<{ seconds: number; rows: number }> = [];
  for (let i = 0; i < runs; i++) all.push(await runOnce(files, home));
  const sorted = [...all].sort((a, b) => a.seconds - b.seconds);
  const mid = sorted[Math.floor(sorted.length / 2)];
  return { version, seconds: +mid.seconds.toFixed(2), runsSeconds: all.map((r) => +r.seconds.toFixed(2)), rows: mid.rows, files: files.length };
}
