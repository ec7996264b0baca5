/**
 * EKS-like node bundles around a reboot for the two CNI-agent incident patterns (docs/detectors.md):
 *
 *  - pattern 1, `istio-deadlock`: istio-cni in sidecar mode, chained after the AWS VPC CNI
 *    (`/etc/cni/net.d/10-aws.conflist` on disk, so the network is ready at once). The
 *    plugin's kubeconfig lives on tmpfs (`/var/run/istio-cni/istio-cni-kubeconfig`), wiped
 *    by the reboot; every pod, the agent pod `istio-system/istio-cni-node-<x>` included,
 *    fails with `plugin type="istio-cni" name="istio-cni" failed (add): ...
 *    istio-cni-kubeconfig: no such file or directory` and retries every `retryIntervalS`
 *    until the data ends (mode "deadlock"); in mode "slow-start" the agent pod gets a
 *    sandbox after `agentFailures` failures, writes the kubeconfig and every pod's next
 *    attempt succeeds (a failure window that closes, no deadlock);
 *  - pattern 3, `conflist-loop`: Cilium (primary, `cni-exclusive` on, host network) and
 *    the istio-cni agent (chained) rewrite `/host/etc/cni/net.d/05-cilium.conflist` in
 *    turns, `rate` writes per second (both writers together) for `durationS`, starting
 *    `loopStartS` after T+0. istio-cni lines are zap console with tabs (case 006) inside the
 *    CRI log of its `install-cni` container; Cilium's are its default logfmt without a time
 *    (case 003), in the CRI log of `cilium-agent` (the CRI stamp gives them a time) or, with
 *    `ciliumLog: "plain"`, as `kubectl logs` output without timestamps, which cannot be
 *    placed in time. One write of istio-cni prints "(re)writing CNI config file" and
 *    "created CNI config" about 10 ms apart.
 *
 * Layout (the EKS log collector's): kernel/dmesg.human.current, kubelet/kubelet.log and
 * containerd/containerd-log.txt (journalctl short: the end of the previous boot,
 * `-- Boot <id> --`, this boot), var_log/<pod>_<ns>_<ctr>-<64hex>.log (CRI logs),
 * kubectl/events.json. The node name is the journal hostname and the events' host.
 *
 * Time: integer microseconds (UTC). Every time is drawn first; lines and `truth` are both
 * derived from the drawn times (truth by lib/sample/window-truth.ts and detector-truth.ts).
 */
import { createPrng, type Prng } from "./prng";
import { criLine, dmesgCtime, goQuote, journalBootSeparator, journalShort, klog, logrus } from "./line-format";
import {
  Files,
  MS,
  S,
  floorMs,
  renderEventList,
  type K8sEvent,
  type PodSpec,
  type Scenario,
  type ScenarioFile,
  type ScenarioTruth,
  DAEMONSETS,
} from "./calico-boot";
import { expectedWindows, type TruthAttempt, type TruthMilestone } from "./window-truth";
import { expectedLoop, expectedRetryStorm, type ConflistLoopTruth, type DeadlockTruth } from "./detector-truth";

/** Parameters every agent scenario takes. */
export interface AgentBootParams {
  /** Kubernetes node name = journal hostname (EKS) */
  node: string;
  /** kernel start (T+0), ISO 8601 UTC */
  bootAt: string;
  /** control-plane clock minus node clock, s: shifts Kubernetes event stamps only */
  eventsSkewS: number;
  seed: number;
}

const KUBELET = "kubelet/kubelet.log";
const CONTAINERD = "containerd/containerd-log.txt";
const DMESG = "kernel/dmesg.human.current";

/** The parts of a node boot both agent scenarios share: previous boot, kernel, runtime and kubelet start, sandboxes, events. */
class NodeBoot {
  readonly r: Prng;
  readonly files = new Files();
  readonly node: string;
  readonly t0Ms: number;
  readonly T0: number;
  readonly bootId: string;
  readonly prevBootId: string;
  readonly kubeletPid: number;
  readonly containerdPid: number;
  readonly events: K8sEvent[] = [];
  readonly successes: TruthMilestone[] = [];
  readonly milestones: TruthMilestone[] = [];
  readonly attempts: TruthAttempt[] = [];
  private readonly failuresByPod = new Map<PodSpec, number>();
  cs = 0;
  ks = 0;
  firstEntryUs = 0;

  constructor(readonly p: AgentBootParams) {
    this.r = createPrng(p.seed);
    this.node = p.node;
    const bootMs = Date.parse(p.bootAt);
    if (!Number.isFinite(bootMs)) throw new Error(`bootAt is not an ISO time: ${p.bootAt}`);
    this.t0Ms = Math.floor(bootMs / 1000) * 1000; // dmesg --ctime prints whole seconds
    this.T0 = this.t0Ms * MS;
    this.bootId = this.r.hex(32);
    this.prevBootId = this.r.hex(32);
    this.kubeletPid = this.r.int(2000, 3200);
    this.containerdPid = this.r.int(1500, 1999);
  }

