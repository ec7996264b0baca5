import { describe, expect, it } from "vitest";
import { LANES } from "./lanes";
import { compareStateField, comparePath, DEFAULT_COMPARE_STATE, parseCompareState, serializeCompareState } from "./compare-state";

describe("parseCompareState", () => {
  it("gives the defaults for an empty query", () => {
    expect(parseCompareState({})).toEqual(DEFAULT_COMPARE_STATE);
    expect(parseCompareState(new URLSearchParams())).toEqual(DEFAULT_COMPARE_STATE);
  });

  it("reads boots, T+ second offsets and lanes", () => {
    expect(parseCompareState(new URLSearchParams("boots=12,7&from=-1.5&to=28.25&lanes=kubelet,runtime"))).toEqual({
      boots: [12, 7],
      from: -1500,
      to: 28_250,
      lanes: ["runtime", "kubelet"],
    });
  });

  it("merges repeated boot keys (the no-JavaScript form) and drops junk and repeats", () => {
    expect(parseCompareState(new URLSearchParams("boot=3&boot=5&boots=5,x,0,-2,9")).boots).toEqual([5, 9, 3]);
    expect(parseCompareState({ boots: Array.from({ length: 12 }, (_, i) => String(i + 1)).join(",") }).boots).toHaveLength(8);
  });

  it("falls back field by field", () => {
    expect(parseCompareState({ boots: "2,3", from: "soon", to: "1e3", lanes: "nope" })).toEqual({ boots: [2, 3], from: null, to: null, lanes: [...LANES] });
    expect(parseCompareState({ boots: "2,3", from: "10", to: "5" })).toMatchObject({ from: null, to: null });
    expect(parseCompareState({ from: "99999999" }).from).toBeNull();
  });
});

describe("serializeCompareState", () => {
  it("round-trips and builds the page path", () => {
    const v = { boots: [4, 2], from: 9035, to: 28_300, lanes: ["kubelet" as const, "cni-plugin" as const] };
    const qs = serializeCompareState(v);
    expect(qs).toBe("?boots=4,2&from=9.035&to=28.3&lanes=kubelet,cni-plugin");
    expect(parseCompareState(new URLSearchParams(qs.slice(1)))).toEqual(v);
    expect(comparePath("inc 1", [1, 2])).toBe("/i/inc%201/compare?boots=1,2");
    expect(compareStateField.boots("x")).toBeNull();
    expect(compareStateField.offset("-0.25")).toBe(-250);
  });
});
