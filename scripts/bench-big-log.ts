/**
 * The memory of one large plain log, for `npm run bench` (scripts/bench.ts `--big-log-mib N`,
 * default 450; 0 skips): a journal log (journalctl's short mode, kubelet klog lines of about 380
 * bytes) of N MiB is written to disk in batches (never whole in memory), uploaded alone and
 * ingested in a child process (scripts/bench-ingest-child.ts), which reports its peak RSS
 * (VmHWM, every thread) and its RSS once the ingest has ended and the process has sat idle
 * (`rssAfterMb`: what the ingest keeps after it, the idle threads' included). One node, placed
 * by no path: parsed before any node, its events on one thread.
 *
 * Figures in 10^6 bytes (MB), like the rest of the bench.
 */
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import path from "node:path";

export interface BigLogResult {
  mib: number;
  lines: number;
  events: number;
  seconds: number;
  peakRssMb: number;
  rssAfterMb: number;
  /** the highest RSS sampled in each phase (unpack, parse, store, detect), MB */
  peakByPhaseMb: Record<string, number>;
  path: string | null;
  timings: Record<string, number>;
}

/** Writes a journal log of about `bytes` to `file` in batches; returns its line count. */
export async function writeJournal(file: string, bytes: number): Promise<number> {
  const out = createWriteStream(file);
  const start = Date.UTC(2026, 2, 14, 2, 0, 0);
  const pad = "x".repeat(200);
  let written = 0;
  let lines = 0;
  while (written < bytes) {
    let batch = "";
    for (let i = 0; i < 5_000; i++, lines++) {
      const t = new Date(start + lines * 7);
      const hh = String(t.getUTCHours()).padStart(2, "0");
      const mm = String(t.getUTCMinutes()).padStart(2, "0");
      const ss = String(t.getUTCSeconds()).padStart(2, "0");
      const us = String(t.getUTCMilliseconds() * 1000).padStart(6, "0");
      batch +=
        `Mar 14 ${hh}:${mm}:${ss} ip-10-0-0-7 kubelet[2099]: I0314 ${hh}:${mm}:${ss}.${us}    2099 kubelet.go:2457] ` +
        `"SyncLoop (PLEG): event for pod" pod="default/app-${lines % 500}" event={"ID":"${lines.toString(16).padStart(12, "0")}","Type":"ContainerStarted"} note="${pad}"\n`;
    }
    written += Buffer.byteLength(batch);
    if (!out.write(batch)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((res, rej) => {
    out.once("error", rej);
    out.end(() => res());
  });
  return lines;
}

interface ChildOut {
  status: string;
  error: string | null;
  events: number;
  seconds: number;
  peakRssKiB: number;
  rssAfterKiB?: number;
  peakByPhaseKiB?: Record<string, number>;
  counts: { timings?: Record<string, number>; ingestPath?: string };
}

/**
 * Writes the log under `work`, runs the ingest child on it (`run`: scripts/bench.ts
 * `runJsonChild` with the bench's environment) and returns its figures. Throws when the ingest fails.
 */
export async function benchBigLog(
  work: string,
  mib: number,
  run: (script: string, args: string[], env: NodeJS.ProcessEnv) => Promise<ChildOut>,
  env: NodeJS.ProcessEnv,
): Promise<BigLogResult> {
  const dir = path.join(work, "big-log");
  mkdirSync(dir, { recursive: true });
  try {
    const lines = await writeJournal(path.join(dir, `journal-${mib}mib.log`), mib * 1024 * 1024);
    const r = await run("scripts/bench-ingest-child.ts", [dir, "--idle-rss"], env);
    if (r.status !== "ready") throw new Error(`big log ingest failed: ${r.error}`);
    return {
      mib,
      lines,
      events: r.events,
      seconds: +r.seconds.toFixed(1),
      peakRssMb: Math.round((r.peakRssKiB * 1024) / 1e6),
      rssAfterMb: Math.round(((r.rssAfterKiB ?? 0) * 1024) / 1e6),
      peakByPhaseMb: Object.fromEntries(Object.entries(r.peakByPhaseKiB ?? {}).map(([k, v]) => [k, Math.round((v * 1024) / 1e6)])),
      path: r.counts.ingestPath ?? null,
      timings: r.counts.timings ?? {},
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
