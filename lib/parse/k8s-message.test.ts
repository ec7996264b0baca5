import { describe, expect, it } from "vitest";
import { parseFile } from "./parse-file";

describe("k8s-message: event messages quoted without their row or time", () => {
  it("reads a message a page hard-wrapped as one record without a time, of the event reason its text belongs to", () => {
    const text = [
      "```",
      "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox ",
      '"7d1e0c9b5a3f4e2d1c0b9a8f7e6d5c4b3a291807f6e5d4c3b2a1908f7e6d5c4": ',
      'plugin type="istio-cni" name="istio-cni" failed (add): ',
      "stat /var/run/istio-cni/istio-cni-kubeconfig: no such file or directory",
      "```",
    ].join("\n");
    const f = parseFile("paste.log", text);
    expect(f.format).toBe("k8s-message");
    expect(f.counts).toMatchObject({ lines: 6, records: 1, continuation: 3, banner: 2, skipped: 0, noTimestamp: 1 });
    const r = f.records[0];
    expect(r.ts).toBeNull();
    expect(r.k8sEvent?.reason).toBe("FailedCreatePodSandBox");
    expect(r.message).toContain("istio-cni-kubeconfig: no such file or directory");
  });

  it("is not claimed by a line the describe or events table formats read", () => {
    const f = parseFile(
      "describe.log",
      "  Warning  FailedCreatePodSandBox  2m (x12 over 5m)  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = x\n",
    );
    expect(f.format).not.toBe("k8s-message");
  });
});
