import { describe, expect, it } from "vitest";
import type { AnalysedEvent } from "../model/event";
import { decodeEvent, encodeEvent, TAIL_COLUMNS } from "./spill";

const base: AnalysedEvent = {
  fileIdx: 3,
  line: 41,
  span: 2,
  ts: Date.UTC(2026, 2, 14, 3, 0, 12, 345),
  precision: "us",
  flags: 4,
  component: "kubelet",
  lane: "kubelet",
  severity: 3,
  kind: "sandbox.create.failed",
  pod: "kube-system/coredns-5d78c9869d-x2x7q",
  sandboxId: "8f2c",
  errorClass: null,
  message: 'RunPodSandbox failed:\tplugin type="calico" failed (add): stat /var/lib/calico/nodename\nno such file \\ dir',
  fields: { k8s: { reason: "FailedCreatePodSandBox", count: 7, firstMs: 1, lastMs: 2 } },
  node: "ip-10-0-1-7",
  boot: null,
  journalBootId: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
  bootSegment: 2,
  rebootBootId: null,
  bootDecl: { id: "abc", lastMs: 99, source: "list-boots" },
};

describe("spill lines", () => {
  it("keep one event per line and give back what a node's store step reads", () => {
    const line = encodeEvent(base);
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1)).not.toContain("\n");
    const { e, tail } = decodeEvent(line.slice(0, -1), 3, "ip-10-0-1-7");
    expect(e).toMatchObject({
      fileIdx: 3,
      line: 41,
      ts: base.ts,
      kind: "sandbox.create.failed",
      lane: "kubelet",
      severity: 3,
      component: "kubelet",
      pod: base.pod,
      sandboxId: "8f2c",
      message: base.message,
      precision: "us",
      fields: base.fields,
      journalBootId: base.journalBootId,
      bootSegment: 2,
      bootDecl: base.bootDecl,
      node: "ip-10-0-1-7",
    });
    // the tail is the COPY text of the unchanging columns: tab, newline and backslash escaped
    const cols = tail.split("\t");
    expect(cols).toHaveLength(TAIL_COLUMNS.length);
    expect(cols.slice(0, 9)).toEqual(["41", "2", "us", "4", "kubelet", "kubelet", "3", "sandbox.create.failed", base.pod]);
    expect(cols[10]).toBe('RunPodSandbox failed:\\tplugin type="calico" failed (add): stat /var/lib/calico/nodename\\nno such file \\\\ dir');
  });

  it("carry a plain log line's text in the tail only", () => {
    const log: AnalysedEvent = { ...base, kind: "log", pod: null, sandboxId: null, fields: null, bootDecl: undefined, ts: null, message: "Starting kubelet" };
    const { e, tail } = decodeEvent(encodeEvent(log).slice(0, -1), 0, null);
    expect(e.message).toBe("");
    expect(e.ts).toBeNull();
    expect(e.bootDecl).toBeUndefined();
    expect(tail.split("\t")).toEqual(["41", "2", "us", "4", "kubelet", "kubelet", "3", "log", "\\N", "\\N", "Starting kubelet"]);
  });

  it("keep the text of a log line a rule may take (rules/*.yaml), for the detect step", () => {
    const kill = "Out of memory: Killed process 1432 (containerd) total-vm:2458624kB, anon-rss:912344kB";
    const log: AnalysedEvent = { ...base, kind: "log", component: "kernel", lane: "kernel", pod: null, sandboxId: null, fields: null, message: kill };
    const { e } = decodeEvent(encodeEvent(log).slice(0, -1), 0, null);
    expect(e).toMatchObject({ kind: "log", lane: "kernel", component: "kernel", message: kill, precision: "us" });
  });
});
