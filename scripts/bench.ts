/**
 * `npm run bench [-- --json] [--lines N] [--query-events N] [--backend pg|pglite|both]`
 *
 * Measures, on this machine, in one run (issue "Ingest and query at scale"):
 * - end-to-end ingest (unpack, parse, normalise, COPY, detect) of a generated bundle of
 *   about N lines (default 1,000,000) in lines/s and MB/s, with the peak RSS of the process;
 * - the physical baseline: plain COPY of the same already-parsed rows into the same table
 *   (exported from the ingested bundle, copied back in a transaction that is rolled back),
 *   and the ratio ingest/COPY;
 * - parse-only throughput per format;
 * - timeline queries on a store of `--query-events` events (default 10,000,000; the
 *   ingested rows are replicated server-side to reach it): lane-density histogram for a
 *   boot window, an events page for a range, and a search; median and p95 of 20 runs.
 * Prints a table, or one JSON object with `--json`. Input bundles come from the scenario
 * generator (lib/sample): the Calico nodename race on many nodes (a cluster-wide reboot).
 *
 * Needs PostgreSQL at BOOTLINE_TEST_PG (default postgresql://postgres@127.0.0.1:5432/test);
 * creates and drops its own database.
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import { buildTarGz } from "../lib/bundle/tar-build";
import { unpackUpload } from "../lib/bundle/unpack";
import { parseFile } from "../lib/parse/parse-file";
import { generateScenario } from "../lib/sample/index";

const { values } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    lines: { type: "string", default: "1000000" },
    "query-events": { type: "string", default: "10000000" },
    "skip-queries": { type: "boolean", default: false },
  },
});
const targetLines = Number(values.lines);
const queryEvents = Number(values["query-events"]);
const TEST_PG = process.env.BOOTLINE_TEST_PG ?? "postgresql://postgres@127.0.0.1:5432/test";
const log = (s: string) => process.stderr.write(`bench: ${s}\n`);

// ---------------------------------------------------------------- input
function makeBundle(lines: number) {
  const base = generateScenario("calico", { pods: 60, nodenameDelayS: 900, retryIntervalS: 15, seed: 3 });
  const node0 = base.truth.node;
  const perNode = base.files.reduce((n, f) => n + f.content.split("\n").length - (f.content.endsWith("\n") ? 1 : 0), 0);
  const nodes = Math.max(1, Math.ceil(lines / perNode));
  const uploads: Array<{ name: string; data: Buffer }> = [];
  let total = 0;
  let bytes = 0;
  for (let i = 0; i < nodes; i++) {
    const name = `ip-10-20-${Math.floor(i / 250)}-${(i % 250) + 1}.ec2.internal`;
    const files = base.files.map((f) => ({ path: `./${f.path}`, content: f.content.split(node0).join(name), mtimeMs: base.truth.collectedMs }));
    for (const f of files) bytes += Buffer.byteLength(f.content);
    total += perNode;
    uploads.push({ name: `eks_${name}_2026-03-14_0300-UTC.tar.gz`, data: buildTarGz(files) });
  }
  return { uploads, lines: total, bytes, nodes, sampleFiles: base.files };
}

// ---------------------------------------------------------------- helpers
function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { medianMs: +q(0.5).toFixed(2), p95Ms: +q(0.95).toFixed(2) };
}
async function time<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
}

async function main() {
  const dbName = `bootline_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: TEST_PG });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const u = new URL(TEST_PG);
  u.pathname = `/${dbName}`;
  process.env.DATABASE_URL = u.toString();
  process.env.BOOTLINE_DATA_DIR ??= `.tmp/bench-${process.pid}`;
  const result: Record<string, unknown> = { machine: { cpus: (await import("node:os")).cpus().length, node: process.version } };
  try {
    const { getDb } = await import("../lib/db/connection");
    const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
    const { processBundle } = await import("../lib/ingest/process-bundle");
    const db = await getDb();

    log(`generating a bundle of about ${targetLines.toLocaleString()} lines`);
    const input = makeBundle(targetLines);
    log(`${input.nodes} nodes, ${input.lines.toLocaleString()} lines, ${(input.bytes / 1e6).toFixed(1)} MB`);

    // parse-only per format
    const perFormat: Record<string, { lines: number; linesPerSec: number }> = {};
    for (const f of input.sampleFiles) {
      const reps = Math.max(1, Math.ceil(200_000 / f.content.split("\n").length));
      const text = Array(reps).fill(f.content).join("");
      const t = performance.now();
      const p = parseFile(f.path, text, { uploadMs: Date.now() });
      const dt = (performance.now() - t) / 1000;
      const key = p.format;
      const prev = perFormat[key];
      const lines = p.counts.lines + (prev?.lines ?? 0);
      perFormat[key] = { lines, linesPerSec: Math.round(p.counts.lines / dt) };
    }
    result.parse = perFormat;

    // end-to-end ingest
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const t0 = performance.now();
    const { bundleId, incidentId } = await enqueueBundle(db, { title: "bench", files: input.uploads });
    await db.sql.query(`UPDATE "Bundle" SET status = 'parsing' WHERE id = $1`, [bundleId]);
    const r = await processBundle(db, bundleId);
    const ingestS = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    if (r.status !== "ready") throw new Error(`ingest failed: ${r.error}`);
    const ingest = {
      lines: input.lines,
      events: r.events,
      seconds: +ingestS.toFixed(2),
      linesPerSec: Math.round(input.lines / ingestS),
      mbPerSec: +(input.bytes / 1e6 / ingestS).toFixed(1),
      peakRssMb: Math.round(peakRss / 1e6),
      ratioToCopy: 0,
      timings: ((await db.prisma.bundle.findUniqueOrThrow({ where: { id: bundleId } })).counts as { timings?: Record<string, number> }).timings ?? {},
    };
    log(`ingest: ${ingest.linesPerSec.toLocaleString()} lines/s, peak RSS ${ingest.peakRssMb} MB, phases ${JSON.stringify(ingest.timings)}`);

    // plain COPY of the same rows into the same table
    const cols = `"incidentId","bundleId","fileId","nodeId","bootId",line,span,ts,precision,flags,component,lane,severity,kind,pod,"sandboxId","errorClass",message,fields`;
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const { to, from } = await import("pg-copy-streams");
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      const s = client.query(to(`COPY (SELECT ${cols} FROM "Event" WHERE "bundleId" = '${bundleId}') TO STDOUT`));
      s.on("data", (c: Buffer) => chunks.push(c));
      s.on("end", () => resolve());
      s.on("error", reject);
    });
    await client.query("BEGIN");
    const tc = performance.now();
    await new Promise<void>((resolve, reject) => {
      const s = client.query(from(`COPY "Event" (${cols}) FROM STDIN`));
      s.on("finish", () => resolve());
      s.on("error", reject);
      for (const c of chunks) s.write(c);
      s.end();
    });
    const copyS = (performance.now() - tc) / 1000;
    await client.query("ROLLBACK");
    chunks.length = 0;
    const copy = { rows: r.events, seconds: +copyS.toFixed(2), rowsPerSec: Math.round(r.events / copyS), linesPerSec: Math.round(input.lines / copyS) };
    ingest.ratioToCopy = +(copyS / ingestS).toFixed(3);
    result.ingest = ingest;
    result.copy = copy;
    log(`plain COPY: ${copy.rowsPerSec.toLocaleString()} rows/s; ingest/COPY = ${ingest.ratioToCopy}`);

    if (!values["skip-queries"]) {
      // grow the store to `queryEvents` rows by replicating the bundle's events server-side
      let stored = Number((await client.query(`SELECT count(*) FROM "Event"`)).rows[0].count);
      log(`growing the store to ${queryEvents.toLocaleString()} events (now ${stored.toLocaleString()})`);
      while (stored < queryEvents) {
        const need = queryEvents - stored;
        await client.query(
          `INSERT INTO "Event" (${cols}) SELECT ${cols} FROM "Event" WHERE "bundleId" = $1 ORDER BY id LIMIT $2`,
          [bundleId, Math.min(need, r.events)],
        );
        stored += Math.min(need, r.events);
      }
      await client.query(`ANALYZE "Event"`);
      const { getLaneDensity } = await import("../lib/timeline/get-lane-density");
      const { getEventsPage } = await import("../lib/timeline/get-events-page");
      const { LANES } = await import("../lib/timeline/lanes");
      const boots = (await client.query(`SELECT b.id, b.start, b."end", (SELECT count(*) FROM "Event" e WHERE e."bootId" = b.id) AS n FROM "Boot" b WHERE b."incidentId" = $1 ORDER BY n DESC LIMIT 10`, [incidentId])).rows;
      const hist: number[] = [];
      const page: number[] = [];
      const search: number[] = [];
      const count: number[] = [];
      const { countEvents } = await import("../lib/timeline/count-events");
      for (let i = 0; i < 20; i++) {
        const b = boots[i % boots.length];
        const fromMs = new Date(b.start).getTime();
        const toMs = new Date(b.end ?? b.start).getTime() + 1;
        hist.push((await time(() => getLaneDensity({ incidentId, bootId: b.id, fromMs, toMs })))[1]);
        const mid = fromMs + (toMs - fromMs) / 3;
        page.push((await time(() => getEventsPage({ incidentId, bootId: b.id, fromMs: mid, toMs, lanes: LANES, limit: 200 })))[1]);
        search.push((await time(() => getEventsPage({ incidentId, bootId: b.id, fromMs, toMs, lanes: LANES, q: "nodename", limit: 200 })))[1]);
        count.push((await time(() => countEvents({ incidentId, bootId: b.id, fromMs, toMs, lanes: LANES, q: "no-such-word" })))[1]);
      }
      result.query = {
        storedEvents: stored,
        eventsPerBoot: Number(boots[0].n),
        histogram: stats(hist),
        events: stats(page),
        search: stats(search),
        searchCount: stats(count),
      };
    }
    await client.end();
    const { closeDb } = await import("../lib/db/connection");
    await closeDb(db);
  } finally {
    const a = new pg.Client({ connectionString: TEST_PG });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await a.end();
  }

  if (values.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const i = result.ingest as Record<string, number>;
  const c = result.copy as Record<string, number>;
  const rows: Array<[string, string]> = [
    ["ingest end to end", `${i.linesPerSec.toLocaleString()} lines/s, ${i.mbPerSec} MB/s (${i.lines.toLocaleString()} lines, ${i.events.toLocaleString()} events, ${i.seconds} s)`],
    ["peak RSS during ingest", `${i.peakRssMb} MB`],
    ["plain COPY of the same rows", `${c.rowsPerSec.toLocaleString()} rows/s (${c.seconds} s)`],
    ["ingest / COPY", String(i.ratioToCopy)],
  ];
  for (const [k, v] of Object.entries(result.parse as Record<string, { linesPerSec: number }>)) rows.push([`parse only: ${k}`, `${v.linesPerSec.toLocaleString()} lines/s`]);
  const q = result.query as Record<string, { medianMs: number; p95Ms: number }> & { storedEvents: number } | undefined;
  if (q) {
    rows.push(["query store", `${q.storedEvents.toLocaleString()} events`]);
    for (const k of ["histogram", "events", "search", "searchCount"]) rows.push([`query ${k}`, `median ${q[k].medianMs} ms, p95 ${q[k].p95Ms} ms`]);
  }
  const w = Math.max(...rows.map((r) => r[0].length));
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(w)}  ${v}\n`);
}

main().catch((e) => {
  process.stderr.write(`bench: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
