/**
 * `npm run ingest -- [--incident ID|TITLE] [--node NAME] [--tz ZONE] [--year YYYY]
 *                    [--collected ISO] [--skew [PATH=]SECONDS]... [--json] [--verbose] PATH...
 *
 * `--skew SECONDS` adds a clock offset to every Kubernetes events file, `--skew PATH=SECONDS` to
 * the file at that path in the bundle (replacing the estimated offset; lib/normalise/clock-skew.ts).`
 *
 * Ingests log bundles (archives, plain or .gz logs, or folders, which are packed as one
 * tar) into the configured database as one bundle. `--incident` adds to an existing
 * incident id; anything else is the title of a new incident. With `--json`, prints exactly
 * one JSON object (lib/incidents/get-incident-report.ts) on stdout; notes go to stderr.
 * Exits 1 with a message on stderr (and nothing on stdout) when nothing could be read: one line
 * of reason (an empty archive, a binary file, archives nested too deep), the pipeline's log and
 * the stack of an unexpected error only with `--verbose`.
 *
 * With the embedded database (`DATABASE_URL` unset) and the app running (on $PORT, else the port
 * the app wrote into the database folder's owner file, else 3000), the bundle is sent to the app
 * (PGlite allows one process per data folder); when another process holds the folder and is not
 * reachable, opening it fails with a message naming that process (lib/db/connection.ts).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildTar } from "../lib/bundle/tar-build";
import { closeDb, openDb, pgliteOwner } from "../lib/db/connection";
import { claimBundle } from "../lib/ingest/bundle-status";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";

/** A file the CLI read into memory. */
type InputFile = { name: string; data: Buffer };
import { type PipelineLog, processBundle } from "../lib/ingest/pipeline";
import { getIncidentReport, type IncidentReport } from "../lib/incidents/get-incident-report";

const USAGE =
  "usage: npm run ingest -- [--incident ID|TITLE] [--node NAME] [--tz ZONE] [--year YYYY] [--collected ISO] [--skew [PATH=]SECONDS]... [--json] [--verbose] PATH...";

/** `--skew` values → the bundle option (lib/normalise/clock-skew.ts SkewOption). */
function parseSkew(values: string[] | undefined): number | Record<string, number> | null {
  if (!values || values.length === 0) return null;
  const byPath: Record<string, number> = {};
  for (const v of values) {
    const eq = v.lastIndexOf("=");
    const num = Number(eq >= 0 ? v.slice(eq + 1) : v);
    if (!Number.isFinite(num)) fail(`--skew ${v}: not a number of seconds`);
    if (eq < 0) {
      if (values.length > 1) fail("--skew SECONDS (for all event files) cannot be combined with other --skew values");
      return num;
    }
    byPath[v.slice(0, eq)] = num;
  }
  return byPath;
}

function fail(msg: string): never {
  process.stderr.write(`${msg}\n`);
  process.exit(1);
}

function walk(dir: string, base = dir): Array<{ rel: string; abs: string }> {
  const out: Array<{ rel: string; abs: string }> = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(abs, base));
    else if (e.isFile()) out.push({ rel: path.relative(base, abs).split(path.sep).join("/"), abs });
  }
  return out;
}

function readInputs(paths: string[]): InputFile[] {
  return paths.map((p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      fail(`${p}: no such file or folder`);
    }
    if (st.isDirectory()) {
      const name = path.basename(path.resolve(p));
      const members = walk(p).map((f) => ({ path: `${name}/${f.rel}`, content: readFileSync(f.abs), mtimeMs: statSync(f.abs).mtimeMs }));
      return { name: `${name}.tar`, data: buildTar(members) };
    }
    return { name: path.basename(p), data: readFileSync(p) };
  });
}

async function viaRunningApp(files: InputFile[], fields: Record<string, string>): Promise<IncidentReport | null> {
  // the app's port: PORT, else the one the app holding the embedded database wrote down
  const base = `http://127.0.0.1:${process.env.PORT ?? pgliteOwner()?.port ?? 3000}`;
  try {
    const h = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(1500) });
    const j = (await h.json()) as { app?: string; backend?: string };
    if (j.app !== "bootline" || j.backend !== "pglite") return null;
  } catch {
    return null;
  }
  process.stderr.write(`bootline: the app is running on ${base}; sending the bundle to it\n`);
  // `--incident` names an incident or the title of a new one; the app takes an id only (404 for an unknown one)
  if (fields.incidentId) {
    const known = await fetch(`${base}/api/incidents/${encodeURIComponent(fields.incidentId)}`, { headers: authHeaders() });
    if (!known.ok) {
      fields.title = fields.incidentId;
      delete fields.incidentId;
    }
  }
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const f of files) form.append("files", new Blob([new Uint8Array(f.data)]), f.name);
  const r = await fetch(`${base}/api/uploads`, { method: "POST", body: form, headers: authHeaders() });
  const up = (await r.json()) as { incidentId?: string; bundleId?: string; error?: { message: string } };
  if (!r.ok || !up.bundleId) fail(`upload refused: ${up.error?.message ?? r.status}`);
  for (;;) {
    const s = (await (await fetch(`${base}/api/bundles/${up.bundleId}`, { headers: authHeaders() })).json()) as { status: string; error: string | null };
    if (s.status === "failed") fail(`bundle failed: ${s.error}`);
    if (s.status === "ready") break;
    await new Promise((res) => setTimeout(res, 300));
  }
  return (await (await fetch(`${base}/api/incidents/${up.incidentId}/report`, { headers: authHeaders() })).json()) as IncidentReport;
}

