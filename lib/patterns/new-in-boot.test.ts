/**
 * "New in this boot" on generated pairs of boots whose difference is known: the same templates
 * with other ids and numbers on both sides, and a few only on one side.
 */
import { describe, expect, it } from "vitest";
import { BootMiners } from "./boot-miner";
import { type BootSpan, newInBoot } from "./new-in-boot";

/** Message makers (id and number vary per call) and their templates. */
const COMMON = [
  (i: number) => `Pulling image registry.k8s.io/pause:3.${i % 9}`,
  (i: number) => `SyncLoop (PLEG): event for pod pod-${i} containerID=${(0xabc000 + i).toString(16)}`,
  (i: number) => `Volume attached for volume pvc-${i} on node worker-1`,
];
const ONLY_NEW = {
  "Failed to create pod sandbox: plugin type=calico failed (add): stat <*> no such file or directory": (i: number) =>
    `Failed to create pod sandbox: plugin type=calico failed (add): stat /var/lib/calico/nodename${i} no such file or directory`,
  "Node became not ready reason=NetworkPluginNotReady": () => "Node became not ready reason=NetworkPluginNotReady",
};
const ONLY_OLD = { "Started kube-proxy with mode iptables after <*>": (i: number) => `Started kube-proxy with mode iptables after ${i}ms` };

const T0_A = Date.UTC(2026, 0, 1, 10);
const T0_B = Date.UTC(2026, 0, 1, 12);

/** A boot's rows: `plan` is [maker, count, first offset after T+0 in ms]. */
function mine(bootId: number, t0: number, plan: Array<[(i: number) => string, number, number]>, firstId: number) {
  const m = new BootMiners();
  let id = firstId;
  for (const [make, n, at] of plan)
    for (let i = 0; i < n; i++) m.add(bootId, { message: make(i), ts: t0 + at + i * 1000, lane: "kubelet", component: "kubelet" }, id++);
  return m.result()[0].patterns;
}

describe("new in this boot", () => {
  const a: BootSpan = { id: 1, nodeId: 10, start: T0_A, end: T0_A + 3_600_000 };
  const b: BootSpan = { id: 2, nodeId: 10, start: T0_B, end: T0_B + 3_600_000 };
  const [n1, n2] = Object.values(ONLY_NEW);
  const rows = new Map([
    [
      1,
      mine(
        1,
        T0_A,
        [...COMMON.map((f) => [f, 20, 0] as [typeof f, number, number]), [ONLY_OLD["Started kube-proxy with mode iptables after <*>"], 4, 9_000]],
        1,
      ),
    ],
    [2, mine(2, T0_B, [...COMMON.map((f) => [f, 30, 0] as [typeof f, number, number]), [n1, 12, 42_000], [n2, 3, 7_000]], 1000)],
  ]);

  it("against the node's previous boot: exactly the templates only the new boot has, most events first, with their first T+; and those that stopped", () => {
    const r = newInBoot(b, [a, b], rows);
    expect(r.baseline).toEqual({ kind: "previous", bootId: 1 });
    expect(r.new.map((p) => [p.template, p.count, p.firstT])).toEqual([
      [Object.keys(ONLY_NEW)[0], 12, 42],
      [Object.keys(ONLY_NEW)[1], 3, 7],
    ]);
    // first ids: 3 x 30 common events (ids 1000..1089), then the 12 (1090..), then the 3 (1102..)
    expect(r.new.map((p) => p.firstId)).toEqual([1090, 1102]);
    expect(r.stopped.map((p) => [p.template, p.count, p.firstT])).toEqual([["Started kube-proxy with mode iptables after <*>", 4, 9]]);
    expect(r.patterns.filter((p) => !p.new).map((p) => p.count)).toEqual([30, 30, 30]);
  });

  it("the node's first boot against the other nodes over the same T+ span: a template the others log only later is new", () => {
    const c: BootSpan = { id: 3, nodeId: 11, start: T0_A, end: T0_A + 60_000 };
    // node 11 logs the common templates; node 10's boot 1 logs kube-proxy at T+9 s (inside c's minute)
    const r = newInBoot(
      c,
      [a, c],
      new Map([
        [1, rows.get(1)!],
        [
          3,
          mine(
            3,
            T0_A,
            [
              [COMMON[0], 5, 0],
              [n2, 2, 30_000],
            ],
            5000,
          ),
        ],
      ]),
    );
    expect(r.baseline).toEqual({ kind: "other-nodes", bootIds: [1] });
    expect(r.new.map((p) => [p.template, p.count, p.firstT])).toEqual([["Node became not ready reason=NetworkPluginNotReady", 2, 30]]);
    expect(r.stopped).toEqual([]);
    // a shorter span leaves out what the other node first logged after it
    const short: BootSpan = { ...c, end: T0_A + 5_000 };
    const r2 = newInBoot(
      short,
      [a, short],
      new Map([
        [1, rows.get(1)!],
        [3, mine(3, T0_A, [[ONLY_OLD["Started kube-proxy with mode iptables after <*>"], 1, 0]], 5000)],
      ]),
    );
    expect(r2.new.map((p) => p.template)).toEqual(["Started kube-proxy with mode iptables after <*>"]);
  });

  it("nothing is new without a baseline", () => {
    const only: BootSpan = { ...a };
    const r = newInBoot(only, [only], rows);
    expect(r).toMatchObject({ baseline: { kind: "none" }, new: [], stopped: [] });
    expect(r.patterns.map((p) => p.count)).toEqual([20, 20, 20, 4]);
  });
});
