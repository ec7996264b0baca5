/**
 * Clock skew between node logs and Kubernetes events (lib/normalise/clock-skew.ts): table tests of
 * the estimate, and the offset applied to an events file (exact UTC times).
 */
import { describe, expect, it } from "vitest";
import type { AnalysedEvent, AnalysedFile } from "../model/event";
import { applyClockSkew, estimateSkew, type FailureEvent, type NodeFailure } from "./clock-skew";

const T = (s: string) => Date.parse(`2025-05-19T${s}Z`);

describe("estimateSkew", () => {
  const fails: NodeFailure[] = [
    { pod: "default/a", ts: T("04:20:09.120") },
    { pod: "default/a", ts: T("04:20:24.130") },
    { pod: "default/b", ts: T("04:20:10.400") },
    { pod: "default/c", ts: T("04:20:11.700") },
  ];
  const table: Array<{ name: string; events: FailureEvent[]; want: { skewMs: number; pairs: number; usable: boolean } | null }> = [
    {
      name: "events 30 s late (second stamps, floored): +30.0 s after the half-second correction",
      events: [
        { pod: "default/a", firstMs: T("04:20:39"), lastMs: T("04:20:54"), secondPrecision: true },
        { pod: "default/b", firstMs: T("04:20:40"), lastMs: T("04:20:40"), secondPrecision: true },
        { pod: "default/c", firstMs: T("04:20:41"), lastMs: T("04:20:41"), secondPrecision: true },
      ],
      // pairs: a first 39.5-9.12=30.38, a last 54.5-24.13=30.37, b 40.5-10.4=30.1, c 41.5-11.7=29.8 → median 30.235
      want: { skewMs: 30235, pairs: 4, usable: true },
    },
    {
      name: "events 2 s early",
      events: [
        { pod: "default/b", firstMs: T("04:20:08"), lastMs: T("04:20:08"), secondPrecision: true },
        { pod: "default/c", firstMs: T("04:20:09"), lastMs: T("04:20:09"), secondPrecision: true },
      ],
      // b 8.5-10.4=-1.9, c 9.5-11.7=-2.2 → -2.05
      want: { skewMs: -2050, pairs: 2, usable: true },
    },
    {
      name: "within the stamps' precision: not applied",
      events: [
        { pod: "default/b", firstMs: T("04:20:10"), lastMs: T("04:20:10"), secondPrecision: true },
        { pod: "default/c", firstMs: T("04:20:11"), lastMs: T("04:20:11"), secondPrecision: true },
      ],
      // b 10.5-10.4=+0.1, c 11.5-11.7=-0.2 → -0.05 s
      want: { skewMs: -50, pairs: 2, usable: false },
    },
    {
      name: "one pair is not enough",
      events: [{ pod: "default/b", firstMs: T("04:20:40"), lastMs: T("04:20:40"), secondPrecision: true }],
      want: { skewMs: 30100, pairs: 1, usable: false },
    },
    {
      name: "pairs that disagree are not used",
      events: [
        { pod: "default/b", firstMs: T("04:20:40"), lastMs: T("04:20:40"), secondPrecision: true },
        { pod: "default/c", firstMs: T("04:21:41"), lastMs: T("04:21:41"), secondPrecision: true },
        { pod: "default/a", firstMs: T("04:20:00"), lastMs: T("04:20:00"), secondPrecision: true },
      ],
      // a (twice: -8.62, -23.63), b +30.1, c +89.8: median 10.74 s, deviation far over the limit
      want: { skewMs: 10740, pairs: 4, usable: false },
    },
    {
      name: "no pod in common: no estimate",
      events: [{ pod: "default/zzz", firstMs: T("04:20:40"), lastMs: T("04:20:40"), secondPrecision: true }],
      want: null,
    },
  ];
  for (const t of table) {
    it(t.name, () => {
      const e = estimateSkew(fails, t.events);
      if (t.want === null) expect(e).toBeNull();
      else expect(e).toMatchObject(t.want);
    });
  }
});

