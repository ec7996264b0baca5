/**
 * Detector `cni-bootstrap-deadlock` (docs/detectors.md, pattern 1: the CNI agent waits for a
 * file only it can write).
 *
 * Input: one node boot's events (BootEvent, UTC ms), sorted by (ts, fileId, line).
 *
 * 1. Attempts are the failed RunPodSandbox calls `sandbox-failure-window` counts
 *    (`collectAttempts`, from T+0 on). An attempt names a missing file when any of its
 *    lines says `<path>: no such file or directory` (kubelet `err=`, Kubernetes event
 *    messages, the error class text).
 * 2. For each missing path, the writer is the CNI agent pod known to write it
 *    (`KNOWN_WRITERS`: istio-cni's kubeconfig is written by `istio-cni-node-*`, Calico's
 *    nodename by `calico-node-*`, flannel's subnet.env by `kube-flannel-ds-*`, Cilium's
 *    files by `cilium-*`), else a failing pod whose DaemonSet name (the pod name without
 *    its generated suffix, less a trailing `-node`/`-agent`/`-ds`) appears in the path.
 * 3. Deadlock when the writer pod is itself among the pods failing on that path with at
 *    least `minWriterAttempts` attempts, and after its first failure neither a sandbox of
 *    the writer succeeds nor any line reports the file written (a `cni.ready` /
 *    `cni.config.written` event naming it). A slow start (the writer gets through and
 *    writes the file) is a failure window, not a deadlock.
 *
 * The finding starts at the first attempt naming the path and never ends on its own
 * (`end` null): nothing changes until a human intervenes.
 *
 * Pure: no I/O, no clock reads.
 */
import type { BootEvent, BootInfo, Detector, Finding } from "./types";
import { attemptEvidence, type Attempt } from "./attempts";
import { attemptsOf } from "./attempts-cache";
import { fmtT, isoOf, plural, sec } from "./numbers";

/** Thresholds, with units in their names. */
export interface CniBootstrapDeadlockParams extends Record<string, number> {
  /** failed attempts of the writer pod itself: 2 show that its retry meets the same missing file (one could be a race lost once) */
  minWriterAttempts: number;
  /** lines of one failure lie within this of each other, s */
  joinS: number;
  /** tolerance when matching Kubernetes events to node logs, s (as sandbox-failure-window) */
  eventSlackS: number;
}

/** Default thresholds (sources on `CniBootstrapDeadlockParams`). */
export const defaults: CniBootstrapDeadlockParams = { minWriterAttempts: 2, joinS: 1, eventSlackS: 2 };

/** Slug stored on findings and used in URLs. */
export const name = "cni-bootstrap-deadlock";
/** Display name. */
export const title = "CNI bootstrap deadlock";

/** Plain-words description quoting the thresholds in force. */
export function describe(p: CniBootstrapDeadlockParams): string {
  return (
    `Sandbox failures that name a missing file which a CNI agent pod writes, while that agent pod itself fails the same way ` +
    `(at least ${p.minWriterAttempts} attempts) and neither gets a sandbox nor writes the file afterwards: a cycle that does not resolve on its own.`
  );
}