  ns = () => this.r.int(0, 999);
  /** journal envelope: journald receives the line 0.1 to 2 ms after the component stamped it */
  kubeletLine = (us: number, text: string, pid = this.kubeletPid) =>
    this.files.add(KUBELET, us, journalShort(us + this.r.int(100, 2000), this.node, "kubelet", pid, text));
  containerdLine = (us: number, text: string, pid = this.containerdPid) =>
    this.files.add(CONTAINERD, us, journalShort(us + this.r.int(100, 2000), this.node, "containerd", pid, text));
  systemdLine = (path: string, us: number, text: string) => this.files.add(path, us, journalShort(us, this.node, "systemd", 1, text));
  metadata = (pod: PodSpec, attempt: number) => `&PodSandboxMetadata{Name:${pod.name},Uid:${pod.uid},Namespace:${pod.ns},Attempt:${attempt},}`;
  eventMs = (us: number) => Math.floor((floorMs(us) + this.p.eventsSkewS * 1000) / 1000) * 1000;
  pod = (ns: string, name: string, hostNetwork = false): PodSpec => ({ ns, name, uid: this.r.uuid(), hostNetwork });

  /** The previous boot's last records, the separators, the kernel, containerd and the kubelet starting. */
  start(): void {
    const { r, T0 } = this;
    const prevK = r.int(2000, 3200);
    const prevC = r.int(1500, 1999);
    // the previous boot's last busy minutes (both journals cover them, so they read as one boot)
    const prevPod = `coredns-787cb67946-${r.suffix(5)}`;
    const us1 = T0 - 1705 * S - r.int(0, S);
    this.containerdLine(
      us1,
      logrus(
        us1,
        this.ns(),
        "info",
        `RunPodSandbox for &PodSandboxMetadata{Name:${prevPod},Uid:${r.uuid()},Namespace:kube-system,Attempt:0,} returns sandbox id ${goQuote(r.hex(64))}`,
      ),
      prevC,
    );
    const prevAt = T0 - 1520 * S + r.int(0, S);
    this.kubeletLine(
      prevAt,
      klog("I", prevAt, prevK, "kubelet.go:2458", "SyncLoop (PLEG): event for pod", [
        ["pod", `kube-system/${prevPod}`],
        ["event", { raw: `{"ID":"${r.uuid()}","Type":"ContainerStarted","Data":"${r.hex(64)}"}` }],
      ]),
      prevK,
    );
    const stopK = T0 - 38 * S - r.int(0, 500_000);
    this.systemdLine(KUBELET, stopK, "Stopping kubelet.service - kubelet: The Kubernetes Node Agent...");
    this.kubeletLine(
      stopK + 170 * MS,
      klog("I", stopK + 170 * MS, prevK, "dynamic_cafile_content.go:174", "Shutting down controller", [
        ["name", "client-ca-bundle::/etc/kubernetes/pki/ca.crt"],
      ]),
      prevK,
    );
    this.systemdLine(KUBELET, stopK + 400 * MS, "kubelet.service: Deactivated successfully.");
    this.systemdLine(KUBELET, stopK + 401 * MS, "Stopped kubelet.service - kubelet: The Kubernetes Node Agent.");
    const stopC = stopK + 2 * S;
    this.systemdLine(CONTAINERD, stopC, "Stopping containerd.service - containerd container runtime...");
    this.containerdLine(stopC + 20 * MS, logrus(stopC + 20 * MS, this.ns(), "info", "Stop CRI service"), prevC);
    this.systemdLine(CONTAINERD, stopC + 300 * MS, "containerd.service: Deactivated successfully.");
    this.systemdLine(CONTAINERD, stopC + 301 * MS, "Stopped containerd.service - containerd container runtime.");
    this.files.add(KUBELET, T0, journalBootSeparator(this.bootId));
    this.files.add(CONTAINERD, T0, journalBootSeparator(this.bootId));

    this.files.add(
      DMESG,
      T0,
      dmesgCtime(
        T0,
        "Linux version 6.1.128-136.201.amzn2023.x86_64 (mockbuild@ip-10-0-54-52) (gcc (GCC) 11.4.1 20230605 (Red Hat 11.4.1-2), GNU ld version 2.39-6.amzn2023.0.10) #1 SMP PREEMPT_DYNAMIC Mon Feb 10 20:13:43 UTC 2025",
      ),
    );
    this.files.add(
      DMESG,
      T0 + 1,
      dmesgCtime(
        T0,
        `Command line: BOOT_IMAGE=(hd0,gpt1)/boot/vmlinuz-6.1.128-136.201.amzn2023.x86_64 root=UUID=${r.uuid()} ro console=tty0 console=ttyS0,115200n8 nvme_core.io_timeout=4294967295 rd.emergency=poweroff rd.shell=0 selinux=1 security=selinux quiet`,
      ),
    );
    const enaAt = T0 + r.int(1800, 2600) * MS;
    this.files.add(DMESG, enaAt, dmesgCtime(enaAt, "ena 0000:00:05.0: ENA device version: 0.10"));

    const cs = T0 + r.int(4000, 5500) * MS + r.int(0, 999);
    this.cs = cs;
    this.firstEntryUs = cs - 60 * MS;
    this.systemdLine(CONTAINERD, this.firstEntryUs, "Starting containerd.service - containerd container runtime...");
    this.containerdLine(
      cs,
      logrus(cs, this.ns(), "info", "starting containerd", [
        ["revision", r.hex(40)],
        ["version", "v1.7.27"],
      ]),
    );
    this.containerdLine(cs + 52 * MS, logrus(cs + 52 * MS, this.ns(), "info", "containerd successfully booted in 0.052186s"));
    this.systemdLine(CONTAINERD, cs + 53 * MS, "Started containerd.service - containerd container runtime.");
    const ks = cs + r.int(500, 1000) * MS + r.int(0, 999);
    this.ks = ks;
    this.systemdLine(KUBELET, ks - 100 * MS, "Started kubelet.service - kubelet: The Kubernetes Node Agent.");
    this.kubeletLine(ks, klog("I", ks, this.kubeletPid, "server.go:486", "Kubelet version", [["kubeletVersion", "v1.31.4"]]));
    this.kubeletLine(ks + 1300 * MS, klog("I", ks + 1300 * MS, this.kubeletPid, "kubelet.go:2321", "Starting kubelet main sync loop"));
    this.milestones.push({ atMs: floorMs(cs), label: "runtime started", success: false }, { atMs: floorMs(ks), label: "kubelet started", success: false });
    const nodeRef = { kind: "Node" as const, name: this.node, uid: this.node };
    this.events.push({
      reason: "Starting",
      type: "Normal",
      message: "Starting kubelet.",
      count: 1,
      firstMs: this.eventMs(ks + 500 * MS),
      lastMs: this.eventMs(ks + 500 * MS),
      involved: nodeRef,
    });
    const b = this.bootId;
    const dashed = `${b.slice(0, 8)}-${b.slice(8, 12)}-${b.slice(12, 16)}-${b.slice(16, 20)}-${b.slice(20)}`;
    this.events.push({
      reason: "Rebooted",
      type: "Warning",
      message: `Node ${this.node} has been rebooted, boot id: ${dashed}`,
      count: 1,
      firstMs: this.eventMs(ks + 1600 * MS),
      lastMs: this.eventMs(ks + 1600 * MS),
      involved: nodeRef,
    });
  }