function printHuman(r: IncidentReport): void {
  const out = process.stdout;
  out.write(`incident ${r.incidentId}  "${r.title}"\n\nfiles:\n`);
  for (const f of r.files) {
    const why = f.reason ? `  (${f.status}: ${f.reason})` : "";
    out.write(
      `  ${f.path}  ${f.kind}/${f.format}  node=${f.node ?? "-"}  lines=${f.lines} parsed=${f.parsed} blank=${f.blank} skipped=${f.skipped}  records=${f.records} timed=${f.timed} aged=${f.aged} untimed=${f.untimed}${why}\n`,
    );
  }
  out.write("\nnodes:\n");
  for (const n of r.nodes) {
    const mark = n.nameSource === "upload" ? "  [not named by the logs: named after the upload; give --node NAME]" : "";
    for (const b of n.boots) {
      out.write(`  ${n.name}  boot ${b.id}  ${b.start} .. ${b.end ?? "?"}  (${b.detectedBy}${b.approximate ? ", T+0 approximate" : ""})${mark}\n`);
      for (const f of b.failures)
        out.write(
          `    ${f.kind} ${f.errorClass ?? "(no cause stated)"}: ${f.lines} line${f.lines === 1 ? "" : "s"}${f.occurrences !== f.lines ? ` (${f.occurrences} occurrences)` : ""}, ${f.first ?? "?"} .. ${f.last ?? "?"}\n`,
        );
    }
    if (!n.boots.length) out.write(`  ${n.name}  no boot (no record has a time)${mark}\n`);
  }
  out.write("\nfindings:\n");
  for (const f of r.findings) out.write(`  [${f.severity}] ${f.node} ${f.detector} ${f.start} .. ${f.end ?? "open"}\n    ${f.explanation}\n`);
  if (!r.findings.length) out.write("  none\n");
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      incident: { type: "string" },
      node: { type: "string" },
      tz: { type: "string" },
      year: { type: "string" },
      collected: { type: "string" },
      skew: { type: "string", multiple: true },
      json: { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!positionals.length) fail(USAGE);
  const year = values.year ? Number(values.year) : null;
  if (year !== null && !(Number.isInteger(year) && year >= 1970 && year <= 2100)) fail(`--year ${values.year}: not a year`);
  if (values.collected && Number.isNaN(Date.parse(values.collected))) fail(`--collected ${values.collected}: not an ISO date`);
  if (values.tz) {
    try {
      if (!/^[+-]\d{2}:?\d{2}$/.test(values.tz)) new Intl.DateTimeFormat("en-US", { timeZone: values.tz });
    } catch {
      fail(`--tz ${values.tz}: unknown time zone`);
    }
  }
  const files = readInputs(positionals);
  const skew = parseSkew(values.skew);
  const options = {
    node: values.node ?? null,
    tz: values.tz ?? null,
    year,
    collected: values.collected ? new Date(values.collected).toISOString() : null,
    skew,
  };

  let report: IncidentReport | null = null;
  if (!process.env.DATABASE_URL) {
    const fields: Record<string, string> = {};
    if (values.incident) fields.incidentId = values.incident;
    if (options.node) fields.node = options.node;
    if (options.tz) fields.tz = options.tz;
    if (options.year) fields.year = String(options.year);
    if (options.collected) fields.collected = options.collected;
    if (options.skew !== null) fields.skew = JSON.stringify(options.skew);
    report = await viaRunningApp(files, fields);
  }
  if (!report) {
    const db = await openDb(process.env.DATABASE_URL);
    try {
      // the database named before the run with --verbose, else once the bundle is stored: a refused
      // bundle reads as its one line of reason
      const where = db.backend === "pglite" ? `the embedded database at ${db.location}` : db.location;
      if (values.verbose) process.stderr.write(`bootline: ingesting into ${where}\n`);
      const { incidentId, bundleId } = await enqueueBundle(db, { incident: values.incident, files, options });
      await claimBundle(db.sql, bundleId);
      const r = await processBundle(db, bundleId, { log: values.verbose ? console : QUIET });
      if (r.status === "failed") fail(`bootline: ${r.error}`);
      if (!values.verbose) process.stderr.write(`bootline: stored in ${where}\n`);
      report = await getIncidentReport(db, incidentId);
    } finally {
      await closeDb(db);
    }
  }
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printHuman(report);
}

/** The pipeline's log without `--verbose`: the CLI prints the bundle's reason itself, once. */
const QUIET: PipelineLog = { error: () => {}, warn: () => {} };

main().catch((e) => fail(`bootline: ${process.argv.includes("--verbose") ? ((e as Error).stack ?? e) : e instanceof Error ? e.message : String(e)}`));

/** `Authorization: Bearer` for a running app that needs BOOTLINE_AUTH_TOKEN (the same variable in the CLI's environment). */
function authHeaders(): Record<string, string> {
  const t = process.env.BOOTLINE_AUTH_TOKEN?.trim();
  return t ? { Authorization: `Bearer ${t}` } : {};
}
