/**
 * `npm run bench [-- --json] [--lines N] [--query-events N] [--skip-queries] [--skip-pglite]
 *   [--pglite-lines N] [--pglite-query-events N] [--ingest-runs N] [--backend postgres|pglite]
 *   [--search-events N] [--boot-events N] [--lnav-runs N] [--skip-lnav] [--skip-search] [--skip-page]
 *   [--big-log-mib N] [--only-big-log] [--progress-lines N]`
 *
 * Measures, on this machine, in one run:
 * - end-to-end ingest (enqueueBundle, then processBundle: unpack, parse, normalise, COPY,
 *   detect) of a generated bundle of about N lines (default 1,000,000), in lines/s and MB/s
 *   (MB = 10^6 bytes of uncompressed log text), with the phase timings the ingest records in
 *   `Bundle.counts.timings` (ms). The ingest runs in a child process of its own
 *   (scripts/bench-ingest-child.ts), timed there from enqueue to processBundle done (its
 *   threads started beforehand, as the app's ingest worker starts them at its own start); its
 *   peak RSS (`peakRssMb`, 10^6 bytes) is the child's resident-set high-water mark (VmHWM,
 *   all threads), so it is the ingest's alone: the bench's own memory is not in it. The
 *   child enqueues the uploads as files on disk, as the upload route does (it streams each
 *   file to disk as it arrives). On PostgreSQL the ingest runs `--ingest-runs` times (default
 *   3 up to 2M lines, else 1), each into an empty database, and the median run is the figure
 *   (`ingest.runsSeconds` lists them all; `peakRssMb` is the highest); `cpuSecondsPerMLines` is
 *   the child's CPU seconds (every thread) per million input lines (`systemCpuSecondsPerMLines`
 *   the kernel's part of them), `dbCpuSecondsPerMLines`
 *   PostgreSQL's backends' on the bench's database over the same span (null on PGlite, whose
 *   work is in the child's);
 * - the physical baseline: plain COPY of the same already-parsed rows into the same table
 *   (exported from the ingested bundle to a temporary file, then streamed from it into
 *   `COPY "Event" FROM STDIN` in a transaction that is rolled back; only that COPY is timed;
 *   three runs, the median kept, all in `copy.runsSeconds`), in rows/s and in input lines/s,
 *   and `ratioToCopy` = COPY time / ingest time (the ingest's throughput as a fraction of
 *   plain COPY's);
 * - parse-only throughput per format (parseFile in this process, lines/s);
 * - the rule catalogue's cost (scripts/bench-rules.ts): its prefilter and runner on one node's
 *   events in this process, times the node count, as a share of the ingest's seconds (`rules`);
 * - the pattern miner's cost (scripts/bench-patterns.ts), measured the same way (`patterns`);
 *   and among the queries, the patterns panel (`query.patterns`), a page of one template's
 *   events (`query.patternEvents`) and "explain this range" on a boot's middle third
 *   (`query.explain`); scripts/bench-explain.ts times the panel, the diff and explain alone on
 *   one generated boot of 500,000 events;
 * - timeline queries on a store of at least `--query-events` events (default 10,000,000;
 *   the ingested rows are replicated server-side to reach it; a store already larger is used
 *   as it is, and `query.storedEvents` is the real count): lane-density histogram for a
 *   boot window, an events page for a range, a search, and a search count; median and p95
 *   of 20 runs, ms.
 * - lnav on the same input (scripts/bench-lnav.ts): the node files written out as plain files,
 *   opened and indexed by `lnav` headless, `SELECT count(*) FROM all_logs`, `--lnav-runs` runs
 *   (default 3, the median kept), before the ingest; `lnav.seconds` is null when lnav is not
 *   installed (`apt-get install lnav`), and `ingest.ratioToLnav` = ingest seconds / lnav seconds;
 * - incident search (scripts/bench-search.ts) on a store grown further to `--search-events`
 *   events (default: the `--query-events` value): the search index's build, a rare token
 *   (`search.rareTokenMs`), a common word (in about a tenth of the events) with its exact count (`search.commonTokenMs`,
 *   `search.exactCount`), a substring, and the boot timeline's filtered first page; then a boot
 *   of at least `--boot-events` events (default 500,000): the density request and the first
 *   events page (`bigBoot`); on PostgreSQL, unless `--skip-page`, that boot's page in Chromium
 *   (scripts/bench-page.ts: the built app started against the bench's database, the time until
 *   the page shows its lanes with their counts, `page.lanesMs`; `page.skipped` says why not, e.g.
 *   no `next build`).
 * - the memory of one large plain log (scripts/bench-big-log.ts): `--big-log-mib` MiB (default
 *   450; 0 skips), ingested alone in a child process into a database of its own: peak RSS and the
 *   RSS left once the ingest is over and the process idle (`bigLog`); `--only-big-log` runs only that.
 * - how steadily the progress moves (scripts/bench-progress.ts): the longest wall-clock time the
 *   upload panel's progress stood still during the ingest (`ingest.progress.maxGapS`, the median
 *   run's), and during the ingest of one node of `--progress-lines` lines (default 300,000; 0
 *   skips) in a database of its own (`progress.maxGapS`); the issue's target is under 2 s.
 * The machine (CPU model, cores, memory) is in `machine`. The table is one Markdown table.
 * All of that on PostgreSQL, then again on the embedded PGlite (the backend of `npm start` without
 * DATABASE_URL), where it makes sense: a bundle of at most `--pglite-lines` (default 1,000,000)
 * and queries on a store of at most `--pglite-query-events` (default 1,000,000), in a process of
 * its own (this script with `--backend pglite`; PGlite runs on its caller's thread and allows one
 * process per data folder); its figures are under `pglite` in the JSON. There the bundle is stored
 * once every node is parsed (lib/ingest/ingest-nodes.ts), and its plain COPY is one
 * `COPY FROM '/dev/blob'`. `BENCH_INGEST_WAY=as-parsed|after-parse` in the environment makes the
 * end-to-end ingest take that schedule on either database (scripts/bench-ingest-child.ts).
 * Prints a table, or one JSON object with `--json`. Input bundles come from the scenario
 * generator (lib/sample): the Calico nodename race on many nodes (a cluster-wide reboot).
 * One node's files are generated once and replicated under other node names, one .tar.gz
 * per node (about 52,800 lines, 15 MB of text each), each written straight to a temporary
 * folder, so the input is never all in memory.
 *
 * `BENCH_CPU_PROF_DIR=<dir>` in the environment runs the ingest child with `--cpu-prof` into that
 * folder (one profile per thread; `tsx scripts/cpu-profile-table.ts <dir>` sums them by step).
 *
 * Needs PostgreSQL at BOOTLINE_TEST_PG (default postgresql://postgres@127.0.0.1:5432/test);
 * creates and drops its own database, and for PGlite a folder of its own under .tmp/
 * (`--backend pglite` is how the run calls itself; it refuses any other folder).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { buildTarGz } from "../lib/bundle/tar-build";
import { parseFile } from "../lib/parse/parse-file";
import { generateScenario } from "../lib/sample/index";
import { growStore as growStoreOf } from "./bench-grow";
import { benchLnav, type LnavResult } from "./bench-lnav";
import { benchRules } from "./bench-rules";
import { benchPatterns } from "./bench-patterns";
import { benchPage, type PageBench } from "./bench-page";
import { benchSearch, commonWord, rareSandboxIds } from "./bench-search";
import { benchBigBoot } from "./bench-big-boot";
import { bigLogRow, tableRows } from "./bench-table";
import { COPY_COLS, pgCopyRuns, pgliteCopyRuns } from "./bench-copy";
import { quantile, time } from "./bench-timing";
import { benchBigLog, type BigLogResult } from "./bench-big-log";
import { benchProgress, type ProgressFigures } from "./bench-progress";

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    lines: { type: "string", default: "1000000" },
    "query-events": { type: "string", default: "10000000" },
    "skip-queries": { type: "boolean", default: false },
    backend: { type: "string", default: "postgres" },
    "skip-pglite": { type: "boolean", default: false },
    "pglite-lines": { type: "string", default: "1000000" },
    "pglite-query-events": { type: "string", default: "1000000" },
    "ingest-runs": { type: "string" },
    "search-events": { type: "string" },
    "boot-events": { type: "string", default: "500000" },
    "lnav-runs": { type: "string", default: "3" },
    "skip-lnav": { type: "boolean", default: false },
    "skip-search": { type: "boolean", default: false },
    "skip-page": { type: "boolean", default: false },
    "big-log-mib": { type: "string", default: "450" },
    "only-big-log": { type: "boolean", default: false },
    "progress-lines": { type: "string", default: "300000" },
  },
});
const bigLogMib = Number(values["big-log-mib"]);
const progressLines = Number(values["progress-lines"]);
if (!(progressLines >= 0)) throw new Error("--progress-lines takes a number of lines (0 skips)");
if (!(bigLogMib >= 0)) throw new Error("--big-log-mib takes a number of MiB (0 skips)");
const backend = values.backend as "postgres" | "pglite";
if (backend !== "postgres" && backend !== "pglite") throw new Error("--backend takes postgres or pglite");
if (!(Number(values["pglite-lines"]) > 0) || !(Number(values["pglite-query-events"]) >= 0))
  throw new Error("--pglite-lines and --pglite-query-events take numbers");
const targetLines = Number(values.lines);
const queryEvents = Number(values["query-events"]);
if (!(targetLines > 0) || !(queryEvents >= 0)) throw new Error("--lines and --query-events take numbers");
/** the store the search figures are taken on: at least this many events (default: --query-events) */
const searchEvents = values["search-events"] !== undefined ? Number(values["search-events"]) : queryEvents;
/** the big boot of the density and first-page figures: at least this many events */
const bootEvents = Number(values["boot-events"]);
const lnavRuns = Number(values["lnav-runs"]);
if (!(searchEvents >= 0) || !(bootEvents > 0) || !(Number.isInteger(lnavRuns) && lnavRuns >= 1))
  throw new Error("--search-events, --boot-events and --lnav-runs take numbers");
