/**
 * The component vocabulary: every program whose lines bootline names, with its timeline lane,
 * the other names it goes by in logs (syslog identifiers, binary and pod names), the path hint
 * that names it in a bundle, and whether a file whose every record is its own takes it as file
 * kind. Data only, and the one place a component is declared: the classifier's lanes
 * (lib/normalise/classify.ts), the parsers' path rules and the file kinds read this table.
 *
 * Adding a program (a CNI plugin that writes klog, say): one entry here, its container name among
 * the aliases when that differs; then, if a format must tell its lines by path, its name in that
 * format's list of writers (klog's `KLOG_WRITERS`, lib/parse/klog.ts).
 */
import type { Lane } from "./lanes";

/** One component: a program bootline tells apart. */
export interface ComponentSpec {
  /** the name stored on events (`Event.component`) */
  name: string;
  lane: Lane;
  /**
   * other names of the same program in logs: syslog identifiers, binary, container and pod names.
   * A line written under one (a journal identifier, a CRI log's container) is stored as `name`.
   */
  aliases?: readonly string[];
  /** name prefixes that mean this program (`calico-felix` → `cni-calico`) */
  prefixes?: readonly string[];
  /** a bundle path naming the program, tested against the lower-cased path */
  path?: RegExp;
  /** a file whose records are all this component's gets it as its kind (SourceFile.kind) */
  fileKind?: true;
  /**
   * for a program whose plugin and node agent share one name: texts only the agent writes,
   * which put a line in the `cni-agent` lane instead of `lane`
   */
  agentText?: RegExp;
}

/**
 * Calico's node agent texts (projectcalico/calico `node/pkg/lifecycle/startup`, `cni-plugin/pkg/install`,
 * felix / confd / startup callers): the rest of a `calico` component's lines are its CNI plugin's.
 */
const CALICO_AGENT_TEXT =
  /^(?:Using node name:|Calico started successfully|Starting node |Created \/host\/etc\/cni\/net\.d\/|Removing \/host\/etc\/cni\/net\.d\/|Wrote Calico CNI binaries|Installed \/host\/opt\/cni\/bin|Done configuring CNI)|(?:^|\s)(?:startup|felix|confd|cni-installer|int_dataplane|calc_graph)\/\S/;

