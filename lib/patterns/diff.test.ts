/** "What changed" on a generated pair of boots with a known difference. */
import { describe, expect, it } from "vitest";
import { BootMiners } from "./boot-miner";
import { diffPatterns, diffValues } from "./diff";

const T0A = Date.UTC(2026, 0, 1, 10);
const T0B = Date.UTC(2026, 0, 1, 12);

function mine(t0: number, plan: Array<[(i: number) => string, number, number]>, firstId: number) {
  const m = new BootMiners();
  let id = firstId;
  for (const [make, n, at] of plan)
    for (let i = 0; i < n; i++) m.add(1, { message: make(i), ts: t0 + at + i * 1000, lane: "kubelet", component: "kubelet" }, id++);
  return m.result()[0].patterns;
}

describe("diff of two boots", () => {
  it("templates: one boot only, and counts apart by more than twice, with both counts and first T+", () => {
    const pull = (i: number) => `Pulling image app:${i}`;
    const probe = (i: number) => `Readiness probe failed for pod web-${i}`;
    const cni = (i: number) => `CNI ADD failed for sandbox ${i}abc`;
    const proxy = (i: number) => `Started kube-proxy after ${i}ms`;
    const a = mine(
      T0A,
      [
        [pull, 10, 0],
        [probe, 4, 5_000],
        [proxy, 2, 20_000],
      ],
      1,
    );
    const b = mine(
      T0B,
      [
        [pull, 12, 0],
        [probe, 20, 3_000],
        [cni, 7, 60_000],
      ],
      100,
    );
    expect(
      diffPatterns(a, b, { a: T0A, b: T0B }).map((r) => [r.value, r.change, r.a.count, r.b.count, r.a.firstT, r.b.firstT, r.a.firstId, r.b.firstId]),
    ).toEqual([
      ["CNI ADD failed for sandbox <*>", "only-b", 0, 7, null, 60, null, 132],
      ["Started kube-proxy after <*>", "only-a", 2, 0, 20, null, 15, null],
      ["Readiness probe failed for pod <*>", "more-in-b", 4, 20, 5, 3, 11, 112],
    ]);
  });
  it("kinds and error classes by value; a count within the factor is no change", () => {
    const a = new Map([
      ["sandbox.create.failed", { count: 10, firstTs: T0A + 1000, firstId: 5 }],
      ["log", { count: 100, firstTs: T0A, firstId: 1 }],
    ]);
    const b = new Map([
      ["sandbox.create.failed", { count: 21, firstTs: T0B + 2000, firstId: 50 }],
      ["log", { count: 150, firstTs: T0B, firstId: 40 }],
    ]);
    expect(diffValues("kind", a, b, { a: T0A, b: T0B })).toEqual([
      {
        dimension: "kind",
        value: "sandbox.create.failed",
        change: "more-in-b",
        a: { count: 10, firstT: 1, firstId: 5 },
        b: { count: 21, firstT: 2, firstId: 50 },
      },
    ]);
  });
});