  /** containerd's `RunPodSandbox for &PodSandboxMetadata{...}` at `at`. */
  runStarts(pod: PodSpec, at: number, attempt: number): void {
    this.containerdLine(at, logrus(at, this.ns(), "info", `RunPodSandbox for ${this.metadata(pod, attempt)}`));
  }

  /** A sandbox that succeeds: start at `at`, `returns sandbox id` `okAfterMs` later. Returns the success time (µs). */
  sandboxOk(pod: PodSpec, at: number, attempt: number, okAfterMs: number): number {
    this.runStarts(pod, at, attempt);
    const ok = at + okAfterMs * MS + this.r.int(0, 999);
    const id = this.r.hex(64);
    this.containerdLine(ok, logrus(ok, this.ns(), "info", `RunPodSandbox for ${this.metadata(pod, attempt)} returns sandbox id ${goQuote(id)}`));
    this.successes.push({ atMs: floorMs(ok), label: `sandbox created (${pod.ns}/${pod.name})`, success: true, pod: `${pod.ns}/${pod.name}` });
    const obs = ok + this.r.int(800, 2500) * MS;
    this.kubeletLine(
      obs,
      klog("I", obs, this.kubeletPid, "pod_startup_latency_tracker.go:104", "Observed pod startup duration", [
        ["pod", `${pod.ns}/${pod.name}`],
        ["podStartSLOduration", (this.r.int(2000, 9000) / 1000).toFixed(9)],
      ]),
    );
    return ok;
  }

