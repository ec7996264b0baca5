import { describe, expect, it } from "vitest";
import { LANES } from "./lanes";
import { bootPath, DEFAULT_VIEW_STATE, parseViewState, serializeViewState, viewStateField } from "./view-state";

const T = Date.parse("2026-03-14T02:10:09.035Z");

describe("parseViewState", () => {
  it("gives the defaults for an empty query", () => {
    expect(parseViewState({})).toEqual(DEFAULT_VIEW_STATE);
    expect(parseViewState(new URLSearchParams(""))).toEqual(DEFAULT_VIEW_STATE);
  });

  it("reads ISO and epoch-ms instants, lanes, severity, search and selection", () => {
    const v = parseViewState({ from: "2026-03-14T02:10:09.035Z", to: String(T + 5000), lanes: "kubelet,runtime", sev: "3", q: "nodename", ev: "42" });
    expect(v).toEqual({
      from: T,
      to: T + 5000,
      lanes: ["runtime", "kubelet"],
      sev: 3,
      q: "nodename",
      match: "words",
      pod: "",
      kind: "",
      ev: "42",
      finding: null,
      pat: null,
      xpat: [],
    });
  });

  it("reads the pattern shown and the patterns hidden; a damaged key drops only its own field", () => {
    expect(parseViewState({ pat: "1k3x9a", xpat: "a1,b2,a1" })).toMatchObject({ pat: "1k3x9a", xpat: ["a1", "b2"] });
    expect(parseViewState({ pat: "NOT A KEY", xpat: "ok1" })).toMatchObject({ pat: null, xpat: ["ok1"] });
    expect(parseViewState({ xpat: "a,B!" }).xpat).toEqual([]);
  });

  it("reads the pod and kind filters and the selected finding", () => {
    const v = parseViewState({ pod: "  kube-system/calico-node-x2f4q ", kind: "sandbox.create.failed", finding: "17" });
    expect(v).toMatchObject({ pod: "kube-system/calico-node-x2f4q", kind: "sandbox.create.failed", finding: 17 });
    expect(parseViewState({ pod: "p".repeat(400) }).pod).toHaveLength(320);
    // damaged values fall back to "none", one field at a time
    expect(parseViewState({ kind: "Robert'); DROP", finding: "1e3", pod: "ok" })).toMatchObject({ kind: "", finding: null, pod: "ok" });
    expect(parseViewState({ finding: "0" }).finding).toBeNull();
    expect(parseViewState({ finding: "99999999999" }).finding).toBeNull();
  });

  it("accepts ISO with an offset and takes the first of repeated keys", () => {
    expect(parseViewState({ from: ["2026-03-14T04:10:09.035+02:00", "x"] }).from).toBe(T);
  });

  it("falls back field by field when a permalink is damaged", () => {
    const v = parseViewState({ from: "yesterday", to: "2026-03-14T02:10:09", lanes: "nope,kubelet,,", sev: "9", q: "x".repeat(500), ev: "12ab" });
    expect(v.from).toBeNull();
    expect(v.to).toBeNull(); // zone-less ISO would depend on the reader's zone
    expect(v.lanes).toEqual(["kubelet"]);
    expect(v.sev).toBe(0);
    expect(v.q).toHaveLength(200);
    expect(v.ev).toBeNull();
  });

  it("resets an inverted or empty range and keeps all lanes when none is known", () => {
    expect(parseViewState({ from: String(T), to: String(T) })).toMatchObject({ from: null, to: null });
    expect(parseViewState({ from: String(T + 1), to: String(T) })).toMatchObject({ from: null, to: null });
    expect(parseViewState({ lanes: "foo,bar" }).lanes).toEqual([...LANES]);
  });
});

describe("serializeViewState", () => {
  it("round-trips through parseViewState and leaves defaults out", () => {
    const v = {
      from: T,
      to: T + 19_265,
      lanes: ["kubelet" as const, "events" as const],
      sev: 2,
      q: "a b&c",
      match: "substring" as const,
      pod: "kube-system/x",
      kind: "k8s.event",
      ev: "7",
      finding: 3,
      pat: "1k3x9a",
      xpat: ["a1", "b2"],
    };
    const qs = serializeViewState(v);
    expect(qs).toMatch(/^\?from=2026-03-14T02:10:09\.035Z&to=.*&lanes=kubelet,events&/);
    expect(qs).toContain("&q=a+b%26c&match=substring&pod=kube-system%2Fx&kind=k8s.event&ev=7&finding=3&pat=1k3x9a&xpat=a1,b2");
    expect(parseViewState(new URLSearchParams(qs.slice(1)))).toEqual(v);
    expect(serializeViewState(DEFAULT_VIEW_STATE)).toBe("");
  });

  it("builds boot paths with encoded node and boot", () => {
    expect(bootPath("inc1", "node a/b", "inferred-1")).toBe("/i/inc1/n/node%20a%2Fb/b/inferred-1");
    expect(bootPath("inc1", "n", "b", { sev: 3 })).toBe("/i/inc1/n/n/b/b?sev=3");
  });
});

describe("viewStateField (nuqs parsers)", () => {
  it("returns null for damaged values so nuqs uses the default", () => {
    expect(viewStateField.instant("garbage")).toBeNull();
    expect(viewStateField.instant(String(T))).toBe(T);
    expect(viewStateField.lanes("x,y")).toBeNull();
    expect(viewStateField.sev("-1")).toBeNull();
    expect(viewStateField.ev("1e3")).toBeNull();
    expect(viewStateField.finding("12")).toBe(12);
    expect(viewStateField.finding("-1")).toBeNull();
    expect(viewStateField.kind("cni.config.written")).toBe("cni.config.written");
    expect(viewStateField.kind("<b>")).toBeNull();
    expect(viewStateField.pod("   ")).toBeNull();
    expect(viewStateField.serializeLanes(["events", "kernel"])).toBe("kernel,events");
  });
});
