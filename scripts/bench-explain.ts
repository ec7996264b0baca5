/**
 * `npx tsx scripts/bench-explain.ts [--events N] [--backend postgres|pglite] [--runs N] [--json]`:
 * the reads of "what changed in this boot" on a boot of about `--events` events (default 500,000):
 * the patterns panel (`getBootPatterns`), the diff against the node's previous boot
 * (`getBootDiff`), and "explain this range" (`getRangeExplain`) on a 3-minute burst against the
 * span before it and against the rest of the boot, and on the boot's middle third (a range past
 * the exact-count limit: templates from the histograms). Median and p95 of `--runs` runs (default
 * 10), ms, after one warm-up run; for the whole-boot baseline also its first call
 * (`explainBurstBootFirstMs`: the boot's scan, which later ranges reuse).
 *
 * The input is one generated journal of one node: a previous boot of a tenth the size, a
 * `-- Reboot --`, then the big boot with 5 background lines a second (containerd, systemd,
 * kube-proxy, kubelet probes, an image pull back-off every 30 s) and a 3-minute burst of a
 * kubelet sandbox failure for one pod in its middle, ingested through the real pipeline into a
 * fresh database (PostgreSQL: a test database on BOOTLINE_TEST_PG, dropped after; PGlite: a
 * temporary folder).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    events: { type: "string", default: "500000" },
    backend: { type: "string", default: "postgres" },
    runs: { type: "string", default: "10" },
    json: { type: "boolean", default: false },
  },
});
const events = Number(values.events);
const runs = Number(values.runs);
if (!(events > 0) || !(runs > 0)) throw new Error("--events and --runs take numbers");
if (values.backend !== "postgres" && values.backend !== "pglite") throw new Error("--backend is postgres or pglite");

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const T0 = Date.UTC(2026, 2, 14, 2, 0, 0);
const stamp = (ms: number) => {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, " ")} ${d.toISOString().slice(11, 19)}`;
};
const klog = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getUTCMonth() + 1).padStart(2, "0")}${String(d.getUTCDate()).padStart(2, "0")} ${d.toISOString().slice(11, 19)}`;
};

/** Background lines of second `s` from `base` (5, and a sixth every 30 s). */
function second(lines: string[], base: number, s: number): void {
  const ms = base + s * 1000;
  const at = (unit: string, msg: string) => lines.push(`${stamp(ms)} node-a ${unit}: ${msg}`);
  at(
    "containerd[811]",
    `time="${new Date(ms).toISOString()}" level=info msg="PullImage \\"registry.local/app:${s % 50}\\" returns image reference \\"sha256:${(s * 7919).toString(16)}\\""`,
  );
  at("systemd[1]", `Started Session ${s} of User core.`);
  at("kubelet[2817]", `I${klog(ms)}.500000    2817 prober.go:107] "Probe succeeded" probeType="Readiness" pod="default/web-${s % 8}" containerName="app"`);
  at("kube-proxy[902]", `I${klog(ms)}.000000     902 proxier.go:${800 + (s % 9)}] "SyncProxyRules complete" elapsed="${(s % 50) + 3}ms"`);
  at("containerd[811]", `time="${new Date(ms).toISOString()}" level=info msg="StartContainer for \\"${(s * 31).toString(16)}\\" returns successfully"`);
  if (s % 30 === 0)
    at(
      "kubelet[2817]",
      `E${klog(ms)}.700000    2817 pod_workers.go:1301] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"app\\" with ImagePullBackOff: \\"Back-off pulling image\\"" pod="default/web-${(s / 30) % 8}"`,
    );
}

/** The journal: the previous boot, a reboot, the big boot with its burst; and the burst's range. */
function journal(bootEvents: number): { text: string; burst: { fromMs: number; toMs: number }; bigStart: number } {
  const lines: string[] = [];
  const seconds = Math.ceil(bootEvents / (5 + 1 / 30));
  for (let s = 0; s < Math.ceil(seconds / 10); s++) second(lines, T0, s);
  lines.push("-- Reboot --");
  const bigStart = T0 + 86_400_000;
  const burstFrom = Math.floor(seconds / 2);
  for (let s = 0; s < seconds; s++) {
    second(lines, bigStart, s);
    if (s >= burstFrom && s < burstFrom + 180)
      for (let k = 0; k < 4; k++)
        lines.push(
          `${stamp(bigStart + s * 1000)} node-a kubelet[2817]: E${klog(bigStart + s * 1000)}.${String(k * 200000 + 1).padStart(6, "0")}    2817 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err="rpc error: code = Unknown desc = failed to setup network for sandbox: plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory" pod="kube-system/calico-node-x9k2p"`,
        );
  }
  return { text: `${lines.join("\n")}\n`, burst: { fromMs: bigStart + burstFrom * 1000, toMs: bigStart + (burstFrom + 180) * 1000 }, bigStart };
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { medianMs: +q(0.5).toFixed(1), p95Ms: +q(0.95).toFixed(1) };
}

