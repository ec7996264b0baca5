/**
 * Test support for detector unit tests: hand-made BootEvents on a boot at a fixed T+0.
 * Times are seconds after T+0 in the specs, UTC ms in the events.
 */
import type { BootEvent, BootInfo, EventKind, Lane } from "./types";

/** T+0 of the test boot, UTC ms. */
export const T0 = Date.UTC(2026, 2, 14, 2, 10, 0);
/** The test boot (data end unknown). */
export const BOOT: BootInfo = { node: "n1", bootKey: "6513a0c2d1e84f0bb2a7c3d4e5f60718", start: T0, end: null };

/** What a test event may set; everything else takes a plausible default. */
export interface EventSpec {
  /** seconds after T+0; null for a record without a time */
  t: number | null;
  kind?: EventKind;
  lane?: Lane;
  component?: string;
  pod?: string | null;
  sandboxId?: string | null;
  errorClass?: string | null;
  message?: string;
  severity?: number;
  fileId?: number;
}

/** A factory of events with increasing ids and line numbers. */
export function eventFactory(): (s: EventSpec) => BootEvent {
  let id = 1;
  return (s) => {
    const component = s.component ?? "containerd";
    const lane: Lane = s.lane ?? (component === "kubelet" ? "kubelet" : component === "containerd" ? "runtime" : "cni-agent");
    const n = id++;
    return {
      id: n,
      ts: s.t === null ? null : T0 + Math.round(s.t * 1000),
      fileId: s.fileId ?? (lane === "kubelet" ? 1 : lane === "runtime" ? 2 : 3),
      line: n,
      component,
      lane,
      severity: s.severity ?? 3,
      kind: s.kind ?? "sandbox.create.failed",
      pod: s.pod ?? null,
      sandboxId: s.sandboxId ?? null,
      errorClass: s.errorClass === undefined ? null : s.errorClass,
      message: s.message ?? "",
      k8s: null,
      fields: null,
    };
  };
}

/** 64-hex sandbox id number `n`. */
export const sid = (n: number): string => n.toString(16).padStart(64, "0");

/** Events in the order detectors get them: (ts ?? +inf, fileId, line). */
export const sortEvents = (events: BootEvent[]): BootEvent[] =>
  [...events].sort((a, b) => (a.ts ?? Infinity) - (b.ts ?? Infinity) || a.fileId - b.fileId || a.line - b.line);
