import { describe, expect, it } from "vitest";
import { bandOf, bucketAt, dragZoom, findingGroupFold, lanesHeight, offscreenSide, pct, spanInView, tickEdge, viewAround, zoomOutAround } from "./lanes-layout";
import { timeScale } from "./time-scale";

const from = 1_000_000;
const to = from + 10_000;

describe("lanes layout", () => {
  it("sums lane heights: 44 px shown, 22 hidden", () => {
    expect(lanesHeight(["kernel", "runtime", "kubelet"], ["kernel", "kubelet"])).toBe(110);
    expect(pct(0.123456789)).toBe("12.3457%");
  });

  it("places a span in the view, clamped; open spans run to the data's end", () => {
    expect(spanInView({ startMs: from + 2_500, endMs: from + 5_000 }, from, to, to)).toEqual({ a: 0.25, b: 0.5 });
    expect(spanInView({ startMs: from - 5_000, endMs: null }, from, to, from + 7_500)).toEqual({ a: 0, b: 0.75 });
    expect(spanInView({ startMs: from - 5_000, endMs: from - 1 }, from, to, to)).toBeNull();
    expect(spanInView({ startMs: to + 1, endMs: null }, from, to, to + 50)).toBeNull();
  });

  it("says on which side a span off screen lies, and the view that shows it", () => {
    expect(offscreenSide({ startMs: from - 3_000, endMs: from - 1_000 }, from, to, to)).toBe("left");
    expect(offscreenSide({ startMs: to + 1, endMs: null }, from, to, to + 9)).toBe("right");
    expect(offscreenSide({ startMs: from, endMs: from }, from, to, to)).toBeNull();
    expect(viewAround({ startMs: 10_000, endMs: 20_000 }, 0)).toEqual([8_500, 21_500]);
    expect(viewAround({ startMs: 10_000, endMs: null }, 15_000)).toEqual([9_000, 16_000]);
  });

  it("gives a band at least the least width", () => {
    expect(bandOf({ startMs: from + 1_000, endMs: from + 1_010 }, from, to, to, 0.01)).toEqual({ a: 0.1, w: 0.01 });
    expect(bandOf({ startMs: from + 1_000, endMs: null }, from, to, from + 6_000, 0.01)).toEqual({ a: 0.1, w: 0.5 });
  });

  it("zooms on a drag of at least 4 px, not on a click", () => {
    const s = timeScale(from, to);
    expect(dragZoom(0.5, 0.25, 800, s)).toEqual([from + 2_500, from + 5_000]);
    expect(dragZoom(0.5, 0.504, 800, s)).toBeNull();
    expect(dragZoom(0.5, 0.50005, 1e6, s)).toBeNull(); // under 1 ms
    expect(zoomOutAround(from, to)).toEqual([from - 5_000, to + 5_000]);
  });

  it("finds the bucket of an instant and aligns edge ticks inwards", () => {
    expect(bucketAt(from + 2_999, { startMs: from, bucketMs: 1_000 })).toBe(2);
    expect(bucketAt(from - 1, { startMs: from, bucketMs: 1_000 })).toBe(-1);
    expect([tickEdge(0.01, 1000), tickEdge(0.5, 1000), tickEdge(0.97, 1000), tickEdge(0.01, 0)]).toEqual([" edge-left", "", " edge-right", ""]);
  });

  it("folds a detector's rows past three behind a button", () => {
    expect(findingGroupFold([2, 1], false)).toEqual({ shown: 2, button: false, hiddenFindings: 0, hiddenRows: 0, height: 52 });
    expect(findingGroupFold([3, 2, 2, 1, 1], false)).toEqual({ shown: 3, button: true, hiddenFindings: 2, hiddenRows: 2, height: 3 * 24 + 4 + 24 });
    expect(findingGroupFold([3, 2, 2, 1, 1], true)).toEqual({ shown: 5, button: true, hiddenFindings: 0, hiddenRows: 0, height: 5 * 24 + 4 + 24 });
  });
});
