/**
 * The streaming ingest (worker threads, events spilled per
 * node, rows formatted per node; lib/ingest/ingest-bundle.ts) stores exactly what the in-memory
 * reference (`analyseBundle`) computes: the same boots per node, and every event with the same
 * time, boot, node and error class. Run with worker threads (events held in memory, or all
 * spilled to disk), inline (BOOTLINE_INGEST_THREADS=0), and with threads that cannot start.
 * The bundle: three nodes of a Calico storm, uploaded as three archives, plus a copy of one
 * node's kubelet log (a duplicate to drop). Each node's Kubernetes events in its archive, stamped
 * 3 s late (a clock offset to estimate against that node's logs and apply) or on time: each node is
 * stored once parsed. The events files uploaded beside the node archives (no path places them:
 * their records join the nodes they name, and their offset takes every node's failures) and a
 * kernel log of no known node: the bundle is stored once every node is parsed.
 */
import path from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { buildTarGz } from "../lib/bundle/tar-build";
import { unpackUpload, type UnpackedFile } from "../lib/bundle/unpack";
import { analyseBundle } from "../lib/ingest/reference";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { generateScenario } from "../lib/sample/index";
import { fieldsOfMessage } from "../lib/model/message-fields";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `data-stream-${process.pid}`);
});
afterAll(async () => {
  delete process.env.BOOTLINE_INGEST_THREADS;
  delete process.env.BOOTLINE_INGEST_HOLD_MB;
  delete process.env.BOOTLINE_INGEST_WORKER_ENTRY;
  await db?.drop();
});

function uploads(eventsSkewS: number, looseEvents = false, strayLog = false) {
  const base = generateScenario("calico", { pods: 12, nodenameDelayS: 60, retryIntervalS: 10, seed: 11, eventsSkewS });
  const node0 = base.truth.node;
  const out: Array<{ name: string; data: Buffer }> = [];
  for (const name of ["ip-10-0-0-1.ec2.internal", "ip-10-0-0-2.ec2.internal", "ip-10-0-0-3.ec2.internal"]) {
    const files = base.files.map((f) => ({ path: `./${f.path}`, content: f.content.split(node0).join(name), mtimeMs: base.truth.collectedMs }));
    const kubelet = files.find((f) => f.path.includes("kubelet"))!;
    if (name.endsWith("-1.ec2.internal")) files.push({ ...kubelet, path: "./kubelet/kubelet-copy.log" });
    // node 1's kernel kills containerd once: a log line a rule (rules/kernel-memory.yaml) takes
    const dmesg = files.find((f) => f.path.endsWith("dmesg.human.current"))!;
    if (name.endsWith("-1.ec2.internal"))
      dmesg.content +=
        "[Sat Mar 14 02:10:25 2026] Out of memory: Killed process 1432 (containerd) total-vm:2458624kB, anon-rss:912344kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:2212kB oom_score_adj:-999\n";
    // a cluster's events beside the node archives: files no path places on a node
    const events = files.findIndex((f) => f.path.endsWith("events.json"));
    if (looseEvents) out.push({ name: `events-${out.length}.json`, data: Buffer.from(files.splice(events, 1)[0].content) });
    // and a kernel log no path or line places: its records stay on no node
    if (strayLog && out.length === 1)
      out.push({
        name: "dmesg-unknown-host.txt",
        data: Buffer.from(
          "[Sat Mar 14 02:10:05 2026] nvme nvme0: 2/0/0 default/read/poll queues\n[Sat Mar 14 02:10:06 2026] EXT4-fs (nvme0n1p1): mounted filesystem\n",
        ),
      });
    out.push({ name: `eks_${name}_2026-03-14_0300-UTC.tar.gz`, data: buildTarGz(files) });
  }
  return out;
}

interface Row {
  ord: number;
  path: string;
  line: number;
  ts: string | null;
  node: string | null;
  bootKey: string | null;
  errorClass: string | null;
  kind: string;
  message: string;
  /** the fields as the event page reads them back (stored JSON, or the message's pairs) */
  fields: Record<string, unknown> | null;
}

/** A stored row: its fields read back as get-event.ts does. */
type StoredRow = Omit<Row, "fields"> & { fields: string | null; fieldsAt: number | null };
const readBack = ({ fieldsAt, ...r }: StoredRow): Row => ({
  ...r,
  fields: fieldsAt === null ? (r.fields === null ? null : (JSON.parse(r.fields) as Record<string, unknown>)) : fieldsOfMessage(r.message, fieldsAt),
});