/**
 * End-to-end ingest runs on PostgreSQL (the median is the figure, as for plain COPY): one run's
 * time moves by up to a quarter with the host's load on these shared machines. Three up to 2M
 * lines, one above (a 10M run takes minutes); one on PGlite.
 */
const ingestRuns = values["ingest-runs"] !== undefined ? Number(values["ingest-runs"]) : backend === "postgres" && targetLines <= 2_000_000 ? 3 : 1;
if (!Number.isInteger(ingestRuns) || ingestRuns < 1) throw new Error("--ingest-runs takes a whole number of at least 1");
const TEST_PG = process.env.BOOTLINE_TEST_PG ?? "postgresql://postgres@127.0.0.1:5432/test";
const root = path.resolve(import.meta.dirname, "..");
/** plain COPY runs; the median is the baseline */
const log = (s: string) => process.stderr.write(`bench${backend === "pglite" ? " (PGlite)" : ""}: ${s}\n`);

// ---------------------------------------------------------------- input
const countLines = (s: string) => s.split("\n").length - (s.endsWith("\n") ? 1 : 0);

/**
 * Writes one .tar.gz per node into `dir` (about `lines` lines in all); keeps none of them. With
 * `plainDir`, also each node's files as plain files under `plainDir/<node>/` (lnav's input).
 */
