/**
 * Error classes (docs/definitions.md "Error class"): a fixed slug where the cause
 * is known, else `sig:<normalised message>` so that the same cause counts as one class
 * whatever ids, numbers and names the lines carry.
 *
 * Pure, no I/O.
 */
import { unescapeNested } from "./go-text";

/** The fixed slugs. */
export const ERROR_CLASS_SLUGS = [
  "calico-nodename-missing",
  "istio-cni-kubeconfig-missing",
  "cni-config-uninitialized",
  "cni-plugin-not-found",
  "cilium-agent-unreachable",
  "context-deadline-exceeded",
  "netplugin-no-error-message",
  "ipam-exhausted",
  "cni-connection-refused",
  "runtime-unreachable",
  "flannel-subnet-missing",
  "cni-agent-unreachable",
  "weave-ipam-unreachable",
  "multus-daemon-unreachable",
  "sandbox-image-invalid",
  "cni-api-unauthorized",
  "sandbox-name-exists",
  "netns-gone",
  "hns-endpoint-exists",
  "hns-network-missing",
  "cni-pod-address-pending",
  "truncated",
] as const;

/** One of the fixed error class slugs. */
export type ErrorClassSlug = (typeof ERROR_CLASS_SLUGS)[number];

/**
 * Known causes, most specific first (a text that names the cause and also a
 * consequence, such as a CNI failure reported as a deadline, takes the cause).
 * Sources of the texts:
 * - calico: projectcalico/calico cni-plugin/pkg/plugin/plugin.go cmdAdd/cmdDel
 *   (`%s: check that the calico/node container is running and has mounted /var/lib/calico/`
 *   around `stat /var/lib/calico/nodename`), cases 001, 044;
 * - istio-cni: the bootstrap deadlock of docs/detectors.md (`istio-cni-kubeconfig: no such file or directory`);
 * - cilium: cilium-cni `Unable to connect to Cilium daemon ... cilium.sock`, "Is the agent running?",
 *   `unable to create endpoint: Cilium API client timeout exceeded` (the agent up but not answering);
 * - cni-config-uninitialized: kubelet/containerd `NetworkPluginNotReady`,
 *   `cni plugin not initialized`, `cni config uninitialized`, `no networks found in
 *   /etc/cni/net.d` (case 009); Multus waiting for its default network's config file (`have you
 *   checked that your default network is ready? still waiting for readinessindicatorfile @ <file>`:
 *   k8snetworkplumbingwg/multus-cni `pkg/multus`, the primary CNI's agent not yet up);
 * - cni-plugin-not-found: libcni `failed to find plugin "x" in path [...]`;
 * - netplugin-no-error-message: dockershim `netplugin failed with no error message` (case 013);
 * - ipam: host-local `no IP addresses available in range set`, calico `ipam ... no
 *   more free affine blocks`, aws-vpc-cni `failed to assign an IP address` and ipamd's `no
 *   available IP addresses` (`IP/Prefix` since prefix delegation), Azure CNI `No available
 *   addresses`, Whereabouts `Could not allocate IP in range: ip: <first> / - <last> / range: …`
 *   (k8snetworkplumbingwg/whereabouts `pkg/allocate` `AssignmentError`: no free address left in
 *   the range; seen behind Multus in openshift/origin#26966);
 * - cni-agent-unreachable: a CNI plugin that cannot reach its node agent's socket (antrea
 *   `dial unix /var/run/antrea/cni.sock`, kube-ovn `kube-ovn-daemon.sock`, aws-vpc-cni's ipamd at
 *   `127.0.0.1:50051`); Cilium's has its own slug;
 * - weave-ipam-unreachable: the weave CNI plugin asking the weave router's IPAM on the node
 *   (`unable to allocate IP address: Post http://127.0.0.1:6784/ip/<id>: dial tcp 127.0.0.1:6784:
 *   connect: connection refused`: weaveworks/weave `plugin/net/cni.go`, the router's HTTP port 6784)
 *   before the weave pod is up, case 015;
 * - multus-daemon-unreachable: thick Multus's `multus-shim` plugin sending the CNI request to the
 *   multus daemon (`CmdAdd (shim): failed to send CNI request: Post "http://dummy/cni": dial unix
 *   /run/multus/multus.sock: connect: connection refused`: k8snetworkplumbingwg/multus-cni
 *   `pkg/server/api`), the daemon pod down or not started, case 074;
 * - sandbox-image-invalid: the pause (sandbox) image reference the runtime cannot parse
 *   (dockershim `failed to inspect sandbox image "…": … invalid reference format`, containerd
 *   `failed to get sandbox image "…"` / `failed to pull image` with the same words), a
 *   misquoted `--pod-infra-container-image` or `sandbox_image`, case 041;
 * - cni-api-unauthorized: the CNI plugin's Kubernetes API token refused (Calico `connection is
 *   unauthorized: Unauthorized` after its token expired or its service account was recreated);
 * - cni-pod-address-pending: an OVN-based CNI plugin waiting for its central controller to give the
 *   pod an address (Kube-OVN `request ip return 500 no address allocated to pod <ns>/<pod> provider
 *   ovn, please see kube-ovn-controller logs`: kubeovn/kube-ovn `pkg/daemon/handler.go`;
 *   OVN-Kubernetes `failed to get pod annotation: timed out waiting for annotations` /
 *   `... timed out waiting for the condition`: ovn-kubernetes `go-controller/pkg/cni`); Kube-OVN's
 *   `no available ip for pod` is its IPAM exhausted;
 * - flannel-subnet-missing: flannel's CNI plugin before flanneld wrote its lease
 *   (`open /run/flannel/subnet.env: no such file or directory`, `failed to load flannel 'subnet.env'
 *   file`: flannel-io/cni-plugin `flannel.go`), the flannel twin of Calico's nodename race;
 * - runtime-unreachable: the CRI socket of containerd / CRI-O / cri-dockerd closed or absent
 *   (`read unix @->/run/containerd/containerd.sock: read: connection reset by peer`, `error reading
 *   from server: EOF`, `dial unix /run/containerd/containerd.sock: connect: connection refused`, gRPC's
 *   `transport is closing` when the runtime restarts under a call), as the kubelet's CRI
 *   client reports it (kubernetes cri-client `remote_runtime.go`);
 * - sandbox-name-exists: the runtime still holds a sandbox of the name the kubelet asks for
 *   (`k8s_<pod>_<namespace>_<uid>_<attempt>`), left from before a reboot or a restart: CRI-O
 *   `pod sandbox with name "…" already exists` (cri-o/cri-o#1742), cri-dockerd / dockershim
 *   `Conflict. The name "k8s_POD_…" is already in use by sandbox <id>` (kubernetes/kubernetes#126514)
 *   and docker's `The container name "/k8s_POD_…" is already in use by container`; containerd's
 *   `failed to reserve sandbox name` (a call still in progress) is not this cause;
 * - netns-gone: a CNI plugin given a network namespace that no longer exists (the sandbox's
 *   process died before its ADD ran): containernetworking/plugins `ns.GetNS` `failed to Statfs
 *   "/proc/<pid>/ns/net": no such file or directory` (also `/var/run/netns/cni-…`, `failed to open
 *   netns "…"`; kubernetes/kubernetes#72044); a plugin's own thread namespace (`Failed to open
 *   current namespace`, `/proc/<pid>/task/<tid>/ns/net`) is not;
 * - hns-endpoint-exists / hns-network-missing: the Windows Host Networking Service refusing a CNI
 *   plugin's call, as hcsshim words it (`hcnCreateEndpoint failed in Win32: <text> (0x…)`,
 *   `hnsCall failed in Win32: <text>`, older `HNS failed with error : <text>`): an endpoint of that
 *   name already there or already attached (`The object already exists`, `This endpoint is already
 *   attached to the switch`: stale endpoints left by a reboot or an HNS restart), or the HNS
 *   network the plugin attaches to not there (`The network was not found`, `Element not found`,
 *   Calico's `Can not find HNS network`: the network is recreated by the CNI agent after a
 *   reboot, and pods scheduled before that fail); Calico for Windows, Azure CNI, win-bridge/win-overlay;
 * - deadline: gRPC `code = DeadlineExceeded desc = context deadline exceeded`.
 */
