import { describe, expect, it } from "vitest";
import { fmtCompact, fmtMetric, metricLabel } from "./format";

describe("fmtCompact", () => {
  it("fits counts of a large boot in a lane label", () => {
    expect([0, 950, 1000, 12_345, 719_500, 1_092_000, 1_451_600, 3_000_900_000].map(fmtCompact)).toEqual([
      "0",
      "950",
      "1.00k",
      "12.3k",
      "720k",
      "1.09M",
      "1.45M",
      "3.00G",
    ]);
  });
});

describe("fmtMetric", () => {
  it("writes finding metrics as short text", () => {
    expect(fmtMetric(20)).toBe("20");
    expect(fmtMetric(3.2690001)).toBe("3.269");
    expect(fmtMetric(null)).toBe("—");
    expect(fmtMetric({ "calico-nodename-missing": 20 })).toBe("calico-nodename-missing 20");
    expect(fmtMetric(["a", 1.5])).toBe("a, 1.5");
  });
});

describe("metricLabel", () => {
  it("turns the detectors' metric keys into words with their units", () => {
    const keys = [
      "steadyMedianIntervalS",
      "peakAfterBootS",
      "writesPerS",
      "ratePerMin",
      "writesByWriter",
      "untimedWrites",
      "intervalsS",
      "sinceS",
      "blockedPods",
      "rhythm",
      "errorClasses",
    ];
    expect(keys.map(metricLabel)).toEqual([
      "steady median interval (s)",
      "peak (T+ s)",
      "writes / s",
      "rate / min",
      "writes by writer",
      "untimed writes",
      "intervals (s)",
      "since (s)",
      "blocked pods",
      "rhythm",
      "error classes",
    ]);
  });
});
