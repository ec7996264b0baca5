/**
 * Records that no path, option or record places on a node go to one node named after the upload
 * they came from, marked as not named by the logs (`Node.nameSource` = `upload`), and reach the
 * detectors like any other; an archive of no known collector names its node by its top folder.
 */
import { partsOf } from "../lib/detect/parts";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTarGz } from "../lib/bundle/tar-build";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import { bundleWarnings } from "../lib/incidents/bundle-warnings";
import { getIncidentReport } from "../lib/incidents/get-incident-report";
import { caseBytes } from "./cases/cases";
import { EDGE_NODE, edgeNodeArchive } from "./support/edge-node-archive";
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
    data: buildTarGz(
      base.files
        .filter((f) => !f.path.endsWith("events.json"))
        .map((f) => ({ path: `./${f.path}`, content: f.content.split(base.truth.node).join(name), mtimeMs: base.truth.collectedMs })),
    ),
  }));
  const klog = [
    'I0314 02:10:05.991540    2099 server.go:486] "Kubelet version" kubeletVersion="v1.31.4"',
    'E0314 02:10:06.708985    2099 kubelet.go:3002] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"',
    'I0314 02:10:07.100000    2099 kubelet.go:2458] "SyncLoop ADD" source="api" pods=["kube-system/coredns-6d8c7f8b9-psj8n"]',
  ].join("\n");
  return [...archives, { name: "kubelet.log", data: Buffer.from(`${klog}\n`) }];
}