function writeBundle(dir: string, lines: number, plainDir?: string) {
  const base = generateScenario("calico", { pods: 60, nodenameDelayS: 900, retryIntervalS: 15, seed: 3 });
  const node0 = base.truth.node;
  const perNode = base.files.reduce((n, f) => n + countLines(f.content), 0);
  const pieces = base.files.map((f) => ({ path: `./${f.path}`, parts: f.content.split(node0) }));
  const nodes = Math.max(1, Math.ceil(lines / perNode));
  let bytes = 0;
  let archiveBytes = 0;
  const plainFiles: string[] = [];
  for (let i = 0; i < nodes; i++) {
    const name = `ip-10-20-${Math.floor(i / 250)}-${(i % 250) + 1}.ec2.internal`;
    // files that never name their node (Calico's cni.log) would be byte-identical on every node:
    // other process ids per node, as real nodes have (repeats are found per node since, but a
    // bundle of copies is not what reviewers upload; `linesCounted` shows the lines of files read)
    const files = pieces.map((p) => ({
      path: p.path,
      content: p.parts.length > 1 ? p.parts.join(name) : p.parts[0].replace(/\]\[(\d+)\] /g, (_, pid: string) => `][${(Number(pid) + i * 7919) % 4194304}] `),
      mtimeMs: base.truth.collectedMs,
    }));
    for (const f of files) bytes += Buffer.byteLength(f.content);
    if (plainDir) {
      for (const f of files) {
        const to = path.join(plainDir, name, f.path);
        mkdirSync(path.dirname(to), { recursive: true });
        writeFileSync(to, f.content);
        plainFiles.push(to);
      }
    }
    const data = buildTarGz(files);
    archiveBytes += data.length;
    writeFileSync(path.join(dir, `eks_${name}_2026-03-14_0300-UTC.tar.gz`), data);
  }
  return { lines: perNode * nodes, bytes, archiveBytes, nodes, sampleFiles: base.files, plainFiles };
}

// ---------------------------------------------------------------- helpers
/** The middle item of `xs` by `by` (the upper middle of an even count): the figure of repeated runs. */
function medianBy<T>(xs: T[], by: (x: T) => number): T {
  return [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)];
}
function stats(xs: number[]) {
  return { medianMs: +quantile(xs, 0.5).toFixed(2), p95Ms: +quantile(xs, 0.95).toFixed(2) };
}