const RULES: Array<{ slug: ErrorClassSlug; re: RegExp }> = [
  {
    slug: "calico-nodename-missing",
    re: /stat \/var\/lib\/calico\/nodename|\/var\/lib\/calico\/nodename: no such file|check that the calico\/node container is running/i,
  },
  {
    slug: "istio-cni-kubeconfig-missing",
    re: /istio-cni-kubeconfig\b[^;]*?(?:no such file|not found|does not exist)|istio-cni[^;]*kubeconfig[^;]*(?:no such file|does not exist)/i,
  },
  {
    slug: "cilium-agent-unreachable",
    re: /unable to connect to cilium (?:daemon|agent)|cilium API client timeout exceeded|cilium\.sock[^;]*(?:no such file|connection refused|timeout)|Is the agent running\?/i,
  },
  {
    slug: "weave-ipam-unreachable",
    re: /127\.0\.0\.1:6784[^;]*?(?:connection refused|no such host|i\/o timeout|connection reset)|weave[^;]*unable to allocate IP address/i,
  },
  {
    slug: "multus-daemon-unreachable",
    re: /multus\.sock[^;]*?(?:connection refused|no such file or directory|i\/o timeout)|CmdAdd \(shim\): failed to send CNI request/i,
  },
  {
    slug: "sandbox-image-invalid",
    re: /(?:sandbox|pause)[^;]*?image[^;]*invalid reference format/i,
  },
  {
    slug: "cni-plugin-not-found",
    re: /failed to find plugin "?[^"\s]*"? in path|plugin type="?[^"\s]*"? not found|cni plugin [^\s]+ not found|exec: "[^"]*": executable file not found/i,
  },
  {
    // before the deadline: OVN-Kubernetes ends its annotation timeout with `context deadline exceeded`
    slug: "cni-pod-address-pending",
    re: /no address allocated to pod\b|failed to get pod annotation: timed out waiting for (?:annotations|the condition)/i,
  },
  {
    slug: "netns-gone",
    re: /^(?![\s\S]*open current namespace)[\s\S]*(?:failed to Statfs "?(?:\/proc\/\d+\/ns\/net|\/(?:var\/)?run\/netns\/[^"\s]+)"?: no such file or directory|failed to (?:open|get) netns "?(?:\/proc\/\d+\/ns\/net|\/(?:var\/)?run\/netns\/[^"\s]+)"?: [^;]*?no such file or directory)/i,
  },
  {
    slug: "sandbox-name-exists",
    re: /pod sandbox with name "?[^"\s]*"? already exists|The (?:container )?name "?\/?k8s_POD_[^"\s]*"? is already in use by (?:sandbox|container)/i,
  },
  {
    slug: "ipam-exhausted",
    re: /no available ip for pod\b|no IP addresses available|No available addresses|no available IP(?:\/Prefix)? addresses|no more free affine blocks|range set[^;]*exhausted|ipam[^;]*exhausted|failed to assign an IP address|failed to allocate (?:an? )?IP|InsufficientCidrBlocks|not enough IPs|Could not allocate IP in range/i,
  },
  {
    slug: "netplugin-no-error-message",
    re: /netplugin failed with no error message/i,
  },
  {
    slug: "cni-config-uninitialized",
    re: /NetworkPluginNotReady|cni plugin not initialized|cni config uninitialized|no networks found in \/etc\/cni\/net\.d|no network config found in|still waiting for readinessindicatorfile/i,
  },
  {
    slug: "cni-agent-unreachable",
    re: /(?:antrea\/cni\.sock|kube-ovn-daemon\.sock|kube-ovn\/cni-server\.sock|127\.0\.0\.1:50051)[^;]*?(?:no such file|connection refused|connect: |transientfailure)/i,
  },
  {
    slug: "cni-connection-refused",
    // a CNI plugin or agent endpoint refusing; the runtime's own socket refusing is runtime health, not a CNI cause
    re: /^(?![\s\S]*(?:containerd\.sock|crio\.sock|dockershim\.sock)[\s\S]*connection refused)[\s\S]*connect: connection refused/i,
  },
  {
    slug: "cni-api-unauthorized",
    re: /connection is unauthorized: Unauthorized|error getting ClusterInformation: [^;]*Unauthorized/i,
  },
  {
    slug: "flannel-subnet-missing",
    re: /\/run\/flannel\/subnet\.env: no such file|failed to load flannel 'subnet\.env' file/i,
  },
  {
    slug: "runtime-unreachable",
    // the socket named: gRPC's `Unavailable` alone is as likely a CNI plugin's call to its daemon (aws-vpc-cni to ipamd)
    re: /(?:containerd|crio|cri-dockerd|dockershim|docker)\.sock[^;]*?(?:connection refused|connection reset by peer|no such file or directory|broken pipe|EOF)|error reading from server: EOF|code = Unavailable desc = error reading from server: read unix|^(?![\s\S]*(?:AddNetwork|DelNetwork|ipamd))[\s\S]*code = Unavailable desc = transport is closing/i,
  },
  {
    slug: "hns-endpoint-exists",
    re: /(?:hcn\w*|hns\w*|HNS)\b[^;]{0,60}?failed (?:in Win32|with error)\s*:?\s*(?:The object already exists|This endpoint is already attached)/i,
  },
  {
    slug: "hns-network-missing",
    re: /(?:hcn\w*|hns\w*|HNS)\b[^;]{0,60}?failed (?:in Win32|with error)\s*:?\s*(?:The network was not found|Element not found)|(?:can ?not|unable to|failed to) (?:find|get) HNS network|HNS network [^\s;]+ not found/i,
  },
  {
    slug: "context-deadline-exceeded",
    re: /context deadline exceeded|code = DeadlineExceeded/i,
  },
];

