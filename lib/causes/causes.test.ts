import { describe, expect, it } from "vitest";
import { ERROR_CLASS_SLUGS } from "@/lib/normalise/error-class";
import { CAUSES, causeOf, causeOfFinding } from "./causes";

describe("causes table", () => {
  it("has one entry for every fixed error class, none twice", () => {
    const keys = CAUSES.map((c) => c.key);
    expect(new Set(keys).size).toBe(keys.length);
    const missing = ERROR_CLASS_SLUGS.filter((s) => !causeOf(s));
    expect(missing).toEqual([]);
  });

  it("gives every entry a meaning and a remediation, and every source a public address", () => {
    for (const c of CAUSES) {
      expect(c.meaning.length, c.key).toBeGreaterThan(40);
      expect(c.remediation.length, c.key).toBeGreaterThan(0);
      for (const r of c.refs) {
        expect(r.url, `${c.key} ${r.label}`).toMatch(/^https:\/\/(github\.com\/[\w.-]+\/[\w.-]+\/(issues|pull)\/\d+|[\w.-]+\.(io|com|org)\/\S+)$/);
        if (r.url.startsWith("https://github.com/")) expect(r.url, r.label).toContain(r.label.replace("#", r.url.includes("/pull/") ? "/pull/" : "/issues/"));
      }
    }
  });

  it("names the istio-cni fix that lifted the agent-pod guard out of ambient mode", () => {
    const c = causeOf("istio-cni-kubeconfig-missing")!;
    expect(c.refs.find((r) => r.kind === "fix" && r.label === "istio/istio#60721")?.url).toBe("https://github.com/istio/istio/pull/60721");
    expect(causeOf("conflist-rewrite-loop")!.remediation[0]).toContain("cni.exclusive: false");
  });

  it("finds a finding's cause from its error class, its detector or its missing file", () => {
    expect(causeOfFinding({ detector: "sandbox-failure-window", metrics: { errorClass: "calico-nodename-missing" } })?.key).toBe("calico-nodename-missing");
    expect(causeOfFinding({ detector: "sandbox-failure-window", metrics: { errorClass: "sig:foo" } })).toBeNull();
    expect(causeOfFinding({ detector: "conflist-rewrite-loop", metrics: {} })?.key).toBe("conflist-rewrite-loop");
    expect(causeOfFinding({ detector: "cni-bootstrap-deadlock", metrics: { missingPath: "/var/run/istio-cni/istio-cni-kubeconfig" } })?.key).toBe(
      "istio-cni-kubeconfig-missing",
    );
    expect(causeOfFinding({ detector: "retry-storm", metrics: { pod: "a/b" } })).toBeNull();
  });
});
