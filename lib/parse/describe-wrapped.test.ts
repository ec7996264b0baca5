/**
 * describe Events rows as bug reports paste them in pieces: from the middle of a row (case 201),
 * one row hand-wrapped at column 0 inside prose (case 202), and a row a terminal hard-wrapped with
 * its indented tail after a cut piece.
 */
import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file";
import { caseText } from "../../tests/cases/cases";
import { errorClassOf } from "../normalise/error-class";

const collectedMs = Date.parse("2023-05-10T09:00:00Z");

describe("case 201: Kube-OVN rows pasted from the middle of a row", () => {
  const f = parseFile("201.log", caseText("201-kube-ovn-describe-from-mid-row-daemon-refused.log"), { collectedMs });

  it("reads the four rows; the prose and the command are banners, the orphan tail is the one unread line", () => {
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ lines: 7, records: 4, banner: 2, skipped: 1 });
    expect(f.records.map((r) => [r.k8sEvent?.reason, r.k8sEvent?.count, r.line])).toEqual([
      ["FailedCreatePodSandBox", 1, 4],
      ["FailedCreatePodSandBox", 1, 5],
      ["SandboxChanged", 14, 6],
      ["FailedCreatePodSandBox", 11, 7],
    ]);
    expect(f.records.every((r) => r.k8sEvent?.node === "edge-wk12")).toBe(true);
    expect(f.records[0].fields?.pod).toBe("kube-system/kube-ovn-pinger-r7d2k");
    expect(errorClassOf(f.records[3].message)).toBe("cni-agent-unreachable");
  });
});

describe("case 202: an OVN-Kubernetes row hand-wrapped inside prose", () => {
  const f = parseFile("202.log", caseText("202-ovn-k-event-hand-wrapped-in-prose.log"), { collectedMs });

  it("joins the seven pieces into the row's message with blanks, every sentence a banner", () => {
    expect(f.format).toBe("describe-events");
    expect(f.counts).toMatchObject({ lines: 19, blank: 3, records: 2, continuation: 9, banner: 5, skipped: 0 });
    const row = f.records[0];
    expect(row.k8sEvent).toMatchObject({ reason: "FailedCreatePodSandBox", count: 194, node: "ovn-worker3" });
    expect(row.line).toBe(5);
    expect(row.endLine).toBe(12);
    expect(row.message).toBe(
      '(combined from similar events): Failed to create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container "4c7f19e2b0a85d36e1f04a9c27b8d5e36f0a1c9b4e7d2f58a3c6b9e0d1f4a7c2" network for pod "client": networkPlugin cni failed to set up pod "client" network: [default/client:ovn-kubernetes]: error adding container to network "ovn-kubernetes": CNI request failed with status 400: [default/client] failed to get pod annotation: timed out waiting for the condition',
    );
    expect(errorClassOf(row.message)).toBe("cni-pod-address-pending");
    expect(new Date(row.k8sEvent?.firstMs as number).toISOString()).toBe("2023-05-10T07:32:00.000Z");
    expect(new Date(row.ts as number).toISOString()).toBe("2023-05-10T08:57:09.000Z");
  });

  it("the row of the other listing keeps its indented message lines", () => {
    expect(f.records[1].k8sEvent?.reason).toBe("ErrorAddingLogicalPort");
    expect(f.records[1].message).toContain("request did not complete within requested timeout 30s");
  });
});

describe("hand wraps and terminal wraps", () => {
  const row =
    '  Warning  FailedCreatePodSandBox  118s   kubelet            Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "1a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9": plugin type="kube-ovn" failed (add): RPC failed; request ip return 500 no address allocated to pod shop/web-5d8c7b9f4-q2w3e provider ovn, please see kube-ovn-controller logs to find errors';

  it("a row a terminal cut at 120 columns is joined with nothing between, a blank-led last piece included", () => {
    const pieces: string[] = [];
    for (let i = 0; i < row.length; i += 120) pieces.push(row.slice(i, i + 120));
    // the third piece starts at a quote after `type=` (no word cut), the last with the blank before `ovn`
    const text = ["Events:", "  Type     Reason                  Age    From               Message", ...pieces, ""].join("\n");
    const f = parseFile("t.log", text, { collectedMs });
    expect(f.records).toHaveLength(1);
    expect(f.records[0].message).toBe(row.slice(row.indexOf("Failed to create")));
    expect(f.counts.skipped).toBe(0);
  });

  it("a column-0 line under a short row that ended a sentence is not a piece of it", () => {
    const text = [
      "  Normal   SandboxChanged  3m (x2 over 4m)  kubelet  Pod sandbox changed, it will be killed and re-created.",
      "Normal is what kubectl printed.",
      "",
    ].join("\n");
    const f = parseFile("t.log", text, { collectedMs });
    expect(f.records[0].message).toBe("Pod sandbox changed, it will be killed and re-created.");
  });
});
