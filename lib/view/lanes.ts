/**
 * The timeline's lanes, in display order (docs/definitions.md "Event kinds and lanes"), and
 * the milestone kinds drawn as labelled vertical lines. Shared by the SQL reads, the
 * URL schema and the UI.
 */
import type { Lane } from "@/lib/detect/types";

/** Lanes in display order. `other` holds events no source lane claims. */
export const LANES = ["kernel", "runtime", "kubelet", "cni-plugin", "cni-agent", "events", "other"] as const satisfies readonly Lane[];

export type TLane = (typeof LANES)[number];

/** Human labels for lane headers. */
export const LANE_LABELS: Record<TLane, string> = {
  kernel: "kernel / systemd",
  runtime: "runtime",
  kubelet: "kubelet",
  "cni-plugin": "CNI plugin",
  "cni-agent": "CNI agent",
  events: "k8s events",
  other: "other",
};

export function isLane(v: string): v is TLane {
  return (LANES as readonly string[]).includes(v);
}

/**
 * Milestones: the first event of each kind in a boot (for `sandbox.created`, the first
 * at or after T+0), with the label shown on the timeline.
 */
export const MILESTONE_KINDS = [
  { kind: "kernel.start", label: "kernel start" },
  { kind: "runtime.started", label: "runtime up" },
  { kind: "kubelet.started", label: "kubelet up" },
  { kind: "cni.config.written", label: "CNI config written" },
  { kind: "cni.ready", label: "CNI ready" },
  { kind: "sandbox.created", label: "first sandbox" },
] as const;

export type TMilestoneKind = (typeof MILESTONE_KINDS)[number]["kind"];

/** Severity names by number (0 debug … 4 fatal). */
export const SEVERITY_NAMES = ["debug", "info", "warn", "error", "fatal"] as const;

/** Finding severities, most severe first (the incident page's order). */
export const FINDING_SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;

/** Rank of a finding severity for sorting: 0 for critical; unknown values sort last. */
export function findingSeverityRank(s: string): number {
  const i = (FINDING_SEVERITIES as readonly string[]).indexOf(s);
  return i < 0 ? FINDING_SEVERITIES.length : i;
}

/** Detector whose findings are shaded as the sandbox failure window. */
export const FAILURE_WINDOW_DETECTOR = "sandbox-failure-window";