interface ChildResult {
  status: "ready" | "failed";
  error: string | null;
  bundleId: string;
  incidentId: string;
  events: number;
  findings: number;
  seconds: number;
  cpuSeconds: number;
  /** the part of `cpuSeconds` spent in the kernel (page faults, file writes) */
  systemCpuSeconds: number;
  /** the database server's backends' CPU seconds over the same span (null on PGlite) */
  dbCpuSeconds: number | null;
  peakRssKiB: number;
  rssSource: string;
  counts: { lines?: number; timings?: Record<string, number>; ingestPath?: string; twoPassReason?: string };
  progress: ProgressFigures;
}

/**
 * Runs `node --import tsx <script> <args>` from the project root with `env`, its stderr going to
 * ours, and resolves with the JSON object on its last stdout line (anything it logged comes
 * before). Rejects when it fails or prints no such line.
 */
function runJsonChild<T>(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<T> {
  return new Promise((resolve, reject) => {
    // BENCH_CPU_PROF_DIR: a CPU profile of every thread of the child (scripts/cpu-profile-table.ts reads them)
    const prof = env.BENCH_CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${env.BENCH_CPU_PROF_DIR}`] : [];
    const child = spawn(process.execPath, [...prof, "--import", "tsx", path.join(root, script), ...args], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (s: string) => (out += s));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const last = out.trim().split("\n").pop() ?? "";
      if (code !== 0 || !last.startsWith("{")) reject(new Error(`${script} ended with ${signal ?? `code ${code}`}${last ? `: ${last}` : ""}`));
      else resolve(JSON.parse(last) as T);
    });
  });
}

/**
 * `npm run bench` on the embedded PGlite: this script again, `--backend pglite --json`, in a
 * process of its own, with a PGlite folder of its own (`BOOTLINE_DATA_DIR`, removed afterwards,
 * also when the run fails). A failure comes back as `{ error }`, so the PostgreSQL figures are
 * printed all the same.
 */
async function runPgliteBench(lines: number, queryEvents: number): Promise<Record<string, unknown>> {
  mkdirSync(path.join(root, ".tmp"), { recursive: true });
  const dataDir = mkdtempSync(path.join(root, ".tmp", "bench-pglite-"));
  const env: NodeJS.ProcessEnv = { ...process.env, BOOTLINE_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  const args = ["--backend", "pglite", "--json", "--skip-pglite", "--skip-lnav", "--lines", String(lines), "--query-events", String(queryEvents)];
  args.push("--search-events", String(Math.min(searchEvents, queryEvents)), "--boot-events", String(bootEvents));
  if (values["skip-queries"]) args.push("--skip-queries");
  if (values["skip-search"]) args.push("--skip-search");
  args.push("--progress-lines", String(progressLines));
  try {
    return await runJsonChild<Record<string, unknown>>("scripts/bench.ts", args, env);
  } catch (e) {
    log(`the PGlite run failed: ${(e as Error).message}`);
    return { error: (e as Error).message };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A new empty database on the PostgreSQL at BOOTLINE_TEST_PG: its URL, and how to drop it. */
async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const dbName = `bootline_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_PG });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const u = new URL(TEST_PG);
  u.pathname = `/${dbName}`;
  const drop = async () => {
    const a = new pg.Client({ connectionString: TEST_PG });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await a.end();
  };
  return { url: u.toString(), drop };
}

/** The machine the figures are for: CPU model, cores, memory (10^9 bytes), Node.js. */
function machine() {
  return { cpu: cpus()[0]?.model.trim() ?? "unknown", cpus: cpus().length, memoryGb: +(totalmem() / 1e9).toFixed(1), node: process.version };
}

/** One backend's run: ingest, parse-only, plain COPY, queries (see the module comment). */
async function benchBackend(): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = { machine: machine(), backend };
  let dropDatabase: (() => Promise<void>) | null = null;
  if (backend === "postgres") {
    const made = await createDatabase();
    dropDatabase = made.drop;
    process.env.DATABASE_URL = made.url;
  } else delete process.env.DATABASE_URL;
  // the ingest keeps uploads there until they are stored (and PGlite its data); a folder of our
  // own is removed at the end. On PGlite the folder is the database: never an existing one (the
  // app's store, perhaps open in the app), only the fresh one the PostgreSQL run hands over
  if (backend === "pglite" && !process.env.BOOTLINE_DATA_DIR?.includes(`${path.sep}bench-pglite-`)) {
    throw new Error("--backend pglite runs inside `npm run bench` (it gives the run a PGlite folder of its own)");
  }
  const ownDataDir = process.env.BOOTLINE_DATA_DIR ? null : path.join(root, `.tmp/bench-${process.pid}`);
  process.env.BOOTLINE_DATA_DIR = path.resolve(process.env.BOOTLINE_DATA_DIR ?? ownDataDir ?? "");
  const work = mkdtempSync(path.join(tmpdir(), "bootline-bench-"));
  const { getDb, closeDb } = await import("../lib/db/connection");
  try {
    // PostgreSQL: the migrations are applied here, so the child's timed ingest does not include
    // them; PGlite allows one process per data folder, so the child applies them (before its clock)
    if (backend === "postgres") await getDb();

    log(`generating a bundle of about ${targetLines.toLocaleString()} lines into ${work}`);
    const uploads = path.join(work, "uploads");
    mkdirSync(uploads);
    const tg = performance.now();
    const withLnav = backend === "postgres" && !values["skip-lnav"];
    const input = writeBundle(uploads, targetLines, withLnav ? path.join(work, "plain") : undefined);
    log(
      `${input.nodes} nodes, ${input.lines.toLocaleString()} lines, ${(input.bytes / 1e6).toFixed(1)} MB of text ` +
        `(${(input.archiveBytes / 1e6).toFixed(1)} MB of .tar.gz), generated in ${((performance.now() - tg) / 1000).toFixed(1)} s`,
    );

    // lnav on the same node files, as plain files (before the ingest: nothing else runs meanwhile)
    let lnav: LnavResult | null = null;
    if (withLnav) {
      log(`lnav: ${input.plainFiles.length} files, ${lnavRuns} run${lnavRuns === 1 ? "" : "s"}`);
      lnav = await benchLnav(input.plainFiles, work, lnavRuns);
      log(lnav ? `lnav: ${lnav.seconds} s (${lnav.version}, ${lnav.rows.toLocaleString()} rows)` : "lnav: not installed (apt-get install lnav), skipped");
      rmSync(path.join(work, "plain"), { recursive: true, force: true });
    }
    result.lnav = lnav ?? { seconds: null };

    // end-to-end ingest, in a child process, `ingestRuns` times (the median kept): the runs
    // before the last one each into a database of their own, dropped after it, so every run
    // starts from the same empty store; the last one into this run's database (its rows are the
    // baseline's and the queries')
    const childRuns: ChildResult[] = [];
    for (let k = 0; k < ingestRuns; k++) {
      const last = k === ingestRuns - 1;
      const runUploads = last ? uploads : path.join(work, `uploads-${k}`);
      if (!last) cpSync(uploads, runUploads, { recursive: true }); // the child moves the uploads it is given
      const env = { ...process.env };
      const extra = last || backend !== "postgres" ? null : await createDatabase();
      if (extra) env.DATABASE_URL = extra.url;
      log(`ingesting (child process${ingestRuns > 1 ? `, run ${k + 1} of ${ingestRuns}` : ""})`);
      try {
        const run = await runJsonChild<ChildResult>("scripts/bench-ingest-child.ts", [runUploads], env);
        if (run.status !== "ready") throw new Error(`ingest failed: ${run.error}`);
        childRuns.push(run);
        log(`ingest run ${k + 1}: ${run.seconds.toFixed(2)} s`);
      } finally {
        rmSync(runUploads, { recursive: true, force: true });
        await extra?.drop();
      }
    }
    const r = childRuns[childRuns.length - 1];
    const { bundleId, incidentId } = r;
    const median = medianBy(childRuns, (x) => x.seconds);
    const ingestS = median.seconds;
    const ingest = {
      lines: input.lines,
      linesCounted: r.counts.lines ?? null,
      bytes: input.bytes,
      nodes: input.nodes,
      events: r.events,
      findings: r.findings,
      seconds: +ingestS.toFixed(2),
      /** every run's seconds, in run order; `seconds` is their median */
      runsSeconds: childRuns.map((x) => +x.seconds.toFixed(2)),
      linesPerSec: Math.round(input.lines / ingestS),
      /** the ingest process's CPU seconds (every thread) per million input lines, the median run's */
      cpuSecondsPerMLines: +((median.cpuSeconds * 1e6) / input.lines).toFixed(2),
      /** the part of `cpuSecondsPerMLines` in the kernel (system time) */
      systemCpuSecondsPerMLines: +((median.systemCpuSeconds * 1e6) / input.lines).toFixed(2),
      /** PostgreSQL's backends' CPU seconds per million input lines, the median run's (null on PGlite) */
      dbCpuSecondsPerMLines: median.dbCpuSeconds === null ? null : +((median.dbCpuSeconds * 1e6) / input.lines).toFixed(2),
      mbPerSec: +(input.bytes / 1e6 / ingestS).toFixed(1),
      /** the highest of the runs' peaks */
      peakRssMb: Math.round((Math.max(...childRuns.map((x) => x.peakRssKiB)) * 1024) / 1e6),
      peakRssSource: r.rssSource,
      ratioToCopy: 0,
      /** ingest seconds / lnav's seconds on the same files (null without lnav) */
      ratioToLnav: lnav ? +(ingestS / lnav.seconds).toFixed(2) : null,
      /** the median run's phases */
      timings: median.counts.timings ?? {},
      /** "as-parsed" (each node stored once parsed) or "after-parse" (once every node is: lib/ingest/ingest-nodes.ts) */
      path: r.counts.ingestPath ?? null,
      /** the median run's longest wait between two changes of the progress shown (scripts/bench-progress.ts) */
      progress: median.progress,
    };
    log(
      `ingest: ${ingest.linesPerSec.toLocaleString()} lines/s, ${ingest.cpuSecondsPerMLines} CPU-s per M lines (${ingest.systemCpuSecondsPerMLines} in the kernel; database ${ingest.dbCpuSecondsPerMLines ?? "-"}), peak RSS ${ingest.peakRssMb} MB, phases ${JSON.stringify(ingest.timings)}`,
    );

    // the progress of one node of many lines, in a store of its own (PGlite: a folder of its own)
    if (progressLines > 0) {
      log(`progress: one node of ${progressLines.toLocaleString()} lines (child process)`);
      const own = backend === "postgres" ? await createDatabase() : null;
      const dir = path.join(work, "progress-data");
      const env: NodeJS.ProcessEnv = { ...process.env, BOOTLINE_DATA_DIR: dir };
      if (own) env.DATABASE_URL = own.url;
      else delete env.DATABASE_URL;
      try {
        result.progress = await benchProgress(work, progressLines, runJsonChild, env);
        log(`progress: longest still ${(result.progress as ProgressFigures).maxGapS} s`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        await own?.drop();
      }
    }

    // parse-only per format (lines/s over every file of that format); after the ingest, so
    // that the garbage it leaves in this process is not collected while the child is timed
    const perFormat: Record<string, { lines: number; seconds: number }> = {};
    // (not on PGlite: parsing does not depend on the backend)
    for (const f of backend === "postgres" ? input.sampleFiles : []) {
      const reps = Math.max(1, Math.ceil(200_000 / countLines(f.content)));
      const text = f.content.repeat(reps);
      const t = performance.now();
      const p = parseFile(f.path, text, { uploadMs: Date.now() });
      const dt = (performance.now() - t) / 1000;
      const prev = (perFormat[p.format] ??= { lines: 0, seconds: 0 });
      prev.lines += p.counts.lines;
      prev.seconds += dt;
    }
    result.parse = Object.fromEntries(Object.entries(perFormat).map(([k, v]) => [k, { lines: v.lines, linesPerSec: Math.round(v.lines / v.seconds) }]));

    // the rule catalogue's share of the ingest (scripts/bench-rules.ts; not on PGlite: the rules do not depend on the backend)
    if (backend === "postgres") {
      const rb = benchRules(input.sampleFiles, input.nodes);
      result.rules = { ...rb, shareOfIngest: +(rb.bundleSeconds / ingestS).toFixed(4) };
      log(
        `rules: ${rb.nodeMs} ms per node, ${rb.bundleSeconds} s for ${input.nodes} nodes (${((100 * rb.bundleSeconds) / ingestS).toFixed(2)} % of the ingest)`,
      );
    }

    // the pattern miner's share of the ingest (scripts/bench-patterns.ts; not on PGlite: mining does not depend on the backend)
    if (backend === "postgres") {
      const pb = benchPatterns(input.sampleFiles, input.nodes);
      result.patterns = { ...pb, shareOfIngest: +(pb.bundleSeconds / ingestS).toFixed(4) };
      log(
        `patterns: ${pb.nodeMs} ms per node, ${pb.bundleSeconds} s for ${input.nodes} nodes (${((100 * pb.bundleSeconds) / ingestS).toFixed(2)} % of the ingest)`,
      );
    }

    // plain COPY of the same rows into the same table; three runs, the median kept: on shared
    // machines one COPY of the same rows varies widely, and a single run would make the ratio
    // swing with it. PGlite's runs come before getDb opens it here
    const runs = backend === "postgres" ? await pgCopyRuns(bundleId, work) : await pgliteCopyRuns(bundleId);
    const copyS = medianBy(runs, (x) => x);
    const copy = {
      rows: r.events,
      seconds: +copyS.toFixed(2),
      runsSeconds: runs.map((x) => +x.toFixed(2)),
      rowsPerSec: Math.round(r.events / copyS),
      linesPerSec: Math.round(input.lines / copyS),
    };
    ingest.ratioToCopy = +(copyS / ingestS).toFixed(3);
    result.ingest = ingest;
    result.copy = copy;
    log(`plain COPY: ${copy.rowsPerSec.toLocaleString()} rows/s; ingest/COPY = ${ingest.ratioToCopy}`);

    const db = await getDb();
    // the store grows by replicating the bundle's events server-side (same bundle, incident and
    // boots); a store already that large (a big ingest) is used as it is
    const growStore = (target: number) => growStoreOf(db.sql, bundleId, target, COPY_COLS, log);
    // the rarest sandbox ids of the bundle, picked before the store grows (each then repeats as often as the bundle does)
    const rare = values["skip-search"] ? [] : await rareSandboxIds(bundleId, 20);
    const common = values["skip-search"] ? null : await commonWord(bundleId);
    if (!values["skip-queries"]) {
      const stored = await growStore(queryEvents);
      // the rolled-back COPY runs left their rows dead in the table and its indexes: cleared
      // here, so that autovacuum does not run during the timings (and PGlite, which has none,
      // does not scan past them)
      await db.sql.exec(`VACUUM ANALYZE "Event"`);
      const { getLaneDensity } = await import("../lib/queries/get-lane-density");
      const { getEventsPage } = await import("../lib/queries/get-events-page");
      const { LANES } = await import("../lib/view/lanes");
      const { countEvents } = await import("../lib/queries/count-events");
      const boots = await db.sql.query<{ id: number; start: Date | string; end: Date | string | null; n: string | number }>(
        `SELECT b.id, b.start, b."end", (SELECT count(*) FROM "Event" e WHERE e."bootId" = b.id) AS n FROM "Boot" b WHERE b."incidentId" = $1 ORDER BY n DESC LIMIT 10`,
        [incidentId],
      );
      if (!boots.length) throw new Error("the ingested bundle has no boots to query");
      const hist: number[] = [];
      const page: number[] = [];
      const search: number[] = [];
      const count: number[] = [];
      const patterns: number[] = [];
      const patternPage: number[] = [];
      const { getBootPatterns } = await import("../lib/queries/get-boot-patterns");
      const { withPatternFilter } = await import("../lib/queries/pattern-filter");
      const { getRangeExplain } = await import("../lib/queries/get-range-explain");
      const explain: number[] = [];
      for (let i = 0; i < 20; i++) {
        const b = boots[i % boots.length];
        const fromMs = new Date(b.start).getTime();
        const toMs = new Date(b.end ?? b.start).getTime() + 1;
        hist.push((await time(() => getLaneDensity({ incidentId, bootId: b.id, fromMs, toMs })))[1]);
        const mid = fromMs + (toMs - fromMs) / 3;
        page.push((await time(() => getEventsPage({ incidentId, bootId: b.id, fromMs: mid, toMs, lanes: LANES, limit: 200 })))[1]);
        search.push((await time(() => getEventsPage({ incidentId, bootId: b.id, fromMs, toMs, lanes: LANES, q: "nodename", limit: 200 })))[1]);
        count.push((await time(() => countEvents({ incidentId, bootId: b.id, fromMs, toMs, lanes: LANES, q: "no-such-word" })))[1]);
        // the patterns panel, then a page of the events of its least common template (a filter that scans the range)
        const [panel, ms] = await time(() => getBootPatterns({ incidentId, bootId: b.id }));
        patterns.push(ms);
        // "explain this range" on the boot's middle third against the third before it
        explain.push((await time(() => getRangeExplain({ incidentId, bootId: b.id, fromMs: mid, toMs: mid + (toMs - fromMs) / 3, baseline: "before" })))[1]);
        const rarest = panel.patterns[panel.patterns.length - 1];
        if (rarest)
          patternPage.push(
            (
              await time(async () =>
                getEventsPage(await withPatternFilter({ incidentId, bootId: b.id, fromMs, toMs, lanes: LANES, limit: 200 }, { pat: rarest.key })),
              )
            )[1],
          );
      }
      result.query = {
        storedEvents: stored,
        eventsPerBoot: Number(boots[0].n),
        histogram: stats(hist),
        events: stats(page),
        search: stats(search),
        searchCount: stats(count),
        patterns: stats(patterns),
        patternEvents: stats(patternPage),
        explain: stats(explain),
      };
    }
    if (!values["skip-queries"] && !values["skip-search"]) {
      // incident search over a store of `searchEvents` (lib/search)
      await growStore(searchEvents);
      if (!common) throw new Error("no common word picked");
      result.search = await benchSearch({ incidentId, bundleId, rare, common, log });
      // the density request and first events page of a boot of `bootEvents` events
      result.bigBoot = await benchBigBoot({ incidentId, bootEvents, copyCols: COPY_COLS, log });
      if (backend === "postgres" && !values["skip-page"]) result.page = await benchBootPage(incidentId);
    }
    await closeDb(db);
  } finally {
    rmSync(work, { recursive: true, force: true });
    if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    await dropDatabase?.();
  }
  return result;
}

/**
 * The boot of incident `incidentId` with the most timed events (by its per-second rollup: the big
 * boot) opened in Chromium against the bench's database (scripts/bench-page.ts).
 */
async function benchBootPage(incidentId: string): Promise<PageBench> {
  const { getDb } = await import("../lib/db/connection");
  const { bootPath } = await import("../lib/view/view-state");
  const { sql } = await getDb();
  const [b] = await sql.query<{ node: string; bootKey: string }>(
    `SELECT n.name AS node, b."bootKey" FROM "Boot" b JOIN "Node" n ON n.id = b."nodeId"
     WHERE b."incidentId" = $1 ORDER BY (SELECT coalesce(sum(d.n), 0) FROM "EventDensity" d WHERE d."bootId" = b.id) DESC, b.id LIMIT 1`,
    [incidentId],
  );
  if (!b) return { skipped: "the incident has no boots" };
  return benchPage({ root, databaseUrl: process.env.DATABASE_URL ?? "", pagePath: bootPath(incidentId, b.node, b.bootKey), log });
}

/** The big log's memory (scripts/bench-big-log.ts) on PostgreSQL, in a database and data folder of its own. */
async function runBigLog(): Promise<BigLogResult> {
  const made = await createDatabase();
  const work = mkdtempSync(path.join(tmpdir(), "bootline-bench-big-"));
  const dataDir = path.join(root, `.tmp/bench-big-${process.pid}`);
  try {
    log(`big log: ${bigLogMib} MiB of journal text, ingested alone (child process)`);
    const env = { ...process.env, DATABASE_URL: made.url, BOOTLINE_DATA_DIR: dataDir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --expose-gc`.trim() };
    const r = await benchBigLog(work, bigLogMib, runJsonChild, env);
    log(`big log: ${r.seconds} s, peak RSS ${r.peakRssMb} MB, ${r.rssAfterMb} MB idle after`);
    return r;
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
    await made.drop();
  }
}

async function main() {
  if (values["only-big-log"]) {
    const b = await runBigLog();
    process.stdout.write(
      values.json ? `${JSON.stringify({ machine: machine(), bigLog: b })}\n` : `| measure | result |\n| --- | --- |\n| ${bigLogRow(b).join(" | ")} |\n`,
    );
    return;
  }
  const result = await benchBackend();
  if (backend === "postgres" && bigLogMib > 0) result.bigLog = await runBigLog();
  if (backend === "postgres" && !values["skip-pglite"]) {
    const lines = Math.min(targetLines, Number(values["pglite-lines"]));
    const events = Math.min(queryEvents, Number(values["pglite-query-events"]));
    log(`the embedded PGlite: ${lines.toLocaleString()} lines, queries on ${events.toLocaleString()} events (child process)`);
    result.pglite = await runPgliteBench(lines, events);
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  // one Markdown table: the machine, then lnav, plain COPY and bootline on the same input, then the rest
  const m = result.machine as ReturnType<typeof machine>;
  const rows: Array<[string, string]> = [["machine", `${m.cpu}, ${m.cpus} cores, ${m.memoryGb} GB memory, Node.js ${m.node}`], ...tableRows(result, "")];
  if (result.bigLog) rows.push(bigLogRow(result.bigLog as BigLogResult));
  const lite = result.pglite as Record<string, unknown> | undefined;
  if (lite?.error) rows.push(["PGlite", `the run failed: ${String(lite.error)}`]);
  else if (lite) rows.push(...tableRows(lite, "PGlite"));
  const cell = (t: string) => t.replaceAll("|", "\\|");
  process.stdout.write(`| measure | result |\n| --- | --- |\n`);
  for (const [k, v] of rows) process.stdout.write(`| ${cell(k)} | ${cell(v)} |\n`);
}

main().catch((e) => {
  process.stderr.write(`bench: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
