/**
 * A file whose bytes repeat another file's is read once, but only within one node (or across the
 * bundle for files on no node and Kubernetes events files): two nodes' logs that hold the same
 * bytes are two nodes' records (a repeated record is a duplicate only on the same host). Calico's
 * cni.log names no host, so in the scenario below both nodes' copies are byte-identical, and
 * both must be read. Checked with each node stored as parsed and with every node parsed first
 * (PostgreSQL), and on the in-memory reference, which must all agree.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTarGz } from "../lib/bundle/tar-build";
import { unpackUpload, type UnpackedFile } from "../lib/bundle/unpack";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { analyseBundle } from "../lib/ingest/reference";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { generateScenario } from "../lib/sample/index";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `dups-${process.pid}`);
});
afterAll(async () => {
  delete process.env.BOOTLINE_INGEST_THREADS;
  await db?.drop();
});

const NODES = ["ip-10-0-0-1.ec2.internal", "ip-10-0-0-2.ec2.internal"];

/** Two EKS node archives of one Calico scenario: node logs renamed per node, the same events.json in both. */
function uploads(): Array<{ name: string; data: Buffer }> {
  const base = generateScenario("calico", { pods: 6, nodenameDelayS: 60, retryIntervalS: 10, seed: 5 });
  return NODES.map((name) => {
    const files = base.files.map((f) => ({
      path: `./${f.path}`,
      content: f.path.endsWith("events.json") ? f.content : f.content.split(base.truth.node).join(name),
      mtimeMs: base.truth.collectedMs,
    }));
    return { name: `eks_${name}_2026-03-14_0300-UTC.tar.gz`, data: buildTarGz(files) };
  });
}

const CNI = "var_log/calico/cni/cni.log";
const EVENTS = "kubectl/events.json";

describe("files that repeat another", () => {
  it("the in-memory reference reads both nodes' identical cni.log and one copy of the events file", async () => {
    const unpacked: UnpackedFile[] = [];
    for (const u of uploads()) unpacked.push(...(await unpackUpload(u.name, u.data)));
    const cni = unpacked.filter((f) => f.path.endsWith(CNI));
    expect(cni).toHaveLength(2);
    expect(cni[0].data!.equals(cni[1].data!)).toBe(true);
    const a = analyseBundle(unpacked, { uploadMs: Date.UTC(2026, 2, 14, 3) });
    const status = (suffix: string) => a.files.filter((f) => f.path.endsWith(suffix)).map((f) => [f.node, f.status, f.duplicateOf ?? null]);
    expect(status(CNI)).toEqual([
      [NODES[0], "read", null],
      [NODES[1], "read", null],
    ]);
    expect(status(EVENTS).map(([, s, d]) => [s, d])).toEqual([
      ["read", null],
      ["duplicate", expect.stringMatching(/events\.json$/)],
    ]);
    const cniEvents = (node: string) => a.events.filter((e) => a.files[e.fileIdx].path.endsWith(CNI) && e.node === node).length;
    expect(cniEvents(NODES[0])).toBeGreaterThan(0);
    expect(cniEvents(NODES[1])).toBe(cniEvents(NODES[0]));
  });

  // each node stored as parsed, or once every node is parsed (as on PGlite); a clock offset given by hand changes neither
  for (const [threads, skew, way] of [
    ["2", null, "as-parsed"],
    ["0", null, "as-parsed"],
    ["2", 0, "after-parse"],
  ] as const) {
    it(`the stored bundle agrees (PostgreSQL, ${way}, BOOTLINE_INGEST_THREADS=${threads})`, async () => {
      process.env.BOOTLINE_INGEST_THREADS = threads;
      const e = await enqueueBundle(db, { title: `dups ${threads} ${way}`, files: uploads(), options: { skew } });
      const r = await processBundle(db, e.bundleId, { way });
      expect(r.status).toBe("ready");
      const files = await db.sql.query<{ path: string; status: string; n: string }>(
        `SELECT f.path, f.status, (SELECT count(*) FROM "Event" ev WHERE ev."fileId" = f.id) AS n
         FROM "SourceFile" f WHERE f."bundleId" = $1 AND (f.path LIKE $2 OR f.path LIKE $3) ORDER BY f.ord`,
        [e.bundleId, `%${CNI}`, `%${EVENTS}`],
      );
      const cni = files.filter((f) => f.path.endsWith(CNI));
      expect(cni.map((f) => f.status)).toEqual(["read", "read"]);
      expect(Number(cni[0].n)).toBeGreaterThan(0);
      expect(Number(cni[1].n)).toBe(Number(cni[0].n));
      expect(files.filter((f) => f.path.endsWith(EVENTS)).map((f) => f.status)).toEqual(["read", "duplicate"]);
      const [{ path: p }] = await db.sql.query<{ path: string }>(`SELECT "counts"->>'ingestPath' AS path FROM "Bundle" WHERE id = $1`, [e.bundleId]);
      expect(p).toBe(way);
    });
  }
});
