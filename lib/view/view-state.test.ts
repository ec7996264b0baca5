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
      xfrom: null,
      xto: null,
      xbase: "before",
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

describe("the explained range (xfrom, xto, xbase)", () => {
  it("reads T+ seconds with up to ms precision as ms after T+0, before T+0 too", () => {
    expect(parseViewState({ xfrom: "12.5", xto: "30", xbase: "boot" })).toMatchObject({ xfrom: 12_500, xto: 30_000, xbase: "boot" });
    expect(parseViewState({ xfrom: "-3.25", xto: "0.001" })).toMatchObject({ xfrom: -3_250, xto: 1, xbase: "before" });
    expect(parseViewState({ xfrom: "86400.125", xto: "86401" })).toMatchObject({ xfrom: 86_400_125, xto: 86_401_000 });
  });

  it("drops the range when damaged, inverted, empty or half given; a bad baseline falls back to before", () => {
    const none = { xfrom: null, xto: null };
    expect(parseViewState({ xfrom: "1e3", xto: "2000" })).toMatchObject(none);
    expect(parseViewState({ xfrom: "+1", xto: "2" })).toMatchObject(none);
    expect(parseViewState({ xfrom: "1.2345", xto: "2" })).toMatchObject(none);
    expect(parseViewState({ xfrom: "1234567890", xto: "1234567891" })).toMatchObject(none);
    expect(parseViewState({ xfrom: "20", xto: "10" })).toMatchObject(none);
    expect(parseViewState({ xfrom: "10", xto: "10.000" })).toMatchObject(none);
    expect(parseViewState({ xfrom: "10" })).toMatchObject(none);
    expect(parseViewState({ xto: "10" })).toMatchObject(none);
    expect(parseViewState({ xfrom: "1", xto: "2", xbase: "yesterday" })).toMatchObject({ xfrom: 1000, xto: 2000, xbase: "before" });
    // the rest of the view is untouched by a damaged explained range
    expect(parseViewState({ xfrom: "x", xto: "2", sev: "3" }).sev).toBe(3);
  });

  it("round-trips: seconds without trailing zeros, the default baseline and a lone baseline left out", () => {
    const v = { ...DEFAULT_VIEW_STATE, xfrom: -1_500, xto: 42_010 };
    const qs = serializeViewState(v);
    expect(qs).toBe("?xfrom=-1.5&xto=42.01");
    expect(parseViewState(new URLSearchParams(qs.slice(1)))).toEqual(v);
    expect(serializeViewState({ xfrom: 0, xto: 250, xbase: "boot" })).toBe("?xfrom=0&xto=0.25&xbase=boot");
    expect(serializeViewState({ xbase: "boot" })).toBe("");
    expect(serializeViewState({ xfrom: 5000, xto: 5000 })).toBe("");
  });

  it("nuqs field parsers: null for damaged values", () => {
    expect(viewStateField.offset("7.25")).toBe(7_250);
    expect(viewStateField.offset("7,25")).toBeNull();
    expect(viewStateField.offset("")).toBeNull();
    expect(viewStateField.xbase("boot")).toBe("boot");
    expect(viewStateField.xbase("after")).toBeNull();
    expect(viewStateField.serializeOffset(7_250)).toBe("7.25");
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
      xfrom: 12_345,
      xto: 19_000,
      xbase: "boot" as const,
    };
    const qs = serializeViewState(v);
    expect(qs).toMatch(/^\?from=2026-03-14T02:10:09\.035Z&to=.*&lanes=kubelet,events&/);
    expect(qs).toContain("&q=a+b%26c&match=substring&pod=kube-system%2Fx&kind=k8s.event&ev=7&finding=3&pat=1k3x9a&xpat=a1,b2&xfrom=12.345&xto=19&xbase=boot");
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
