import { describe, expect, it } from "vitest";
import { bucketGrid } from "./buckets";
import { panRange, timeScale, timeTicks, zoomRange } from "./time-scale";

const T0 = Date.parse("2026-03-14T02:10:00.250Z");

describe("bucketGrid", () => {
  it("gives about 200-400 epoch-aligned buckets covering the range", () => {
    for (const span of [50, 1_000, 19_265, 600_000, 3_600_000, 86_400_000 * 3]) {
      const g = bucketGrid(T0, T0 + span);
      expect(g.startMs % g.bucketMs).toBe(0);
      expect(g.startMs).toBeLessThanOrEqual(T0);
      expect(g.startMs + g.count * g.bucketMs).toBeGreaterThanOrEqual(T0 + span);
      if (span >= 300) {
        expect(g.count).toBeGreaterThanOrEqual(150);
        expect(g.count).toBeLessThanOrEqual(450);
      }
    }
  });
});

describe("timeTicks", () => {
  it("puts ticks on round T+ offsets with UTC wall clock", () => {
    const ticks = timeTicks(T0, T0 + 60_000, T0);
    expect(ticks[0]).toEqual({ t: T0, offsetLabel: "T+0s", wallLabel: "02:10:00" });
    expect(ticks.map((t) => t.offsetLabel)).toContain("T+30s");
    expect(ticks.length).toBeLessThanOrEqual(11);
  });
  it("uses ms labels when zoomed in and minutes when zoomed out", () => {
    expect(timeTicks(T0 + 9000, T0 + 9500, T0)[0].offsetLabel).toBe("T+9.00s");
    expect(timeTicks(T0 + 9000, T0 + 9500, T0)[0].wallLabel).toBe("02:10:09.250");
    expect(timeTicks(T0, T0 + 3_600_000, T0).map((t) => t.offsetLabel)).toContain("T+10m");
  });
});

describe("zoomRange / panRange / timeScale", () => {
  it("zooms around the centre inside the bounds", () => {
    expect(zoomRange(400, 600, 2, 0, 1000)).toEqual([300, 700]);
    expect(zoomRange(0, 200, 2, 0, 1000)).toEqual([0, 400]);
    expect(zoomRange(0, 800, 4, 0, 1000)).toEqual([0, 1000]);
  });
  it("pans and stops at the edges", () => {
    expect(panRange(400, 600, 0.5, 0, 1000)).toEqual([500, 700]);
    expect(panRange(850, 950, 1, 0, 1000)).toEqual([900, 1000]);
    expect(panRange(50, 150, -1, 0, 1000)).toEqual([0, 100]);
  });
  it("maps times to fractions and back", () => {
    const s = timeScale(1000, 3000);
    expect(s.frac(2000)).toBe(0.5);
    expect(s.time(0.25)).toBe(1500);
  });
});