async function reference(files: Array<{ name: string; data: Buffer }>, uploadMs: number) {
  const unpacked: UnpackedFile[] = [];
  for (const f of files) unpacked.push(...(await unpackUpload(f.name, f.data)));
  const a = analyseBundle(unpacked, { uploadMs });
  const rows: Row[] = a.events.map((e) => ({
    ord: e.fileIdx,
    path: a.files[e.fileIdx].path,
    line: e.line,
    ts: e.ts === null ? null : new Date(e.ts).toISOString(),
    node: e.node,
    bootKey: e.node && e.boot !== null ? a.nodes.get(e.node)![e.boot].bootKey : null,
    errorClass: e.errorClass,
    kind: e.kind,
    message: e.message,
    fields: e.fields,
  }));
  const boots = [...a.nodes].flatMap(([node, list]) => list.map((b) => ({ node, bootKey: b.bootKey, start: new Date(b.start).toISOString() })));
  const offsets = a.files.filter((f) => f.kind === "k8s-events").map((f) => ({ ord: f.ord, off: f.clockOffsetMs ?? 0 }));
  return { rows, boots, offsets, duplicates: a.files.filter((f) => f.status === "duplicate").map((f) => f.path) };
}

const key = (r: Row) => `${r.ord}:${r.line}`;

