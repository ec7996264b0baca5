import { describe, expect, it } from "vitest";
import { foldedCounts, groupFindings } from "./finding-groups";

const f = (id: number, detector: string, nodeName = "ip-10-0-0-1", bootKey = "b1") => ({ id, detector, nodeName, bootKey });

describe("groupFindings", () => {
  it("keeps the first findings of each detector on a node boot and folds the rest, groups in list order", () => {
    const list = [
      f(1, "sandbox-failure-window"),
      f(2, "retry-storm"),
      f(3, "retry-storm"),
      f(4, "retry-storm", "ip-10-0-0-2"),
      f(5, "retry-storm"),
      f(6, "retry-storm"),
      f(7, "runtime-degradation"),
    ];
    const groups = groupFindings(list, 2);
    expect(groups.map((g) => [g.detector, g.nodeName, g.shown.map((x) => x.id), g.folded.map((x) => x.id)])).toEqual([
      ["sandbox-failure-window", "ip-10-0-0-1", [1], []],
      ["retry-storm", "ip-10-0-0-1", [2, 3], [5, 6]],
      ["retry-storm", "ip-10-0-0-2", [4], []],
      ["runtime-degradation", "ip-10-0-0-1", [7], []],
    ]);
    // another boot of the same node is another group
    expect(groupFindings([f(1, "retry-storm", "n", "b1"), f(2, "retry-storm", "n", "b2")], 1).map((g) => g.folded.length)).toEqual([0, 0]);
  });
});

describe("foldedCounts", () => {
  it("counts folded findings with their parts: 1 storm, 550 pods", () => {
    const pods = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `ns/p${i}`, startMs: i, endMs: null }));
    expect(
      foldedCounts([
        { detector: "sandbox-failure-window", metrics: { attempts: 7182 } },
        { detector: "retry-storm", metrics: { scope: "node", partsOf: "pod", parts: pods(550) } },
        { detector: "runtime-degradation", metrics: {} },
      ]),
    ).toBe("1 storm, 550 pods");
    expect(
      foldedCounts([
        { detector: "retry-storm", metrics: { scope: "node", partsOf: "pod", parts: pods(6) } },
        { detector: "retry-storm", metrics: { scope: "node", partsOf: "pod", parts: pods(7) } },
        { detector: "retry-storm", metrics: { scope: "pods", partsOf: "pod", parts: pods(1) } },
      ]),
    ).toBe("2 storms, 13 pods · 1 retry rhythm, 1 pod");
    expect(foldedCounts([{ detector: "x", metrics: {} }])).toBe("");
  });
});
