/**
 * The Jenkins Kubernetes plugin's pod events in a build console (jenkinsci/kubernetes-plugin#742
 * shows them; `TaskListenerEventWatcher` prints them), bare and behind the Timestamper's
 * `[<ISO>] ` print time. Lines written for this test in the plugin's layout.
 */
import { describe, expect, it } from "vitest";
import { classifyRecord } from "../normalise/classify";
import { parseFile, pasteInfo } from "./parse-file";
import { expectAccounting } from "../testing/parse-cases";

const POD = "ci/build-42-x7k2p-m4pww";
const SB1 = "671a92300345bd0ed7f6ea920ff1b9f59aa4ae57bcdf62f379d6aaaff2757e42";
const SB2 = "8a1b92300345bd0ed7f6ea920ff1b9f59aa4ae57bcdf62f379d6aaaff2757e42";
const fail = (sb: string) =>
  `[Warning][${POD}][FailedCreatePodSandBox] Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${sb}": plugin type="cilium-cni" failed (add): unable to connect to Cilium agent: failed to create cilium agent client after 30.000000 seconds timeout: Get "http://localhost/v1/config": dial unix /var/run/cilium/cilium.sock: connect: no such file or directory`;
const lines = [
  `Created Pod: ${POD}`,
  `[Normal][${POD}][Scheduled] Successfully assigned ${POD} to worker-3`,
  fail(SB1),
  `[Warning][${POD}][FailedCreatePodSandBox] Is the agent running?`,
  fail(SB2),
  `[Warning][${POD}][FailedCreatePodSandBox] Is the agent running?`,
  `[Normal][${POD}][SandboxChanged] Pod sandbox changed, it will be killed and re-created.`,
];

describe("Jenkins Kubernetes plugin pod events", () => {
  it("one record per event, untimed, on the pod named; a message's second line continues it, two failures in a row stay two", () => {
    const f = parseFile("console.txt", lines.join("\n"));
    expectAccounting(f);
    expect(f.format).toBe("jenkins-pod-events");
    expect(f.counts).toMatchObject({ lines: 7, records: 4, continuation: 2, banner: 1, skipped: 0, noTimestamp: 4 });
    expect(f.records.map((r) => [r.line, r.endLine, r.k8sEvent?.reason])).toEqual([
      [2, 2, "Scheduled"],
      [3, 4, "FailedCreatePodSandBox"],
      [5, 6, "FailedCreatePodSandBox"],
      [7, 7, "SandboxChanged"],
    ]);
    expect(f.records[1].message.endsWith("connect: no such file or directory\nIs the agent running?")).toBe(true);
    const cs = f.records.map((r) => classifyRecord(r));
    expect(cs.map((c) => [c.kind, c.pod])).toEqual([
      ["k8s.event", POD],
      ["sandbox.create.failed", POD],
      ["sandbox.create.failed", POD],
      ["k8s.event", POD],
    ]);
    expect(cs[1]).toMatchObject({ sandboxId: SB1, errorClass: "cilium-agent-unreachable" });
    expect(cs[2]).toMatchObject({ sandboxId: SB2, errorClass: "cilium-agent-unreachable" });
  });

  it("behind the Timestamper's print time: the same records, still without a time of their own", () => {
    const f = parseFile("console.txt", lines.map((l) => `[2024-05-06T10:00:01.000Z] ${l}`).join("\n"));
    expect(pasteInfo(f)?.prefix).toEqual(["ci-stamp"]);
    expect(f.format).toBe("jenkins-pod-events");
    expect(f.counts).toMatchObject({ records: 4, continuation: 2, skipped: 0, noTimestamp: 4 });
  });
});
