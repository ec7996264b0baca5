/**
 * `tsx scripts/bench-search-index.ts [--events N] [--dir DIR] [--skip-one] [--json]`
 *
 * How long the search index's build holds the embedded database (PGlite, one connection for the
 * whole app) for a bundle of at least N events (default 500,000): the bench's Calico storm of
 * one node (lib/sample) stored by the real ingest into a fresh PGlite folder, its events copied
 * within the bundle up to N, then built two ways, each while a probe sends `SELECT 1` every
 * 50 ms (a request waiting for the connection):
 * - `oneStatement`: one `CREATE INDEX` of a GIN index on the event words over the bundle's rows;
 * - `sliced`: `buildSearchIndex` (lib/search/search-index.ts), the word table and the word counts filled in slices.
 * For each: the whole build, the longest single statement and the longest probe wait (ms), and
 * the statements run. Then checks that search from the word table counts what a scan counts.
 *
 * `--skip-one`: leave out the one-statement build (it takes minutes at 500,000 events).
 * `--dir`: the PGlite folder to create (must not exist; removed at the end). Default: a new
 * folder under .tmp/.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { SqlDb } from "../lib/db/sql";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "500000" },
    dir: { type: "string" },
    json: { type: "boolean", default: false },
    "skip-one": { type: "boolean", default: false },
  },
});
const target = Number(values.events);
if (!(target > 0)) throw new Error("--events takes a positive number");
const log = (s: string) => process.stderr.write(`bench-search-index: ${s}\n`);

const COPY_COLS = `"incidentId","bundleId","fileId","nodeId","bootId",line,span,ts,precision,flags,component,lane,severity,kind,pod,"sandboxId","errorClass",message,fields,"fieldsAt"`;

/** `sql` with the time of each `query`/`exec` pushed to `times` (ms, with the statement's first words). */
function timed(sql: SqlDb, times: Array<{ ms: number; sql: string }>): SqlDb {
  return new Proxy(sql, {
    get(t, k) {
      const v = Reflect.get(t, k);
      if (k !== "query" && k !== "exec") return typeof v === "function" ? v.bind(t) : v;
      return async (...a: unknown[]) => {
        const s = performance.now();
        try {
          return await (v as (...x: unknown[]) => Promise<unknown>).apply(t, a);
        } finally {
          times.push({ ms: performance.now() - s, sql: String(a[0]).replace(/\s+/g, " ").slice(0, 60) });
        }
      };
    },
  });
}

/**
 * Runs `fn` while `SELECT 1` is sent every 50 ms; the longest wait of one probe, ms: from when it
 * was due to its answer (PGlite runs a statement on this thread, so a long one delays the timer
 * as well as the query).
 */
async function probed<T>(sql: SqlDb, fn: () => Promise<T>): Promise<[T, number]> {
  let worst = 0;
  let stop = false;
  const probe = (async () => {
    while (!stop) {
      const due = performance.now() + 50;
      await new Promise((r) => setTimeout(r, 50));
      await sql.query("SELECT 1");
      worst = Math.max(worst, performance.now() - due);
    }
  })();
  try {
    const r = await fn();
    stop = true;
    await probe;
    return [r, worst];
  } finally {
    stop = true;
    await probe;
  }
}

const round = (x: number) => Math.round(x);