/**
 * Tails that repeat the cause in another form and vary between lines of one cause (stripped before
 * a `sig:` is built): hcsshim's HNS result object `{"Success":false,"Error":"…","ErrorCode":N}`.
 */
const TAILS: RegExp[] = [/\s*\{\s*"Success"\s*:\s*false\b[^{}]*\}\s*$/];

/**
 * Wrapper prefixes of the error chains kubelet, containerd and dockershim print
 * around a cause (stripped, repeatedly, before a `sig:` is built).
 */
const WRAPPERS: RegExp[] = [
  /^\[/,
  /^\(combined from similar events\):\s*/i,
  /^failed to "\w+" for "[^"]*" with \w+:\s*/i,
  /^"/,
  /^Failed (?:to )?create (?:pod )?sandbox(?: for pod "[^"]*")?:\s*/i,
  /^rpc error: code = \w+ desc = /i,
  /^failed to (?:setup|set up) network for sandbox "[^"]*":\s*/i,
  /^failed to (?:destroy|teardown|tear down) network for sandbox "[^"]*":\s*/i,
  /^failed to set up sandbox container "[^"]*" network for pod "[^"]*":\s*/i,
  /^networkPlugin cni failed to (?:set up|teardown) pod "[^"]*" network:\s*/i,
  /^plugin type="[^"]*"(?: name="[^"]*")? failed \((?:add|delete|del|check)\):\s*/i,
  /^error (?:adding|deleting) pod \S+ (?:to|from) CNI network "[^"]*":\s*/i,
  /^Final result of CNI (?:ADD|DEL) was an error\.\s*(?:error=)?/i,
  // the kubelet's text messages before structured logging, around the runtime's error
  /^RunPodSandbox from runtime service failed:?\s*/i,
  /^CreatePodSandbox for pod "[^"]*" failed:?\s*/i,
  /^Error syncing pod [^,]*, skipping:\s*/i,
  /^Failed to setup network for pod "[^"]*" using network plugins "[^"]*":\s*/i,
  /^failed to "SetupNetwork" for "[^"]*" with SetupNetworkError:\s*/i,
  // dockershim and CRI-O around the CNI plugin's error
  /^Error (?:adding|while adding to cni) network:\s*/i,
  /^Error adding \S+ to network \S+:\s*/i,
  /^failed to create pod network sandbox \S+:\s*/i,
];

