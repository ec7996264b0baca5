/**
 * One EKS-like node bundle around a reboot with Calico as the CNI: the healthy boot,
 * and incident pattern 2 of docs/detectors.md (the Calico plugin gives up before calico-node has
 * written `/var/lib/calico/nodename`).
 *
 * Layout: the EKS log collector's (member paths relative to the
 * archive root):
 *   kernel/dmesg.human.current                      `dmesg --ctime` of the current boot
 *   kubelet/kubelet.log                              `journalctl --unit=kubelet` (short):
 *                                                    the end of the previous boot, `-- Boot <id> --`, this boot
 *   containerd/containerd-log.txt                    `journalctl -u containerd` (short), same shape
 *   var_log/calico/cni/cni.log                       Calico CNI plugin log
 *   var_log/calico-node-<x>_kube-system_install-cni-<64hex>.log   CRI log of the install-cni init container
 *   var_log/calico-node-<x>_kube-system_calico-node-<64hex>.log   CRI log of calico-node
 *   kubectl/events.json                              `kubectl get events -A -o json`
 *
 * Texts follow the components' sources (see lib/normalise/classify.ts
 * for each message's origin). One failed attempt (containerd 1.7 `sandbox_run.go`,
 * `instrumented_service.go`; kubelet 1.31) prints, in order: containerd `RunPodSandbox
 * for &PodSandboxMetadata{...}`; Calico `Final result of CNI ADD was an error.` in
 * cni.log; containerd `Failed to destroy network for sandbox` (the deferred CNI DEL
 * fails the same way); containerd `RunPodSandbox ... failed, error` with the sandbox id;
 * the kubelet's `RunPodSandbox from runtime service failed`, `Failed to create sandbox
 * for pod`, `CreatePodSandbox for pod failed`, `Error syncing pod, skipping`; and a
 * `FailedCreatePodSandBox` event. The same 64-hex sandbox id wherever a component prints it.
 *
 * Time: integer microseconds (UTC). The generator first draws every time, then writes
 * lines and derives `truth` from the drawn times (lib/sample/window-truth.ts).
 */
import { createPrng, type Prng } from "./prng";
import { calico, criLine, dmesgCtime, goQuote, journalBootSeparator, journalShort, klog, logrus, rfc3339Seconds } from "./line-format";
import { expectedWindows, type TruthAttempt, type TruthMilestone, type WindowTruth } from "./window-truth";
import { expectedRetryStorm, type DetectorTruth, type SignalTruth } from "./detector-truth";

/** Parameters of the Calico nodename race (pattern 2). */
export interface CalicoNodenameParams {
  /** Kubernetes node name = journal hostname (EKS) */
  node: string;
  /** DaemonSet pods (not host-network) that retry while the nodename is missing */
  pods: number;
  /** kubelet retry interval per pod, s (DaemonSet pods retry about every 15 s); ±0.8 s jitter */
  retryIntervalS: number;
  /** calico-node writes /var/lib/calico/nodename this long after containerd starts, s (docs/detectors.md gives the range seen in real reports) */
  nodenameDelayS: number;
  /** control-plane clock minus node clock, s: shifts Kubernetes event stamps only */
  eventsSkewS: number;
  /** kernel start (T+0), ISO 8601 UTC */
  bootAt: string;
  seed: number;
  /**
   * "steady": every retry `retryIntervalS` later (±0.8 s); "growing": the kubelet's
   * doubling backoff, `retryIntervalS` x 2^k (±0.8 s) capped at `backoffCapS`
   */
  backoff: "steady" | "growing";
  /** cap of the growing backoff, s (kubelet's MaxContainerBackOff: 300 s) */
  backoffCapS: number;
  /**
   * runtime degradation (containerd sinks under a long storm): when the
   * storm (first to last failure) lasts longer than this, from this long after its start
   * until it ends containerd prints timed-out StopPodSandbox calls, TaskExit and ttrpc
   * errors and one event stream failure, and the kubelet "PLEG is not healthy" and
   * "Container runtime network not ready"; 0 turns it off. s
   */
  degradeAfterS: number;
}

/** Defaults from the brief: 20 DaemonSet pods, 15 s retries, nodename 18 s after containerd starts; degradation after a 120 s storm. */
export const CALICO_NODENAME_DEFAULTS: CalicoNodenameParams = {
  node: "ip-10-20-30-40.ec2.internal",
  pods: 20,
  retryIntervalS: 15,
  nodenameDelayS: 18,
  eventsSkewS: 0,
  bootAt: "2026-03-14T02:10:00Z",
  seed: 1,
  backoff: "steady",
  backoffCapS: 300,
  degradeAfterS: 120,
};

/** The healthy boot takes the node, pod count, event clock skew, boot time and seed. */
export type HealthyParams = Pick<CalicoNodenameParams, "node" | "pods" | "eventsSkewS" | "bootAt" | "seed">;

/** One file of a bundle: path inside the archive (no leading `./`) and its text. */
export interface ScenarioFile {
  path: string;
  content: string;
}

/** What a correct bootline finds in the bundle (times UTC ms, offsets s with 3 decimals). */
export interface ScenarioTruth {
  scenario: string;
  params: Record<string, unknown>;
  node: string;
  /** the boot under study: journal boot id (32 hex) */
  bootKey: string;
  /** the previous boot's journal id (its records precede the separator, which does not name it) */
  previousBootId: string;
  /** T+0 = kernel start (dmesg), UTC ms */
  t0Ms: number;
  /** the boot's first journal entry after its `-- Boot <id> --` separator (T+0 when dmesg is missing), UTC ms */
  firstJournalEntryMs: number;
  t0: string;
  /** collection time (archive members' mtime), UTC ms */
  collectedMs: number;
  /** EKS-style archive name for the bundle */
  archiveName: string;
  /** expected sandbox-failure-window findings of the boot, in order */
  windows: WindowTruth[];
  /** the first (for the defaults: only) window, null when none */
  window: WindowTruth | null;
  /** every failed attempt emitted */
  attemptsDetail: TruthAttempt[];
  /** milestone times after T+0, s (3 decimals) */
  milestonesS: Record<string, number>;
  /** every boot of the node the bundle shows with a journal id, in order, with its expected windows */
  boots: Array<{ bootKey: string; t0Ms: number; windows: WindowTruth[] }>;
  /** expected findings of retry-storm, conflist-rewrite-loop, cni-bootstrap-deadlock and runtime-degradation for the boot under study */
  detectors: DetectorTruth;
  /** expected rule findings (rules/*.yaml) of the boot under study: detector, match count, T+ of each match (s) */
  rules?: Array<{ detector: string; matches: number; atS: number[] }>;
}

