/**
 * Events no path, option or record places on a node are stored on no node, and the bundle counts
 * them (`Bundle.counts.eventsOnNoNode`), so the incident page can warn that they are on no
 * timeline (lib/incidents/bundle-warnings.ts). Checked on both ingest ways.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTarGz } from "../lib/bundle/tar-build";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/process-bundle";
import { bundleWarnings } from "../lib/incidents/bundle-warnings";
import { generateScenario } from "../lib/sample/index";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `no-node-${process.pid}`);
});
afterAll(async () => {
  delete process.env.BOOTLINE_INGEST_THREADS;
  await db?.drop();
});

const NODES = ["ip-10-0-0-1.ec2.internal", "ip-10-0-0-2.ec2.internal"];

/** Two EKS node archives, and a bare kubelet klog file (no host column, no node in its name). */
function uploads(): Array<{ name: string; data: Buffer }> {
  const base = generateScenario("calico", { pods: 4, nodenameDelayS: 60, retryIntervalS: 10, seed: 9 });
  const archives = NODES.map((name) => ({
    name: `eks_${name}_2026-03-14_0300-UTC.tar.gz`,
    data: buildTarGz(base.files.filter((f) => !f.path.endsWith("events.json")).map((f) => ({ path: `./${f.path}`, content: f.content.split(base.truth.node).join(name), mtimeMs: base.truth.collectedMs }))),
  }));
  const klog = [
    'I0314 02:10:05.991540    2099 server.go:486] "Kubelet version" kubeletVersion="v1.31.4"',
    'E0314 02:10:06.708985    2099 kubelet.go:3002] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"',
    'I0314 02:10:07.100000    2099 kubelet.go:2458] "SyncLoop ADD" source="api" pods=["kube-system/coredns-6d8c7f8b9-psj8n"]',
  ].join("\n");
  return [...archives, { name: "kubelet.log", data: Buffer.from(`${klog}\n`) }];
}

describe("events on no node", () => {
  for (const [threads, skew, way] of [["2", null, "by-node"], ["2", 0, "two-pass"]] as const) {
    it(`are counted on the bundle (${way})`, async () => {
      process.env.BOOTLINE_INGEST_THREADS = threads;
      const e = await enqueueBundle(db, { title: `no node ${way}`, files: uploads(), options: { skew } });
      const r = await processBundle(db, e.bundleId);
      expect(r.status).toBe("ready");
      const [row] = await db.sql.query<{ counts: Record<string, unknown>; n: string; path: string }>(
        `SELECT b.counts, (SELECT count(*) FROM "Event" ev WHERE ev."bundleId" = b.id AND ev."nodeId" IS NULL) AS n,
                (SELECT string_agg(DISTINCT f.path, ',') FROM "Event" ev JOIN "SourceFile" f ON f.id = ev."fileId" WHERE ev."bundleId" = b.id AND ev."nodeId" IS NULL) AS path
         FROM "Bundle" b WHERE b.id = $1`,
        [e.bundleId],
      );
      expect(row.counts.ingestPath).toBe(way);
      expect(Number(row.n)).toBe(3);
      expect(row.path).toBe("kubelet.log");
      expect(row.counts.eventsOnNoNode).toBe(3);
      const files = await db.sql.query<{ path: string; status: string; reason: string | null; format: string; skippedByReason: Record<string, number> }>(
        `SELECT path, status, reason, format, "skippedByReason" FROM "SourceFile" WHERE "bundleId" = $1`,
        [e.bundleId],
      );
      expect(files.length).toBeGreaterThan(4);
      // the scenario's logs are all read: the events on no node are the only warning
      const warnings = bundleWarnings({ status: "ready", counts: row.counts, files });
      expect(warnings.map((w) => w.kind)).toEqual(["no-node"]);
      expect(warnings[0].text).toMatch(/^3 events name no node/);
    });
  }
});