  /**
   * One failed attempt (containerd 1.7 `sandbox_run.go`, kubelet 1.31): containerd's start
   * and `... failed, error` lines, the kubelet's four lines, a FailedCreatePodSandBox event
   * (the recorder combines the 11th and later similar events of a pod into one).
   * `pluginErr` is what follows `failed to setup network for sandbox "<id>": `.
   */
  failAttempt(pod: PodSpec, at: number, attempt: number, pluginErr: string): void {
    const { r } = this;
    const id = r.hex(64);
    this.runStarts(pod, at, attempt);
    const failed = at + r.int(25, 70) * MS + r.int(0, 999);
    const cErr = `failed to setup network for sandbox ${goQuote(id)}: ${pluginErr}`;
    this.containerdLine(failed, logrus(failed, this.ns(), "error", `RunPodSandbox for ${this.metadata(pod, attempt)} failed, error`, [["error", cErr]]));
    const rpcErr = `rpc error: code = Unknown desc = ${cErr}`;
    const podRef = `${pod.ns}/${pod.name}`;
    const k1 = failed + r.int(400, 1500);
    this.kubeletLine(k1, klog("E", k1, this.kubeletPid, "log.go:32", "RunPodSandbox from runtime service failed", [["err", rpcErr]]));
    const k2 = k1 + r.int(30, 90);
    this.kubeletLine(
      k2,
      klog("E", k2, this.kubeletPid, "kuberuntime_sandbox.go:72", "Failed to create sandbox for pod", [
        ["err", rpcErr],
        ["pod", podRef],
      ]),
    );
    const k3 = k2 + r.int(20, 50);
    this.kubeletLine(
      k3,
      klog("E", k3, this.kubeletPid, "kuberuntime_manager.go:1170", "CreatePodSandbox for pod failed", [
        ["err", rpcErr],
        ["pod", podRef],
      ]),
    );
    const k4 = k3 + r.int(30, 90);
    const who = `${pod.name}_${pod.ns}(${pod.uid})`;
    const syncErr = `failed to "CreatePodSandbox" for ${goQuote(who)} with CreatePodSandboxError: ${goQuote(`Failed to create sandbox for pod ${goQuote(who)}: ${rpcErr}`)}`;
    this.kubeletLine(
      k4,
      klog("E", k4, this.kubeletPid, "pod_workers.go:1301", "Error syncing pod, skipping", [
        ["err", syncErr],
        ["pod", podRef],
        ["podUID", pod.uid],
      ]),
    );
    this.attempts.push({ pod: podRef, sandboxId: id, failedAtMs: floorMs(failed) });
    const n = (this.failuresByPod.get(pod) ?? 0) + 1;
    this.failuresByPod.set(pod, n);
    const msg = `Failed to create pod sandbox: ${rpcErr}`;
    const involved = { kind: "Pod" as const, name: pod.name, namespace: pod.ns, uid: pod.uid };
    if (n <= 10) {
      this.events.push({
        reason: "FailedCreatePodSandBox",
        type: "Warning",
        message: msg,
        count: 1,
        firstMs: this.eventMs(k2),
        lastMs: this.eventMs(k2),
        involved,
      });
    } else {
      const combined = this.events.find((e) => e.reason === "FailedCreatePodSandBox" && e.involved.uid === pod.uid && e.message.startsWith("(combined"));
      if (combined) {
        combined.count++;
        combined.lastMs = this.eventMs(k2);
        combined.message = `(combined from similar events): ${msg}`;
      } else
        this.events.push({
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          message: `(combined from similar events): ${msg}`,
          count: 1,
          firstMs: this.eventMs(k2),
          lastMs: this.eventMs(k2),
          involved,
        });
    }
  }

  /** A kubelet housekeeping line `afterUs` after `lastUs`, so the kubelet's log covers the events; returns its time. */
  tail(lastUs: number, pod: PodSpec): number {
    const tailAt = lastUs + this.r.int(30, 60) * S;
    this.kubeletLine(
      tailAt,
      klog(
        "I",
        tailAt,
        this.kubeletPid,
        "kubelet_getters.go:218",
        "Pod status is inconsistent with cached status for pod, a reconciliation should be triggered",
        [["pod", `${pod.ns}/${pod.name}`]],
      ),
    );
    return tailAt;
  }

