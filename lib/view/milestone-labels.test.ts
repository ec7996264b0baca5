import { describe, expect, it } from "vitest";
import { layoutMilestoneLabels, stackSpans } from "./milestone-labels";

describe("stackSpans", () => {
  it("puts a span on the first row free at its x, a new row when none is", () => {
    expect(
      stackSpans([
        { x: 0, w: 100 },
        { x: 50, w: 100 },
        { x: 100, w: 30 },
        { x: 120, w: 10 },
        { x: 160, w: 10 },
      ]),
    ).toEqual([0, 1, 0, 2, 0]);
  });

  it("with maxRows, a span that finds no row gets none", () => {
    expect(
      stackSpans(
        [
          { x: 0, w: 100 },
          { x: 10, w: 100 },
          { x: 20, w: 100 },
          { x: 110, w: 5 },
        ],
        2,
      ),
    ).toEqual([0, 1, null, 0]);
  });
});

describe("layoutMilestoneLabels", () => {
  const t0 = Date.parse("2026-03-14T02:10:00Z");
  const ms = [
    { kind: "cni", label: "CNI config", ts: t0 + 12_000 },
    { kind: "kubelet", label: "kubelet start", ts: t0 + 4_000 },
    { kind: "ready", label: "node Ready", ts: t0 + 5_000 },
    { kind: "late", label: "after view", ts: t0 + 90_000 },
  ];
  // 10 px per second of the view [t0, t0 + 60 s)
  const o = { from: t0, to: t0 + 60_000, t0, xAt: (t: number) => (t - t0) / 100, width: (text: string) => text.length * 6 };

  it("labels the milestones in view, by time, with their T+ offset, and stacks those that would overlap", () => {
    const out = layoutMilestoneLabels(ms, o);
    expect(out.map((l) => [l.m.kind, l.text, l.x, l.w, l.row])).toEqual([
      ["kubelet", "kubelet start T+4.0s", 40, 120, 0],
      ["ready", "node Ready T+5.0s", 50, 102, 1],
      ["cni", "CNI config T+12.0s", 120, 108, 2],
    ]);
  });

  it("drops the labels past maxRows (the picture's three rows)", () => {
    const out = layoutMilestoneLabels(ms, { ...o, maxRows: 2 });
    expect(out.map((l) => l.row)).toEqual([0, 1, null]);
  });
});
