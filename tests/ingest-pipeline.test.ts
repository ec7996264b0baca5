/**
 * Integration: real-format files through the whole pipeline (unpack, parse, classify,
 * boots, COPY into PostgreSQL, detectors) and the report the CLI prints.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTarGz } from "../lib/bundle/tar-build";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { enqueueBundle, type UploadedFile } from "../lib/ingest/enqueue-bundle";
import { processBundle } from "../lib/ingest/pipeline";
import type { BundleOptions } from "../lib/ingest/uploads";
import { getIncidentReport } from "../lib/incidents/get-incident-report";
import { caseBytes } from "./cases/cases";

const caseFile = caseBytes;

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  process.env.BOOTLINE_DATA_DIR = path.join(process.cwd(), ".tmp", `data-${process.pid}`);
});
afterAll(async () => {
  await db?.drop();
});

async function ingest(files: UploadedFile[], options: BundleOptions = {}, incident?: string) {
  const { incidentId, bundleId } = await enqueueBundle(db, { incident, title: "pipeline test", files, options });
  const result = await processBundle(db, bundleId);
  return { incidentId, bundleId, result, report: await getIncidentReport(db, incidentId) };
}

describe("ingest pipeline", () => {
  it("case 056 (kind journal, containerd logrus inside): one failed attempt on kind-worker, year from containerd's stamp", async () => {
    const { result, report } = await ingest([{ name: "056-kind-journal.log", data: caseFile("056-kind-journald-containerd-kubelet-cilium-cni-retry.log") }]);
    expect(result.status).toBe("ready");
    expect(report.files).toHaveLength(1);
    const f = report.files[0];
    expect(f).toMatchObject({ status: "read", node: "kind-worker", lines: 4, records: 4, skipped: 0 });
    expect(f.parsed + f.blank + f.skipped).toBe(f.lines);
    expect(report.nodes.map((n) => n.name)).toEqual(["kind-worker"]);
    const rows = await db.sql.query<{ ts: Date; kind: string; component: string; pod: string | null; sandboxId: string | null }>(
      `SELECT ts, kind, component, pod, "sandboxId" FROM "Event" ORDER BY "fileId", line`,
    );
    expect(rows.map((r) => [r.ts.toISOString(), r.component, r.kind])).toEqual([
      ["2024-02-15T23:28:31.785Z", "containerd", "sandbox.create.start"],
      ["2024-02-15T23:28:32.000Z", "systemd", "log"],
      ["2024-02-15T23:28:32.000Z", "systemd", "log"],
      ["2024-02-15T23:28:32.075Z", "containerd", "sandbox.create.failed"],
    ]);
    expect(rows[3].pod).toBe("default/server");
    expect(rows[3].sandboxId).toBe("fdd742d3fe55cbb4154a0702a05c1ac207e8805417381ed445ac1b781d32d2bb");
    const w = report.findings.filter((x) => x.detector === "sandbox-failure-window");
    expect(w).toHaveLength(1);
    expect(w[0].metrics).toMatchObject({ attempts: 1, pods: 1 });
    expect(w[0].start).toBe("2024-02-15T23:28:32.075Z");
    expect(w[0].end).toBeNull();
  });

  it("lists what it cannot read, keeps the rest, and accounts for every line", async () => {
    const tgz = buildTarGz([
      { path: "node-x/kubelet.log", content: caseFile("070-syslog-kubelet-containerd-deadline.log") },
      { path: "node-x/random.bin", content: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 10, 3]) },
      { path: "node-x/notes.txt", content: "hello\nthis is not a log\n\n" },
      { path: "node-x/link.log", type: "SymbolicLink", linkpath: "/etc/passwd" },
    ]);
    const { result, report } = await ingest([{ name: "node-x.tar.gz", data: tgz }]);
    expect(result.status).toBe("ready");
    const byPath = Object.fromEntries(report.files.map((f) => [f.path, f]));
    expect(byPath["node-x/kubelet.log"]).toMatchObject({ status: "read", node: "NodeA", lines: 7, records: 4, blank: 3, skipped: 0 });
    expect(byPath["node-x/random.bin"]).toMatchObject({ status: "skipped", reason: expect.stringMatching(/^binary: /) });
    expect(byPath["node-x/notes.txt"]).toMatchObject({ status: "read", lines: 3, blank: 1, skipped: 2, skippedByReason: { "unknown-format": 2 } });
    expect(byPath["node-x/link.log"]).toMatchObject({ status: "skipped", reason: expect.stringMatching(/^symlink: /) });
    for (const f of report.files) expect(f.parsed + f.blank + f.skipped).toBe(f.lines);
    // case 070: two kubelet lines of one failure are one attempt
    const w = report.findings.find((x) => x.detector === "sandbox-failure-window" && x.node === "NodeA");
    expect(w?.metrics).toMatchObject({ attempts: 1, pods: 1, errorClass: "context-deadline-exceeded" });
  });

  it("says per file how many records carry their own time, how many got one from an age, and how many have none", async () => {
    const { result, report } = await ingest(
      [
        { name: "describe.log", data: caseFile("044-describe-calico-nodename-x158-over-6m.log") },
        { name: "cilium.log", data: caseFile("003-cilium-agent-logfmt-regenerate-loop.log") },
        { name: "kmsg.log", data: caseFile("107-kmsg-pri-kubelet-crashloop-5s.log") },
        { name: "kind.log", data: caseFile("056-kind-journald-containerd-kubelet-cilium-cni-retry.log") },
      ],
      { collected: "2018-04-12T08:00:00Z" },
    );
    expect(result.status).toBe("ready");
    const times = Object.fromEntries(report.files.map((f) => [f.path, { records: f.records, timed: f.timed, aged: f.aged, untimed: f.untimed }]));
    expect(times).toEqual({
      "describe.log": { records: 2, timed: 0, aged: 2, untimed: 0 },
      "cilium.log": { records: 13, timed: 0, aged: 0, untimed: 13 },
      "kmsg.log": { records: 12, timed: 12, aged: 0, untimed: 0 },
      "kind.log": { records: 4, timed: 4, aged: 0, untimed: 0 },
    });
  });

  it("fails a bundle with nothing readable, names the files, and stores nothing", async () => {
    const before = await db.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "Event"`);
    const { result, bundleId } = await ingest([{ name: "garbage.txt", data: Buffer.from("not a log line\nnor this\n") }]);
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/nothing in this bundle could be read/);
    expect(result.error).toContain("garbage.txt");
    const after = await db.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "Event"`);
    expect(after[0].n).toBe(before[0].n);
    const files = await db.sql.query(`SELECT id FROM "SourceFile" WHERE "bundleId" = $1`, [bundleId]);
    expect(files).toHaveLength(0);
    const [b] = await db.sql.query<{ status: string }>(`SELECT status FROM "Bundle" WHERE id = $1`, [bundleId]);
    expect(b.status).toBe("failed");
  });
});
