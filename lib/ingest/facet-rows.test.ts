import { describe, expect, it } from "vitest";
import { BootFacets, FACET_COLUMNS } from "./facet-rows";

const ev = (kind: string, component: string, ts: number | null, extra: { pod?: string; errorClass?: string } = {}) => ({
  kind,
  component,
  lane: component === "kubelet" ? "kubelet" : "runtime",
  ts,
  pod: extra.pod ?? null,
  errorClass: extra.errorClass ?? null,
});

describe("BootFacets", () => {
  it("counts each value per boot with its earliest time and first id, as COPY rows in FACET_COLUMNS order", () => {
    const f = new BootFacets();
    const t0 = Date.UTC(2026, 2, 14, 2, 0, 0);
    f.add(7, ev("sandbox.create.failed", "kubelet", t0 + 5000, { pod: "kube-system/coredns-1", errorClass: "cni-not-ready" }), 100);
    // an out-of-order earlier time: the first time moves, the first id stays the lowest
    f.add(7, ev("sandbox.create.failed", "kubelet", t0 + 1000, { pod: "kube-system/coredns-1", errorClass: "cni-not-ready" }), 101);
    f.add(7, ev("log", "containerd", null), 102);
    f.add(8, ev("log", "containerd", t0), 103);
    const rows = f
      .rows("inc1", "bun1")
      .trimEnd()
      .split("\n")
      .map((r) => r.split("\t"));
    expect(rows.every((r) => r.length === FACET_COLUMNS.length)).toBe(true);
    expect(rows.map((r) => r.slice(1))).toEqual([
      ["7", "bun1", "kind", "sandbox.create.failed", "\\N", "2", new Date(t0 + 1000).toISOString(), "100"],
      ["7", "bun1", "kind", "log", "\\N", "1", "\\N", "102"],
      ["7", "bun1", "errorClass", "cni-not-ready", "\\N", "2", new Date(t0 + 1000).toISOString(), "100"],
      ["7", "bun1", "component", "kubelet", "kubelet", "2", new Date(t0 + 1000).toISOString(), "100"],
      ["7", "bun1", "component", "containerd", "runtime", "1", "\\N", "102"],
      ["7", "bun1", "pod", "kube-system/coredns-1", "\\N", "2", new Date(t0 + 1000).toISOString(), "100"],
      ["8", "bun1", "kind", "log", "\\N", "1", new Date(t0).toISOString(), "103"],
      ["8", "bun1", "component", "containerd", "runtime", "1", new Date(t0).toISOString(), "103"],
    ]);
    expect(new BootFacets().rows("inc1", "bun1")).toBe("");
  });
});
