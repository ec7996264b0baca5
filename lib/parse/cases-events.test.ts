/**
 * The real-format event cases (tests/cases, expected values in tests/cases/expect/*.json): kubectl
 * describe Events sections and `kubectl get events` tables, parsed by `parseFile` with the
 * collection time a reviewer gives at upload, and again with only the upload's time.
 */
import { describe, expect, it } from "vitest";
import type { FileRecord, ParsedFile } from "./file-types";
import { caseText } from "../../tests/cases/cases";
import { expectAccounting, parseCase } from "../testing/parse-cases";

function expected(name: string): { records: number; timestamped: number } {
  return JSON.parse(caseText(`expect/${name.replace(/\.log$/, ".json")}`)) as { records: number; timestamped: number };
}

const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/** Records with a time of their own (not counted back from an age). */
function ownTimes(f: ParsedFile): number {
  return f.records.filter((r) => r.ts !== null && r.k8sEvent?.lastUncertaintyMs === undefined).length;
}

function expectRead(f: ParsedFile): void {
  const nonBlank = f.counts.lines - f.counts.blank;
  expect(f.counts.parsed / nonBlank).toBeGreaterThanOrEqual(0.8);
}

const ev = (r: FileRecord) => r.k8sEvent;

describe("case 013: describe Events, legacy source, long-form ages", () => {
  const name = "013-describe-events-sandboxchanged-x10.log";
  const collectedMs = Date.parse("2020-07-08T10:00:00Z");
  const f = parseCase(name, { collectedMs });

  it("3 records, none with a time of its own; Events:, header and dashes are banners", () => {
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ lines: 6, records: expected(name).records, banner: 3, skipped: 0 });
    expect(ownTimes(f)).toBe(expected(name).timestamped);
    expect(f.banners.map((b) => b.line)).toEqual([1, 2, 3]);
    expectAccounting(f);
  });

  it("every row is about pod default/kafka-0 on node node-p-000000", () => {
    for (const r of f.records) {
      expect(ev(r)).toMatchObject({ namespace: "default", objectKind: "Pod", objectName: "kafka-0", node: "node-p-000000" });
      expect(r.fields?.pod).toBe("default/kafka-0");
    }
  });

  it("Scheduled <unknown>: no time; FailedCreatePodSandBox 2m: 09:58:00Z to the second", () => {
    expect(f.records[0].ts).toBeNull();
    expect(ev(f.records[0])?.reason).toBe("Scheduled");
    const failed = f.records[1];
    expect(ev(failed)).toMatchObject({ reason: "FailedCreatePodSandBox", type: "Warning", count: 1, lastUncertaintyMs: 1000 });
    expect(iso(failed.ts)).toBe("2020-07-08T09:58:00.000Z");
    expect(failed.precision).toBe("s");
  });

  it("SandboxChanged 2s (x10 over 119s): count 10, first 09:58:01Z, last 09:59:58Z", () => {
    const r = f.records[2];
    expect(ev(r)?.count).toBe(10);
    expect(iso(ev(r)?.firstMs)).toBe("2020-07-08T09:58:01.000Z");
    expect(iso(ev(r)?.lastMs)).toBe("2020-07-08T09:59:58.000Z");
  });
});

describe("case 040: kubectl get event --all-namespaces below its prompt", () => {
  const name = "040-get-events-all-namespaces-starting-kubelet.log";
  const f = parseCase(name, { collectedMs: Date.parse("2019-04-03T10:00:00Z") });

  it("prompt and column header are banners; 7 records, none timed by itself", () => {
    expect(f.format).toBe("kubectl-events-table");
    expect(f.counts).toMatchObject({ lines: 9, records: expected(name).records, banner: 2, skipped: 0 });
    expect(f.banners.map((b) => b.line)).toEqual([1, 2]);
    expect(ownTimes(f)).toBe(expected(name).timestamped);
    expectAccounting(f);
  });

  it("node node-p-0000, namespace default, minute ages at their latest bound", () => {
    for (const r of f.records) {
      expect(ev(r)).toMatchObject({
        type: "Normal",
        namespace: "default",
        objectKind: "Node",
        objectName: "node-p-0000",
        node: "node-p-0000",
        count: 1,
        lastUncertaintyMs: 60_000,
      });
      expect(r.precision).toBe("age");
    }
    expect(f.records.map((r) => iso(r.ts))).toEqual([...Array(5).fill("2019-04-03T09:24:00.000Z"), "2019-04-03T09:36:00.000Z", "2019-04-03T09:47:00.000Z"]);
    expect(f.records.map((r) => ev(r)?.reason)).toEqual([
      "NodeHasSufficientMemory",
      "NodeHasNoDiskPressure",
      "NodeHasSufficientPID",
      "RegisteredNode",
      "Starting",
      "NodeReady",
      "Starting",
    ]);
    expect(f.records[6].message).toBe("Starting kubelet.");
    expect(f.records[4].message).toBe("Starting kube-proxy.");
  });
});

