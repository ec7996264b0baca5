import { describe, expect, it } from "vitest";
import { collectAttempts } from "./attempts";
import { latestPrintings } from "./k8s-event-identity";
import { eventFactory, T0 } from "./test-support";
import type { BootEvent } from "./types";

const COMBINED = '(combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "x"';

/** A FailedCreatePodSandBox printing of pod shop/web: count, first and last seen in s after T+0, age uncertainty 1 s. */
function printing(make: (s: Parameters<ReturnType<typeof eventFactory>>[0]) => BootEvent, count: number, firstS: number, lastS: number, message: string) {
  const e = make({ t: lastS, kind: "sandbox.create.failed", lane: "events", component: "k8s-events", pod: "shop/web", message });
  e.k8s = {
    reason: "FailedCreatePodSandBox",
    count,
    firstMs: T0 + firstS * 1000,
    lastMs: T0 + lastS * 1000,
    firstUncertaintyMs: 1000,
    lastUncertaintyMs: 1000,
  };
  return e;
}

describe("one Kubernetes event printed more than once", () => {
  it("a watch's updates of the aggregate event (x2 over 3s, x3 over 6s) count as its latest: 3 occurrences, not 6", () => {
    const make = eventFactory();
    const evs = [printing(make, 1, 10, 10, COMBINED), printing(make, 2, 10, 13, COMBINED), printing(make, 3, 10, 16, COMBINED)];
    expect(latestPrintings(evs).map((e) => e.k8s?.count)).toEqual([3]);
    expect(collectAttempts(evs)).toHaveLength(3);
  });

  it("single failures (one sandbox each) and the aggregate stay apart", () => {
    const make = eventFactory();
    const evs = [
      printing(make, 1, 16, 16, 'Failed to create pod sandbox: … sandbox "aa11"'),
      printing(make, 1, 16, 16, 'Failed to create pod sandbox: … sandbox "bb22"'),
      printing(make, 3, 10, 16, COMBINED),
    ];
    expect(latestPrintings(evs)).toHaveLength(3);
    expect(collectAttempts(evs)).toHaveLength(5);
  });

  it("two describes minutes apart: the same row with a grown count counts once; a row whose span lies outside does not merge", () => {
    const make = eventFactory();
    const msg = "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network: netplugin failed with no error message";
    const first = printing(make, 4, 0, 40, msg);
    const again = printing(make, 9, 0, 160, msg);
    const other = printing(make, 2, 300, 320, msg);
    expect(latestPrintings([first, again, other]).map((e) => e.k8s?.count)).toEqual([9, 2]);
    expect(collectAttempts([first, again, other])).toHaveLength(11);
  });
});
