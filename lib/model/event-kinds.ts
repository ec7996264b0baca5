/**
 * The event-kind vocabulary: every kind classification gives a record (lib/normalise/classify.ts),
 * with what it means, whether it reports a failure, whether it is a boot milestone (and its
 * label on the timeline), whether it closes a sandbox failure window, whether the coded
 * detectors receive it and its parsed fields. Data only, the one place a kind is declared: the
 * `EventKind` type, the failure and milestone lists (and the boot checks' failure counts), the
 * detectors' input and fields, and the rule files' `kinds` read this table.
 *
 * Adding a kind (an image-pull failure a detector needs, say): one entry here, the classification
 * rule that gives it, and the detector that reads it.
 */

/** What one event kind is. */
export interface EventKindSpec {
  about: string;
  /** the line reports a failure: it gets an error class, and the failure counts list it */
  failure?: true;
  /** a boot milestone: the first such event of a boot is marked on the timeline with this label */
  milestone?: string;
  /** a sandbox failure window ends at it (with a quiet span after: lib/detect/attempts.ts) */
  closesWindow?: true;
  /** false: the coded detectors do not receive it (only the rules that ask for it do) */
  detectors?: false;
  /**
   * the detectors receive its parsed fields (`BootEvent.fields`, string values only; other kinds'
   * are null): a CNI config write's path may be an attribute (Cilium's slog `destination`)
   */
  detectorFields?: true;
}

/** The table, in the order of a boot's life (milestones are listed in this order). */
export const EVENT_KINDS = {
  "kernel.start": { about: "the kernel's `Linux version` banner", milestone: "kernel start" },
  "runtime.started": { about: "containerd or CRI-O started", milestone: "runtime up", closesWindow: true },
  "kubelet.started": { about: "the kubelet started", milestone: "kubelet up", closesWindow: true },
  // a write's path may be an attribute (Cilium's slog `destination`)
  "cni.config.written": { about: "a CNI conflist written or created", milestone: "CNI config written", closesWindow: true, detectorFields: true },
  "cni.config.removed": { about: "a CNI conflist removed", detectorFields: true },
  "cni.ready": { about: "the CNI agent ready: nodename or subnet file written, network ready", milestone: "CNI ready", closesWindow: true },
  "network.not-ready": { about: "the kubelet's `Container runtime network not ready`", failure: true },
  "sandbox.create.start": { about: "RunPodSandbox called (or the CNI plugin's own request for a pod's network)" },
  "sandbox.create.failed": { about: "one failed RunPodSandbox (the CNI ADD path): an attempt line", failure: true },
  "sandbox.created": { about: "RunPodSandbox succeeded", milestone: "first sandbox", closesWindow: true },
  "sandbox.stop": { about: "StopPodSandbox, KillPodSandbox or CNI DEL that succeeded" },
  "sandbox.stop.failed": { about: "a failed sandbox stop or CNI DEL", failure: true },
  "cni.add.failed": { about: "a failed CNI ADD the plugin reports", failure: true },
  "cni.del.failed": { about: "a failed CNI DEL the plugin reports", failure: true },
  "runtime.unhealthy": { about: "PLEG not healthy, runtime down, event stream or ttrpc errors, CRI calls timing out", failure: true },
  "image.pull.failed": {
    about: "an image pull that failed: the kubelet's `Failed to pull image`, containerd's `PullImage \"<image>\" failed`, a `Failed` event saying so",
    failure: true,
  },
  "k8s.event": { about: "a Kubernetes event" },
  log: { about: "any other line", detectors: false },
} as const satisfies Record<string, EventKindSpec>;

/** A normalised event kind. */
export type EventKind = keyof typeof EVENT_KINDS;

/** Every kind's name, in table order. */
export const EVENT_KIND_NAMES = Object.keys(EVENT_KINDS) as [EventKind, ...EventKind[]];

const spec = (k: string): EventKindSpec | undefined => (EVENT_KINDS as Record<string, EventKindSpec>)[k];

/** Kinds that report a failure. */
export const FAILURE_KINDS: readonly EventKind[] = EVENT_KIND_NAMES.filter((k) => spec(k)?.failure);

/** Milestones with their timeline labels, in a boot's order. */
export const MILESTONES: ReadonlyArray<{ kind: EventKind; label: string }> = EVENT_KIND_NAMES.flatMap((k) => {
  const label = spec(k)?.milestone;
  return label ? [{ kind: k, label }] : [];
});

/** Kinds that close a sandbox failure window. */
export const WINDOW_CLOSING_KINDS: ReadonlySet<string> = new Set(EVENT_KIND_NAMES.filter((k) => spec(k)?.closesWindow));

/** Kinds whose parsed fields the detectors receive. */
export const KINDS_WITH_FIELDS: ReadonlySet<string> = new Set(EVENT_KIND_NAMES.filter((k) => spec(k)?.detectorFields));

/** True when the coded detectors receive events of `kind` (unknown kinds: no). */
export function reachesDetectors(kind: string): boolean {
  const s = spec(kind);
  return s !== undefined && s.detectors !== false;
}
