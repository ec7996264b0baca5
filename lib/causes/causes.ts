/**
 * What a reviewer does next, per known cause: for every fixed error class slug
 * (lib/normalise/error-class.ts `ERROR_CLASS_SLUGS`) and for the two loops detectors find
 * without an error class (a CNI config file rewritten in turns, the runtime losing health),
 * what it means, the public bug reports and the fixes with the versions they shipped in, and
 * the remediation. Every reference is a public GitHub issue or pull request (or a vendor's
 * page) that states the mechanism; a fix names its version only where its release notes do.
 * Where no fix is public, the entry gives the mechanism and the remediation alone.
 *
 * Pure data and a lookup; `sig:` classes (signatures of unknown causes) have no entry.
 */
import type { ErrorClassSlug } from "@/lib/normalise/error-class";

/** A public source: a bug report, the change that fixed it, or a vendor's document. */
export interface CauseRef {
  /** `owner/repo#123` for GitHub, else a short title */
  label: string;
  url: string;
  /** `report` (the bug as users met it), `fix` (the change that fixed it), `docs` (a vendor's guidance) */
  kind: "report" | "fix" | "docs";
  /** what the source adds, in a few words; for a fix the versions that carry it when known */
  note: string;
}

/** One cause: what it means, where it was reported and fixed, and what to do. */
export interface Cause {
  /** the error class slug, or `conflist-rewrite-loop` / `runtime-degradation` for the detector-level causes */
  key: ErrorClassSlug | "conflist-rewrite-loop" | "runtime-degradation";
  /** a short name for people */
  title: string;
  /** what the failure means on the node, in plain words */
  meaning: string;
  /** what to change or check, most effective first */
  remediation: string[];
  refs: CauseRef[];
}

const gh = (repo: string, n: number, kind: CauseRef["kind"], note: string, pull = false): CauseRef => ({
  label: `${repo}#${n}`,
  url: `https://github.com/${repo}/${pull ? "pull" : "issues"}/${n}`,
  kind,
  note,
});

