/**
 * Timeline read load against a running bootline app, optionally while a bundle ingests.
 *
 *   npm run load -- [--url http://127.0.0.1:3000] [--requests 2000] [--concurrency 20]
 *                   [--incident ID] [--boot ID] [--ingest FILE... | --generate-nodes N] [--json]
 *
 * A timeline read is one request the timeline page makes for a view of a boot, taken in turn:
 * the first page of the events table (200 rows) and the lanes' density, both over the boot's whole
 * range. The script keeps `--concurrency` reads in flight until `--requests` have completed and
 * prints the latency percentiles (p50, p95, p99, ms), the throughput (req/s) and the errors.
 *
 * With `--ingest FILE...` (the files of one upload) or `--generate-nodes N` (a generated Calico
 * reboot of N nodes, one `.tar.gz` per node inside one `.tar.gz`, about 52,800 lines per node), it
 * first uploads the bundle into a new incident and reads while it ingests: the reads go on until
 * the bundle is `ready` or `failed` (`--requests` does not apply), so the figures cover reads made
 * while the ingest ran; it also prints the ingest's time from upload to its end. With
 * `--concurrency 0` it only times the ingest.
 *
 * The incident and boot read are `--incident`/`--boot`, else the boot with the most events of
 * the first incident that has one (not the one being ingested). The token comes from
 * `BOOTLINE_AUTH_TOKEN`, sent as a Bearer.
 *
 * Bounded: loopback addresses only (127.0.0.1, ::1, localhost), at most 200 concurrent reads,
 * 100,000 requests, 30 s per request (then counted as an error) and `--max-seconds` (default
 * 600) of run time.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildTarGz } from "../lib/bundle/tar-build";
import { generateScenario } from "../lib/sample/index";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: "string", default: `http://127.0.0.1:${process.env.PORT ?? 3000}` },
    requests: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "20" },
    incident: { type: "string" },
    boot: { type: "string" },
    ingest: { type: "string", multiple: true },
    "generate-nodes": { type: "string" },
    "max-seconds": { type: "string", default: "600" },
    json: { type: "boolean", default: false },
  },
});

const MAX_CONCURRENCY = 200;
const MAX_REQUESTS = 100_000;
/** A request not answered within this long counts as an error, ms. */
const REQUEST_TIMEOUT_MS = 30_000;

function fail(message: string): never {
  process.stderr.write(`load: ${message}\n`);
  process.exit(2);
}

const base = new URL(values.url!);
if (!["127.0.0.1", "localhost", "[::1]", "::1"].includes(base.hostname))
  fail(`${base.hostname} is not a loopback address: the load script only drives an app on this machine`);
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const maxSeconds = Number(values["max-seconds"]);
if (!Number.isInteger(requests) || requests < 1 || requests > MAX_REQUESTS) fail(`--requests takes 1 to ${MAX_REQUESTS}`);
if (!Number.isInteger(concurrency) || concurrency < 0 || concurrency > MAX_CONCURRENCY) fail(`--concurrency takes 0 to ${MAX_CONCURRENCY}`);
if (!(maxSeconds > 0)) fail("--max-seconds takes a positive number");
const ingestFiles = [...(values.ingest ?? []), ...positionals];
const generateNodes = values["generate-nodes"] === undefined ? 0 : Number(values["generate-nodes"]);
if (!Number.isInteger(generateNodes) || generateNodes < 0 || generateNodes > 200) fail("--generate-nodes takes 1 to 200");
if (concurrency === 0 && !ingestFiles.length && !generateNodes) fail("--concurrency 0 only times an ingest (--ingest or --generate-nodes)");

const token = process.env.BOOTLINE_AUTH_TOKEN?.trim();
const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
const deadline = Date.now() + maxSeconds * 1000;
const log = (s: string) => process.stderr.write(`load: ${s}\n`);