async function timed<T>(fn: () => Promise<T>): Promise<number[]> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

async function main() {
  let cleanup: () => Promise<void>;
  let dir: string | null = null;
  if (values.backend === "pglite") {
    dir = mkdtempSync(path.join(tmpdir(), "bootline-bench-explain-"));
    delete process.env.DATABASE_URL;
    process.env.BOOTLINE_DATA_DIR = dir;
    cleanup = async () => {
      const { closeDb, getDb } = await import("../lib/db/connection");
      await closeDb(await getDb());
      rmSync(dir!, { recursive: true, force: true });
    };
  } else {
    const { useTestDatabaseUrl: testDatabaseUrl } = await import("../lib/db/test-db");
    cleanup = (await testDatabaseUrl()).drop;
  }
  try {
    const { getDb } = await import("../lib/db/connection");
    const { enqueueBundle } = await import("../lib/ingest/enqueue-bundle");
    const { processBundle } = await import("../lib/ingest/pipeline");
    const { getBootPatterns } = await import("../lib/queries/get-boot-patterns");
    const { getBootDiff } = await import("../lib/queries/get-boot-diff");
    const { getRangeExplain } = await import("../lib/queries/get-range-explain");
    const db = await getDb();
    const j = journal(events);
    const t = performance.now();
    const { incidentId, bundleId } = await enqueueBundle(db, {
      title: "bench explain",
      files: [{ name: "journal.log", data: Buffer.from(j.text) }],
      options: { year: 2026 },
    });
    const r = await processBundle(db, bundleId);
    if (r.error) throw new Error(r.error);
    const ingestS = (performance.now() - t) / 1000;
    const boots = await db.sql.query<{ id: number; start: Date; end: Date | null; n: number }>(
      `SELECT b.id, b.start, b."end", (SELECT count(*)::int FROM "Event" e WHERE e."bootId" = b.id) AS n FROM "Boot" b WHERE b."incidentId" = $1 ORDER BY b.start`,
      [incidentId],
    );
    if (boots.length !== 2) throw new Error(`expected 2 boots, got ${boots.length}`);
    const [prev, big] = boots;
    const bigEnd = new Date(big.end ?? big.start).getTime();
    const third = (bigEnd - j.bigStart) / 3;
    const ex = (fromMs: number, toMs: number, baseline: "before" | "boot") => () => getRangeExplain({ incidentId, bootId: big.id, fromMs, toMs, baseline });
    const first = await ex(j.burst.fromMs, j.burst.toMs, "before")();
    const out = {
      backend: values.backend,
      bootEvents: big.n,
      previousBootEvents: prev.n,
      ingestSeconds: +ingestS.toFixed(1),
      burstRankedFirst: first?.rows.pattern[0]?.value.startsWith("Failed to create sandbox") && first.rows.pod[0]?.value === "kube-system/calico-node-x9k2p",
      patternsPanel: stats(await timed(() => getBootPatterns({ incidentId, bootId: big.id }))),
      diff: stats(await timed(() => getBootDiff({ incidentId, a: prev.id, b: big.id }))),
      explainBurstBefore: stats(await timed(ex(j.burst.fromMs, j.burst.toMs, "before"))),
      // the first range against the whole boot scans it; the next ranges reuse its counts
      explainBurstBootFirstMs: +(
        await (async () => {
          const t0 = performance.now();
          await ex(j.burst.fromMs, j.burst.toMs, "boot")();
          return performance.now() - t0;
        })()
      ).toFixed(1),
      explainBurstBoot: stats(await timed(ex(j.burst.fromMs, j.burst.toMs, "boot"))),
      explainThirdBefore: stats(await timed(ex(j.bigStart + third, j.bigStart + 2 * third, "before"))),
    };
    if (values.json) console.log(JSON.stringify(out));
    else console.table(out);
  } finally {
    await cleanup();
  }
}

await main();