/** Signal order of runtime-degradation's `signals` metric (lib/detect/runtime-degradation.ts SIGNALS). */
export const SIGNAL_ORDER = [
  "sandbox-stop-timeout",
  "task-exit-event",
  "ttrpc",
  "event-stream",
  "runtime-restart",
  "pleg-unhealthy",
  "runtime-down",
  "network-not-ready",
];

/**
 * Expected runtime-degradation signals from the tallies a scenario kept while emitting
 * health lines (UTC ms); null when fewer than 3 health signals (network-not-ready aside).
 */
export function expectedDegradation(tallies: Map<string, { count: number; first: number; last: number }>): { signals: SignalTruth[] } | null {
  const signals = SIGNAL_ORDER.filter((n) => tallies.has(n)).map((n) => {
    const t = tallies.get(n)!;
    return { signal: n, count: t.count, first: new Date(t.first).toISOString(), last: new Date(t.last).toISOString() };
  });
  const health = signals.filter((x) => x.signal !== "network-not-ready").reduce((n, x) => n + x.count, 0);
  return health >= 3 ? { signals } : null;
}

/** A generated bundle and its truth. */
export interface Scenario {
  name: string;
  files: ScenarioFile[];
  truth: ScenarioTruth;
}

// ---------------------------------------------------------------------------------

const CALICO_NODENAME_ERR =
  "stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/";
/** kubelet's `networkReady` text before the CNI config exists (case 009). */
export const NETWORK_NOT_READY = "NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized";

/** DaemonSets that tolerate `node.kubernetes.io/network-unavailable` and need pod networking. */
export const DAEMONSETS: Array<[string, string]> = [
  ["kube-system", "ebs-csi-node"],
  ["kube-system", "efs-csi-node"],
  ["kube-system", "secrets-store-csi-driver"],
  ["kube-system", "nvidia-device-plugin-daemonset"],
  ["kube-system", "kured"],
  ["kube-system", "node-problem-detector"],
  ["logging", "fluent-bit"],
  ["logging", "vector-agent"],
  ["monitoring", "dcgm-exporter"],
  ["monitoring", "grafana-agent"],
  ["monitoring", "otel-collector-agent"],
  ["datadog", "datadog-agent"],
  ["falco", "falco"],
  ["istio-system", "ztunnel"],
  ["linkerd", "linkerd-cni"],
  ["security", "trivy-node-collector"],
  ["security", "kube-bench-node"],
  ["storage", "longhorn-manager"],
  ["storage", "csi-rbdplugin"],
  ["ingress", "ingress-nginx-controller"],
  ["gpu-operator", "gpu-feature-discovery"],
  ["cert-manager", "csi-driver"],
  ["velero", "node-agent"],
  ["kube-system", "local-volume-provisioner"],
];

interface Line {
  us: number;
  seq: number;
  text: string;
}

/** The lines of each file of a bundle, rendered in time order (ties: insertion order). */
export class Files {
  private files = new Map<string, Line[]>();
  private seq = 0;
  add(path: string, us: number, text: string): void {
    let list = this.files.get(path);
    if (!list) this.files.set(path, (list = []));
    list.push({ us, seq: this.seq++, text });
  }
  render(order: string[]): ScenarioFile[] {
    return order
      .filter((p) => this.files.has(p))
      .map((path) => {
        const lines = [...this.files.get(path)!].sort((a, b) => a.us - b.us || a.seq - b.seq);
        return { path, content: lines.map((l) => l.text).join("\n") + "\n" };
      });
  }
}

/** A pod the scenario runs. */
export interface PodSpec {
  ns: string;
  name: string;
  uid: string;
  hostNetwork: boolean;
}

/** A Kubernetes event as the kubelet's recorder would store it (times UTC ms, whole seconds). */
export interface K8sEvent {
  reason: string;
  type: "Normal" | "Warning";
  message: string;
  count: number;
  firstMs: number;
  lastMs: number;
  involved: { kind: "Pod" | "Node"; name: string; namespace?: string; uid: string };
}

/** µs per second */
export const S = 1_000_000;
/** µs per ms */
export const MS = 1_000;
/** µs -> UTC ms, floored (event times are cut to the millisecond) */
export const floorMs = (us: number) => Math.floor(us / MS);

/**
 * Simulate one node boot. `mode` "incident": the nodename appears `nodenameDelayS`
 * after containerd starts; "healthy": calico-node writes it right after the conflist,
 * before any pod asks for a network.
 */
