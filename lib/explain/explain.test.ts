import { describe, expect, it } from "vitest";
import { BootMiners } from "../patterns/boot-miner";
import { mergePatterns } from "../patterns/merge";
import { TemplateCounter } from "./assign";
import { chiSquare1P, erfc, gStatistic, histogramCount, rankOverRepresented } from "./rank";

describe("the statistics", () => {
  it("erfc and the χ² p-value match their tables", () => {
    // erfc(0) = 1, erfc(1) = 0.157299…, erfc(2) = 0.004677…
    expect(erfc(0)).toBeCloseTo(1, 6);
    expect(erfc(1)).toBeCloseTo(0.1572992, 6);
    expect(erfc(2)).toBeCloseTo(0.0046777, 6);
    expect(erfc(-1)).toBeCloseTo(1.8427008, 6);
    // χ²(1 df) critical values: 3.841 at p = 0.05, 6.635 at 0.01
    expect(chiSquare1P(3.841)).toBeCloseTo(0.05, 3);
    expect(chiSquare1P(6.635)).toBeCloseTo(0.01, 3);
    expect(chiSquare1P(0)).toBe(1);
  });

  it("G is 0 for equal shares and grows with the imbalance", () => {
    expect(gStatistic(10, 100, 20, 200)).toBeCloseTo(0, 9);
    // [[10, 90], [10, 190]]: 2 Σ O ln(O/E), E from the margins (20 of 300 hold the value)
    const o = [10, 90, 10, 190];
    const e = [(20 * 100) / 300, (280 * 100) / 300, (20 * 200) / 300, (280 * 200) / 300];
    const g = 2 * o.reduce((s, x, i) => s + x * Math.log(x / e[i]), 0);
    expect(gStatistic(10, 100, 10, 200)).toBeCloseTo(g, 9);
    expect(gStatistic(50, 100, 10, 200)).toBeGreaterThan(g);
  });
});

describe("rankOverRepresented", () => {
  it("ranks the value whose share jumped first, drops those not more frequent, and says by how much", () => {
    const counts = new Map([
      ["steady", { range: 100, baseline: 100 }],
      ["burst", { range: 80, baseline: 2 }],
      ["rarer", { range: 5, baseline: 50 }],
      ["slightly", { range: 20, baseline: 15 }],
    ]);
    const rows = rankOverRepresented("pod", counts, { range: 205, baseline: 167 });
    expect(rows.map((r) => r.value)).toEqual(["burst", "slightly"]);
    expect(rows[0].range).toEqual({ count: 80, share: 80 / 205 });
    expect(rows[0].baseline).toEqual({ count: 2, share: 2 / 167 });
    expect(rows[0].pValue).toBeLessThan(1e-10);
    expect(rows[0].logRatio).toBeCloseTo(Math.log2(80.5 / 206 / (2.5 / 168)), 9);
    // 20/205 against 15/167: not significant
    expect(rows[1].pValue).toBeGreaterThan(0.5);
  });

  it("a value the baseline never had gets a finite ratio; an empty baseline ranks by count with no p-value", () => {
    const rows = rankOverRepresented("component", new Map([["new", { range: 3, baseline: 0 }]]), { range: 10, baseline: 1000 });
    expect(Number.isFinite(rows[0].logRatio)).toBe(true);
    expect(rows[0].pValue).toBeLessThan(0.001);
    const empty = rankOverRepresented(
      "component",
      new Map([
        ["a", { range: 3, baseline: 0 }],
        ["b", { range: 7, baseline: 0 }],
      ]),
      { range: 10, baseline: 0 },
    );
    expect(empty.map((r) => [r.value, r.pValue])).toEqual([
      ["b", null],
      ["a", null],
    ]);
  });
});

describe("histogramCount", () => {
  it("counts whole buckets inside the range and the overlapping share of the edges", () => {
    const h = {
      bucketMs: 60_000,
      buckets: [
        [10, 60],
        [11, 30],
        [13, 6],
      ] as Array<[number, number]>,
    };
    expect(histogramCount(h, 600_000, 720_000)).toBe(90);
    expect(histogramCount(h, 630_000, 690_000)).toBe(30 + 15);
    expect(histogramCount(h, 0, 600_000)).toBe(0);
  });
});

describe("TemplateCounter", () => {
  it("counts messages for the boot's stored templates, by key", () => {
    const miners = new BootMiners();
    const msgs = [
      ...Array.from({ length: 5 }, (_, i) => `Pulling image registry.local/app:${i} attempt ${i + 1}`),
      ...Array.from({ length: 3 }, (_, i) => `Failed to create pod sandbox for pod web-${i}: stat /var/lib/calico/nodename: no such file or directory`),
    ];
    msgs.forEach((m, i) => miners.add(1, { message: m, ts: i * 1000, lane: "runtime", component: "containerd" }, i + 1));
    const own = mergePatterns(miners.result()[0].patterns);
    const c = new TemplateCounter(own);
    c.add("Failed to create pod sandbox for pod db-0: stat /var/lib/calico/nodename: no such file or directory");
    c.add("Failed to create pod sandbox for pod db-1: stat /var/lib/calico/nodename: no such file or directory");
    c.add("Pulling image registry.local/db:7 attempt 2");
    c.add("something else entirely");
    const out = c.counts();
    const failing = own.find((p) => p.template.startsWith("Failed"))!;
    expect(out.get(failing.key)).toEqual({ key: failing.key, template: failing.template, count: 2 });
    expect(out.get(own.find((p) => p.template.startsWith("Pulling"))!.key)?.count).toBe(1);
    expect(out.get("~something else entirely")).toEqual({ key: null, template: "something else entirely", count: 1 });
  });
});
