/**
 * journal short around klog whose message quotes a CNI error that held a newline (journald wrote
 * the closing quote as an entry of its own), in the shape OVN-Kubernetes reports show
 * (ovn-kubernetes/ovn-kubernetes#2590): each kubelet line hard-wrapped by the terminal at 198
 * columns, the wraps cutting the pod's UID and the sandbox id. Written for this test.
 */
import { describe, expect, it } from "vitest";
import { classifyRecord } from "../normalise/classify";
import { parseFile } from "./parse-file";
import { expectAccounting, recordIso as iso } from "../testing/parse-cases";

const SB = "ad79dd3cae2322a8f0d50bbfba9a3ea0cd0f3d9f3d42eac4b575768e1cc15292";
const POD = "webapp-deployment-7575f87ff9-abcd1";
const P = "Oct 19 04:55:07 ovn-worker2 kubelet[480]: ";
/** the two kubelet lines of one failed attempt, as printed (each message ends inside `'…`) */
const whole = [
  `${P}E1019 04:55:07.065350     480 kuberuntime_sandbox.go:70] CreatePodSandbox for pod "${POD}_default(303b7b8f-b06e-4665-8222-7c6d035f8657)" failed: rpc error: code = Unknown desc = failed to setup network for sandbox "${SB}": CNI request failed with status 400: '[default/${POD} ${SB}] [default/${POD} ${SB}] failed to get pod annotation: timed out waiting for annotations: context deadline exceeded`,
  `${P}E1019 04:55:07.065362     480 kuberuntime_manager.go:755] createPodSandbox for pod "${POD}_default(303b7b8f-b06e-4665-8222-7c6d035f8657)" failed: rpc error: code = Unknown desc = failed to setup network for sandbox "${SB}": CNI request failed with status 400: '[default/${POD} ${SB}] failed to get pod annotation: timed out waiting for annotations: context deadline exceeded`,
];
const W = 198;
const cut = (l: string): string[] => {
  const out: string[] = [];
  for (let i = 0; i < l.length; i += W) out.push(l.slice(i, i + W));
  return out;
};

describe("journal short: a klog entry after one whose quoted error closed in the next entry", () => {
  const text = [...cut(whole[0]), `${P}'`, ...cut(whole[1]), `${P}'`].join("\n");
  const f = parseFile("node.log", text, { year: 2021 });

  it("two records, each with its wrapped pieces and its closing-quote entry; the second klog entry is not swallowed", () => {
    expect(f.format).toBe("journal-short");
    expect(f.counts).toMatchObject({ lines: 9, records: 2, continuation: 7, skipped: 0 });
    expectAccounting(f);
    expect(f.records.map((r) => [r.line, r.endLine])).toEqual([
      [1, 5],
      [6, 9],
    ]);
    expect(f.records.map(iso)).toEqual(["2021-10-19T04:55:07.065Z", "2021-10-19T04:55:07.065Z"]);
    expect(f.records[1].message.startsWith(`createPodSandbox for pod "${POD}_default(`)).toBe(true);
  });

  it("both are failed sandbox creations of one pod and sandbox, the pod's address pending", () => {
    const cs = f.records.map((r) => classifyRecord(r));
    for (const c of cs) expect(c).toMatchObject({ kind: "sandbox.create.failed", pod: `default/${POD}`, sandboxId: SB, errorClass: "cni-pod-address-pending" });
  });
});