/** The table, one entry per fixed error class slug, then the detector-level causes. */
export const CAUSES: readonly Cause[] = [
  {
    key: "calico-nodename-missing",
    title: "Calico nodename not written yet",
    meaning:
      "The Calico CNI plugin refuses every ADD and DEL until calico-node has written /var/lib/calico/nodename. After a reboot install-cni puts the CNI config in place first, so the runtime accepts sandboxes while calico-node is still starting (datastore, node resource, IP pools); every pod scheduled in that gap fails and the kubelet retries it. The window closes when the file appears.",
    remediation: [
      "Find why calico-node was slow to write the nodename: its log before `Using node name`, datastore or API server reachability right after boot (kube-proxy not up yet delays its API calls).",
      "Keep the gap short: calico-node with a high priority class and no CPU limit at boot, and the API server reachable without kube-proxy.",
      "If the storm stalls the runtime (see runtime degradation), reduce DaemonSet pods that start on every boot, or start them after the node reports the network ready.",
      "`nodename_file_optional: true` in the Calico CNI config drops the check, at the cost of the plugin guessing the node name: only when the node name is fixed.",
    ],
    refs: [
      gh("projectcalico/cni-plugin", 480, "fix", "introduced the nodename file check and the `nodename_file_optional` opt-out", true),
      gh("projectcalico/calico", 13884, "report", "the plugin stats the file once, no retry: every boot has the window; open"),
      gh("projectcalico/node", 307, "report", "calico-node wrote the nodename only after an API call that waits up to 30 s for kube-proxy"),
      gh("projectcalico/calico", 6309, "report", "the same error on ADD and DEL while calico-node crash-loops"),
    ],
  },
  {
    key: "istio-cni-kubeconfig-missing",
    title: "istio-cni kubeconfig missing (bootstrap deadlock)",
    meaning:
      "The istio-cni plugin builds a Kubernetes client from /var/run/istio-cni/istio-cni-kubeconfig, which the istio-cni-node agent writes when it starts. After a hard reboot the file is gone (it lives under /var/run), and when the istio-cni-node pod itself needs a sandbox through the same plugin, nothing can write it: every pod on the node fails until someone intervenes.",
    remediation: [
      "Upgrade istio-cni: the plugin now lets the istio-cni-node pod through in sidecar mode as well as ambient (istio/istio#60721, in Istio 1.30.4).",
      "Until then, to unblock a node: restore the file (copy it from a healthy node) or remove istio-cni from the CNI config chain, let istio-cni-node start, then put it back.",
      "Give istio-cni-node `system-node-critical` priority so it is scheduled first after a reboot.",
    ],
    refs: [
      gh("istio/istio", 60668, "report", "node reboot: all pods fail CmdAdd on the missing kubeconfig, sidecar mode, Istio 1.28.2"),
      gh(
        "istio/istio",
        60721,
        "fix",
        "the check that skips the agent's own pod runs in sidecar mode too, not only ambient; in the Istio 1.30.4 release notes",
        true,
      ),
      {
        label: "Announcing Istio 1.30.4",
        url: "https://istio.io/latest/news/releases/1.30.x/announcing-1.30.4/",
        kind: "docs",
        note: "release notes: the agent pod no longer blocks on its own kubeconfig",
      },
      gh("istio/istio", 56972, "fix", "first guard for the agent's own pod (Istio-owned CNI config, ambient); backported to 1.27 in istio/istio#57297", true),
    ],
  },
  {
    key: "cni-config-uninitialized",
    title: "No CNI config yet",
    meaning:
      "The runtime found no network config in /etc/cni/net.d (or could not load it), so it reports NetworkPluginNotReady and refuses sandboxes that need a pod network. After a reboot this lasts until the CNI DaemonSet's install step writes its config; longer means that pod is not starting.",
    remediation: [
      "Check that the CNI DaemonSet pod (calico-node, cilium, aws-node, kube-flannel ...) was scheduled and its install container ran on this node.",
      "Check the config directory the runtime reads (containerd `conf_dir`, CRI-O `network_dir`) matches where the CNI writes, and that the file is readable.",
      "If the config is present and the runtime still says not initialized, restart the runtime to reload it.",
    ],
    refs: [
      gh("kubernetes/kubernetes", 43815, "report", "what the message means: no CNI provider installed or configured yet"),
      gh("containerd/containerd", 8419, "report", "config present but containerd still not ready until restarted"),
    ],
  },
  {
    key: "cni-plugin-not-found",
    title: "CNI plugin binary missing",
    meaning:
      "The CNI config names a plugin (`type`) whose binary is not in the runtime's CNI bin directory. Every sandbox fails until the binary is installed; a plugin chained in by another agent (istio-cni, portmap) whose install step has not run yet looks the same.",
    remediation: [
      "Compare the plugin types in the CNI config with the files in the bin directory (containerd `bin_dir`, usually /opt/cni/bin).",
      "Check the install container of the agent that owns the missing plugin ran on this node and copied its binary.",
    ],
    refs: [gh("istio/istio", 11676, "report", '`failed to find plugin "istio-cni" in path`: the chained plugin\'s binary not installed')],
  },
  {
    key: "cilium-agent-unreachable",
    title: "Cilium agent not answering",
    meaning:
      "The cilium-cni plugin cannot reach the Cilium agent's API socket (/var/run/cilium/cilium.sock), or the agent does not answer in time. After a reboot the agent is still starting (restoring endpoints, compiling BPF); later it means the agent is down or overloaded.",
    remediation: [
      "Check the cilium agent pod on this node: restarts, its log around the time of the failures, and how long it took to become ready.",
      "If failures continue after the agent is ready, look for API timeouts in its log (endpoint creation backlog).",
    ],
    refs: [
      gh("cilium/cilium", 33391, "report", "after reboot `unable to connect to Cilium agent ... cilium.sock: no such file or directory`"),
      gh("cilium/cilium", 25778, "report", "`Cilium API client timeout exceeded` after an agent restart"),
    ],
  },
  {
    key: "context-deadline-exceeded",
    title: "Deadline exceeded",
    meaning:
      "A call (the kubelet to the runtime, or the runtime to a CNI plugin or its agent) did not finish within its deadline. It names a consequence, not a cause: the runtime or the CNI agent was too slow or stuck.",
    remediation: [
      "Look at what the runtime and the CNI agent logged in the same seconds: a storm of failures, a restart, a slow datastore.",
      "If the runtime itself is slow (runtime degradation finding), treat that first.",
    ],
    refs: [],
  },
  {
    key: "netplugin-no-error-message",
    title: "Network plugin failed without a message",
    meaning: "The dockershim reported that the network plugin failed but gave no error text: the real cause is only in the CNI plugin's own log.",
    remediation: [
      "Read the CNI plugin's log on the node for the same seconds.",
      "dockershim was removed in Kubernetes 1.24: move the node to containerd or CRI-O.",
    ],
    refs: [],
  },
  {
    key: "ipam-exhausted",
    title: "No pod IP addresses left",
    meaning:
      "The IPAM plugin has no free address for the pod: the node's range is used up, often by addresses of pods that died without a CNI DEL (leaked after a hard reboot), or the cloud IPAM has no more IPs for the node.",
    remediation: [
      "Compare the addresses in use on the node with running pods; release leaked ones (host-local keeps them under /var/lib/cni/networks).",
      "For cloud IPAM (aws-vpc-cni, Azure CNI), check the node's IP capacity and the subnet's free addresses.",
    ],
    refs: [],
  },
  {
    key: "cni-connection-refused",
    title: "CNI endpoint refused the connection",
    meaning: "A CNI plugin or agent endpoint refused the connection: the agent behind it is not listening (not started yet, restarting, or crashed).",
    remediation: ["Find which agent owns the endpoint in the failure text and check that pod on the node."],
    refs: [],
  },
  {
    key: "runtime-unreachable",
    title: "Container runtime unreachable",
    meaning:
      "The kubelet could not talk to the container runtime's socket (containerd, CRI-O): it was restarting, had crashed, or was too stalled to accept calls. Sandbox failures in this state are a symptom of the runtime, not of the network.",
    remediation: [
      "Check the runtime's journal for a restart or a crash at that time, and the runtime degradation finding.",
      "If the runtime restarted under a storm of sandbox failures, treat the storm's cause first.",
    ],
    refs: [],
  },
  {
    key: "flannel-subnet-missing",
    title: "flannel subnet lease not written yet",
    meaning:
      "The flannel CNI plugin reads /run/flannel/subnet.env, which flanneld writes once it has its subnet lease. /run is empty after a reboot, so until flanneld starts every sandbox fails: the flannel twin of Calico's nodename race.",
    remediation: [
      "Check the kube-flannel pod on this node started and got its lease (its log, API server reachability).",
      "Give it a high priority class so it starts before the workload pods.",
    ],
    refs: [
      gh("kubernetes/kubernetes", 70202, "report", "after every reboot the file appears only after a minute or two"),
      gh("flannel-io/flannel", 2232, "report", "pods stuck creating on the missing subnet.env"),
    ],
  },
  {
    key: "cni-agent-unreachable",
    title: "CNI node agent not reachable",
    meaning:
      "The CNI plugin cannot reach its node agent (Antrea agent, kube-ovn daemon, aws-vpc-cni's ipamd): the agent pod is not running yet or is failing. Pods wait until it is up.",
    remediation: ["Check the CNI agent pod on the node: scheduled, ready, restarts, and its log for the same seconds."],
    refs: [],
  },
  {
    key: "weave-ipam-unreachable",
    title: "weave router not answering IPAM",
    meaning:
      "The weave CNI plugin asks the weave router on the node for an address over HTTP at 127.0.0.1:6784. The router runs in the weave-net pod; after a reboot, until that pod is up, every sandbox's ADD is refused and the kubelet retries it.",
    remediation: [
      "Check the weave-net pod on the node: started, ready, and its weave container's log for the same seconds (IPAM consensus, peers).",
      "Give weave-net a high priority class so it starts before the workload pods.",
    ],
    refs: [],
  },
  {
    key: "multus-daemon-unreachable",
    title: "Multus daemon not reachable (thick plugin)",
    meaning:
      "With thick Multus the multus-shim plugin on the host only forwards each CNI request to the multus daemon over /run/multus/multus.sock. While the daemon pod is down or still starting, every ADD is refused and pods wait for it.",
    remediation: [
      "Check the multus DaemonSet pod on the node: running, ready, restarts, and its log (it may be waiting for the default network's config).",
      "Give the multus pod a high priority class and resource requests so it is not evicted or starved at boot.",
    ],
    refs: [],
  },
  {
    key: "sandbox-image-invalid",
    title: "Pause (sandbox) image reference invalid",
    meaning:
      "The runtime cannot parse the sandbox (pause) image name it was told to use, so no sandbox can be created for any pod on the node: a quote or a stray character in the kubelet's `--pod-infra-container-image` or containerd's `sandbox_image`. It does not resolve by waiting.",
    remediation: [
      "Read the image name in the error (quotes and backslashes included) and fix the flag or config that sets it: the kubelet's `--pod-infra-container-image`, containerd's `sandbox_image`, CRI-O's `pause_image`.",
      "Restart the kubelet or the runtime after the change and check the image is present on the node (`crictl images`, `docker images`).",
    ],
    refs: [],
  },
  {
    key: "cni-api-unauthorized",
    title: "CNI plugin's API token refused",
    meaning:
      "The CNI plugin's credentials for the Kubernetes API were refused: its token expired or its service account was recreated, so the kubeconfig the agent wrote on the node no longer works.",
    remediation: [
      "Restart the CNI agent pod on the node so it writes fresh credentials.",
      "Check the agent refreshes its token (recent versions do) and upgrade if it does not.",
    ],
    refs: [],
  },
  {
    key: "sandbox-name-exists",
    title: "Stale sandbox holds the pod's name",
    meaning:
      "The runtime still has a sandbox named k8s_<pod>_<namespace>_<uid>_<attempt> from before a reboot or a runtime restart (its state was kept, its processes are gone), so it refuses the kubelet's RunPodSandbox for the same name. Static pods are hit first: their uid and attempt number do not change, so every retry asks for the same name.",
    remediation: [
      "Remove the stale sandbox on the node (`crictl pods --name <pod>`, then `crictl stopp` and `crictl rmp` with its id); the kubelet's next retry succeeds.",
      "Check that the runtime cleans its sandboxes on start after an unclean shutdown, and upgrade it when its release notes name this bug.",
    ],
    refs: [
      gh("cri-o/cri-o", 1742, "report", "CRI-O 1.11: after a node reboot every RunPodSandbox fails with `pod sandbox with name … already exists`"),
      gh("kubernetes/kubernetes", 126514, "report", "after a power loss the name `k8s_POD_etcd-…_0` is already in use by a sandbox"),
    ],
  },
  {
    key: "netns-gone",
    title: "Sandbox network namespace gone before the CNI ADD",
    meaning:
      "The CNI plugin was handed the network namespace of the sandbox's process (/proc/<pid>/ns/net or /var/run/netns/…), but that process had already exited: the sandbox died between its start and its network set-up. The plugin's error is a symptom; the cause is what killed the sandbox (the runtime restarting, an OOM kill, the pod deleted meanwhile).",
    remediation: [
      "Look at the runtime's log for the same sandbox id just before the failure: why its pause process exited.",
      "When it happens in bursts after a reboot or a runtime restart, check that the runtime is healthy first (see runtime degradation); the kubelet retries with a new sandbox.",
    ],
    refs: [gh("kubernetes/kubernetes", 72044, "report", '`Error adding network: failed to Statfs "/proc/…/ns/net"` during pod start-up')],
  },
  {
    key: "hns-endpoint-exists",
    title: "HNS endpoint already exists",
    meaning:
      "On a Windows node the Host Networking Service refused to create or attach the pod's endpoint because one of that name is already there: an endpoint left behind by a reboot, an HNS restart or an earlier failed ADD. The CNI plugin (Calico for Windows, Azure CNI, win-bridge/win-overlay) fails every retry until the stale endpoint goes.",
    remediation: [
      "List the node's HNS endpoints (`hnsdiag list endpoints`, `Get-HnsEndpoint`) and remove the ones no running pod owns.",
      "Check the CNI plugin's version: several released fixes make ADD reuse or replace an endpoint it finds.",
    ],
    refs: [
      gh("kubernetes/kubernetes", 72696, "report", "kubelet on Windows Server 1809: `hnsCall failed in Win32: The object already exists` on sandbox creation"),
      gh("projectcalico/calico", 4280, "report", "Calico for Windows: `This endpoint is already attached to the switch` on every ADD"),
    ],
  },
  {
    key: "hns-network-missing",
    title: "HNS network not there yet",
    meaning:
      "On a Windows node the Host Networking Service has no network for the pod's endpoint (`The network was not found`, `Element not found`). After a reboot the HNS network is recreated by the CNI agent or the node's start scripts; pods the kubelet starts before that fail, and keep failing if it is never recreated.",
    remediation: [
      "Check the node's HNS networks (`Get-HnsNetwork`): the one the CNI config names (Calico, `azure`, the flannel network) must exist.",
      "Start the kubelet only after the agent that creates the network (calico-node, the Azure CNI or flannel start scripts) has done so.",
    ],
    refs: [
      gh("Azure/azure-container-networking", 283, "report", "after a reboot pods start before HNS has the virtual network back"),
      gh("Azure/aks-engine", 853, "report", "`HNS failed with error : Element not found` on one Windows node"),
      gh("projectcalico/calico", 8219, "report", "Calico for Windows cannot find its HNS network"),
    ],
  },
  {
    key: "cni-pod-address-pending",
    title: "Pod address not given by the CNI controller yet",
    meaning:
      "An OVN-based CNI plugin (Kube-OVN, OVN-Kubernetes) sets up a pod only once its central controller (kube-ovn-controller, ovnkube-master / ovnkube-controller) has allocated the pod an address and written it into the pod's annotations. The plugin on the node waits for that annotation and gives up: the controller is down, behind on a backlog after a reboot, or failed on this pod (a logical switch port it could not add).",
    remediation: [
      "Read the controller's log for the pod's name at the failure's time: an error on the pod (annotation update refused, logical port add failed) or no mention at all (the controller is not processing).",
      "Check the controller pods are running and their connection to the OVN northbound database is up; restart them if they hang.",
      "For Kube-OVN, check the pod's subnet still has free addresses (`no available ip` is the IPAM exhausted).",
    ],
    refs: [
      gh("kubeovn/kube-ovn", 2186, "report", "`no address allocated to pod ... please see kube-ovn-controller logs` while the controller fails on the pod"),
      gh(
        "ovn-kubernetes/ovn-kubernetes",
        1523,
        "fix",
        "the controller posts its own event when adding the pod's logical port fails, the reason behind the annotation timeout",
        true,
      ),
    ],
  },
  {
    key: "truncated",
    title: "Cause cut off",
    meaning: "The failure's text ends where the cause would follow: the line was cut by the log pipeline or the collector, so the cause is not in the data.",
    remediation: ["Collect the same component's log again without line limits (journalctl, the container log file) to read the cause."],
    refs: [],
  },
  {
    key: "conflist-rewrite-loop",
    title: "CNI config rewritten in a loop",
    meaning:
      "Two agents own the same CNI config file: one (Cilium with `cni-exclusive`, the default) rewrites the file back to its own content, the other (istio-cni chained) adds itself again, and so on. While they fight, sandboxes can read a half-written or wrong config and the chained agent never becomes ready.",
    remediation: [
      "Set Cilium's `cni.exclusive: false` (ConfigMap key `cni-exclusive`) when another plugin is chained, as the Cilium and Istio guides say.",
      "Or let one agent own the file: Cilium's `cni.customConf` with a config that already chains istio-cni.",
      "Newer istio-cni detects the loop and slows it to one rewrite per second (istio/istio#52623), which limits the damage but does not end it.",
    ],
    refs: [
      gh("cilium/cilium", 26760, "report", "Cilium overwrites the config istio-cni appends to 05-cilium.conflist"),
      gh("cilium/cilium", 30614, "report", "the agents fight over 05-cilium.conflist; `cni.exclusive=false` ends it"),
      gh("istio/istio", 52623, "fix", "istio-cni detects the Cilium loop and limits it to one loop per second", true),
      {
        label: "Cilium: Istio integration",
        url: "https://docs.cilium.io/en/latest/network/servicemesh/istio/",
        kind: "docs",
        note: "`cni.exclusive: false` for Istio",
      },
    ],
  },
  {
    key: "runtime-degradation",
    title: "Container runtime degraded by the storm",
    meaning:
      "Each failed sandbox leaves a teardown (CNI DEL, shim cleanup) in the runtime. Under a long storm they pile up: stops time out, shim and event stream calls fail, and the kubelet's PLEG reports the runtime unhealthy. The node can stay unusable after the network cause is gone.",
    remediation: [
      "End the storm's cause first (the sandbox failure window's error class).",
      "If the runtime does not recover once sandboxes succeed again, reboot the node; restarting the runtime alone may not clear it.",
    ],
    refs: [gh("projectcalico/calico", 13884, "report", "blocked goroutines on the CNI DEL path under a boot storm of 50+ DaemonSet pods")],
  },
];

