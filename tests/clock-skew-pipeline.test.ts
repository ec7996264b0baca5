/**
 * Clock skew through the pipeline: node-log sandbox failures and the FailedCreatePodSandBox
 * events for the same pods, the events stamped 30 s late; the offset is estimated, applied to
 * the events file (stored times, `clockOffsetMs` in the report), and replaced by the bundle's
 * `skew` option when given.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTarGz } from "../lib/bundle/tar-build";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import type { BundleOptions } from "../lib/ingest/uploads";
import { getIncidentReport } from "../lib/incidents/get-incident-report";

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `data-skew-${process.pid}`);
});
afterAll(async () => {
  await db?.drop();
});

const pods = ["web-1", "web-2", "web-3"];
const kubelet = pods
  .map(
    (p, i) =>
      `2025-05-19T04:20:1${i}.200000+00:00 node-a kubelet[2817]: E0519 04:20:1${i}.200100    2817 kuberuntime_sandbox.go:72] "Failed to create sandbox for pod" err="rpc error: code = Unknown desc = failed to setup network for sandbox: plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory" pod="default/${p}"`,
  )
  .join("\n");
const events = JSON.stringify({
  kind: "EventList",
  apiVersion: "v1",
  items: pods.map((p, i) => ({
    kind: "Event",
    metadata: { name: `${p}.1`, namespace: "default" },
    involvedObject: { kind: "Pod", namespace: "default", name: p },
    reason: "FailedCreatePodSandBox",
    message: "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox",
    source: { component: "kubelet", host: "node-a" },
    firstTimestamp: `2025-05-19T04:20:4${i}Z`,
    lastTimestamp: `2025-05-19T04:20:4${i}Z`,
    count: 1,
    type: "Warning",
  })),
});

async function run(options: BundleOptions) {
  const tgz = buildTarGz([
    { path: "node-a/kubelet.log", content: kubelet },
    { path: "node-a/events.json", content: events },
  ]);
  const { incidentId, bundleId } = await enqueueBundle(db, { title: "skew", files: [{ name: "node-a.tar.gz", data: tgz }], options });
  expect((await processBundle(db, bundleId)).status).toBe("ready");
  const report = await getIncidentReport(db, incidentId);
  const rows = await db.sql.query<{ ts: Date }>(
    `SELECT e.ts FROM "Event" e JOIN "SourceFile" s ON s.id = e."fileId" WHERE s."bundleId" = $1 AND s.path = 'node-a/events.json' ORDER BY e.line`,
    [bundleId],
  );
  return { report, times: rows.map((r) => r.ts.toISOString()) };
}

describe("clock skew between node logs and events", () => {
  it("estimates it from pairs of the same failures and applies it to the events file", async () => {
    const { report, times } = await run({});
    const f = Object.fromEntries(report.files.map((x) => [x.path, x]));
    // pairs: 40.5-10.2001, 41.5-11.2001, 42.5-12.2001 → +30.2999 s; applied -30.300 s (rounded to the ms)
    expect(f["node-a/events.json"].clockOffsetMs).toBe(-30300);
    expect(f["node-a/kubelet.log"].clockOffsetMs).toBe(0);
    expect(times).toEqual(["2025-05-19T04:20:09.700Z", "2025-05-19T04:20:10.700Z", "2025-05-19T04:20:11.700Z"]);
  });

  it("uses the bundle's skew option instead", async () => {
    const { report, times } = await run({ skew: -30 });
    expect(report.files.find((x) => x.path === "node-a/events.json")!.clockOffsetMs).toBe(-30000);
    expect(times).toEqual(["2025-05-19T04:20:10.000Z", "2025-05-19T04:20:11.000Z", "2025-05-19T04:20:12.000Z"]);
  });
});
