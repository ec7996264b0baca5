/**
 * Child process of tests/unpack-rss.test.ts: ingests refused archive bombs on PostgreSQL through
 * the ingest's own path (enqueueBundle, then processBundle on the ingest threads) and samples this
 * process's resident memory (threads included) every 10 ms. Prints one JSON line:
 * `{ baselineMb, runs: [{ name, status, peakGrowthMb, afterGrowthMb, files }], next }`, where
 * `files` is the report's listing of each bundle and `next` the outcome of a good upload after them.
 *
 * The bombs are gzip streams of several members (RFC 1952 section 2.2: a gzip file is a series
 * of members, read as one stream), so gigabytes of zeros cost one 64 MiB deflate to build.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Header } from "tar";
import { buildTarGz } from "../lib/bundle/tar-build";
import { createTestDb } from "../lib/db/test-db";
import { getIncidentReport } from "../lib/incidents/get-incident-report";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

const kubelet = (n: number) =>
  Array.from({ length: n }, (_, i) => {
    const t = new Date(Date.UTC(2026, 2, 14, 2, 10, i)).toISOString().slice(11, 19);
    return `Mar 14 ${t} node-h1 kubelet[1234]: I0314 ${t}.123456    1234 kubelet.go:2321] "sync loop ${i}"\n`;
  }).join("");

/** A ustar header block for a regular file of `size` bytes. */
function header(name: string, size: number): Buffer {
  const b = Buffer.alloc(512);
  new Header({ path: name, mode: 0o644, size, mtime: new Date(0), type: "File", uid: 0, gid: 0 }).encode(b, 0);
  return b;
}
const pad = (n: number) => Buffer.alloc((512 - (n % 512)) % 512);

const zeros64 = gzipSync(Buffer.alloc(64 * MiB));
const good = Buffer.from(kubelet(40));

/** A .tar.gz: `node-h1/kubelet.log` (40 lines), then `node-h1/huge.bin` of `hugeBytes` zeros, then `tail` members. */
function tarBomb(hugeBytes: number, tail: Buffer[] = []): Buffer {
  const head = gzipSync(Buffer.concat([header("node-h1/kubelet.log", good.length), good, pad(good.length), header("node-h1/huge.bin", hugeBytes)]));
  const body = Array.from({ length: hugeBytes / (64 * MiB) }, () => zeros64);
  return Buffer.concat([head, ...body, gzipSync(Buffer.concat([...tail, Buffer.alloc(1024)]))]);
}

async function main(): Promise<void> {
  const dataDir = path.join(process.cwd(), ".tmp", `unpack-rss-${process.pid}`);
  mkdirSync(dataDir, { recursive: true });
  process.env.BOOTLINE_DATA_DIR = dataDir;
  const db = await createTestDb();
  const rss = () => process.memoryUsage().rss / MiB;
  const gc = () => (globalThis as { gc?: () => void }).gc?.();
  try {
    const ingest = async (name: string, data: Buffer) => {
      const file = path.join(dataDir, `upload-${randomBytes(4).toString("hex")}`);
      writeFileSync(file, data);
      const e = await enqueueBundle(db, { title: name, files: [{ name, path: file }], options: { year: 2026 } });
      const result = await processBundle(db, e.bundleId);
      const report = await getIncidentReport(db, e.incidentId);
      return { result, files: report.files.map((f) => ({ path: f.path, status: f.status, reason: f.reason ?? null, records: f.records ?? 0 })) };
    };
    // warm-up: the ingest threads started and their code loaded
    await ingest("warm.tar.gz", buildTarGz([{ path: "node-w/kubelet.log", content: kubelet(20) }]));
    const noise = randomBytes(12 * MiB);
    const cases: Array<[string, Buffer]> = [
      // 2 GiB member, refused from its header as too large; the stream is read past it (the noise keeps the ratio under its limit)
      ["too-large.tar.gz", tarBomb(2 * GiB, [header("node-h1/noise.bin", noise.length), noise, pad(noise.length)])],
      // 3 GiB of zeros in 3 MB: the ratio budget stops the stream inside the refused member
      ["bomb.tar.gz", tarBomb(3 * GiB)],
      // a plain .gz of 1 GiB (and the noise): stopped at the per-file limit as it streams
      ["big.log.gz", Buffer.concat([...Array.from({ length: 16 }, () => zeros64), gzipSync(noise, { level: 0 })])],
    ];
    gc();
    await new Promise((r) => setTimeout(r, 300));
    const baseline = rss();
    const runs = [];
    for (const [name, data] of cases) {
      let peak = rss();
      const timer = setInterval(() => (peak = Math.max(peak, rss())), 10);
      const { result, files } = await ingest(name, data);
      clearInterval(timer);
      peak = Math.max(peak, rss());
      gc();
      await new Promise((r) => setTimeout(r, 300));
      runs.push({
        name,
        uploadMb: +(data.length / MiB).toFixed(1),
        status: result.status,
        error: result.error,
        peakGrowthMb: Math.round(peak - baseline),
        afterGrowthMb: Math.round(rss() - baseline),
        files,
      });
    }
    const next = await ingest("next.tar.gz", buildTarGz([{ path: "node-n/kubelet.log", content: kubelet(30) }]));
    process.stdout.write(`${JSON.stringify({ baselineMb: Math.round(baseline), runs, next: { status: next.result.status, events: next.result.events } })}\n`);
  } finally {
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
