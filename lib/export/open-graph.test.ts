import { describe, expect, it } from "vitest";
import type { TBootView } from "@/lib/queries/get-boot-view";
import { DEFAULT_VIEW_STATE, parseViewState } from "@/lib/view/view-state";
import { timelineOpenGraph } from "./open-graph";

const T0 = Date.parse("2026-03-14T02:10:00.000Z");

const finding = (over: Partial<TBootView["findings"][number]>): TBootView["findings"][number] => ({
  id: 1,
  detector: "sandbox-failure-window",
  severity: "high",
  nodeName: "ip-10-20-30-40.ec2.internal",
  bootKey: "35c8cada66998406f5582925aa04322d",
  bootStartMs: T0,
  startMs: T0 + 11_833,
  endMs: T0 + 15_102,
  title: "w",
  explanation: "e",
  metrics: { attempts: 20, pods: 20, errorClass: "calico-nodename-missing", closedBy: "calico nodename written" },
  evidenceCount: 120,
  ...over,
});

const view: TBootView = {
  incident: { id: "Ny6mY1b1DR-yb4uj", title: "prod-eu reboot 03-14" },
  node: { id: 1, name: "ip-10-20-30-40.ec2.internal", aliases: [] },
  boot: {
    id: 2,
    bootKey: "35c8cada66998406f5582925aa04322d",
    startMs: T0,
    endMs: T0 + 77_493,
    detectedBy: "separator",
    startApprox: false,
    index: 2,
    count: 2,
  },
  boots: [],
  extent: { firstMs: T0, lastMs: T0 + 77_493 },
  range: { fromMs: T0, toMs: T0 + 77_494 },
  findings: [finding({}), finding({ id: 2, detector: "retry-storm", severity: "medium" })],
  milestones: [],
  clock: [],
};

describe("timelineOpenGraph", () => {
  it("names the incident, node and boot and gives the failure window's numbers", () => {
    const og = timelineOpenGraph(
      view,
      parseViewState({ from: "2026-03-14T02:10:10.000Z", to: "2026-03-14T02:10:17.000Z", ev: "368" }),
      "https://bootline.example/",
    );
    expect(og.title).toBe("prod-eu reboot 03-14 · ip-10-20-30-40.ec2.internal · boot 2 of 2");
    expect(og.description).toBe(
      "Sandbox failure window T+11.833s → T+15.102s (3.27 s): 20 attempts, 20 pods, cause calico-nodename-missing, closed by calico nodename written. 1 other finding. View T+10.0s – T+17.0s.",
    );
    expect(og.url).toBe(
      "https://bootline.example/i/Ny6mY1b1DR-yb4uj/n/ip-10-20-30-40.ec2.internal/b/35c8cada66998406f5582925aa04322d?from=2026-03-14T02:10:10.000Z&to=2026-03-14T02:10:17.000Z&ev=368",
    );
    expect(og.image).toBe(`https://bootline.example/api/incidents/Ny6mY1b1DR-yb4uj/boots/2/timeline.png?from=${T0 + 10_000}&to=${T0 + 17_000}`);
  });

  it("says when there is no window, and images the whole boot by default", () => {
    const og = timelineOpenGraph({ ...view, findings: [] }, { ...DEFAULT_VIEW_STATE, lanes: ["kubelet", "events"] }, "http://127.0.0.1:3300");
    expect(og.description).toBe("No sandbox failure window in this boot. View T+0.0s – T+77.5s.");
    expect(og.image).toBe("http://127.0.0.1:3300/api/incidents/Ny6mY1b1DR-yb4uj/boots/2/timeline.png?lanes=kubelet,events");
  });

  it("reports an open window and further windows", () => {
    const og = timelineOpenGraph(
      { ...view, findings: [finding({ endMs: null, metrics: { attempts: 54 } }), finding({ id: 3, startMs: T0 + 100_000 })] },
      DEFAULT_VIEW_STATE,
      "http://h",
    );
    expect(og.description).toBe(
      "Sandbox failure window T+11.833s → still open at the end of the data: 54 attempts. 1 more window in this boot. View T+0.0s – T+77.5s.",
    );
  });
});
