/**
 * The end-to-end ingest of `npm run bench` (scripts/bench.ts), in a process of its own so
 * that its peak RSS is the ingest's alone (the bench process holds the parse-only inputs
 * and the query client). Not meant to be run by hand.
 *
 * `node --import tsx scripts/bench-ingest-child.ts <dir>`, with BOOTLINE_DATA_DIR and
 * DATABASE_URL in the environment, or DATABASE_URL unset for the embedded PGlite in
 * BOOTLINE_DATA_DIR; a database not migrated yet is migrated here, before the clock starts. `<dir>` holds the
 * uploads (.tar.gz, one per node); they are given to `enqueueBundle` in name order as one
 * bundle of files on disk with their digest, as the upload route gives them (it hashes them as
 * they arrive; enqueueBundle moves them into the data dir, so `<dir>` is left empty), and the
 * bundle is run with `processBundle` (with `BENCH_INGEST_WAY`, when set, as its `way`: `as-parsed`
 * or `after-parse`, lib/ingest/ingest-nodes.ts `StoreWhen`).
 *
 * Prints one JSON line to stdout:
 * `{ status, error, bundleId, incidentId, events, findings, seconds, cpuSeconds, systemCpuSeconds, peakRssKiB, rssSource,
 *    counts, progress }` where `progress` is scripts/bench-progress.ts `ProgressFigures` (the longest
 * time the progress the upload panel shows stood still), and `cpuSeconds` is this process's CPU time (user + system, every thread: the
 * ingest threads and the main one) over the same span (`systemCpuSeconds`: the part of it in the kernel), and `seconds` runs from enqueueBundle to processBundle done (opening the
 * database, applying migrations and starting the ingest threads, which the app does once when
 * its ingest worker starts, are not in it), `counts` is `Bundle.counts` (lines,
 * records, events, phase `timings` in ms, ...), and `peakRssKiB` is the process's resident
 * set high-water mark (all threads), KiB: `VmHWM` from /proc/self/status. Not
 * `process.resourceUsage().maxRSS`: on Linux that keeps the high-water mark of the process
 * that spawned this one (the kernel carries it across fork + exec), so it reports at least
 * the bench's own RSS. `rssSource` says which was used (maxRSS only where /proc is missing).
 * `dbCpuSeconds`: on PostgreSQL on this machine, the CPU time (user + system, from
 * /proc/<pid>/stat) of the server's backends connected to the bench's database over the same span
 * (a backend that ended during it is missed); null on PGlite (its CPU is this process's) or
 * without /proc.
 * With `--idle-rss` after the uploads dir, also `rssAfterKiB`: the resident set (`VmRSS`) once
 * the ingest has ended and the process has sat idle `IDLE_MS` (the ingest threads alive and
 * idle, as in the app between bundles), after a full collection of this thread's heap; and
 * `peakByPhaseKiB`: the highest VmRSS sampled (every 250 ms) while the bundle was in each phase.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { closeDb, getDb } from "../lib/db/connection";
import { claimBundle } from "../lib/ingest/bundle-status";
import { digestFiles, enqueueBundle, type UploadedFile } from "../lib/ingest/enqueue-bundle";
import { ingestExecutors } from "../lib/ingest/ingest-pool";
import { onLiveStatus } from "../lib/ingest/live-status";
import type { StoreWhen } from "../lib/ingest/ingest-nodes";
import { processBundle } from "../lib/ingest/pipeline";
import { ProgressGaps } from "./bench-progress";

/** Peak resident set of this process in KiB, and where it was read. */
function peakRss(): { kib: number; source: "VmHWM" | "maxRSS" } {
  try {
    const m = /^VmHWM:\s+(\d+)\s*kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (m) return { kib: Number(m[1]), source: "VmHWM" };
  } catch {
    // not Linux
  }
  return { kib: process.resourceUsage().maxRSS, source: "maxRSS" };
}

/** Clock ticks per second of /proc/<pid>/stat's times (`getconf CLK_TCK`: 100 on Linux). */
const CLK_TCK = 100;