function simulate(p: CalicoNodenameParams, mode: "incident" | "healthy"): Scenario & { attempts: TruthAttempt[]; marks: TruthMilestone[] } {
  const r = createPrng(p.seed);
  const node = p.node;
  const bootMs = Date.parse(p.bootAt);
  if (!Number.isFinite(bootMs)) throw new Error(`bootAt is not an ISO time: ${p.bootAt}`);
  const t0Ms = Math.floor(bootMs / 1000) * 1000; // dmesg --ctime prints whole seconds
  const T0 = t0Ms * MS;
  const files = new Files();
  const bootId = r.hex(32);
  const prevBootId = r.hex(32);
  const kubeletPid = r.int(2000, 3200);
  const containerdPid = r.int(1500, 1999);
  const prevKubeletPid = r.int(2000, 3200);
  const prevContainerdPid = r.int(1500, 1999);
  const ns = () => r.int(0, 999);

  const KUBELET = "kubelet/kubelet.log";
  const CONTAINERD = "containerd/containerd-log.txt";
  const DMESG = "kernel/dmesg.human.current";
  const CNI = "var_log/calico/cni/cni.log";
  const calicoSfx = r.suffix(5);
  const INSTALL = `var_log/calico-node-${calicoSfx}_kube-system_install-cni-${r.hex(64)}.log`;
  const CALICO_NODE = `var_log/calico-node-${calicoSfx}_kube-system_calico-node-${r.hex(64)}.log`;

  /** journal envelope: journald receives the line 0.1 to 2 ms after the component stamped it */
  const kubeletLine = (us: number, text: string, pid = kubeletPid) => files.add(KUBELET, us, journalShort(us + r.int(100, 2000), node, "kubelet", pid, text));
  const containerdLine = (us: number, text: string, pid = containerdPid) =>
    files.add(CONTAINERD, us, journalShort(us + r.int(100, 2000), node, "containerd", pid, text));
  const systemdLine = (path: string, us: number, text: string) => files.add(path, us, journalShort(us, node, "systemd", 1, text));
  const metadata = (pod: PodSpec, attempt: number) => `&PodSandboxMetadata{Name:${pod.name},Uid:${pod.uid},Namespace:${pod.ns},Attempt:${attempt},}`;

  // ---- the previous boot's last records, then the separator -------------------------
  {
    const prevPod = `coredns-6d8c7f8b9-${r.suffix(5)}`;
    const prevAt = T0 - 1520 * S + r.int(0, S);
    kubeletLine(
      prevAt,
      klog("I", prevAt, prevKubeletPid, "kubelet.go:2458", "SyncLoop (PLEG): event for pod", [
        ["pod", `kube-system/${prevPod}`],
        ["event", { raw: `{"ID":"${r.uuid()}","Type":"ContainerStarted","Data":"${r.hex(64)}"}` }],
      ]),
      prevKubeletPid,
    );
    const stopK = T0 - 41 * S - r.int(0, 500_000);
    systemdLine(KUBELET, stopK, "Stopping kubelet.service - kubelet: The Kubernetes Node Agent...");
    kubeletLine(
      stopK + 180 * MS,
      klog("I", stopK + 180 * MS, prevKubeletPid, "dynamic_cafile_content.go:174", "Shutting down controller", [
        ["name", "client-ca-bundle::/etc/kubernetes/pki/ca.crt"],
      ]),
      prevKubeletPid,
    );
    systemdLine(KUBELET, stopK + 400 * MS, "kubelet.service: Deactivated successfully.");
    systemdLine(KUBELET, stopK + 401 * MS, "Stopped kubelet.service - kubelet: The Kubernetes Node Agent.");
    const prevSb = r.hex(64);
    const prevCoreUid = r.uuid();
    const us1 = T0 - 1705 * S - r.int(0, S);
    containerdLine(
      us1,
      logrus(
        us1,
        ns(),
        "info",
        `RunPodSandbox for &PodSandboxMetadata{Name:${prevPod},Uid:${prevCoreUid},Namespace:kube-system,Attempt:0,} returns sandbox id ${goQuote(prevSb)}`,
      ),
      prevContainerdPid,
    );
    const stopC = stopK + 2 * S;
    systemdLine(CONTAINERD, stopC, "Stopping containerd.service - containerd container runtime...");
    containerdLine(stopC + 20 * MS, logrus(stopC + 20 * MS, ns(), "info", "Stop CRI service"), prevContainerdPid);
    systemdLine(CONTAINERD, stopC + 300 * MS, "containerd.service: Deactivated successfully.");
    systemdLine(CONTAINERD, stopC + 301 * MS, "Stopped containerd.service - containerd container runtime.");
    files.add(KUBELET, T0, journalBootSeparator(bootId));
    files.add(CONTAINERD, T0, journalBootSeparator(bootId));
  }

  // ---- kernel --------------------------------------------------------------------------
  files.add(
    DMESG,
    T0,
    dmesgCtime(
      T0,
      "Linux version 6.1.128-136.201.amzn2023.x86_64 (mockbuild@ip-10-0-54-52) (gcc (GCC) 11.4.1 20230605 (Red Hat 11.4.1-2), GNU ld version 2.39-6.amzn2023.0.10) #1 SMP PREEMPT_DYNAMIC Mon Feb 10 20:13:43 UTC 2025",
    ),
  );
  files.add(
    DMESG,
    T0 + 1,
    dmesgCtime(
      T0,
      `Command line: BOOT_IMAGE=(hd0,gpt1)/boot/vmlinuz-6.1.128-136.201.amzn2023.x86_64 root=UUID=${r.uuid()} ro console=tty0 console=ttyS0,115200n8 nvme_core.io_timeout=4294967295 rd.emergency=poweroff rd.shell=0 selinux=1 security=selinux quiet`,
    ),
  );
  const enaAt = T0 + r.int(1800, 2600) * MS;
  files.add(DMESG, enaAt, dmesgCtime(enaAt, "ena 0000:00:05.0: ENA device version: 0.10"));

  // ---- containerd and kubelet start ---------------------------------------------------------
  const cs = T0 + r.int(4000, 5500) * MS + r.int(0, 999); // containerd "starting containerd"
  const firstEntryUs = cs - 60 * MS; // the first record after the separator (containerd unit)
  systemdLine(CONTAINERD, firstEntryUs, "Starting containerd.service - containerd container runtime...");
  containerdLine(
    cs,
    logrus(cs, ns(), "info", "starting containerd", [
      ["revision", r.hex(40)],
      ["version", "v1.7.27"],
    ]),
  );
  containerdLine(
    cs + 41 * MS,
    logrus(cs + 41 * MS, ns(), "error", "failed to load cni during init, please check CRI plugin status before setting up network for pods", [
      ["error", "cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized: failed to load cni config"],
    ]),
  );
  containerdLine(cs + 52 * MS, logrus(cs + 52 * MS, ns(), "info", "containerd successfully booted in 0.052186s"));
  systemdLine(CONTAINERD, cs + 53 * MS, "Started containerd.service - containerd container runtime.");

  const ks = cs + r.int(500, 1000) * MS + r.int(0, 999); // kubelet "Kubelet version"
  systemdLine(KUBELET, ks - 100 * MS, "Started kubelet.service - kubelet: The Kubernetes Node Agent.");
  kubeletLine(ks, klog("I", ks, kubeletPid, "server.go:486", "Kubelet version", [["kubeletVersion", "v1.31.4"]]));
  kubeletLine(
    ks + 37,
    klog("I", ks + 37, kubeletPid, "server.go:488", "Golang settings", [
      ["GOGC", ""],
      ["GOMAXPROCS", ""],
      ["GOTRACEBACK", ""],
    ]),
  );
  kubeletLine(ks + 1300 * MS, klog("I", ks + 1300 * MS, kubeletPid, "kubelet.go:2321", "Starting kubelet main sync loop"));

  // ---- host-network pods: no CNI needed ---------------------------------------------------
  const containerdStarts = (pod: PodSpec, at: number, attempt: number) =>
    containerdLine(at, logrus(at, ns(), "info", `RunPodSandbox for ${metadata(pod, attempt)}`));
  const successes: TruthMilestone[] = [];
  const sandboxOk = (pod: PodSpec, at: number, attempt: number, id: string) => {
    containerdLine(at, logrus(at, ns(), "info", `RunPodSandbox for ${metadata(pod, attempt)} returns sandbox id ${goQuote(id)}`));
    successes.push({ atMs: floorMs(at), label: `sandbox created (${pod.ns}/${pod.name})`, success: true, pod: `${pod.ns}/${pod.name}` });
    const obs = at + r.int(800, 2500) * MS;
    kubeletLine(
      obs,
      klog("I", obs, kubeletPid, "pod_startup_latency_tracker.go:104", "Observed pod startup duration", [
        ["pod", `${pod.ns}/${pod.name}`],
        ["podStartSLOduration", (r.int(2000, 9000) / 1000).toFixed(9)],
      ]),
    );
  };
  const calicoNode: PodSpec = { ns: "kube-system", name: `calico-node-${calicoSfx}`, uid: r.uuid(), hostNetwork: true };
  const kubeProxy: PodSpec = { ns: "kube-system", name: `kube-proxy-${r.suffix(5)}`, uid: r.uuid(), hostNetwork: true };
  const nodeExporter: PodSpec = { ns: "monitoring", name: `prometheus-node-exporter-${r.suffix(5)}`, uid: r.uuid(), hostNetwork: true };
  const hostStart = ks + r.int(400, 700) * MS + r.int(0, 999);
  for (const [i, pod] of [kubeProxy, calicoNode].entries()) {
    const at = hostStart + i * r.int(20, 60) * MS;
    containerdStarts(pod, at, 0);
    sandboxOk(pod, at + r.int(110, 180) * MS, 0, r.hex(64));
  }

  // ---- calico: install-cni writes the conflist; calico-node later writes the nodename ----------
  const cfgAt = hostStart + r.int(1000, 1600) * MS + r.int(0, 999); // after the upgrade-ipam and install-cni init containers
  const installLine = (us: number, msg: string) => files.add(INSTALL, us, criLine(us, ns(), "stderr", calico(us, "INFO", 1, "cni-installer/<nil> <nil>", msg)));
  installLine(cfgAt - 640 * MS, "CNI plugin version: v3.29.3");
  installLine(cfgAt - 420 * MS, "Wrote Calico CNI binaries to /host/opt/cni/bin");
  installLine(cfgAt, "Created /host/etc/cni/net.d/10-calico.conflist");
  installLine(cfgAt + 2 * MS, "Done configuring CNI.  Sleep= false");
  const milestones: TruthMilestone[] = [{ atMs: floorMs(cfgAt), label: "CNI config written", success: false }];

  const cnStart = cfgAt + r.int(600, 1200) * MS + r.int(0, 999);
  const calicoLine = (us: number, msg: string, caller = "startup/startup.go 94") =>
    files.add(CALICO_NODE, us, criLine(us, ns(), "stderr", calico(us, "INFO", 9, caller, msg)));
  calicoLine(cnStart, `Starting node ${node} with version v3.29.3`);
  calicoLine(cnStart + 6 * MS, "Datastore is ready", "startup/startup.go 106");
  const wantNodename = mode === "healthy" ? cnStart + r.int(300, 500) * MS : cs + Math.round(p.nodenameDelayS * S);
  const nodenameAt = Math.max(wantNodename, cnStart + 300 * MS); // calico-node cannot write it before it runs
  calicoLine(nodenameAt, `Using node name: ${node}`, "startup/startup.go 432");
  milestones.push({ atMs: floorMs(nodenameAt), label: "calico nodename written", success: false });
  const readyAt = nodenameAt + r.int(3500, 6000) * MS;
  files.add(CALICO_NODE, readyAt, criLine(readyAt, ns(), "stderr", calico(readyAt, "INFO", 61, "startup/startup.go 235", "Calico started successfully")));
  milestones.push({ atMs: floorMs(readyAt), label: "calico-node ready", success: false });

  // ---- the kubelet reports the network not ready until it sees the conflist ------------------
  // the kubelet polls the runtime status every 5 s (case 009's rhythm)
  let networkReadyAt = ks + r.int(300, 900) * MS + r.int(0, 999);
  while (networkReadyAt < cfgAt) {
    kubeletLine(
      networkReadyAt,
      klog("E", networkReadyAt, kubeletPid, "kubelet.go:3002", "Container runtime network not ready", [["networkReady", NETWORK_NOT_READY]]),
    );
    networkReadyAt += 5 * S + r.int(0, 3000);
  }

  // ---- DaemonSet pods ---------------------------------------------------------------------
  const pods: PodSpec[] = [];
  for (let i = 0; i < p.pods; i++) {
    const [podNs, ds] = DAEMONSETS[i % DAEMONSETS.length];
    const base = i < DAEMONSETS.length ? ds : `${ds}-${Math.floor(i / DAEMONSETS.length) + 1}`;
    pods.push({ ns: podNs, name: `${base}-${r.suffix(5)}`, uid: r.uuid(), hostNetwork: false });
  }
  // before the network is ready the kubelet only reports it, once per pod
  for (const pod of pods) {
    const at = ks + r.int(1500, 3000) * MS;
    if (at >= networkReadyAt) continue;
    kubeletLine(
      at,
      klog("E", at, kubeletPid, "pod_workers.go:1301", "Error syncing pod, skipping", [
        ["err", `network is not ready: container runtime network not ready: ${NETWORK_NOT_READY}`],
        ["pod", `${pod.ns}/${pod.name}`],
        ["podUID", pod.uid],
      ]),
    );
  }

  const attempts: TruthAttempt[] = [];
  const events: K8sEvent[] = [];
  const failuresByPod = new Map<PodSpec, number[]>();
  const retriesByPod = new Map<PodSpec, number[]>();
  const cniPid = () => r.int(4000, 39999);
  const eventMs = (us: number) => Math.floor((floorMs(us) + p.eventsSkewS * 1000) / 1000) * 1000;

  const failAttempt = (pod: PodSpec, s: number, attempt: number) => {
    const id = r.hex(64);
    containerdStarts(pod, s, attempt);
    const add = s + r.int(18, 40) * MS + r.int(0, 999);
    files.add(
      CNI,
      add,
      calico(add, "ERROR", cniPid(), "cni-plugin/plugin.go 580", "Final result of CNI ADD was an error.", [["error", { raw: CALICO_NODENAME_ERR }]]),
    );
    const del = add + r.int(5, 15) * MS + r.int(0, 999);
    containerdLine(
      del,
      logrus(del, ns(), "error", `Failed to destroy network for sandbox ${goQuote(id)}`, [
        ["error", `plugin type="calico" failed (delete): ${CALICO_NODENAME_ERR}`],
      ]),
    );
    const failed = del + r.int(300, 1000);
    const cErr = `failed to setup network for sandbox ${goQuote(id)}: plugin type="calico" failed (add): ${CALICO_NODENAME_ERR}`;
    containerdLine(failed, logrus(failed, ns(), "error", `RunPodSandbox for ${metadata(pod, attempt)} failed, error`, [["error", cErr]]));
    const rpcErr = `rpc error: code = Unknown desc = ${cErr}`;
    const podRef = `${pod.ns}/${pod.name}`;
    const k1 = failed + r.int(400, 1500);
    kubeletLine(k1, klog("E", k1, kubeletPid, "log.go:32", "RunPodSandbox from runtime service failed", [["err", rpcErr]]));
    const k2 = k1 + r.int(30, 90);
    kubeletLine(
      k2,
      klog("E", k2, kubeletPid, "kuberuntime_sandbox.go:72", "Failed to create sandbox for pod", [
        ["err", rpcErr],
        ["pod", podRef],
      ]),
    );
    const k3 = k2 + r.int(20, 50);
    kubeletLine(
      k3,
      klog("E", k3, kubeletPid, "kuberuntime_manager.go:1170", "CreatePodSandbox for pod failed", [
        ["err", rpcErr],
        ["pod", podRef],
      ]),
    );
    const k4 = k3 + r.int(30, 90);
    const who = `${pod.name}_${pod.ns}(${pod.uid})`;
    const syncErr = `failed to "CreatePodSandbox" for ${goQuote(who)} with CreatePodSandboxError: ${goQuote(`Failed to create sandbox for pod ${goQuote(who)}: ${rpcErr}`)}`;
    kubeletLine(
      k4,
      klog("E", k4, kubeletPid, "pod_workers.go:1301", "Error syncing pod, skipping", [
        ["err", syncErr],
        ["pod", podRef],
        ["podUID", pod.uid],
      ]),
    );
    attempts.push({ pod: podRef, sandboxId: id, failedAtMs: floorMs(failed) });
    const list = failuresByPod.get(pod) ?? [];
    list.push(k2);
    failuresByPod.set(pod, list);
    // the kubelet's recorder: one event per distinct message (the sandbox id differs each time);
    // from the 11th similar event in 10 min on, one aggregated "(combined from similar events)" event
    const msg = `Failed to create pod sandbox: ${rpcErr}`;
    if (list.length <= 10) {
      events.push({
        reason: "FailedCreatePodSandBox",
        type: "Warning",
        message: msg,
        count: 1,
        firstMs: eventMs(k2),
        lastMs: eventMs(k2),
        involved: { kind: "Pod", name: pod.name, namespace: pod.ns, uid: pod.uid },
      });
    } else {
      const combined = events.find((e) => e.reason === "FailedCreatePodSandBox" && e.involved.uid === pod.uid && e.message.startsWith("(combined"));
      if (combined) {
        combined.count++;
        combined.lastMs = eventMs(k2);
        combined.message = `(combined from similar events): ${msg}`;
      } else {
        events.push({
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          message: `(combined from similar events): ${msg}`,
          count: 1,
          firstMs: eventMs(k2),
          lastMs: eventMs(k2),
          involved: { kind: "Pod", name: pod.name, namespace: pod.ns, uid: pod.uid },
        });
      }
    }
  };

  const succeedAttempt = (pod: PodSpec, s: number, attempt: number) => {
    const id = r.hex(64);
    containerdStarts(pod, s, attempt);
    const add = s + r.int(18, 40) * MS;
    const pid = cniPid();
    const wep = `${node.replace(/-/g, "--")}-k8s-${pod.name.replace(/-/g, "--")}-eth0`;
    const ids: Array<[string, string]> = [
      ["ContainerID", id],
      ["Namespace", pod.ns],
      ["Pod", pod.name],
      ["WorkloadEndpoint", wep],
    ];
    files.add(CNI, add, calico(add, "INFO", pid, "cni-plugin/k8s.go 78", "Extracted identifiers for CmdAddK8s", ids));
    const ip = `10.244.${r.int(0, 255)}.${r.int(2, 254)}`;
    files.add(
      CNI,
      add + 60 * MS,
      calico(add + 60 * MS, "INFO", pid, "ipam/ipam_plugin.go 287", `Calico CNI IPAM assigned addresses IPv4=[${ip}/32] IPv6=[]`, [
        ["ContainerID", id],
        ["HandleID", `k8s-pod-network.${id}`],
        ["Workload", wep],
      ]),
    );
    files.add(CNI, add + 120 * MS, calico(add + 120 * MS, "INFO", pid, "cni-plugin/k8s.go 418", "Populated endpoint", ids));
    files.add(CNI, add + 140 * MS, calico(add + 140 * MS, "INFO", pid, "cni-plugin/k8s.go 489", "Wrote updated endpoint to datastore", ids));
    sandboxOk(pod, add + r.int(200, 400) * MS, attempt, id);
  };

  // pods ask for sandboxes once the kubelet sees the network ready; in a healthy boot that is after the nodename exists
  const firstRetryAt = Math.max(networkReadyAt, cfgAt, mode === "healthy" ? nodenameAt : 0) + 50 * MS;
  for (const pod of pods) {
    let s = firstRetryAt + r.int(50, 4000) * MS + r.int(0, 999);
    for (let attempt = 0; attempt < 10_000; attempt++) {
      if (attempt > 0) {
        const list = retriesByPod.get(pod) ?? [];
        list.push(s - r.int(2, 8) * MS);
        retriesByPod.set(pod, list);
      }
      // the plugin checks for the nodename right at the start of ADD
      if (s + 40 * MS < nodenameAt) {
        failAttempt(pod, s, attempt);
        const base = p.backoff === "growing" ? Math.min(p.retryIntervalS * 2 ** attempt, p.backoffCapS) : p.retryIntervalS;
        s += Math.round((base + r.float(-0.8, 0.8)) * S);
      } else {
        succeedAttempt(pod, s, attempt);
        break;
      }
    }
  }
  // a host-network pod created in the middle of the storm succeeds without CNI (between two failures less than 60 s apart)
  const failedTimes = attempts.map((a) => a.failedAtMs * MS).sort((a, b) => a - b);
  let midStorm = firstRetryAt + 5 * S;
  if (failedTimes.length >= 2) {
    const k = Math.floor((failedTimes.length - 1) / 2);
    midStorm = Math.floor((failedTimes[k] + failedTimes[k + 1]) / 2);
  }
  containerdStarts(nodeExporter, midStorm, 0);
  sandboxOk(nodeExporter, midStorm + r.int(110, 180) * MS, 0, r.hex(64));

  // ---- runtime degradation during a long storm ----------------------------------------------
  const signals = new Map<string, { count: number; first: number; last: number }>();
  /** one more signal line; `count` false for a further line of the same signal instance (same sandbox) */
  const signal = (name: string, us: number, count = true) => {
    const ms = floorMs(us);
    const t = signals.get(name);
    if (t) {
      if (count) t.count++;
      t.first = Math.min(t.first, ms);
      t.last = Math.max(t.last, ms);
    } else signals.set(name, { count: 1, first: ms, last: ms });
  };
  const stormStart = failedTimes[0];
  const stormEnd = failedTimes[failedTimes.length - 1];
  if (p.degradeAfterS > 0 && failedTimes.length && stormEnd - stormStart > p.degradeAfterS * S) {
    const failedIds = [...attempts].sort((a, b) => a.failedAtMs - b.failedAtMs);
    let step = 0;
    for (let at = stormStart + Math.round(p.degradeAfterS * S); at < stormEnd; at += 10 * S + r.int(0, 2000) * MS, step++) {
      // the kubelet stops a failed sandbox; containerd's StopPodSandbox times out (2 min CRI deadline, reported now)
      const victim = failedIds.filter((a) => a.failedAtMs * MS < at - 2 * S);
      if (step < victim.length) {
        const id = victim[step].sandboxId;
        const c = at + r.int(0, 500) * MS;
        containerdLine(
          c,
          logrus(c, ns(), "error", `StopPodSandbox for ${goQuote(id)} failed`, [
            ["error", "rpc error: code = DeadlineExceeded desc = context deadline exceeded"],
          ]),
        );
        const k = c + r.int(2, 40) * MS;
        kubeletLine(
          k,
          klog("E", k, kubeletPid, "log.go:32", "StopPodSandbox from runtime service failed", [
            ["err", "rpc error: code = DeadlineExceeded desc = context deadline exceeded"],
            ["podSandboxID", id],
          ]),
        );
        signal("sandbox-stop-timeout", c);
        signal("sandbox-stop-timeout", k, false);
      }
      const te = at + r.int(600, 1500) * MS;
      const cid = r.hex(64);
      containerdLine(
        te,
        logrus(
          te,
          ns(),
          "error",
          `failed to handle container TaskExit event &TaskExit{ContainerID:${cid},ID:${cid},Pid:${r.int(4000, 60000)},ExitStatus:137,ExitedAt:${new Date(floorMs(te) - 2000).toISOString().replace("T", " ").replace("Z", "")}000000 +0000 UTC,XXX_unrecognized:[],}`,
          [["error", "failed to stop container: failed to delete task: context deadline exceeded: unknown"]],
        ),
      );
      signal("task-exit-event", te);
      const tt = te + r.int(100, 900) * MS;
      containerdLine(tt, logrus(tt, ns(), "error", "ttrpc: received message on inactive stream", [["stream", String(2 * r.int(1, 60) + 1)]]));
      signal("ttrpc", tt);
      if (step === 1) {
        const es = tt + r.int(100, 600) * MS;
        containerdLine(
          es,
          logrus(es, ns(), "error", "Failed to handle event stream", [["error", "rpc error: code = Unavailable desc = error reading from server: EOF"]]),
        );
        signal("event-stream", es);
      }
      if (step >= 1) {
        const pl = at + r.int(2000, 3000) * MS;
        const ago = 180 + 10 * step + r.int(0, 9);
        kubeletLine(
          pl,
          klog("I", pl, kubeletPid, "kubelet.go:2412", "Skipping pod synchronization", [
            ["err", `PLEG is not healthy: pleg was last seen active ${Math.floor(ago / 60)}m${ago % 60}.${r.int(100, 999)}s ago; threshold is 3m0s`],
          ]),
        );
        signal("pleg-unhealthy", pl);
      }
      if (step % 2 === 0) {
        const nr = at + r.int(3100, 4000) * MS;
        kubeletLine(nr, klog("E", nr, kubeletPid, "kubelet.go:3002", "Container runtime network not ready", [["networkReady", NETWORK_NOT_READY]]));
        signal("network-not-ready", nr);
      }
    }
  }

  // SandboxChanged: the retry that replaces a failed sandbox (same message: one event, counted)
  for (const [pod, times] of retriesByPod) {
    events.push({
      reason: "SandboxChanged",
      type: "Normal",
      message: "Pod sandbox changed, it will be killed and re-created.",
      count: times.length,
      firstMs: eventMs(times[0]),
      lastMs: eventMs(times[times.length - 1]),
      involved: { kind: "Pod", name: pod.name, namespace: pod.ns, uid: pod.uid },
    });
  }
  // node events
  const nodeRef = { kind: "Node" as const, name: node, uid: node };
  events.push({
    reason: "Starting",
    type: "Normal",
    message: "Starting kubelet.",
    count: 1,
    firstMs: eventMs(ks + 500 * MS),
    lastMs: eventMs(ks + 500 * MS),
    involved: nodeRef,
  });
  const dashed = `${bootId.slice(0, 8)}-${bootId.slice(8, 12)}-${bootId.slice(12, 16)}-${bootId.slice(16, 20)}-${bootId.slice(20)}`;
  events.push({
    reason: "Rebooted",
    type: "Warning",
    message: `Node ${node} has been rebooted, boot id: ${dashed}`,
    count: 1,
    firstMs: eventMs(ks + 1600 * MS),
    lastMs: eventMs(ks + 1600 * MS),
    involved: nodeRef,
  });

  // the kubelet keeps logging after the storm (periodic housekeeping), so its log covers the events
  const lastUs = Math.max(...successes.map((x) => x.atMs * MS), nodenameAt, readyAt);
  const tailAt = lastUs + r.int(30, 60) * S;
  kubeletLine(
    tailAt,
    klog("I", tailAt, kubeletPid, "kubelet_getters.go:218", "Pod status is inconsistent with cached status for pod, a reconciliation should be triggered", [
      ["pod", `${pods[0]?.ns ?? "kube-system"}/${pods[0]?.name ?? kubeProxy.name}`],
    ]),
  );

  const collectedMs = Math.ceil((floorMs(tailAt) + 15 * 60_000) / 60_000) * 60_000;
  const eventsJson = renderEventList(events, node, collectedMs, r);

  // ---- truth ------------------------------------------------------------------------------
  milestones.push({ atMs: floorMs(cs), label: "runtime started", success: false });
  milestones.push({ atMs: floorMs(ks), label: "kubelet started", success: false });
  const windows = expectedWindows(attempts, [...milestones, ...successes], t0Ms, "calico-nodename-missing");
  const sec3 = (us: number) => Math.round(floorMs(us) - t0Ms) / 1000;
  const d = new Date(collectedMs);
  const stamp = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}-${String(d.getUTCDate()).padStart(2, "0")}_${String(d.getUTCHours()).padStart(2, "0")}${String(d.getUTCMinutes()).padStart(2, "0")}`;
  const truth: ScenarioTruth = {
    scenario: mode === "healthy" ? "healthy" : "calico",
    params: mode === "healthy" ? { node: p.node, pods: p.pods, eventsSkewS: p.eventsSkewS, bootAt: p.bootAt, seed: p.seed } : { ...p },
    node,
    bootKey: bootId,
    previousBootId: prevBootId,
    t0Ms,
    t0: new Date(t0Ms).toISOString(),
    firstJournalEntryMs: Math.floor(firstEntryUs / S) * 1000, // journal short: whole seconds
    collectedMs,
    archiveName: `eks_i-0${createPrng(p.seed + 7).hex(16)}_${stamp}-UTC_0.7.9.tar.gz`,
    windows,
    window: windows[0] ?? null,
    attemptsDetail: attempts,
    milestonesS: {
      containerdStarted: sec3(cs),
      kubeletStarted: sec3(ks),
      cniConfigWritten: sec3(cfgAt),
      nodenameWritten: sec3(nodenameAt),
      calicoNodeReady: sec3(readyAt),
    },
    boots: [{ bootKey: bootId, t0Ms, windows }],
    detectors: {
      retryStorm: expectedRetryStorm(attempts, [...milestones, ...successes], windows, t0Ms),
      conflistLoops: [],
      deadlocks: [],
      degradation: expectedDegradation(signals),
    },
  };
  const order = [DMESG, KUBELET, CONTAINERD, CNI, INSTALL, CALICO_NODE];
  return {
    name: truth.scenario,
    files: [...files.render(order), { path: "kubectl/events.json", content: eventsJson }],
    truth,
    attempts,
    marks: [...milestones, ...successes],
  };
}

/**
 * `kubectl get events -A -o json`: a `List` of `Event`s, keys sorted (kubectl prints
 * unstructured objects), 4-space indentation, items by namespace then name; first/last
 * timestamps in whole seconds, `eventTime` null (core/v1 events from the kubelet).
 */
export function renderEventList(events: K8sEvent[], node: string, collectedMs: number, r: Prng): string {
  void collectedMs;
  let rv = r.int(100000, 900000);
  const items = events.map((e) => {
    const ns = e.involved.namespace ?? "default";
    const nameHex = (BigInt(e.firstMs) * 1_000_000n + BigInt(r.int(0, 999_999))).toString(16);
    const involvedObject: Record<string, unknown> =
      e.involved.kind === "Pod"
        ? { apiVersion: "v1", kind: "Pod", name: e.involved.name, namespace: ns, resourceVersion: String(rv++), uid: e.involved.uid }
        : { kind: "Node", name: e.involved.name, uid: e.involved.uid };
    return {
      apiVersion: "v1",
      count: e.count,
      eventTime: null,
      firstTimestamp: rfc3339Seconds(e.firstMs),
      involvedObject,
      kind: "Event",
      lastTimestamp: rfc3339Seconds(e.lastMs),
      message: e.message,
      metadata: {
        creationTimestamp: rfc3339Seconds(e.firstMs),
        name: `${e.involved.name}.${nameHex}`,
        namespace: ns,
        resourceVersion: String(rv++),
        uid: r.uuid(),
      },
      reason: e.reason,
      reportingComponent: "kubelet",
      reportingInstance: node,
      source: { component: "kubelet", host: node },
      type: e.type,
    };
  });
  items.sort((a, b) =>
    a.metadata.namespace < b.metadata.namespace
      ? -1
      : a.metadata.namespace > b.metadata.namespace
        ? 1
        : a.metadata.name < b.metadata.name
          ? -1
          : a.metadata.name > b.metadata.name
            ? 1
            : 0,
  );
  return JSON.stringify({ apiVersion: "v1", items, kind: "List", metadata: { resourceVersion: "" } }, null, 4) + "\n";
}

/** Pattern 2: sandbox creation fails until calico-node writes its nodename. */
export function generateCalicoNodename(params: Partial<CalicoNodenameParams> = {}): Scenario {
  const p = { ...CALICO_NODENAME_DEFAULTS, ...params };
  checkParams(p);
  const { name, files, truth } = simulate(p, "incident");
  return { name, files, truth };
}

/** The same node and boot without the race: calico-node writes its nodename before any pod needs a network. */
export function generateHealthy(params: Partial<HealthyParams> = {}): Scenario {
  const p = { ...CALICO_NODENAME_DEFAULTS, ...params };
  const { name, files, truth } = simulate(p, "healthy");
  return { name, files, truth };
}

function checkParams(p: CalicoNodenameParams): void {
  if (!(p.pods >= 0) || !(p.retryIntervalS > 0) || !(p.nodenameDelayS >= 0))
    throw new Error("pods >= 0, retryIntervalS > 0 and nodenameDelayS >= 0 are required");
  if (p.backoff !== "steady" && p.backoff !== "growing") throw new Error(`backoff must be "steady" or "growing", not ${JSON.stringify(p.backoff)}`);
  if (!(p.backoffCapS > 0) || !(p.degradeAfterS >= 0)) throw new Error("backoffCapS > 0 and degradeAfterS >= 0 are required");
}

/** Parameters of the two-boot node: the Calico race on the first boot, a healthy second boot. */
export interface TwoBootsParams extends CalicoNodenameParams {
  /** time from the first boot's kernel start to the second's, s (default 2 h: the first boot's events have expired, TTL 1 h) */
  secondBootAfterS: number;
}

/**
 * A node that rebooted twice inside the bundle (docs/definitions.md "Boot and T+0"): the journal
 * files hold the tail of an older boot, `-- Boot <A> --`, the first boot (with the
 * Calico nodename race), `-- Boot <B> --`, and a healthy second boot. dmesg and the
 * events cover the current (second) boot only, as the EKS collector takes them. The
 * first boot has no kernel line, so its T+0 is its first journal entry.
 * `truth` describes the first boot (the one with the window); `truth.boots` both.
 */
export function generateTwoBoots(params: Partial<TwoBootsParams> = {}): Scenario {
  const p = { ...CALICO_NODENAME_DEFAULTS, secondBootAfterS: 7200, ...params };
  checkParams(p);
  if (!(p.secondBootAfterS >= 1800)) throw new Error("secondBootAfterS must be at least 1800 (the second boot's previous-boot lines reach 1520 s back)");
  const { secondBootAfterS, ...first } = p;
  const a = simulate(first, "incident");
  const bootB = new Date(Date.parse(p.bootAt) + secondBootAfterS * 1000).toISOString().replace(/\.000Z$/, "Z");
  const b = simulate({ ...first, bootAt: bootB, seed: p.seed + 1 }, "healthy");
  // journal files and cni.log persist across reboots: the first boot's text, then the second's
  // (whose leading lines are the first boot's shutdown); dmesg and events: current boot only
  const files: ScenarioFile[] = [];
  for (const fb of b.files) {
    const fa = a.files.find((f) => f.path === fb.path);
    if (fb.path.startsWith("kernel/") || fb.path.startsWith("kubectl/")) files.push(fb);
    else if (fa && (fb.path.startsWith("kubelet/") || fb.path.startsWith("containerd/") || fb.path.endsWith("/cni.log")))
      files.push({ path: fb.path, content: fa.content + fb.content });
    else files.push(fb);
  }
  for (const fa of a.files) if (fa.path.startsWith("var_log/calico-node-")) files.push(fa);
  const t0A = a.truth.firstJournalEntryMs;
  const windowsA = expectedWindows(a.attempts, a.marks, t0A, "calico-nodename-missing");
  const truth: ScenarioTruth = {
    ...a.truth,
    scenario: "two-boots",
    params: { ...p },
    t0Ms: t0A,
    t0: new Date(t0A).toISOString(),
    collectedMs: b.truth.collectedMs,
    archiveName: b.truth.archiveName,
    windows: windowsA,
    window: windowsA[0] ?? null,
    milestonesS: Object.fromEntries(Object.entries(a.truth.milestonesS).map(([k, v]) => [k, Math.round(v * 1000 + a.truth.t0Ms - t0A) / 1000])),
    boots: [
      { bootKey: a.truth.bootKey, t0Ms: t0A, windows: windowsA },
      { bootKey: b.truth.bootKey, t0Ms: b.truth.t0Ms, windows: [] },
    ],
    detectors: { ...a.truth.detectors, retryStorm: expectedRetryStorm(a.attempts, a.marks, windowsA, t0A) },
  };
  return { name: "two-boots", files, truth };
}