  /** The files (in collector order, then `extra` paths, then events.json) and the truth's common part. */
  finish(
    scenario: string,
    params: Record<string, unknown>,
    tailAt: number,
    order: string[],
    errorClass: string,
  ): { files: ScenarioFile[]; truth: ScenarioTruth } {
    const collectedMs = Math.ceil((floorMs(tailAt) + 15 * 60_000) / 60_000) * 60_000;
    const windows = expectedWindows(this.attempts, [...this.milestones, ...this.successes], this.t0Ms, errorClass);
    const d = new Date(collectedMs);
    const p2 = (n: number) => String(n).padStart(2, "0");
    const stamp = `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}_${p2(d.getUTCHours())}${p2(d.getUTCMinutes())}`;
    const sec3 = (us: number) => (floorMs(us) - this.t0Ms) / 1000;
    const truth: ScenarioTruth = {
      scenario,
      params,
      node: this.node,
      bootKey: this.bootId,
      previousBootId: this.prevBootId,
      t0Ms: this.t0Ms,
      t0: new Date(this.t0Ms).toISOString(),
      firstJournalEntryMs: Math.floor(this.firstEntryUs / S) * 1000,
      collectedMs,
      archiveName: `eks_i-0${createPrng(this.p.seed + 7).hex(16)}_${stamp}-UTC_0.7.9.tar.gz`,
      windows,
      window: windows[0] ?? null,
      attemptsDetail: this.attempts,
      milestonesS: { containerdStarted: sec3(this.cs), kubeletStarted: sec3(this.ks) },
      boots: [{ bootKey: this.bootId, t0Ms: this.t0Ms, windows }],
      detectors: {
        retryStorm: expectedRetryStorm(this.attempts, [...this.milestones, ...this.successes], windows, this.t0Ms),
        conflistLoops: [],
        deadlocks: [],
        degradation: null,
      },
    };
    const files = [
      ...this.files.render([DMESG, KUBELET, CONTAINERD, ...order]),
      { path: "kubectl/events.json", content: renderEventList(this.events, this.node, collectedMs, this.r) },
    ];
    return { files, truth };
  }
}

// ---------------------------------------------------------------------------------------------
// pattern 1: istio-cni kubeconfig deadlock

/** Parameters of the istio-cni bootstrap deadlock (pattern 1). */
export interface IstioDeadlockParams extends AgentBootParams {
  /** pods besides the istio-cni agent that need a pod network (DaemonSets and coredns) */
  pods: number;
  /** kubelet retry interval per pod, s (±0.8 s jitter; DaemonSet pods retry about every 15 s) */
  retryIntervalS: number;
  /** how long the data runs after the first failure, s (the deadlock never closes) */
  durationS: number;
  /** "deadlock": the agent pod fails like every other pod; "slow-start": it gets a sandbox after `agentFailures` failures and writes the kubeconfig */
  mode: "deadlock" | "slow-start";
  /** slow-start: failures of the agent pod before it gets through */
  agentFailures: number;
}

/** Defaults: 12 pods retrying every 15 s, 5 minutes of data after the first failure. */
export const ISTIO_DEADLOCK_DEFAULTS: IstioDeadlockParams = {
  node: "ip-10-20-31-77.ec2.internal",
  pods: 12,
  retryIntervalS: 15,
  durationS: 300,
  mode: "deadlock",
  agentFailures: 2,
  eventsSkewS: 0,
  bootAt: "2026-04-02T07:42:00Z",
  seed: 1,
};

/** Where istio-cni (1.23+, sidecar mode) keeps the kubeconfig its plugin reads (tmpfs: gone after a reboot). */
export const ISTIO_KUBECONFIG = "/var/run/istio-cni/istio-cni-kubeconfig";
const ISTIO_ERR = `plugin type="istio-cni" name="istio-cni" failed (add): error loading kubeconfig: stat ${ISTIO_KUBECONFIG}: no such file or directory`;

