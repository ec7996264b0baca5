import { describe, expect, it } from "vitest";
import { CONFIG_WRITE_RULES, NOT_CONFIG_WRITES, configWriteOf, hostConfigPath } from "./config-writes";
import { classifyRecord } from "./classify";

describe("config write rules: every sample is taken by its own rule, exactly", () => {
  it("names are unique and every rule has a sample", () => {
    expect(new Set(CONFIG_WRITE_RULES.map((r) => r.name)).size).toBe(CONFIG_WRITE_RULES.length);
    for (const r of CONFIG_WRITE_RULES) expect(r.samples.length, r.name).toBeGreaterThan(0);
  });

  for (const rule of CONFIG_WRITE_RULES) {
    it.each(rule.samples.map((s) => [s.message, s] as const))(`${rule.name}: %s`, (_m, s) => {
      expect(configWriteOf(s)).toEqual({ rule: rule.name, ...s.expect });
    });
  }

  it.each(NOT_CONFIG_WRITES.map((l) => [l.component, l.message] as const))("%s: not a write: %s", (component, message) => {
    expect(configWriteOf({ component, message })).toBeNull();
  });

  it("the classifier gives every sample its kind: written, or removed for removals", () => {
    for (const rule of CONFIG_WRITE_RULES)
      for (const s of rule.samples) {
        const c = classifyRecord({ component: s.component, message: s.message, fields: s.fields ?? null, severity: 1 });
        expect(c.kind, `${rule.name}: ${s.message}`).toBe(s.expect.role === "remove" ? "cni.config.removed" : "cni.config.written");
      }
    for (const l of NOT_CONFIG_WRITES) expect(classifyRecord({ ...l, severity: 1 }).kind, l.message).not.toMatch(/^cni\.config\./);
  });

  it("a slog line without its destination is a write of no known file", () => {
    expect(configWriteOf({ component: "cilium", message: "Wrote CNI configuration file", fields: { module: "agent.infra.cni-config" } })).toEqual({
      rule: "cilium-wrote",
      writer: "cilium",
      path: null,
      role: "write",
    });
  });
});

describe("hostConfigPath", () => {
  it("drops the container's /host prefix and places a bare name in /etc/cni/net.d", () => {
    expect(hostConfigPath("/host/etc/cni/net.d/05-cilium.conflist")).toBe("/etc/cni/net.d/05-cilium.conflist");
    expect(hostConfigPath("/etc/cni/net.d//05-cilium.conflist")).toBe("/etc/cni/net.d/05-cilium.conflist");
    expect(hostConfigPath("10-calico.conflist")).toBe("/etc/cni/net.d/10-calico.conflist");
    expect(hostConfigPath("/hostdata/x.conf")).toBe("/hostdata/x.conf");
  });
});