/** CPU seconds so far of each server backend on this database, by pid; null when not readable here. */
async function backendCpu(db: Awaited<ReturnType<typeof getDb>>): Promise<Map<number, number> | null> {
  if (!process.env.DATABASE_URL) return null;
  const rows = await db.sql.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      // the fields after the command's last closing parenthesis: state (the 3rd), ..., utime the 14th, stime the 15th
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(pid, (Number(f[11]) + Number(f[12])) / CLK_TCK);
    } catch {
      return null;
    }
  }
  return out;
}

/** How long the process sits idle before `rssAfterKiB` is read, ms. */
const IDLE_MS = 10_000;

/** This process's resident set now, KiB (`VmRSS`), or null without /proc. */
function rssNow(): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s*kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The uploads in `dir` as files on disk, in name order (enqueueBundle moves them, as it does the upload route's). */
function uploadsIn(dir: string): UploadedFile[] {
  return readdirSync(dir)
    .filter((n) => !n.startsWith("."))
    .sort()
    .map((name) => ({ name, path: path.join(dir, name) }));
}

async function main() {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: bench-ingest-child.ts <uploads dir>");
  // without DATABASE_URL the ingest goes to PGlite in BOOTLINE_DATA_DIR: never the app's default store
  if (!process.env.DATABASE_URL && !process.env.BOOTLINE_DATA_DIR)
    throw new Error("set DATABASE_URL, or BOOTLINE_DATA_DIR for a PGlite folder of the bench's own");
  const db = await getDb();
  const files = uploadsIn(dir);
  // the app's ingest worker starts the parsing threads when it starts (lib/ingest/worker.ts), so
  // a bundle finds them ready: so does this one. The upload route hashes the files as they
  // arrive (StreamDigest): here, before the clock
  await ingestExecutors();
  const digest = digestFiles(files);
  const dbCpu0 = await backendCpu(db);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const { bundleId, incidentId } = await enqueueBundle(db, { title: "bench", files, digest });
  await claimBundle(db.sql, bundleId);
  // with --idle-rss: the highest resident set seen in each phase of the run (sampled every 250 ms)
  const byPhase: Record<string, number> = {};
  const sampler = process.argv.includes("--idle-rss")
    ? setInterval(() => {
        const kib = rssNow();
        db.sql
          .query<{ phase: string }>(`SELECT phase FROM "Bundle" WHERE id = $1`, [bundleId])
          .then(([b]) => {
            if (kib !== null && b) byPhase[b.phase] = Math.max(byPhase[b.phase] ?? 0, kib);
          })
          .catch(() => {});
      }, 250)
    : null;
  // every progress report the upload panel would see, timed: the longest wait between two changes
  const gaps = new ProgressGaps();
  const stop = onLiveStatus((l) => l.id === bundleId && gaps.report(l.phase, l.progress));
  const way = process.env.BENCH_INGEST_WAY as StoreWhen | undefined;
  const r = await processBundle(db, bundleId, way ? { way } : {});
  gaps.end();
  stop();
  if (sampler) clearInterval(sampler);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const dbCpu1 = dbCpu0 && (await backendCpu(db));
  const dbCpuSeconds = dbCpu1 ? [...dbCpu1].reduce((sum, [pid, s]) => sum + s - (dbCpu0!.get(pid) ?? 0), 0) : null;
  const bundle = await db.prisma.bundle.findUniqueOrThrow({ where: { id: bundleId } });
  await closeDb(db);
  const rss = peakRss();
  let rssAfterKiB: number | null = null;
  if (process.argv.includes("--idle-rss")) {
    await new Promise((r) => setTimeout(r, IDLE_MS));
    (globalThis as { gc?: () => void }).gc?.();
    rssAfterKiB = rssNow();
  }
  const out = {
    status: r.status,
    error: r.error,
    bundleId,
    incidentId,
    events: r.events,
    findings: r.findings,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    systemCpuSeconds: cpu.system / 1e6,
    dbCpuSeconds: dbCpuSeconds === null ? null : +dbCpuSeconds.toFixed(2),
    peakRssKiB: rss.kib,
    rssSource: rss.source,
    counts: bundle.counts ?? {},
    progress: gaps.result(),
    ...(rssAfterKiB === null ? {} : { rssAfterKiB, peakByPhaseKiB: byPhase }),
  };
  // exit once written: nothing the ingest left behind (idle worker threads, timers) may keep us
  process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
}

main().catch((e) => {
  process.stderr.write(`bench ingest child: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