const BY_KEY = new Map(CAUSES.map((c) => [c.key as string, c]));

/** The entry for an error class slug or a detector-level cause key; null for `sig:` and unknown keys. */
export function causeOf(key: string | null | undefined): Cause | null {
  return key ? (BY_KEY.get(key) ?? null) : null;
}

/**
 * The cause a finding points at: its error class (`metrics.errorClass`), else the detector's own
 * cause (`conflist-rewrite-loop`, `runtime-degradation`), else for a bootstrap deadlock the class
 * its missing file belongs to. Null when none is known.
 */
export function causeOfFinding(f: { detector: string; metrics: Record<string, unknown> }): Cause | null {
  const cls = f.metrics.errorClass;
  if (typeof cls === "string") return causeOf(cls);
  if (f.detector === "conflist-rewrite-loop" || f.detector === "runtime-degradation") return causeOf(f.detector);
  if (f.detector === "cni-bootstrap-deadlock") {
    const path = String(f.metrics.missingPath ?? "");
    if (/istio-cni/.test(path)) return causeOf("istio-cni-kubeconfig-missing");
    if (/calico\/nodename/.test(path)) return causeOf("calico-nodename-missing");
    if (/flannel\/subnet\.env/.test(path)) return causeOf("flannel-subnet-missing");
  }
  return null;
}