/** Texts that stop right where the cause would follow: the line was cut. */
const TRUNCATED_RE = /(?:desc =|failed \((?:add|delete)\):?|:|…|\.\.\.|\[truncated\]|\(truncated\)|<truncated>)\s*["\]\\]*$/i;

/** Options of `errorClassOf`. */
export interface ErrorClassOptions {
  /** longest `sig:` body kept, characters (default 120: enough to tell causes apart, short enough for a table cell) */
  maxSigChars?: number;
}

/**
 * Error class of a failure text: one of `ERROR_CLASS_SLUGS`, else
 * `sig:<normalised cause>`, or null for an empty text.
 *
 * The text may be raw (Go-quoted any number of levels deep, as klog prints nested
 * errors) or already unescaped. The `sig:` body is the cause after the usual wrappers
 * (`rpc error: code = X desc = `, `failed to setup network for sandbox "<id>": `,
 * `plugin type="x" failed (add): `, kubelet's `failed to "CreatePodSandbox" for ...`),
 * lower-cased, with ids (UUIDs, hex runs of 8+), numbers and quoted single-token
 * names replaced (`<id>`, `N`, `"*"`) and whitespace collapsed; at most
 * `maxSigChars` characters.
 */
export function errorClassOf(text: string | null | undefined, opts: ErrorClassOptions = {}): string | null {
  if (!text) return null;
  return errorClassOfUnescaped(unescapeNested(text), opts);
}

/**
 * `errorClassOf` of a text already unescaped (`unescapeNested(text)`, all levels): for a caller
 * that holds that text anyway (classify.ts unescapes every record's text once). Null for an empty
 * or blank text.
 */
export function errorClassOfUnescaped(unescaped: string, opts: ErrorClassOptions = {}): string | null {
  const t = unescaped.trim();
  if (!t) return null;
  for (const r of RULES) if (r.re.test(t)) return r.slug;
  let cause = stripWrappers(t);
  for (const re of TAILS) cause = cause.replace(re, "");
  if (!cause || TRUNCATED_RE.test(cause) || TRUNCATED_RE.test(t)) return "truncated";
  return "sig:" + normaliseSignature(cause, opts.maxSigChars ?? 120);
}

/** Strip the wrapper prefixes (see WRAPPERS) until none applies. */
export function stripWrappers(text: string): string {
  let s = text.trim();
  for (let guard = 0; guard < 32; guard++) {
    let changed = false;
    for (const re of WRAPPERS) {
      const next = s.replace(re, "");
      if (next !== s) {
        s = next.trim();
        changed = true;
      }
    }
    if (!changed) break;
  }
  // a closing quote or bracket left over from an outer wrapper (odd count) goes too
  for (;;) {
    const quotes = (s.match(/"/g) ?? []).length;
    const open = (s.match(/\[/g) ?? []).length;
    const close = (s.match(/\]/g) ?? []).length;
    if (s.endsWith('"') && quotes % 2 === 1) s = s.slice(0, -1).trimEnd();
    else if (s.endsWith("]") && close > open) s = s.slice(0, -1).trimEnd();
    else break;
  }
  return s;
}

/**
 * Normalise a cause into a stable signature body: ids, hex, numbers and quoted
 * names stripped, so that one cause counts as one class.
 */
export function normaliseSignature(cause: string, maxChars = 120): string {
  let s = cause
    .toLowerCase()
    .replace(/[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/gi, "<id>")
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, "<id>")
    .replace(/\b[0-9a-f]{16,}\b/gi, "<id>")
    // quoted single-token names: "kafka-0_default" -> "*"
    .replace(/"[^"\s]*"/g, '"*"')
    .replace(/\d+(?:\.\d+)*/g, "N")
    .replace(/\s+/g, " ")
    .trim();
  if (s.length > maxChars) s = s.slice(0, maxChars).trimEnd();
  return s;
}