function file(path: string, kind: string): AnalysedFile {
  return {
    ord: 0,
    path,
    status: "read",
    reason: null,
    duplicateOf: null,
    kind,
    format: "x",
    node: "n",
    byteSize: 0,
    counts: {
      lines: 0,
      parsed: 0,
      blank: 0,
      skipped: 0,
      skippedByReason: {},
      records: 0,
      continuation: 0,
      banner: 0,
      noTimestamp: 0,
      sinceBoot: 0,
      aged: 0,
      outOfOrder: 0,
    },
    firstTs: null,
    lastTs: null,
    timeZone: "UTC",
    zoneSource: "default",
    yearSource: null,
    errors: [],
    blocks: [],
  };
}

function ev(fileIdx: number, ts: number, kind: AnalysedEvent["kind"], pod: string, k8s?: Record<string, unknown>): AnalysedEvent {
  return {
    fileIdx,
    line: 1,
    span: 1,
    ts,
    precision: k8s ? "s" : "us",
    flags: 0,
    component: k8s ? "k8s-events" : "kubelet",
    lane: k8s ? "events" : "kubelet",
    severity: 3,
    kind,
    pod,
    sandboxId: null,
    errorClass: null,
    message: "",
    fields: k8s ? { k8s } : null,
    node: "n",
    boot: null,
    journalBootId: null,
    bootSegment: 0,
    rebootBootId: null,
  };
}

describe("applyClockSkew", () => {
  const build = () => {
    const files = [file("kubelet.log", "kubelet"), file("events.json", "k8s-events")];
    files[1].firstTs = T("04:20:40");
    files[1].lastTs = T("04:20:41");
    const events = [
      ev(0, T("04:20:10.400"), "sandbox.create.failed", "default/b"),
      ev(0, T("04:20:11.700"), "sandbox.create.failed", "default/c"),
      ev(1, T("04:20:40"), "sandbox.create.failed", "default/b", { reason: "FailedCreatePodSandBox", count: 1, firstMs: T("04:20:40"), lastMs: T("04:20:40") }),
      ev(1, T("04:20:41"), "sandbox.create.failed", "default/c", { reason: "FailedCreatePodSandBox", count: 1, firstMs: T("04:20:41"), lastMs: T("04:20:41") }),
    ];
    return { files, events };
  };

  it("shifts the events file onto the node clock and records the offset", () => {
    const { files, events } = build();
    const est = applyClockSkew(files, events, null);
    expect(est.get("events.json")).toMatchObject({ skewMs: 29950, usable: true });
    expect(files[1].clockOffsetMs).toBe(-29950);
    expect(files[0].clockOffsetMs).toBeUndefined();
    expect(events.map((e) => new Date(e.ts!).toISOString())).toEqual([
      "2025-05-19T04:20:10.400Z",
      "2025-05-19T04:20:11.700Z",
      "2025-05-19T04:20:10.050Z",
      "2025-05-19T04:20:11.050Z",
    ]);
    expect((events[2].fields!.k8s as { firstMs: number }).firstMs).toBe(T("04:20:10.050"));
    expect(new Date(files[1].firstTs!).toISOString()).toBe("2025-05-19T04:20:10.050Z");
  });

  it("a user offset (seconds) for every events file replaces the estimate", () => {
    const { files, events } = build();
    applyClockSkew(files, events, -30);
    expect(files[1].clockOffsetMs).toBe(-30000);
    expect(new Date(events[2].ts!).toISOString()).toBe("2025-05-19T04:20:10.000Z");
  });

  it("a user offset by path applies to that file only, whatever its kind", () => {
    const { files, events } = build();
    applyClockSkew(files, events, { "kubelet.log": 1.5 });
    expect(files[0].clockOffsetMs).toBe(1500);
    expect(new Date(events[0].ts!).toISOString()).toBe("2025-05-19T04:20:11.900Z");
    // the events file is still estimated, against the shifted node clock
    expect(files[1].clockOffsetMs).toBe(-29950);
  });
});
