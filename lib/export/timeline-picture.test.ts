import { describe, expect, it } from "vitest";
import type { TLaneDensity } from "@/lib/queries/get-lane-density";
import { clip, layoutTimelinePicture, PICTURE_H, PICTURE_W, renderTimelineSvg, windowSummary, xmlEscape, type TPictureInput } from "./timeline-picture";

// boot 2 of the Calico scenario: T+0 02:10:00, window T+11.833 s → T+15.102 s
const T0 = Date.parse("2026-03-14T02:10:00.000Z");

function input(over: Partial<TPictureInput> = {}): TPictureInput {
  // the view T+0 … T+30 s in 1 s buckets: kubelet failures in seconds 11..15, one kernel line at T+0
  const density: TLaneDensity = {
    fromMs: T0,
    toMs: T0 + 30_000,
    bucketMs: 1000,
    startMs: T0,
    count: 30,
    lanes: [
      { lane: "kernel", total: 1, errors: 0, max: 1, buckets: [[0, 1, 0]] },
      {
        lane: "kubelet",
        total: 50,
        errors: 40,
        max: 20,
        buckets: [
          [11, 20, 16],
          [12, 10, 8],
          [13, 10, 8],
          [14, 5, 4],
          [15, 5, 4],
        ],
      },
      { lane: "events", total: 0, errors: 0, max: 0, buckets: [] },
    ],
  };
  return {
    title: "prod-eu reboot 03-14",
    node: "ip-10-20-30-40.ec2.internal",
    boot: { key: "35c8cada66998406f5582925aa04322d", index: 2, count: 2, t0: T0 },
    from: T0,
    to: T0 + 30_000,
    density,
    windows: [{ id: 7, startMs: T0 + 11_833, endMs: T0 + 15_102, attempts: 20, pods: 20, errorClass: "calico-nodename-missing" }],
    dataEndMs: T0 + 77_493,
    milestones: [
      { label: "kernel start", ts: T0 },
      { label: "CNI ready", ts: T0 + 23_430 },
    ],
    notes: [{ ts: T0 + 12_000, text: "first failure <script>alert(1)</script> & more" }],
    url: "http://127.0.0.1:3300/i/x/n/y/b/z",
    ...over,
  };
}

// the plot spans x 178 … 1172 (28 px margins, 150 px of labels)
const X0 = 178;
const PLOT_W = 1172 - 178;

const pic = layoutTimelinePicture(input());
const texts = pic.texts.map((t) => t.text);

describe("layoutTimelinePicture", () => {
  it("states the incident, node, boot and the failure window's numbers", () => {
    expect([pic.width, pic.height]).toEqual([PICTURE_W, PICTURE_H]);
    expect(texts.slice(0, 3)).toEqual([
      "prod-eu reboot 03-14",
      "ip-10-20-30-40.ec2.internal · boot 2 of 2 · T+0 2026-03-14 02:10:00.000 UTC",
      "sandbox failure window T+11.833s → T+15.102s (3.27 s), 20 attempts, 20 pods, calico-nodename-missing",
    ]);
    expect(texts).toContain("failure window T+11.833s → T+15.102s");
  });

  it("shades the window at its times and draws one density path per lane with events", () => {
    const band = pic.shapes.find((s) => s.kind === "rect" && s.opacity === 0.14);
    expect(band).toMatchObject({ kind: "rect", x: X0 + (11_833 / 30_000) * PLOT_W, y: 146 });
    if (band?.kind !== "rect") throw new Error("no band");
    expect(band.w).toBeCloseTo(((15_102 - 11_833) / 30_000) * PLOT_W, 6);
    const paths = pic.shapes.filter((s) => s.kind === "path" && s.opacity !== undefined);
    // kernel (events), kubelet (events, errors); nothing for the empty events lane
    expect(paths.map((p) => (p.kind === "path" ? p.fill : ""))).toEqual(["#8b9cff", "#4cc38a", "#ff5d5d"]);
    // kubelet's tallest bucket (second 11) fills the lane (54 px high, 8 px kept free)
    const kubelet = paths[1].kind === "path" ? paths[1].d : "";
    expect(kubelet.startsWith(`M${Math.round((X0 + (11 / 30) * PLOT_W) * 10) / 10} 252h33.1v-46h-33.1z`)).toBe(true);
    expect(texts).toContain("50 events, 40 errors");
    expect(texts).toContain("no events in view");
  });

  it("labels milestones and notes in view, with the T+ axis", () => {
    expect(texts).toEqual(expect.arrayContaining(["kernel start T+0.0s", "CNI ready T+23.4s", "T+0s", "T+10s", "T+20s", "T+30s"]));
    // notes are cut to 40 characters
    expect(texts).toContain("note 1: first failure <script>alert(1)</script>…");
    const outside = layoutTimelinePicture(input({ from: T0 + 20_000, to: T0 + 30_000 }));
    expect(outside.texts.map((t) => t.text)).not.toContain("kernel start T+0.0s");
    expect(outside.texts.map((t) => t.text).some((t) => t.startsWith("note 1"))).toBe(false);
  });

  it("says when the boot has no failure window", () => {
    expect(layoutTimelinePicture(input({ windows: [] })).texts[2].text).toBe("no sandbox failure window");
  });
});

describe("renderTimelineSvg", () => {
  it("writes a standalone SVG with every text escaped", () => {
    const svg = renderTimelineSvg(layoutTimelinePicture(input({ title: 'a <b> & "c"' })));
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">')).toBe(true);
    expect(svg).toContain(">a &lt;b&gt; &amp; &quot;c&quot;</text>");
    expect(svg).toContain("note 1: first failure &lt;script&gt;alert(1)&lt;/script&gt;…");
    expect(svg).not.toMatch(/<script/i);
    expect(svg.match(/<text /g)?.length).toBeGreaterThan(10);
  });

  it("leaves the text out for the PNG (satori draws it)", () => {
    const svg = renderTimelineSvg(layoutTimelinePicture(input()), { text: false });
    expect(svg).not.toContain("<text");
    expect(svg).toContain('fill="#ff5d5d" opacity="0.14"');
  });
});

describe("helpers", () => {
  it("clips, escapes and summarises", () => {
    expect(clip("a  b\nc", 10)).toBe("a b c");
    expect(clip("abcdefghijk", 5)).toBe("abcd…");
    expect(xmlEscape(`<&>"'\u0001`)).toBe("&lt;&amp;&gt;&quot;&#39;");
    expect(windowSummary({ id: 1, startMs: T0 + 9000, endMs: null }, T0)).toBe("T+9.000s → open (end of data)");
  });
});

/** WCAG 2 contrast ratio of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m);
  return (x + 0.05) / (y + 0.05);
}

describe("themes", () => {
  it("draws a light picture for white pages, dark by default", () => {
    const light = layoutTimelinePicture(input(), "light");
    expect(layoutTimelinePicture(input()).background).toBe("#0f1115");
    expect(light.background).toBe("#ffffff");
    expect(light.texts.map((t) => t.text)).toEqual(texts);
    expect(renderTimelineSvg(light)).toContain('<rect width="1200" height="630" fill="#ffffff"/>');
  });

  it("keeps every text at WCAG AA contrast on its background in both themes", () => {
    for (const theme of ["dark", "light"] as const) {
      const pic = layoutTimelinePicture(input(), theme);
      for (const t of pic.texts) expect(contrast(t.color, pic.background), `${theme}: ${t.text}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});
