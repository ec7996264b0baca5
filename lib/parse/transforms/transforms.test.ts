/** Every paste transform's samples give exactly their lines, and its notMine files are left alone. */
import { describe, expect, it } from "vitest";
import { applyPreSniff, PRE_SNIFF_TRANSFORMS } from "./registry";

describe("paste transforms", () => {
  it("have unique names, samples and notMine files", () => {
    expect(new Set(PRE_SNIFF_TRANSFORMS.map((t) => t.name)).size).toBe(PRE_SNIFF_TRANSFORMS.length);
    for (const t of PRE_SNIFF_TRANSFORMS) {
      expect(t.samples.length, t.name).toBeGreaterThan(0);
      expect(t.notMine.length, t.name).toBeGreaterThan(0);
    }
  });

  for (const t of PRE_SNIFF_TRANSFORMS) {
    describe(t.name, () => {
      t.samples.forEach((s, i) => {
        it(`sample ${i + 1} gives its lines`, () => {
          const out = t.apply(s.lines);
          expect(out?.lines).toEqual(s.expect);
        });
      });
      t.notMine.forEach((lines, i) => {
        it(`leaves notMine ${i + 1} alone`, () => expect(t.apply(lines)).toBeNull());
      });
    });
  }

  it("run in order: colour codes go before a pager's cut marks are measured", () => {
    const esc = (s: string) => `\x1b[0;1;31m${s}\x1b[0m`;
    const a = "E0607 10:00:02.000000    1234 remote_runtime.go:193] RunPodSandbox failed for pod web-0 xxxx";
    const b = "E0607 10:00:03.000000    1234 remote_runtime.go:193] RunPodSandbox failed for pod web-1 yyyy";
    const out = applyPreSniff([`${esc(a)}>`, `${esc(b)}>`, "I0607 10:00:04.000000    1234 kubelet.go:1] ok"]);
    expect(out.lines).toEqual([a, b, "I0607 10:00:04.000000    1234 kubelet.go:1] ok"]);
    expect(out.applied).toEqual(["ansi"]);
    expect(out.pagerMark).toBe(">");
  });
});
