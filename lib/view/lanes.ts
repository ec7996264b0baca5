/**
 * The timeline's lanes, in display order (docs/definitions.md "Event kinds and lanes"), finding
 * severities and the failure-window detector's name. Shared by the SQL reads, the URL schema and
 * the UI (milestones: lib/model/event-kinds.ts).
 */
import { LANES, type Lane } from "@/lib/model/lanes";

export { LANES };

export type TLane = Lane;

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