describe("records that name no node", () => {
  for (const [threads, skew] of [
    ["2", null],
    ["2", 0],
  ] as const) {
    it(`go to a node named after their upload, marked as such (skew ${skew})`, async () => {
      process.env.BOOTLINE_INGEST_THREADS = threads;
      const e = await enqueueBundle(db, { title: `no node ${skew}`, files: uploads(), options: { skew } });
      const r = await processBundle(db, e.bundleId);
      expect(r.status).toBe("ready");
      const [row] = await db.sql.query<{ counts: Record<string, unknown>; onNone: string; node: string; source: string }>(
        `SELECT b.counts,
                (SELECT count(*) FROM "Event" ev WHERE ev."bundleId" = b.id AND ev."nodeId" IS NULL) AS "onNone",
                (SELECT string_agg(DISTINCT n.name || ':' || n."nameSource", ',') FROM "Event" ev JOIN "SourceFile" f ON f.id = ev."fileId"
                   JOIN "Node" n ON n.id = ev."nodeId" WHERE ev."bundleId" = b.id AND f.path = 'kubelet.log') AS node
         FROM "Bundle" b WHERE b.id = $1`,
        [e.bundleId],
      );
      // where such records go is known once the files no path places are parsed: each node stored as parsed
      expect(row.counts.ingestPath).toBe("as-parsed");
      expect(Number(row.onNone)).toBe(0);
      expect(row.node).toBe("kubelet:upload");
      expect(row.counts.eventsOnNoNode).toBe(0);
      const files = await db.sql.query<{ path: string; status: string; reason: string | null; format: string; skippedByReason: Record<string, number> }>(
        `SELECT path, status, reason, format, "skippedByReason" FROM "SourceFile" WHERE "bundleId" = $1`,
        [e.bundleId],
      );
      expect(bundleWarnings({ status: "ready", counts: row.counts, files })).toEqual([]);
      const report = await getIncidentReport(db, e.incidentId);
      expect(report.nodes.map((n) => `${n.name}:${n.nameSource}`)).toEqual([...NODES.map((n) => `${n}:logs`), "kubelet:upload"]);
      // the kubelet's network-not-ready report made a boot of its own on that node
      expect(report.nodes.find((n) => n.name === "kubelet")?.boots).toHaveLength(1);
    });
  }

  it("in an archive of no known collector, take the top folder's name: a rewrite loop on edge-node-03 with both writers", async () => {
    const { data, istioWrites, ciliumWrites } = edgeNodeArchive();
    const e = await enqueueBundle(db, { title: "edge archive", files: [{ name: "edge-logs.tar.gz", data }], options: {} });
    expect((await processBundle(db, e.bundleId)).status).toBe("ready");
    const report = await getIncidentReport(db, e.incidentId);
    expect(report.nodes.map((n) => [n.name, n.nameSource])).toEqual([[EDGE_NODE, "logs"]]);
    const loops = report.findings.filter((f) => f.detector === "conflist-rewrite-loop");
    expect(loops).toHaveLength(1);
    const m = loops[0].metrics as {
      path: string;
      writers: string[];
      writes: number;
      writesPerS: number;
      durationS: number;
      writesByWriter: Record<string, number>;
    };
    expect(loops[0].node).toBe(EDGE_NODE);
    expect(m.path).toBe("/etc/cni/net.d/05-cilium.conflist");
    expect([...m.writers].sort()).toEqual(["cilium", "istio-cni"]);
    expect(m.writesByWriter).toEqual({ "istio-cni": istioWrites, cilium: ciliumWrites });
    expect(m.writesPerS).toBeGreaterThan(4.9);
    expect(m.writesPerS).toBeLessThan(5.1);
    expect(m.durationS).toBeGreaterThan(89);
  });

  it("a get-events row naming no node takes the node the describe row of its own file names, beside other nodes", async () => {
    const name = "202-ovn-k-event-hand-wrapped-in-prose.log";
    const files = [...uploads().filter((u) => u.name.endsWith(".tar.gz")), { name, data: caseBytes(name) }];
    const e = await enqueueBundle(db, { title: "paste beside archives", files, options: { collected: "2021-06-01T12:00:00Z" } });
    expect((await processBundle(db, e.bundleId)).status).toBe("ready");
    const rows = await db.sql.query<{ node: string | null; n: string }>(
      `SELECT n.name AS node, count(*) AS n FROM "Event" ev JOIN "SourceFile" f ON f.id = ev."fileId" LEFT JOIN "Node" n ON n.id = ev."nodeId"
       WHERE ev."bundleId" = $1 AND f.path = $2 GROUP BY n.name`,
      [e.bundleId, name],
    );
    expect(rows.map((r) => [r.node, Number(r.n)])).toEqual([["ovn-worker3", 2]]);
  });

  const X158 = "044-describe-calico-nodename-x158-over-6m.log";
  it("a pasted describe row (x158 over 6m) is a window of 158 attempts on the node it names, marked approximate", async () => {
    const e = await enqueueBundle(db, { title: "x158", files: [{ name: X158, data: caseBytes(X158) }], options: { collected: "2018-04-12T08:00:00Z" } });
    expect((await processBundle(db, e.bundleId)).status).toBe("ready");
    const report = await getIncidentReport(db, e.incidentId);
    expect(report.nodes.map((n) => [n.name, n.nameSource])).toEqual([["node-p-0000000000000000000", "logs"]]);
    // the boot runs from the row's first occurrence to its last
    expect(report.nodes[0].boots.map((b) => [b.start, b.end])).toEqual([["2018-04-12T07:54:00.000Z", "2018-04-12T07:59:00.000Z"]]);
    const [w] = report.findings.filter((f) => f.detector === "sandbox-failure-window");
    expect(w.metrics).toMatchObject({ attempts: 158, pods: 1, errorClass: "calico-nodename-missing", attemptsFromEvents: 158 });
    expect(w.start).toBe("2018-04-12T07:54:00.000Z");
    expect(w.metrics.approximate).toEqual([
      "attempts counted from Kubernetes event counts (xN over D), spread evenly over each event's span",
      "times from kubectl's relative ages, precise to a minute",
      "T+0 is the boot's earliest event (no kernel start or boot marker in the data)",
    ]);
    expect(w.explanation).toContain("Approximate: attempts counted from Kubernetes event counts");
    // one pod's 158 failures in about 5 minutes: an average rate, not an observed rhythm
    const storms = report.findings.filter((f) => f.detector === "retry-storm");
    expect(storms.map((f) => f.metrics.scope)).toEqual(["node"]); // one storm (26/min), the pod inside
    expect(partsOf(storms[0].metrics)).toMatchObject([{ key: "kube-system/kube-dns-86f4d74b45-kgjbk", attempts: 158, rhythm: "averaged", intervalS: 1.911 }]);
    expect(storms[0].explanation).toContain("For 1 pod the failures come from Kubernetes event counts spread evenly, so the rate is an average");
    // the report's failure lines: one event row of 158 occurrences, from its first (6m) to its last (1m)
    expect(report.nodes[0].boots[0].failures).toEqual([
      {
        kind: "sandbox.create.failed",
        errorClass: "calico-nodename-missing",
        lines: 1,
        occurrences: 158,
        first: "2018-04-12T07:54:00.000Z",
        last: "2018-04-12T07:59:00.000Z",
      },
    ]);
  });

  it("failures no detector counts are in the report: the kubelet losing containerd (talosctl, kubelet JSON)", async () => {
    const name = "130-talos-kubelet-json-epoch-ms-host-prefix-runtime-eof-wrapped.log";
    const e = await enqueueBundle(db, { title: "runtime eof", files: [{ name, data: caseBytes(name) }], options: {} });
    expect((await processBundle(db, e.bundleId)).status).toBe("ready");
    const report = await getIncidentReport(db, e.incidentId);
    expect(report.nodes.map((n) => [n.name, n.nameSource])).toEqual([["10.200.193.195", "logs"]]);
    expect(report.nodes[0].boots[0].failures).toEqual([
      {
        kind: "runtime.unhealthy",
        errorClass: "runtime-unreachable",
        lines: 3,
        occurrences: 3,
        first: "2025-07-21T18:08:41.285Z",
        last: "2025-07-21T18:08:41.286Z",
      },
    ]);
    expect(report.findings.filter((f) => f.detector === "sandbox-failure-window")).toEqual([]);
  });

  it("without a collection time the same rows count back from the upload's time, and the window says so", async () => {
    const e = await enqueueBundle(db, { title: "x158 no time", files: [{ name: X158, data: caseBytes(X158) }], options: {} });
    expect((await processBundle(db, e.bundleId)).status).toBe("ready");
    const report = await getIncidentReport(db, e.incidentId);
    const [w] = report.findings.filter((f) => f.detector === "sandbox-failure-window");
    expect(w.metrics.attempts).toBe(158);
    expect(w.metrics.approximate).toContain("ages anchored at the upload time: give the collection time");
    const [bundle] = await db.sql.query<{ createdAt: Date }>(`SELECT "createdAt" FROM "Bundle" WHERE id = $1`, [e.bundleId]);
    // the last row's age (1m) counts back from the upload
    const lastAttemptMs = Date.parse(w.start) + (w.metrics.lastAttemptAfterBootS as number) * 1000 - (w.metrics.openedAfterBootS as number) * 1000;
    expect(new Date(bundle.createdAt).getTime() - lastAttemptMs).toBe(60_000);
  });
});