async function getJson<T>(p: string): Promise<T> {
  const res = await fetch(new URL(p, base), { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Boot {
  incidentId: string;
  bootId: number;
  fromMs: number;
  toMs: number;
}

/** The boot to read: the one named, else the largest of the first incident that has boots (not `except`). */
async function pickBoot(except?: string): Promise<Boot> {
  type Inc = { nodes: Array<{ boots: Array<{ id: number; startMs: number; endMs: number | null }> }> };
  const ids = values.incident ? [values.incident] : (await getJson<Array<{ id: string }>>("/api/incidents")).map((i) => i.id);
  for (const id of ids) {
    if (id === except) continue;
    const inc = await getJson<Inc>(`/api/incidents/${encodeURIComponent(id)}`);
    const boots = inc.nodes.flatMap((n) => n.boots).filter((b) => !values.boot || String(b.id) === values.boot);
    if (!boots.length) continue;
    // the longest boot: the most rows to read
    const b = boots.reduce((a, c) => ((c.endMs ?? c.startMs) - c.startMs > (a.endMs ?? a.startMs) - a.startMs ? c : a));
    return { incidentId: id, bootId: b.id, fromMs: b.startMs - 60_000, toMs: (b.endMs ?? b.startMs) + 60_000 };
  }
  fail("no incident with a boot to read: upload a bundle first (npm run sample, then the home page or npm run ingest)");
}

/** A generated cluster reboot: one `.tar.gz` per node (the Calico scenario, named per node) inside one `.tar.gz`. */
function generateBundle(nodes: number): Buffer {
  const scenario = generateScenario("calico", { pods: 60, nodenameDelayS: 900, retryIntervalS: 15, seed: 3 });
  const node0 = scenario.truth.node;
  const members = Array.from({ length: nodes }, (_, i) => {
    const name = `ip-10-40-${Math.floor(i / 250)}-${(i % 250) + 1}.ec2.internal`;
    const files = scenario.files.map((f) => ({
      path: `./${f.path}`,
      content: f.content
        .split(node0)
        .join(name)
        .replace(/\]\[(\d+)\] /g, (_, pid: string) => `][${(Number(pid) + i * 7919) % 4194304}] `),
      mtimeMs: scenario.truth.collectedMs,
    }));
    return { path: `eks_${name}_2026-03-14_0300-UTC.tar.gz`, content: buildTarGz(files) };
  });
  return buildTarGz(members);
}

/** Uploads the files as one bundle into a new incident; resolves with its ids. */
async function upload(files: Array<{ name: string; data: Buffer }>): Promise<{ incidentId: string; bundleId: string }> {
  const form = new FormData();
  form.set("title", `load ${new Date().toISOString()}`);
  form.set("year", "2026");
  for (const f of files) form.append("files", new Blob([new Uint8Array(f.data)]), f.name);
  const res = await fetch(new URL("/api/uploads", base), { method: "POST", body: form, headers });
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return (await res.json()) as { incidentId: string; bundleId: string };
}

/** Polls the bundle every 250 ms until it ends; resolves with its status. */
async function waitBundle(bundleId: string): Promise<string> {
  for (;;) {
    // a poll that fails or times out is tried again
    const b = await getJson<{ status: string }>(`/api/bundles/${bundleId}`).catch(() => null);
    if (b && (b.status === "ready" || b.status === "failed")) return b.status;
    if (Date.now() > deadline) throw new Error(`the ingest did not end within --max-seconds ${maxSeconds}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface IngestRun {
  bundleId: string;
  status?: string;
  /** from the upload to the bundle's end */
  seconds?: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
  const ingesting = ingestFiles.length > 0 || generateNodes > 0;
  // made first: a kept-alive connection idle while a large bundle is generated is closed by the server
  const files = !ingesting
    ? []
    : generateNodes
      ? [{ name: `cluster-${generateNodes}-nodes.tar.gz`, data: generateBundle(generateNodes) }]
      : ingestFiles.map((f) => ({ name: path.basename(f), data: readFileSync(f) }));
  const boot = concurrency > 0 ? await pickBoot() : null;
  const paths = boot
    ? [
        `/api/incidents/${boot.incidentId}/boots/${boot.bootId}/events?from=${boot.fromMs}&to=${boot.toMs}&limit=200`,
        `/api/incidents/${boot.incidentId}/boots/${boot.bootId}/density?from=${boot.fromMs}&to=${boot.toMs}`,
      ]
    : [];
  let ingest = null as IngestRun | null;
  let ingestDone: Promise<void> = Promise.resolve();
  if (ingesting) {
    log(`uploading ${files.map((f) => `${f.name} (${(f.data.length / 1048576).toFixed(1)} MB)`).join(", ")}`);
    const startedMs = performance.now();
    const r = await upload(files);
    const run: IngestRun = { bundleId: r.bundleId };
    ingest = run;
    ingestDone = waitBundle(r.bundleId).then((status) => {
      run.status = status;
      run.seconds = (performance.now() - startedMs) / 1000;
    });
  }
  const latencies: number[] = [];
  const errors: string[] = [];
  let next = 0;
  let ingestOver = false;
  void ingestDone.then(() => (ingestOver = true));
  const started = performance.now();
  const more = () => (ingest ? !ingestOver : next < requests) && Date.now() < deadline && next < MAX_REQUESTS;
  const worker = async () => {
    while (more()) {
      const p = paths[next++ % paths.length];
      const t0 = performance.now();
      try {
        const res = await fetch(new URL(p, base), { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        await res.arrayBuffer();
        if (!res.ok) errors.push(`${res.status} ${p}`);
      } catch (e) {
        errors.push(`${(e as Error).message} ${p}`);
      }
      latencies.push(performance.now() - t0);
    }
  };
  if (boot)
    log(`${ingest ? "reading while the bundle ingests" : `${requests} reads`} at concurrency ${concurrency}: incident ${boot.incidentId}, boot ${boot.bootId}`);
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await ingestDone;
  const sorted = [...latencies].sort((a, b) => a - b);
  const result = {
    url: base.origin,
    concurrency,
    requests: latencies.length,
    errors: errors.length,
    seconds: +elapsed.toFixed(2),
    reqPerS: latencies.length ? +(latencies.length / elapsed).toFixed(1) : 0,
    p50Ms: Math.round(percentile(sorted, 50)),
    p95Ms: Math.round(percentile(sorted, 95)),
    p99Ms: Math.round(percentile(sorted, 99)),
    ingest: ingest ? { bundleId: ingest.bundleId, status: ingest.status, seconds: +(ingest.seconds ?? 0).toFixed(1) } : null,
  };
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    if (concurrency > 0)
      process.stdout.write(
        `${result.requests} timeline reads at concurrency ${concurrency} in ${result.seconds} s: ${result.reqPerS} req/s, p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms, p99 ${result.p99Ms} ms, ${result.errors} errors\n`,
      );
    if (result.ingest) process.stdout.write(`ingest ${result.ingest.bundleId}: ${result.ingest.status} after ${result.ingest.seconds} s\n`);
    for (const e of errors.slice(0, 5)) process.stdout.write(`  error: ${e}\n`);
  }
}

main().catch((e) => fail(`${(e as Error).message}${(e as Error).cause ? ` (${String((e as Error).cause)})` : ""}`));
