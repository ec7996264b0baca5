import { describe, expect, it } from "vitest";
import { filterActive, filterFindings, findingFilterOptions, foldedCounts, groupFindings, parseFindingFilter } from "./finding-groups";

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

describe("findings filter", () => {
  const F = [
    { id: 1, detector: "sandbox-failure-window", severity: "critical" },
    { id: 2, detector: "retry-storm", severity: "high" },
    { id: 3, detector: "retry-storm", severity: "medium" },
    { id: 4, detector: "runtime-degradation", severity: "medium" },
    { id: 5, detector: "retry-storm", severity: "high" },
  ];
  const SEV = ["critical", "high", "medium", "low", "info"];

  it("reads det and sev from the URL, comma-separated, blanks and repeats dropped", () => {
    expect(parseFindingFilter({ det: "retry-storm,sandbox-failure-window", sev: "critical" })).toEqual({
      detectors: ["retry-storm", "sandbox-failure-window"],
      severities: ["critical"],
    });
    expect(parseFindingFilter({ det: " retry-storm,,retry-storm ", sev: ["high", "low,high"] })).toEqual({
      detectors: ["retry-storm"],
      severities: ["high", "low"],
    });
    expect(parseFindingFilter({})).toEqual({ detectors: [], severities: [] });
    expect(filterActive(parseFindingFilter({ det: "" }))).toBe(false);
    expect(filterActive(parseFindingFilter({ sev: "low" }))).toBe(true);
  });

  it("shows every finding with no filter, and the findings both lists allow, in their order", () => {
    expect(filterFindings(F, { detectors: [], severities: [] }).map((f) => f.id)).toEqual([1, 2, 3, 4, 5]);
    expect(filterFindings(F, { detectors: ["retry-storm"], severities: [] }).map((f) => f.id)).toEqual([2, 3, 5]);
    expect(filterFindings(F, { detectors: ["retry-storm", "runtime-degradation"], severities: ["medium"] }).map((f) => f.id)).toEqual([3, 4]);
    expect(filterFindings(F, { detectors: [], severities: ["critical", "high"] }).map((f) => f.id)).toEqual([1, 2, 5]);
    expect(filterFindings(F, { detectors: ["image-pull-storm"], severities: [] })).toEqual([]);
  });

  it("counts each option under the other list's choice, severities most severe first, unknown choices kept", () => {
    const o = findingFilterOptions(F, { detectors: ["retry-storm", "image-pull-storm"], severities: ["high"] }, SEV);
    expect(o.detectors).toEqual([
      { value: "image-pull-storm", count: 0, checked: true },
      { value: "retry-storm", count: 2, checked: true },
      { value: "runtime-degradation", count: 0, checked: false },
      { value: "sandbox-failure-window", count: 0, checked: false },
    ]);
    expect(o.severities).toEqual([
      { value: "critical", count: 0, checked: false },
      { value: "high", count: 2, checked: true },
      { value: "medium", count: 1, checked: false },
    ]);
    const all = findingFilterOptions(F, { detectors: [], severities: [] }, SEV);
    expect(all.detectors.map((x) => [x.value, x.count])).toEqual([
      ["retry-storm", 3],
      ["runtime-degradation", 1],
      ["sandbox-failure-window", 1],
    ]);
    expect(all.severities.map((x) => [x.value, x.count])).toEqual([
      ["critical", 1],
      ["high", 2],
      ["medium", 2],
    ]);
  });
});
