/**
 * Contracts of the pure detector layer (`lib/detect`). A detector is a pure function of
 * one node boot's normalised events (docs/detectors.md).
 */

import type { EventKind } from "../model/event-kinds";
import type { Lane } from "../model/lanes";

/** Normalised event kinds (lib/model/event-kinds.ts) and timeline lanes (lib/model/lanes.ts). */
export type { EventKind, Lane };

/** One normalised event of a node boot, as detectors see it. */
export interface BootEvent {
  /** stable id (database id once stored; index before) */
  id: number;
  /** UTC ms, null when the record has none */
  ts: number | null;
  /** source file id and physical line: tie-breakers for a stable order */
  fileId: number;
  line: number;
  component: string;
  lane: Lane;
  severity: number;
  kind: EventKind;
  /** `namespace/name` */
  pod: string | null;
  /** 64-hex sandbox id */
  sandboxId: string | null;
  errorClass: string | null;
  message: string;
  /**
   * Kubernetes event extras: reason, count, first/last seen (UTC ms); for times from kubectl's
   * relative ages, how much earlier each may lie (ms) and whether the ages were counted back
   * from the upload's time for want of a collection time
   */
  k8s?: {
    reason: string;
    count: number;
    firstMs: number | null;
    lastMs: number | null;
    firstUncertaintyMs?: number;
    lastUncertaintyMs?: number;
    agesFromUpload?: boolean;
  } | null;
  fields?: Record<string, string> | null;
}

export interface BootInfo {
  node: string;
  bootKey: string;
  /** T+0, UTC ms */
  start: number;
  /** last event, UTC ms */
  end: number | null;
  /** T+0 is the boot's earliest event (no kernel start or boot marker): times after boot are approximate */
  startApprox?: boolean;
}

export type FindingSeverity = "info" | "low" | "medium" | "high" | "critical";

/** A detector's result. Times are UTC ms; `end` null = still open at end of data. */
export interface Finding {
  detector: string;
  severity: FindingSeverity;
  start: number;
  end: number | null;
  title: string;
  /** one paragraph in plain words that cites the numbers */
  explanation: string;
  metrics: Record<string, unknown>;
  /** ids of evidence events */
  evidence: number[];
}

export interface Detector<P extends Record<string, number> = Record<string, number>> {
  /** slug stored on findings and used in URLs */
  name: string;
  title: string;
  /** named thresholds with units in their names (e.g. quietS) */
  defaults: P;
  describe(params: P): string;
  /** events sorted by (ts ?? +inf, fileId, line) */
  run(boot: BootInfo, events: BootEvent[], params: P): Finding[];
}