/** Files CNI agents write on start, and the pods that write them (the agents' install and start-up code: istio-cni, calico-node, flannel, Cilium, Multus). */
export const KNOWN_WRITERS: ReadonlyArray<{ path: RegExp; pod: RegExp; agent: string }> = [
  { path: /istio-cni-kubeconfig$/, pod: /^istio-cni-node-/, agent: "istio-cni" },
  { path: /\/var\/lib\/calico\/(?:nodename|mtu)$/, pod: /^calico-node-/, agent: "calico-node" },
  { path: /\/run\/flannel\/subnet\.env$/, pod: /^kube-flannel-ds-/, agent: "flannel" },
  { path: /\/(?:var\/)?run\/cilium\//, pod: /^cilium-(?!operator)/, agent: "cilium-agent" },
  { path: /\/var\/run\/multus\/|multus\.kubeconfig$/, pod: /^kube-multus-ds-/, agent: "multus" },
];

const MISSING_RE = /(\/[^\s:"'\\]+): no such file or directory/;

/** The path a failure text says is missing, or null. */
export function missingPathOf(text: string): string | null {
  const m = MISSING_RE.exec(text);
  return m ? m[1].replace(/^\/host(?=\/)/, "") : null;
}

function attemptMissingPath(a: Attempt): string | null {
  for (const l of [...a.lines, ...a.eventLines]) {
    const p = missingPathOf(`${l.message ?? ""} ${l.fields?.err ?? ""} ${l.fields?.error ?? ""}`);
    if (p) return p;
  }
  return null;
}

/** DaemonSet-ish base of a pod name: `istio-cni-node-7xk2p` -> `istio-cni-node`. */
function baseName(pod: string): string {
  const name = pod.split("/").pop() ?? pod;
  return name.replace(/-[a-z0-9]{5}$/, "").replace(/-[a-f0-9]{8,10}$/, "");
}

/** The pod (among `pods`, `namespace/name`) that writes `path`, or null. */
export function writerPodOf(path: string, pods: string[]): { pod: string; agent: string } | null {
  const known = KNOWN_WRITERS.find((k) => k.path.test(path));
  if (known) {
    const pod = pods.find((p) => known.pod.test(p.split("/").pop() ?? p));
    return pod ? { pod, agent: known.agent } : null;
  }
  for (const pod of pods) {
    const stem = baseName(pod).replace(/-(?:node|agent|ds|daemon|daemonset)$/, "");
    if (stem.length >= 4 && path.includes(stem)) return { pod, agent: stem };
  }
  return null;
}

/** Run the detector on one boot. */
export function run(boot: BootInfo, events: BootEvent[], params: CniBootstrapDeadlockParams = defaults): Finding[] {
  const p = { ...defaults, ...params };
  const t0 = boot.start;
  const attempts = attemptsOf(events, p).filter((a) => a.time >= t0);
  const byPath = new Map<string, Attempt[]>();
  for (const a of attempts) {
    const path = attemptMissingPath(a);
    if (!path) continue;
    const list = byPath.get(path);
    if (list) list.push(a);
    else byPath.set(path, [a]);
  }
  const out: Finding[] = [];
  for (const [path, list] of [...byPath].sort((a, b) => a[1][0].time - b[1][0].time)) {
    const pods = [...new Set(list.map((a) => a.pod).filter((x): x is string => !!x))].sort();
    const writer = writerPodOf(path, pods);
    if (!writer) continue;
    const writerAttempts = list.filter((a) => a.pod === writer.pod);
    if (writerAttempts.length < p.minWriterAttempts) continue;
    const writerFirst = writerAttempts[0].time;
    const file = path.split("/").pop()!;
    const writerGotThrough = events.some((e) => e.kind === "sandbox.created" && e.pod === writer.pod && e.ts !== null && e.ts > writerFirst);
    const fileWritten = events.some(
      (e) => (e.kind === "cni.ready" || e.kind === "cni.config.written") && e.ts !== null && e.ts > writerFirst && (e.message ?? "").includes(file),
    );
    if (writerGotThrough || fileWritten) continue;
    const first = list[0].time;
    const last = list[list.length - 1].time;
    const sinceS = sec(first - t0);
    const lastS = sec(last - t0);
    const others = pods.length - 1;
    const sidecarHint =
      writer.agent === "istio-cni"
        ? ` istio-cni's plugin lets its own agent pod through without the kubeconfig only in ambient mode; in sidecar mode the agent pod is blocked behind the file it would write. Exclude the agent's namespace from the plugin, or upgrade to a release whose guard covers sidecar mode, then delete the stuck agent pod.`
        : ` Let the agent pod start without the file (exclude its namespace from the plugin, or host networking), then delete the stuck pod.`;
    out.push({
      detector: name,
      severity: "critical",
      start: first,
      end: null,
      title: `${writer.agent} bootstrap deadlock: ${path} missing, ${writer.pod} blocked too (${plural(pods.length, "pod")} since ${fmtT(sinceS)})`,
      explanation:
        `${plural(list.length, "failed sandbox attempt")} from ${plural(pods.length, "pod")} since ${fmtT(sinceS)} (last at ${fmtT(lastS)}) say ${path} does not exist. ` +
        `That file is written by the CNI agent pod ${writer.pod}, and that pod is itself among the failing pods (${plural(writerAttempts.length, "attempt")}, the first at ${fmtT(sec(writerFirst - t0))}), ` +
        `with ${plural(others, "other pod")} blocked behind it: a cycle, not a slow start. No sandbox of ${writer.pod} succeeded and nothing wrote the file before the data ended, so the failure window does not close on its own.` +
        sidecarHint,
      metrics: {
        missingPath: path,
        writerPod: writer.pod,
        agent: writer.agent,
        blockedPods: pods.length,
        attempts: list.length,
        writerAttempts: writerAttempts.length,
        sinceS,
        since: isoOf(first),
        lastFailureAfterBootS: lastS,
      },
      evidence: attemptEvidence(list),
    });
  }
  return out;
}

/** The detector as registered in lib/detect/index.ts. */
export const cniBootstrapDeadlock: Detector<CniBootstrapDeadlockParams> = { name, title, defaults, describe, run };