/** Pattern 1: every pod, the istio-cni agent included, fails on the missing kubeconfig. */
export function generateIstioDeadlock(params: Partial<IstioDeadlockParams> = {}): Scenario {
  const p = { ...ISTIO_DEADLOCK_DEFAULTS, ...params };
  if (!(p.pods >= 0) || !(p.retryIntervalS > 0) || !(p.durationS > 0) || !(p.agentFailures >= 0))
    throw new Error("pods >= 0, retryIntervalS > 0, durationS > 0 and agentFailures >= 0 are required");
  if (p.mode !== "deadlock" && p.mode !== "slow-start") throw new Error(`mode must be "deadlock" or "slow-start", not ${JSON.stringify(p.mode)}`);
  const b = new NodeBoot(p);
  const { r } = b;
  b.start();
  const awsSfx = r.suffix(5);
  const AWS_NODE = `var_log/aws-node-${awsSfx}_kube-system_aws-node-${r.hex(64)}.log`;

  // host-network pods: kube-proxy and aws-node need no CNI
  const kubeProxy = b.pod("kube-system", `kube-proxy-${r.suffix(5)}`, true);
  const awsNode = b.pod("kube-system", `aws-node-${awsSfx}`, true);
  const hostStart = b.ks + r.int(400, 700) * MS;
  b.sandboxOk(kubeProxy, hostStart, 0, r.int(110, 180));
  b.sandboxOk(awsNode, hostStart + r.int(20, 60) * MS, 0, r.int(110, 180));
  const ipamd = hostStart + r.int(1500, 2500) * MS;
  const awsLine = (us: number, msg: string) =>
    b.files.add(
      AWS_NODE,
      us,
      criLine(us, b.ns(), "stdout", JSON.stringify({ level: "info", ts: new Date(floorMs(us)).toISOString(), caller: "entrypoint.sh", msg })),
    );
  awsLine(ipamd, "Validating IPAMD configuration");
  awsLine(ipamd + 900 * MS, "Copying config file... ");
  awsLine(ipamd + 1200 * MS, "Successfully copied CNI plugin binary and config file.");
  // the conflist (aws-cni with istio-cni chained) is on disk from before the reboot: the network is ready at once

  const agent = b.pod("istio-system", `istio-cni-node-${r.suffix(5)}`);
  const pods: PodSpec[] = [agent];
  for (let i = 0; i < p.pods; i++) {
    if (i === 0) {
      pods.push(b.pod("kube-system", `coredns-787cb67946-${r.suffix(5)}`));
      continue;
    }
    const [ns, ds] = DAEMONSETS[(i - 1) % DAEMONSETS.length];
    const base = i - 1 < DAEMONSETS.length ? ds : `${ds}-${Math.floor((i - 1) / DAEMONSETS.length) + 1}`;
    pods.push(b.pod(ns, `${base}-${r.suffix(5)}`));
  }
  const firstAt = b.ks + 1400 * MS + r.int(100, 600) * MS;
  // slow start: the agent gets through after its failures; the kubeconfig exists ~2 s after its sandbox
  let kubeconfigAt = Number.POSITIVE_INFINITY;
  const plans = pods.map((pod) => ({ pod, s: firstAt + r.int(50, 4000) * MS + r.int(0, 999), attempt: 0 }));
  const agentPlan = plans[0];
  if (p.mode === "slow-start") {
    for (let i = 0; i < p.agentFailures; i++) {
      b.failAttempt(agent, agentPlan.s, agentPlan.attempt++, ISTIO_ERR);
      agentPlan.s += Math.round((p.retryIntervalS + r.float(-0.8, 0.8)) * S);
    }
    const ok = b.sandboxOk(agent, agentPlan.s, agentPlan.attempt, r.int(900, 1600));
    kubeconfigAt = ok + r.int(1500, 2500) * MS;
  }
  const endAt = firstAt + Math.round(p.durationS * S);
  for (const plan of plans) {
    if (p.mode === "slow-start" && plan === agentPlan) continue;
    while (plan.s < endAt) {
      if (plan.s >= kubeconfigAt) {
        b.sandboxOk(plan.pod, plan.s, plan.attempt, r.int(900, 1600));
        break;
      }
      b.failAttempt(plan.pod, plan.s, plan.attempt++, ISTIO_ERR);
      plan.s += Math.round((p.retryIntervalS + r.float(-0.8, 0.8)) * S);
    }
  }
  const lastUs = Math.max(...b.attempts.map((a) => a.failedAtMs * MS), ...b.successes.map((x) => x.atMs * MS));
  const tailAt = b.tail(lastUs, pods[1] ?? agent);
  const { files, truth } = b.finish("istio-deadlock", { ...p }, tailAt, [AWS_NODE], "istio-cni-kubeconfig-missing");
  if (p.mode === "deadlock") {
    const first = Math.min(...b.attempts.map((a) => a.failedAtMs));
    const deadlock: DeadlockTruth = {
      missingPath: ISTIO_KUBECONFIG,
      writerPod: `${agent.ns}/${agent.name}`,
      blockedPods: new Set(b.attempts.map((a) => a.pod)).size,
      sinceS: (first - b.t0Ms) / 1000,
      startMs: first,
    };
    truth.detectors.deadlocks = [deadlock];
  }
  return { name: "istio-deadlock", files, truth };
}

// ---------------------------------------------------------------------------------------------
// pattern 3: conflist rewrite loop

/** Parameters of the Cilium / istio-cni conflist rewrite loop (pattern 3). */
export interface ConflistLoopParams extends AgentBootParams {
  /** writes per second, both writers together (a real loop writes several times a second); at most 20 */
  rate: number;
  /** first to last write of the loop, s */
  durationS: number;
  /** the loop starts (the istio-cni agent's first write) this long after T+0, s; at least 25 (after Cilium's install-time write) */
  loopStartS: number;
  /**
   * "cri": Cilium's logrus text (no time key, Cilium <= 1.17's default) in its CRI log, timed by the CRI stamp;
   * "slog": Cilium >= 1.18's slog text in its CRI log (`time=… level=info source=… msg="Wrote CNI configuration file" module=agent.infra.cni-config destination=<path>`), its write lines only;
   * "plain": `kubectl logs` logrus text without any time (case 003)
   */
  ciliumLog: "cri" | "slog" | "plain";
  /** DaemonSet pods that get a sandbox after Cilium is up */
  pods: number;
}