describe("streaming ingest equals the in-memory reference", () => {
  // events 3 s late: an offset to apply, estimated from each node's own logs; on time: none
  const variants = [
    { skewS: 3, threads: "2", holdMb: "320", what: "worker threads that cannot start: inline instead", entry: "broken" },
    { skewS: 3, threads: "2", holdMb: "320", what: "events held on the threads that parsed them" },
    { skewS: 3, threads: "2", holdMb: "0", what: "every part spilled to disk and read back" },
    { skewS: 3, threads: "0", holdMb: "320", what: "inline" },
    { skewS: 0, threads: "2", holdMb: "320", what: "events held on the threads that parsed them" },
    { skewS: 0, threads: "2", holdMb: "0", what: "every part spilled to disk and read back" },
    { skewS: 0, threads: "0", holdMb: "320", what: "inline" },
    { skewS: 0, threads: "2", holdMb: "320", what: "the events files beside the node archives", loose: true },
    { skewS: 0, threads: "2", holdMb: "0", what: "the events files beside the node archives, all spilled, and a log naming no node", loose: true, stray: true },
    { skewS: 3, threads: "2", holdMb: "320", what: "the events files beside the node archives, an offset estimated from every node", loose: true },
  ];
  for (const { skewS, threads, holdMb, what, entry, loose, stray } of variants) {
    it(`events ${skewS} s late, BOOTLINE_INGEST_THREADS=${threads}, BOOTLINE_INGEST_HOLD_MB=${holdMb} (${what})`, async () => {
      process.env.BOOTLINE_INGEST_THREADS = threads;
      process.env.BOOTLINE_INGEST_HOLD_MB = holdMb;
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      if (entry) {
        const broken = path.join(process.cwd(), ".tmp", `broken-worker-${process.pid}.mjs`);
        mkdirSync(path.dirname(broken), { recursive: true });
        writeFileSync(broken, 'throw new Error("no tasks here");\n');
        process.env.BOOTLINE_INGEST_WORKER_ENTRY = broken;
      } else delete process.env.BOOTLINE_INGEST_WORKER_ENTRY;
      const files = uploads(skewS, loose, stray);
      const { incidentId, bundleId } = await enqueueBundle(db, { title: `stream ${threads}`, files });
      const r = await processBundle(db, bundleId);
      expect(r.error).toBeNull();
      const [bundle] = await db.sql.query<{ createdAt: Date; counts: { ingestPath: string; afterParseReason?: string } }>(
        `SELECT "createdAt", counts FROM "Bundle" WHERE id = $1`,
        [bundleId],
      );
      // a cluster's events files: their clock offset takes every node's failures, so every node is parsed first
      const how = loose ? ["after-parse", "a cluster events file's clock offset takes every node's failures"] : ["as-parsed", undefined];
      expect([bundle.counts.ingestPath, bundle.counts.afterParseReason]).toEqual(how);
      const ref = await reference(files, new Date(bundle.createdAt).getTime());

      const storedRows = await db.sql.query<StoredRow>(
        `SELECT f.ord, f.path, e.line, to_char(e.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts, n.name AS node, b."bootKey", e."errorClass", e.kind,
                e.message, e.fields, e."fieldsAt"
         FROM "Event" e JOIN "SourceFile" f ON f.id = e."fileId" LEFT JOIN "Node" n ON n.id = e."nodeId" LEFT JOIN "Boot" b ON b.id = e."bootId"
         WHERE e."bundleId" = $1`,
        [bundleId],
      );
      // klog rows keep their pairs in the message only, and read back the same fields
      expect(storedRows.filter((r) => r.fieldsAt !== null).length).toBeGreaterThan(100);
      const stored = storedRows.map(readBack);
      expect(stored.length).toBe(ref.rows.length);
      expect(stored.length).toBeGreaterThan(2000);
      if (stray)
        expect(stored.filter((r) => r.path === "dmesg-unknown-host.txt").map((r) => `${r.node}:${r.line}`)).toEqual([
          "dmesg-unknown-host:1",
          "dmesg-unknown-host:2",
        ]);
      const want = new Map(ref.rows.map((x) => [key(x), x]));
      for (const s of stored) expect(s).toEqual(want.get(key(s)));

      const boots = await db.sql.query<{ node: string; bootKey: string; start: string }>(
        `SELECT n.name AS node, b."bootKey", to_char(b.start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS start
         FROM "Boot" b JOIN "Node" n ON n.id = b."nodeId" WHERE b."incidentId" = $1 ORDER BY n.name, b.start`,
        [incidentId],
      );
      expect(boots).toEqual(ref.boots);
      const nodeNames = [...(stray ? ["dmesg-unknown-host"] : []), "ip-10-0-0-1.ec2.internal", "ip-10-0-0-2.ec2.internal", "ip-10-0-0-3.ec2.internal"];
      expect([...new Set(boots.map((b) => b.node))]).toEqual(nodeNames);
      const nodes = await db.sql.query<{ name: string; nameSource: string }>(`SELECT name, "nameSource" FROM "Node" WHERE "incidentId" = $1 ORDER BY name`, [
        incidentId,
      ]);
      expect(nodes.map((n) => `${n.name}:${n.nameSource}`)).toEqual(nodeNames.map((n) => `${n}:${n.startsWith("ip-") ? "logs" : "upload"}`));

      const dups = await db.sql.query<{ path: string }>(`SELECT path FROM "SourceFile" WHERE "bundleId" = $1 AND status = 'duplicate' ORDER BY ord`, [
        bundleId,
      ]);
      expect(dups.map((d) => d.path)).toEqual(ref.duplicates);
      expect(ref.duplicates.some((p) => p.endsWith("kubelet-copy.log"))).toBe(true);

      // ids are one consecutive block, and every boot's findings came out of the detectors
      const [ids] = await db.sql.query<{ min: string; max: string; n: string }>(
        `SELECT min(id)::text, max(id)::text, count(*)::text AS n FROM "Event" WHERE "bundleId" = $1`,
        [bundleId],
      );
      expect(Number(ids.max) - Number(ids.min) + 1).toBe(Number(ids.n));
      const findings = await db.sql.query<{ detector: string }>(
        `SELECT detector FROM "Finding" WHERE "incidentId" = $1 AND detector = 'sandbox-failure-window'`,
        [incidentId],
      );
      expect(findings).toHaveLength(3);
      // the rule's finding, on node 1 only, citing the kernel's line (kind log) however the events travelled
      const ruled = await db.sql.query<{ node: string; matches: number; message: string }>(
        `SELECT n.name AS node, (f.metrics->>'matches')::int AS matches, e.message FROM "Finding" f JOIN "Node" n ON n.id = f."nodeId"
         JOIN "Event" e ON e.id = f.evidence[1] WHERE f."incidentId" = $1 AND f.detector = 'rule:oom-kill-runtime'`,
        [incidentId],
      );
      expect(ruled).toEqual([{ node: "ip-10-0-0-1.ec2.internal", matches: 1, message: expect.stringContaining("Killed process 1432 (containerd)") }]);
      // findings (formatted where the detectors ran: on the threads, or inline): each on its
      // boot's node, citing only events of that boot
      const [cited] = await db.sql.query<{ n: string; bad: string }>(
        `SELECT count(*)::text AS n, count(*) FILTER (WHERE e.id IS NULL OR e."bootId" <> f."bootId" OR b."nodeId" <> f."nodeId")::text AS bad
         FROM "Finding" f JOIN "Boot" b ON b.id = f."bootId" CROSS JOIN LATERAL unnest(f.evidence) AS ev(id) LEFT JOIN "Event" e ON e.id = ev.id
         WHERE f."incidentId" = $1`,
        [incidentId],
      );
      expect(Number(cited.n)).toBeGreaterThan(1000);
      expect(cited.bad).toBe("0");
      if (entry) expect(warn.mock.calls.map((c) => String(c[0]))).toContainEqual(expect.stringContaining("no tasks here"));
      warn.mockRestore();
      // the events files' clock offset: estimated from the three nodes' failures (3 s late, read
      // from whole-second stamps: within 0.5 s), the same as the reference's; none when on time
      const offsets = await db.sql.query<{ ord: number; off: number }>(
        `SELECT ord, "clockOffsetMs" AS off FROM "SourceFile" WHERE "bundleId" = $1 AND kind = 'k8s-events' ORDER BY ord`,
        [bundleId],
      );
      expect(offsets).toEqual(ref.offsets);
      expect(offsets).toHaveLength(3);
      for (const o of offsets) expect(Math.abs(o.off + skewS * 1000)).toBeLessThanOrEqual(skewS ? 500 : 0);
    }, 120_000);
  }

  it("a second bundle onto boots the incident has: their findings are found again from every stored event and replace the old ones", async () => {
    process.env.BOOTLINE_INGEST_THREADS = "2";
    process.env.BOOTLINE_INGEST_HOLD_MB = "320";
    delete process.env.BOOTLINE_INGEST_WORKER_ENTRY;
    const first = await enqueueBundle(db, { title: "known boots", files: uploads(0).filter((u) => u.name.includes("ip-10-0-0-1.")) });
    expect((await processBundle(db, first.bundleId)).error).toBeNull();
    const windows = () =>
      db.sql.query<{ id: number; bootId: number; attempts: number }>(
        `SELECT id, "bootId", (metrics->>'attempts')::int AS attempts FROM "Finding" WHERE "incidentId" = $1 AND detector = 'sandbox-failure-window'`,
        [first.incidentId],
      );
    const before = await windows();
    expect(before).toHaveLength(1);
    // the node's containerd log again, alone (another upload, so not a repeat of the first): its
    // events land on the boot the first bundle stored
    const base = generateScenario("calico", { pods: 12, nodenameDelayS: 60, retryIntervalS: 10, seed: 11 });
    const containerd = base.files.find((f) => f.path.includes("containerd"))!;
    const second = await enqueueBundle(db, {
      incident: first.incidentId,
      files: [{ name: "containerd-again.log", data: Buffer.from(containerd.content.split(base.truth.node).join("ip-10-0-0-1.ec2.internal")) }],
      options: { node: "ip-10-0-0-1.ec2.internal" },
    });
    expect((await processBundle(db, second.bundleId)).error).toBeNull();
    const after = await windows();
    expect(after).toHaveLength(1);
    expect(after[0].bootId).toBe(before[0].bootId);
    expect(after[0].id).not.toBe(before[0].id);
    const [cited] = await db.sql.query<{ n: string; bad: string; bundles: string }>(
      `SELECT count(*)::text AS n, count(*) FILTER (WHERE e.id IS NULL OR e."bootId" <> f."bootId" OR b."nodeId" <> f."nodeId")::text AS bad,
              count(DISTINCT e."bundleId")::text AS bundles
       FROM "Finding" f JOIN "Boot" b ON b.id = f."bootId" CROSS JOIN LATERAL unnest(f.evidence) AS ev(id) LEFT JOIN "Event" e ON e.id = ev.id
       WHERE f."incidentId" = $1`,
      [first.incidentId],
    );
    expect(cited.bad).toBe("0");
    // the window now cites the second bundle's lines too
    expect(cited.bundles).toBe("2");
    // the rule's finding was found again from the stored kernel line (kind log) of the first bundle
    const ruled = await db.sql.query<{ matches: number }>(
      `SELECT (metrics->>'matches')::int AS matches FROM "Finding" WHERE "incidentId" = $1 AND detector = 'rule:oom-kill-runtime'`,
      [first.incidentId],
    );
    expect(ruled).toEqual([{ matches: 1 }]);
  }, 120_000);
});