async function main() {
  const dir = values.dir ? path.resolve(values.dir) : mkdtempSync(path.join(process.cwd(), ".tmp", "bench-search-index-"));
  if (values.dir) {
    if (existsSync(dir)) throw new Error(`${dir} exists: give a new folder`);
    mkdirSync(dir, { recursive: true });
  }
  delete process.env.DATABASE_URL;
  process.env.BOOTLINE_DATA_DIR = dir;
  const { closeDb, getDb } = await import("../lib/db/connection");
  const { generateScenario } = await import("../lib/sample/index");
  const { buildTarGz } = await import("../lib/bundle/tar-build");
  const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
  const { processBundle } = await import("../lib/ingest/pipeline");
  const { buildSearchIndex } = await import("../lib/search/search-index");
  const { searchIncident } = await import("../lib/search/search-incident");
  const { docWordsSql, matchRegexSql, QUERY_WORDS_SQL } = await import("../lib/search/search-sql");
  const db = await getDb();
  const { sql } = db;
  try {
    const s = generateScenario("calico", { pods: 60, nodenameDelayS: 900, retryIntervalS: 15, seed: 3 });
    const up = path.join(dir, "upload.tar.gz");
    writeFileSync(up, buildTarGz(s.files.map((f) => ({ path: `./${f.path}`, content: f.content, mtimeMs: s.truth.collectedMs }))));
    log("storing the generated bundle");
    const e = await enqueueBundle(db, { title: "bench-search-index", files: [{ name: "upload.tar.gz", path: up }], options: { year: 2026 } });
    const r = await processBundle(db, e.bundleId);
    if (r.status !== "ready") throw new Error(`the bundle ended ${r.status}: ${r.error}`);
    // the background build the ingest may have queued is not waited for: this script builds itself
    const count = async () => Number((await sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM "Event" WHERE "bundleId" = $1`, [e.bundleId]))[0].n);
    let n = await count();
    log(`copying the bundle's ${n.toLocaleString()} events up to ${target.toLocaleString()}`);
    while (n < target) {
      await sql.query(`INSERT INTO "Event" (${COPY_COLS}) SELECT ${COPY_COLS} FROM "Event" WHERE "bundleId" = $1 ORDER BY id LIMIT $2`, [
        e.bundleId,
        Math.min(target - n, n),
      ]);
      n = await count();
    }
    await sql.exec(`VACUUM ANALYZE "Event"`);
    // the search index a scheduled build may have made for the bundle before it grew
    await sql.exec(`DROP TABLE IF EXISTS "Search_words_${e.bundleId}"`);

    const one: Array<{ ms: number; sql: string }> = [];
    let oneMs = 0;
    let oneWait = 0;
    if (!values["skip-one"]) {
      log(`one statement: CREATE INDEX over ${n.toLocaleString()} events`);
      const t1 = performance.now();
      [, oneWait] = await probed(sql, () =>
        timed(sql, one).exec(`CREATE INDEX "bench_one_statement" ON "Event" USING gin ((${docWordsSql("")})) WHERE "bundleId" = '${e.bundleId}'`),
      );
      oneMs = performance.now() - t1;
      await sql.exec(`DROP INDEX "bench_one_statement"`);
    }

    log("sliced: buildSearchIndex");
    const sliced: Array<{ ms: number; sql: string }> = [];
    const t2 = performance.now();
    const [ok, slicedWait] = await probed(sql, () => buildSearchIndex(timed(sql, sliced), e.bundleId));
    const slicedMs = performance.now() - t2;
    if (!ok) throw new Error("the search index was not built");

    // exact counts: search from the word table against a scan with the match's own condition
    const checks: Record<string, { search: number; scan: number }> = {};
    for (const q of ["failed", "nodename", s.truth.node]) {
      const res = await searchIncident({ incidentId: e.incidentId, q });
      if (res.bundles.scanned) throw new Error("search scanned the bundle: the word table is not in use");
      const [w] = await sql.query<{ re: string }>(QUERY_WORDS_SQL, [q]);
      const [c] = await sql.query<{ n: string | number }>(`SELECT count(*) AS n FROM "Event" e WHERE e."bundleId" = $1 AND ${matchRegexSql("e.", "$2")}`, [
        e.bundleId,
        w.re,
      ]);
      checks[q] = { search: res.total, scan: Number(c.n) };
      if (res.total !== Number(c.n)) throw new Error(`"${q}": search counted ${res.total}, a scan ${c.n}`);
    }
    const longest = (xs: Array<{ ms: number; sql: string }>) => xs.reduce((m, x) => (x.ms > m.ms ? x : m), { ms: 0, sql: "" });
    const out = {
      events: n,
      oneStatement: values["skip-one"]
        ? null
        : {
            ms: round(oneMs),
            longestStatementMs: round(longest(one).ms),
            longestStatement: longest(one).sql,
            longestProbeWaitMs: round(oneWait),
            statements: one.length,
          },
      sliced: {
        ms: round(slicedMs),
        longestStatementMs: round(longest(sliced).ms),
        longestStatement: longest(sliced).sql,
        p95StatementMs: round([...sliced].sort((x, y) => x.ms - y.ms)[Math.floor(sliced.length * 0.95)]?.ms ?? 0),
        longestProbeWaitMs: round(slicedWait),
        statements: sliced.length,
      },
      counts: checks,
    };
    if (values.json) process.stdout.write(`${JSON.stringify(out)}\n`);
    else {
      process.stdout.write(
        `| build of ${n.toLocaleString()} events on PGlite | whole build | longest statement | longest wait of a request | statements |\n| --- | --- | --- | --- | --- |\n`,
      );
      for (const [k, v] of [
        ["one CREATE INDEX", out.oneStatement],
        ["word table in slices", out.sliced],
      ] as const) {
        if (!v) continue;
        process.stdout.write(
          `| ${k} | ${(v.ms / 1000).toFixed(1)} s | ${v.longestStatementMs} ms (\`${v.longestStatement}…\`) | ${v.longestProbeWaitMs} ms | ${v.statements} |\n`,
        );
      }
      process.stdout.write(`word table: p95 of its statements ${out.sliced.p95StatementMs} ms\n`);
      process.stdout.write(`exact counts (search = scan): ${JSON.stringify(checks)}\n`);
    }
  } finally {
    await closeDb(db);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