describe("case 044: describe rows without header, short-form ages", () => {
  const name = "044-describe-calico-nodename-x158-over-6m.log";
  const f = parseCase(name, { collectedMs: Date.parse("2018-04-12T08:00:00Z") });

  it("2 records for kube-system/kube-dns-86f4d74b45-kgjbk on node-p-0000000000000000000", () => {
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ lines: 2, records: expected(name).records, skipped: 0, banner: 0 });
    expect(ownTimes(f)).toBe(expected(name).timestamped);
    for (const r of f.records) {
      expect(ev(r)).toMatchObject({ namespace: "kube-system", objectKind: "Pod", objectName: "kube-dns-86f4d74b45-kgjbk", node: "node-p-0000000000000000000" });
    }
  });

  it("FailedCreatePodSandBox x158: first 07:54:00Z, last 07:59:00Z, minute uncertainty", () => {
    const r = f.records[1];
    expect(ev(r)).toMatchObject({ reason: "FailedCreatePodSandBox", count: 158, firstUncertaintyMs: 60_000, lastUncertaintyMs: 60_000 });
    expect(iso(ev(r)?.firstMs)).toBe("2018-04-12T07:54:00.000Z");
    expect(iso(ev(r)?.lastMs)).toBe("2018-04-12T07:59:00.000Z");
    expect(iso(r.ts)).toBe("2018-04-12T07:59:00.000Z");
    expect(r.precision).toBe("age");
    expect(ev(f.records[0])).toMatchObject({ reason: "SandboxChanged", count: 11 });
  });
});

describe("case 121: describe with a row cut after its type", () => {
  const name = "121-k3s-in-docker-describe-ttrpc-closed-12s.log";
  const f = parseCase(name, { collectedMs: Date.parse("2020-06-22T08:00:00Z") });

  it("3 banners, 4 records, none timed by itself", () => {
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ lines: 7, records: expected(name).records, banner: 3, skipped: 0 });
    expect(ownTimes(f)).toBe(expected(name).timestamped);
    expectAccounting(f);
  });

  it("all rows: pod kube-system/local-path-provisioner-s5vvvvdq9-b44f9 on node 054837d7fc21", () => {
    for (const r of f.records) {
      expect(ev(r)).toMatchObject({ namespace: "kube-system", objectKind: "Pod", objectName: "local-path-provisioner-s5vvvvdq9-b44f9", node: "054837d7fc21" });
    }
  });

  it("two sandbox failures 07:50:21Z and 07:50:33Z; the cut row has no reason and no time", () => {
    expect(f.records.map((r) => iso(r.ts))).toEqual([null, "2020-06-22T07:50:21.000Z", "2020-06-22T07:50:33.000Z", null]);
    expect(f.records.slice(1, 3).every((r) => r.precision === "s" && ev(r)?.reason === "FailedCreatePodSandBox" && ev(r)?.count === 1)).toBe(true);
    expect(f.records[1].message).toContain(
      'failed to start sandbox container task "e2e86495b80d86030c147f85a3b9dc2a01d16d0ddba4ddb935380ed461cd59ab": ttrpc: closed: unknown',
    );
    expect(ev(f.records[3])).toMatchObject({ reason: "", type: "Warning", count: 1, firstMs: null, lastMs: null });
    expect(f.records[3].line).toBe(7);
  });
});

describe("ages anchored at the upload time when no collection time is given", () => {
  const uploadMs = Date.parse("2021-01-01T00:00:00Z");

  it("013: times counted back from the upload, flagged on every aged record", () => {
    const f = parseCase("013-describe-events-sandboxchanged-x10.log", { uploadMs });
    expect(iso(f.records[1].ts)).toBe("2020-12-31T23:58:00.000Z");
    expect(ev(f.records[1])?.agesFromUpload).toBe(true);
    expect(ev(f.records[2])?.agesFromUpload).toBe(true);
    expect(ev(f.records[0])?.agesFromUpload).toBeUndefined(); // <unknown>: no age at all
  });

  it("040 and 044: the same ages against the upload time", () => {
    const t = parseCase("040-get-events-all-namespaces-starting-kubelet.log", { uploadMs });
    expect(iso(t.records[6].ts)).toBe("2020-12-31T23:47:00.000Z");
    expect(t.records.every((r) => ev(r)?.agesFromUpload === true)).toBe(true);
    const d = parseCase("044-describe-calico-nodename-x158-over-6m.log", { uploadMs });
    expect(iso(ev(d.records[1])?.firstMs)).toBe("2020-12-31T23:54:00.000Z");
    expect(d.records.every((r) => ev(r)?.agesFromUpload === true)).toBe(true);
  });

  it("121: a collection time wins over the upload time (no flag)", () => {
    const f = parseCase("121-k3s-in-docker-describe-ttrpc-closed-12s.log", { collectedMs: Date.parse("2020-06-22T08:00:00Z"), uploadMs });
    expect(iso(f.records[1].ts)).toBe("2020-06-22T07:50:21.000Z");
    expect(f.records.every((r) => ev(r)?.agesFromUpload === undefined)).toBe(true);
    expectRead(f);
  });
});