/** Defaults: 4 writes/s for 60 s from T+30 s, Cilium's lines timed by CRI. */
export const CONFLIST_LOOP_DEFAULTS: ConflistLoopParams = {
  node: "ip-10-20-32-15.ec2.internal",
  rate: 4,
  durationS: 60,
  loopStartS: 30,
  ciliumLog: "cri",
  pods: 6,
  eventsSkewS: 0,
  bootAt: "2026-05-19T04:20:00Z",
  seed: 1,
};

/** The conflist as the agents print it (their `/host` mount of the node's root). */
const CONFLIST_IN_POD = "/host/etc/cni/net.d/05-cilium.conflist";

/** Pattern 3: Cilium (cni-exclusive) and istio-cni (chained) rewrite 05-cilium.conflist in turns. */
export function generateConflistLoop(params: Partial<ConflistLoopParams> = {}): Scenario {
  const p = { ...CONFLIST_LOOP_DEFAULTS, ...params };
  if (!(p.rate > 0 && p.rate <= 20) || !(p.durationS > 0) || !(p.loopStartS >= 25) || !(p.pods >= 0))
    throw new Error("0 < rate <= 20, durationS > 0, loopStartS >= 25 and pods >= 0 are required");
  if (p.ciliumLog !== "cri" && p.ciliumLog !== "slog" && p.ciliumLog !== "plain")
    throw new Error(`ciliumLog must be "cri", "slog" or "plain", not ${JSON.stringify(p.ciliumLog)}`);
  const b = new NodeBoot(p);
  const { r } = b;
  b.start();
  const ciliumSfx = r.suffix(5);
  const istioSfx = r.suffix(5);
  const CILIUM =
    p.ciliumLog !== "plain"
      ? `var_log/cilium-${ciliumSfx}_kube-system_cilium-agent-${r.hex(64)}.log`
      : `kubectl/logs/kube-system_cilium-${ciliumSfx}_cilium-agent.log`;
  const ISTIO = `var_log/istio-cni-node-${istioSfx}_istio-system_install-cni-${r.hex(64)}.log`;
  /** Cilium's logrus logfmt (no time key), in its CRI log or as plain text; in slog mode its write lines only, as slog prints them */
  const ciliumLine = (us: number, msg: string, subsys = "cni-config") => {
    let payload = `level=info msg=${goQuote(msg)} subsys=${subsys}`;
    if (p.ciliumLog === "slog") {
      const wrote = /^Wrote CNI configuration file to (\S+)$/.exec(msg);
      if (!wrote) return;
      const t = `${new Date(floorMs(us)).toISOString().slice(0, 19)}.${String(us % S).padStart(6, "0")}Z`;
      payload = `time=${t} level=info source=/go/src/github.com/cilium/cilium/daemon/cmd/cni/config.go:355 msg="Wrote CNI configuration file" module=agent.infra.cni-config destination=${wrote[1]}`;
    }
    b.files.add(CILIUM, us, p.ciliumLog === "plain" ? payload : criLine(us, b.ns(), "stderr", payload));
  };
  /** istio-cni zap console: `<RFC3339 µs>Z<TAB>info<TAB>[scope<TAB>]message`, in the CRI log of install-cni */
  const istioLine = (us: number, msg: string, scope: string | null = "cni-agent") => {
    const t = new Date(floorMs(us)).toISOString().replace(/\.\d{3}Z$/, "");
    const payload = `${t}.${String(us % S).padStart(6, "0")}Z\tinfo\t${scope === null ? "" : `${scope}\t`}${msg}`;
    b.files.add(ISTIO, us, criLine(us + 50, b.ns(), "stdout", payload)); // the CRI logger stamps the line 50 µs after the agent
  };

  // host-network pods: kube-proxy, Cilium, the istio-cni agent
  const kubeProxy = b.pod("kube-system", `kube-proxy-${r.suffix(5)}`, true);
  const cilium = b.pod("kube-system", `cilium-${ciliumSfx}`, true);
  const istio = b.pod("istio-system", `istio-cni-node-${istioSfx}`, true);
  const hostStart = b.ks + r.int(400, 700) * MS;
  b.sandboxOk(kubeProxy, hostStart, 0, r.int(110, 180));
  b.sandboxOk(cilium, hostStart + r.int(20, 60) * MS, 0, r.int(110, 180));
  const ciliumUp = hostStart + r.int(1500, 2500) * MS;
  ciliumLine(ciliumUp, "Generating CNI configuration file with mode none");
  const cfgAt = ciliumUp + r.int(5, 20) * MS;
  ciliumLine(cfgAt, `Wrote CNI configuration file to ${CONFLIST_IN_POD}`);
  if (p.loopStartS * S < cfgAt - b.T0 + 12 * S) throw new Error("loopStartS must leave more than 10 s after Cilium's install-time write");
  // DaemonSet pods get sandboxes once Cilium is up
  const podsList: PodSpec[] = [];
  for (let i = 0; i < p.pods; i++) {
    const [ns, ds] = DAEMONSETS[i % DAEMONSETS.length];
    const pod = b.pod(ns, `${ds}-${r.suffix(5)}`);
    podsList.push(pod);
    b.sandboxOk(pod, cfgAt + r.int(300, 4000) * MS, 0, r.int(300, 900));
  }

  // the loop: istio-cni first (its start), then Cilium restoring its file, in turns
  const L = b.T0 + Math.round(p.loopStartS * S);
  const agentStart = L - r.int(400, 800) * MS;
  b.sandboxOk(istio, agentStart - r.int(2000, 3000) * MS, 0, r.int(110, 180));
  istioLine(agentStart, `CNI config file ${CONFLIST_IN_POD} exists. Proceeding.`);
  istioLine(agentStart + 40 * MS, `wrote kubeconfig file /var/run/istio-cni/istio-cni-kubeconfig with: `);
  for (const yaml of ["apiVersion: v1", "clusters:", "- cluster:", "    certificate-authority: REDACTED", "    server: https://172.20.0.1:443"])
    istioLine(agentStart + 41 * MS, yaml, null);
  const spacing = S / p.rate;
  const n = Math.floor(p.rate * p.durationS + 1e-9) + 1;
  const writes: Array<{ atMs: number; writer: string }> = [];
  for (let i = 0; i < n; i++) {
    const t = L + Math.round(i * spacing + (i > 0 && i < n - 1 ? r.float(-0.1, 0.1) * spacing : 0));
    if (i % 2 === 0) {
      istioLine(
        t - r.int(8, 12) * MS,
        `configuration requires updates, (re)writing CNI config file at ${JSON.stringify(CONFLIST_IN_POD)}: istio-cni CNI config removed from CNI config file: ${CONFLIST_IN_POD}`,
      );
      istioLine(t, `created CNI config ${CONFLIST_IN_POD}`);
      istioLine(t + 90, "Istio CNI configuration and binaries validated/reinstalled");
      istioLine(t + r.int(6, 8) * MS, `file modified: /host/etc/cni/net.d/.05-cilium.conflist${r.int(1_000_000_000, 4_294_967_295)}`, null);
      if (i < n - 1) istioLine(t + r.int(9, 11) * MS, "detected changes to the node-level CNI setup, checking to see if configs or binaries need redeploying");
      if (spacing >= 100 * MS) istioLine(t + r.int(40, 60) * MS, "Copied istio-cni to /host/opt/cni/bin");
      writes.push({ atMs: floorMs(t), writer: "istio-cni" });
    } else {
      const k = r.int(1, 3);
      for (let j = 0; j < k; j++) ciliumLine(t - (30 - j * 5) * MS, "Activity in /host/etc/cni/net.d/, re-generating CNI configuration");
      ciliumLine(t - r.int(3, 6) * MS, "Generating CNI configuration file with mode none");
      ciliumLine(t, `Wrote CNI configuration file to ${CONFLIST_IN_POD}`);
      if (p.ciliumLog !== "plain") writes.push({ atMs: floorMs(t), writer: "cilium" });
    }
  }
  const lastWrite = L + Math.round((n - 1) * spacing);
  // the agent burns CPU and fails readiness while the loop lasts
  const probeFirst = b.eventMs(L + 5 * S);
  const probeLast = b.eventMs(lastWrite);
  if (probeLast > probeFirst)
    b.events.push({
      reason: "Unhealthy",
      type: "Warning",
      message: "Readiness probe failed: HTTP probe failed with statuscode: 503",
      count: Math.max(1, Math.floor((probeLast - probeFirst) / 10_000) + 1),
      firstMs: probeFirst,
      lastMs: probeLast,
      involved: { kind: "Pod", name: istio.name, namespace: istio.ns, uid: istio.uid },
    });
  const tailAt = b.tail(Math.max(lastWrite, ...b.successes.map((x) => x.atMs * MS)), podsList[0] ?? kubeProxy);
  const { files, truth } = b.finish("conflist-loop", { ...p }, tailAt, [ISTIO, CILIUM], "none");
  const loop: ConflistLoopTruth = expectedLoop("/etc/cni/net.d/05-cilium.conflist", writes, floorMs(tailAt));
  truth.detectors.conflistLoops = [loop];
  truth.milestonesS = { ...truth.milestonesS, cniConfigWritten: (floorMs(cfgAt) - b.t0Ms) / 1000 };
  return { name: "conflist-loop", files, truth };
}
