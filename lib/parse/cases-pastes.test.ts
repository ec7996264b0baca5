/**
 * Real-format cases of pastes (tests/cases; expected values in tests/cases/expect/*.json): tool
 * prefixes, glued and wrapped records, prompts, mixed formats, klog JSON behind a host prefix.
 */
import { describe, expect, it } from "vitest";
import { pasteInfo } from "./parse-file";
import { formatByName } from "./registry";
import { expectAccounting, parseCase, recordIso as iso } from "../testing/parse-cases";

describe("case 008: stern-style <pod> <container> prefix, cilium logfmt records glued on 2 lines", () => {
  const f = parseCase("008-kubectl-logs-prefix-glued-lines.log");

  it("2 physical lines hold 6 cilium records, all timed", () => {
    expect(f.format).toBe("cilium-logfmt");
    expect(f.counts).toMatchObject({ lines: 2, parsed: 2, records: 6, continuation: 0, banner: 0, skipped: 0, noTimestamp: 0, outOfOrder: 0 });
    expect((f.counts as { glued?: number }).glued).toBe(4);
    expectAccounting(f);
    expect(f.records.map((r) => r.line)).toEqual([1, 1, 1, 1, 1, 2]);
    expect(pasteInfo(f)).toMatchObject({ prefix: ["pod-container"], glued: 4 });
  });

  it("times are fractions of a second (8 and 9 digits), floored", () => {
    expect(f.records.map(iso)).toEqual([
      "2025-05-23T20:14:38.902Z",
      "2025-05-23T20:14:38.903Z",
      "2025-05-23T20:14:38.903Z",
      "2025-05-23T20:14:38.903Z",
      "2025-05-23T20:14:38.903Z",
      "2025-05-23T20:14:38.904Z",
    ]);
    expect(f.records.every((r) => r.severity === 1 && r.component === "cilium")).toBe(true);
  });

  it("subsys never takes the next record's prefix; the pod is a fact, not the node", () => {
    expect(f.records.map((r) => r.fields?.subsys)).toEqual(["cni-config", "cni-config", "cni-config", "cni-config", "cni-config", "cni-"]);
    for (const r of f.records) {
      expect(r.fields?.prefixPod).toBe("cilium-w96t9");
      expect(r.fields?.prefixContainer).toBe("cilium-agent");
      expect(r.host).toBeUndefined();
    }
  });

  it("1 Generating, 4 Activity, then the conflist write", () => {
    const msgs = f.records.map((r) => r.message);
    expect(msgs[0]).toBe("Generating CNI configuration file with mode none");
    expect(msgs.slice(1, 5)).toEqual(Array(4).fill("Activity in /host/etc/cni/net.d/, re-generating CNI configuration"));
    expect(msgs[5]).toBe("Wrote CNI configuration file to /host/etc/cni/net.d/05-cilium.conflist");
    // the padding between records belongs to none
    expect(f.records.every((r) => r.raw === r.raw.trim() && r.raw.startsWith("cilium-w96t9 cilium-agent time="))).toBe(true);
  });
});

describe("case 012: shell prompt, crictl's klog line, then logrus FATA[0000]", () => {
  const f = parseCase("012-crictl-runp-calico-klog-and-logrus-fata.log", { year: 2023, tz: "UTC" });

  it("line 1 (the prompt) is a banner, not a record and no node", () => {
    expect(f.banners).toEqual([{ line: 1, banner: { type: "header" } }]);
    expect(f.counts).toMatchObject({ lines: 3, banner: 1 });
    expect(f.records.every((r) => r.host === undefined)).toBe(true);
  });

  it("record 1: klog E at 11:20:58.614Z, pid 99461, the sandbox's CNI ADD failure", () => {
    expect(f.format).toBe("klog");
    const r = f.records[0];
    expect(r).toMatchObject({ line: 2, severity: 3, pid: 99461, message: expect.stringMatching(/^RunPodSandbox from runtime service failed/) });
    expect(iso(r)).toBe("2023-08-29T11:20:58.614Z");
    expect(r.fields?.err).toContain('failed to setup network for sandbox "30dcfae8ffdc25127b0b9d52715bbb40bc2d56b16414e632473a0d3982f3a8e5"');
    expect(r.fields?.err).toContain('plugin type="calico" failed (add): pods "nginx-sandbox" not found');
  });

  // the FATA[0000] line is read by the logrus terminal format, through the per-line fallback
  it.skipIf(!formatByName("logrus-text"))("record 2: FATA[0000] is fatal with no time ([0000] is seconds since start)", () => {
    expect(f.counts).toMatchObject({ records: 2, skipped: 0, noTimestamp: 1 });
    expectAccounting(f);
    const r = f.records[1];
    expect(r).toMatchObject({ line: 3, severity: 4, ts: null, time: null });
    expect(r.message).toMatch(/^run pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "30dcfae8ffdc/);
    expect(pasteInfo(f)?.otherFormats).toEqual(["logrus-text"]);
  });
});

describe("case 130: talosctl host prefix, kubelet JSON (epoch ms) broken by raw newlines", () => {
  const f = parseCase("130-talos-kubelet-json-epoch-ms-host-prefix-runtime-eof-wrapped.log");

  it("6 lines, 4 records, lines 2 and 5 continue records 1 and 3", () => {
    expect(f.format).toBe("klog-json");
    expect(f.counts).toMatchObject({ lines: 6, parsed: 6, records: 4, continuation: 2, skipped: 0, banner: 0, noTimestamp: 0, outOfOrder: 0 });
    expectAccounting(f);
    expect(f.records.map((r) => [r.line, r.endLine])).toEqual([
      [1, 2],
      [3, 3],
      [4, 5],
      [6, 6],
    ]);
    expect(pasteInfo(f)?.prefix).toEqual(["host"]);
  });

  it("the node comes from the prefix", () => {
    expect(f.records.map((r) => r.host)).toEqual(Array(4).fill("10.200.193.195"));
  });

  it("times floored, never rounded", () => {
    expect(f.records.map(iso)).toEqual(["2025-07-21T18:08:21.813Z", "2025-07-21T18:08:41.285Z", "2025-07-21T18:08:41.286Z", "2025-07-21T18:08:41.286Z"]);
  });

  it("severities: error, info (v:0), error, error", () => {
    expect(f.records.map((r) => r.severity)).toEqual([3, 1, 3, 3]);
  });

  it("messages hold the text across the raw line break; the cut record keeps its err", () => {
    expect(f.records[0].message).toMatch(/^Failed to create existing container: .* in namespace "k8s\.io\n": not found$/);
    expect(f.records[1].message).toMatch(/^Failed to process watch event .*error reading from server: EOF: unavailable$/);
    expect(f.records[2].message).toBe("ListContainerStats with filter from runtime service failed");
    expect(f.records[2].fields?.err).toBe(
      "rpc error: code = Unavailable desc = error reading from server: read unix @->/run/containerd/containerd.sock: read:\n connection reset by peer",
    );
    expect(f.records[3].fields?.err).toBe("rpc error: code = Unavailable desc = error reading from server: read unix @->/run/contai");
  });
});