/** The table. Order matters only for prefixes: the first entry whose prefix matches wins. */
export const COMPONENTS: readonly ComponentSpec[] = [
  // Kubernetes events, however a source names them
  { name: "k8s-events", lane: "events", aliases: ["k8s-event", "event", "events"], fileKind: true },
  // the kubelet, the distributions that embed it, and crictl (the kubelet's CRI client, same texts)
  { name: "kubelet", lane: "kubelet", aliases: ["kubenswrapper", "hyperkube", "kubelite"], path: /kubelet/, fileKind: true },
  { name: "k3s", lane: "kubelet", path: /k3s|k3d/, fileKind: true },
  { name: "rke2", lane: "kubelet", path: /rke2/, fileKind: true },
  { name: "crictl", lane: "kubelet", path: /crictl/ },
  // container runtimes
  { name: "containerd", lane: "runtime", path: /containerd/, fileKind: true },
  { name: "crio", lane: "runtime", aliases: ["cri-o"], path: /crio|cri-o/, fileKind: true },
  { name: "docker", lane: "runtime", aliases: ["dockerd"], path: /docker/ },
  { name: "kata", lane: "runtime", aliases: ["kata-runtime", "kata-agent", "containerd-shim-kata-v2"], path: /kata/ },
  // the kernel and the init system
  { name: "kernel", lane: "kernel", aliases: ["dmesg", "journal"], fileKind: true },
  { name: "systemd", lane: "kernel", aliases: ["init"], prefixes: ["systemd-"] },
  // CNI plugins and their node agents
  { name: "calico-node", lane: "cni-agent" },
  {
    name: "cni-calico",
    lane: "cni-plugin",
    aliases: ["calico", "calico-ipam"],
    prefixes: ["calico"],
    path: /calico/,
    fileKind: true,
    agentText: CALICO_AGENT_TEXT,
  },
  { name: "istio-cni", lane: "cni-agent", aliases: ["istio"], path: /istio/, fileKind: true },
  { name: "ztunnel", lane: "cni-agent", fileKind: true },
  { name: "cilium", lane: "cni-agent", aliases: ["cilium-agent"], path: /cilium/, fileKind: true },
  { name: "cilium-cni", lane: "cni-plugin" },
  { name: "flannel", lane: "cni-agent", aliases: ["flanneld", "kube-flannel"], path: /flannel/, fileKind: true },
  { name: "aws-vpc-cni", lane: "cni-agent", aliases: ["aws-node", "aws-k8s-agent", "ipamd"], path: /aws-routed-eni|ipamd|aws-node|aws-cni/, fileKind: true },
  { name: "aws-cni", lane: "cni-plugin" },
  { name: "azure-cni", lane: "cni-plugin", fileKind: true },
  // kube-ovn's DaemonSet and Deployment containers (`kube-ovn-cni`'s container is `cni-server`)
  { name: "kube-ovn", lane: "cni-agent", aliases: ["cni-server", "kube-ovn-cni", "kube-ovn-controller", "kube-ovn-monitor"], path: /kube-ovn/, fileKind: true },
  // OVN and OVN-Kubernetes: ovn-controller / northd, and ovnkube's node and controller containers
  {
    name: "ovn",
    lane: "cni-agent",
    aliases: ["ovn-controller", "ovn-northd", "ovnkube-node", "ovnkube-controller", "ovnkube-master"],
    path: /ovn/,
    fileKind: true,
  },
  { name: "ovs", lane: "cni-agent", aliases: ["ovs-vswitchd", "ovsdb-server"], fileKind: true },
  { name: "weave", lane: "cni-agent", aliases: ["weave-npc"] },
  { name: "linkerd-cni", lane: "cni-agent", path: /linkerd/, fileKind: true },
  { name: "antrea", lane: "cni-agent", aliases: ["antrea-agent", "antrea-controller"], path: /antrea/, fileKind: true },
  { name: "kube-router", lane: "cni-agent", path: /kube-router/, fileKind: true },
  { name: "kindnet", lane: "cni-agent", aliases: ["kindnetd", "kindnet-cni"], path: /kindnet/, fileKind: true },
  { name: "multus", lane: "cni-plugin", aliases: ["kube-multus"], path: /multus/, fileKind: true },
  // any other CNI plugin binary (`cni-bridge`, `cni:portmap`)
  { name: "cni", lane: "cni-plugin", prefixes: ["cni-", "cni:"] },
  // programs with lines of their own but no lane of their own
  { name: "kube-proxy", lane: "other", path: /kube-?proxy/, fileKind: true },
  { name: "coredns", lane: "other", path: /coredns/ },
  { name: "nodeadm", lane: "other", path: /nodeadm/ },
];

const BY_NAME = new Map<string, ComponentSpec>();
for (const c of COMPONENTS) for (const n of [c.name, ...(c.aliases ?? [])]) BY_NAME.set(n, c);
const WITH_PREFIX = COMPONENTS.filter((c) => c.prefixes);

/** The entry whose name or alias is exactly `name` (lower-cased), or null: no prefixes. */
export function componentNamed(name: string | null | undefined): ComponentSpec | null {
  return name ? (BY_NAME.get(name.toLowerCase()) ?? null) : null;
}

/** The entry a component or syslog identifier names (its name, an alias or a prefix), or null. */
export function componentSpec(name: string | null | undefined): ComponentSpec | null {
  if (!name) return null;
  const n = name.toLowerCase();
  const exact = BY_NAME.get(n);
  if (exact) return exact;
  for (const c of WITH_PREFIX) if (c.prefixes!.some((p) => n.startsWith(p))) return c;
  return null;
}

/** Components a file can be typed as when all its records are theirs (SourceFile.kind). */
export const FILE_KIND_COMPONENTS: ReadonlySet<string> = new Set(COMPONENTS.filter((c) => c.fileKind).map((c) => c.name));

/**
 * The first of `writers` (component names, in the format's order of precedence) whose path
 * hint matches `path`, else null. Throws when a writer is not in the table (a registry error).
 */
export function componentFromPath(path: string | undefined, writers: readonly string[]): string | null {
  const p = (path ?? "").toLowerCase();
  for (const w of writers) {
    const spec = BY_NAME.get(w);
    if (!spec?.path) throw new Error(`component "${w}" has no path hint in lib/model/components.ts`);
    if (spec.path.test(p)) return spec.name;
  }
  return null;
}
