/**
 * The timeline's findings rows (components/timeline/finding-rows.ts): grouped by detector, the
 * group with the most severe finding first, overlapping findings of one detector on separate
 * rows, and every finding in view placed in some row.
 */
import { describe, expect, it } from "vitest";
import { findingRows } from "../components/timeline/finding-rows";
import type { TFindingView } from "../lib/incidents/get-incident";

let nextId = 1;
const finding = (detector: string, severity: string, startMs: number, endMs: number | null): TFindingView => ({
  id: nextId++,
  detector,
  severity,
  nodeName: "n",
  bootKey: "b",
  bootStartMs: 0,
  startMs,
  endMs,
  title: `${detector} ${startMs}`,
  explanation: "",
  metrics: {},
  evidenceCount: 0,
});

describe("findingRows", () => {
  it("orders detectors by their most severe finding and packs overlaps into rows", () => {
    const fs = [
      finding("retry-storm", "low", 0, 50_000),
      finding("retry-storm", "low", 10_000, 60_000),
      finding("retry-storm", "medium", 70_000, 80_000),
      finding("cni-conflist-rewrite-loop", "high", 5_000, 9_000),
      finding("cni-bootstrap-deadlock", "critical", 20_000, null),
      finding("runtime-degradation", "high", 200_000, 210_000), // out of view
    ];
    const g = findingRows(fs, 0, 100_000, 90_000, 0.01);
    expect(g.map((x) => [x.detector, x.severity, x.count])).toEqual([
      ["cni-bootstrap-deadlock", "critical", 1],
      ["cni-conflist-rewrite-loop", "high", 1],
      ["retry-storm", "medium", 3],
    ]);
    // the open deadlock runs to the end of the data
    expect(g[0].rows[0][0].a).toBeCloseTo(0.2);
    expect(g[0].rows[0][0].w).toBeCloseTo(0.7);
    // two overlapping storms on two rows; the medium one (first placed) shares the first row with a low one
    const storms = g[2].rows.map((r) => r.map((b) => b.f.startMs));
    expect(storms).toEqual([[0, 70_000], [10_000]]);
  });

  it("places every finding in view, none overlapping in a row, short ones at least minFrac wide", () => {
    const fs = Array.from({ length: 120 }, (_, i) => finding("retry-storm", "low", (i % 40) * 1_000, (i % 40) * 1_000 + (i % 3 === 0 ? 0 : 15_000)));
    const [g] = findingRows(fs, 0, 60_000, 60_000, 0.02, 0.005);
    const placed = g.rows.flat();
    expect(placed).toHaveLength(120);
    expect(new Set(placed.map((b) => b.f.id)).size).toBe(120);
    for (const b of placed) expect(b.w).toBeGreaterThanOrEqual(0.02);
    for (const row of g.rows) for (let i = 1; i < row.length; i++) expect(row[i].a).toBeGreaterThanOrEqual(row[i - 1].a + row[i - 1].w + 0.005);
  });
});
