/**
 * The table of config-file writes (lib/normalise/config-writes.ts reads records with it): one rule
 * per way a CNI agent or a watch logs a write of a CNI config file, each with its source and its
 * sample lines, and the neighbouring lines no rule may take. Pure data; its shapes are here too.
 */

/**
 * What a line says happened to the file:
 * - `write`: an agent wrote it;
 * - `announce`: an agent is about to write it (its completion, within the detector's `pairMs`, is the same write; alone it counts as one);
 * - `remove`: an agent removed it, or its entry from it (a write that removes);
 * - `observed`: a write seen by a watch, without its writer;
 * - `observed-part`: part of a write a watch sees (CREATE, MODIFY), ended by an `observed` line when the watch reports those.
 */
export type ConfigWriteRole = "write" | "announce" | "remove" | "observed" | "observed-part";

/** One line's write of a config file. */
export interface ConfigWrite {
  /** the rule that matched (`ConfigWriteRule.name`) */
  rule: string;
  /** the agent that wrote (`cilium`, `istio-cni`, `linkerd-cni`, `multus`, `calico`); null when a watch saw the write */
  writer: string | null;
  /** host path (no `/host` prefix); null when the line names none (a slog line cut before its `destination`) */
  path: string | null;
  role: ConfigWriteRole;
}

/** What a rule reads of a record: a subset of `ParsedRecord` / `BootEvent`. */
export interface ConfigWriteInput {
  component: string;
  message: string;
  /** parsed fields (slog attributes); may be absent */
  fields?: Record<string, string> | null;
}

/** One way a writer logs a write. */
export interface ConfigWriteRule {
  /** unique, kebab-case */
  name: string;
  /** the agent; null for a watch that sees writes without their writer */
  writer: string | null;
  /** the record's component (lower case) must match */
  components: RegExp;
  /** the message must match; a named group `path` (a path or a bare file name) when the text names the file */
  text: RegExp;
  /** fields holding the path when the text does not name it, first present wins */
  pathFields?: readonly string[];
  /** the path when neither text nor fields name it (the writer's fixed default) */
  defaultPath?: string;
  role: ConfigWriteRole;
  /** upstream code that prints it */
  source: string;
  /** records with what each must give (null: this rule, or any, must not take it) */
  samples: Array<{ component: string; message: string; fields?: Record<string, string>; expect: Omit<ConfigWrite, "rule"> }>;
}

const CILIUM = /^cilium(?:-agent)?$/;
const ISTIO = /^istio(?:-cni)?$/;
const LINKERD = /^linkerd-cni$/;
const MULTUS = /^multus$/;
const CALICO = /^(?:cni-)?calico(?:-node|-cni)?$/;
/** Calico's logutils caller before the message, when the parser left it (`cni-installer/<nil> <nil>: `) */
const CALICO_CALLER = String.raw`(?:(?:[\w.-]+\/)?(?:[\w.-]+\.go|<nil>) (?:\d+|<nil>): )?`;
const INOTIFY = /^inotifywait$/;
/** a config file: `.conflist`, `.conf` or `.json` (captured as `path`) */
const FILE = String.raw`(?<path>\/?(?:[\w.@+-]+\/)*[\w@+-][\w.@+-]*\.(?:conflist|conf|json))`;
/**
 * inotifywait's normalised line for events that include one of `events`; the file not dot-named.
 * An absolute watched directory is `dir`; a relative one (`inotifywait -m .`, `net.d/`) names no
 * place, so only the file name is kept and it lands in `DEFAULT_CNI_CONF_DIR`.
 */
const inotify = (events: string) =>
  new RegExp(String.raw`^(?:(?<dir>\/\S*\/)|[^/\s]\S*\/) (?:[A-Z_]+,)*(?:${events})(?:,[A-Z_]+)* (?<file>[^./\s][^/\s]*\.(?:conflist|conf|json))$`);

/** Every rule, in match order (the first whose component and text match a record takes it). */
export const CONFIG_WRITE_RULES: readonly ConfigWriteRule[] = [
  {
    name: "cilium-wrote",
    writer: "cilium",
    components: CILIUM,
    text: new RegExp(`^Wrote CNI configuration file(?: to ${FILE})?$`),
    pathFields: ["destination", "cniPath", "file-path", "path"],
    role: "write",
    source: "cilium daemon/cmd/cni/config.go setupCNIConfFile",
    samples: [
      {
        component: "cilium",
        message: "Wrote CNI configuration file to /host/etc/cni/net.d/05-cilium.conflist",
        expect: { writer: "cilium", path: "/etc/cni/net.d/05-cilium.conflist", role: "write" },
      },
      {
        component: "cilium",
        message: "Wrote CNI configuration file",
        fields: {
          source: "/go/src/github.com/cilium/cilium/daemon/cmd/cni/config.go:355",
          module: "agent.infra.cni-config",
          destination: "/host/etc/cni/net.d/05-cilium.conflist",
        },
        expect: { writer: "cilium", path: "/etc/cni/net.d/05-cilium.conflist", role: "write" },
      },
      {
        component: "cilium-agent",
        message: "Wrote CNI configuration file",
        fields: { module: "agent.infra.cni-config", "file-path": "/etc/cni/net.d/05-cilium.conflist" },
        expect: { writer: "cilium", path: "/etc/cni/net.d/05-cilium.conflist", role: "write" },
      },
    ],
  },
  {
    name: "cilium-removed",
    writer: "cilium",
    components: CILIUM,
    text: new RegExp(
      String.raw`^(?:Renaming non-Cilium CNI configuration file ${FILE} to \S+|Removing CNI configuration file ${FILE.replace("<path>", "<path2>")})$`,
    ),
    pathFields: ["file", "path"],
    role: "remove",
    source: "cilium daemon/cmd/cni/config.go cleanupOtherCNI",
    samples: [
      {
        component: "cilium",
        message: "Renaming non-Cilium CNI configuration file 00-multus.conf to 00-multus.conf.cilium_bak",
        expect: { writer: "cilium", path: "/etc/cni/net.d/00-multus.conf", role: "remove" },
      },
    ],
  },
  {
    name: "istio-announce",
    writer: "istio-cni",
    components: ISTIO,
    text: new RegExp(String.raw`^configuration requires updates, \(re\)writing CNI config file at "?${FILE}"?`),
    role: "announce",
    source: "istio cni/pkg/install/install.go",
    samples: [
      {
        component: "istio-cni",
        message:
          'configuration requires updates, (re)writing CNI config file at "/host/etc/cni/net.d/05-cilium.conflist": istio-cni CNI config removed from CNI config file: /host/etc/cni/net.d/05-cilium.conflist',
        expect: { writer: "istio-cni", path: "/etc/cni/net.d/05-cilium.conflist", role: "announce" },
      },
    ],
  },
  {
    name: "istio-created",
    writer: "istio-cni",
    components: ISTIO,
    text: new RegExp(`^[Cc]reated CNI config ${FILE}$`),
    role: "write",
    source: "istio cni/pkg/install/cniconfig.go",
    samples: [
      {
        component: "istio-cni",
        message: "created CNI config /host/etc/cni/net.d/05-cilium.conflist",
        expect: { writer: "istio-cni", path: "/etc/cni/net.d/05-cilium.conflist", role: "write" },
      },
      {
        component: "istio-cni",
        message: "Created CNI config 10-calico.conflist",
        expect: { writer: "istio-cni", path: "/etc/cni/net.d/10-calico.conflist", role: "write" },
      },
    ],
  },
  {
    name: "istio-removed",
    writer: "istio-cni",
    components: ISTIO,
    text: new RegExp(`^(?:[Rr]emoved CNI config|Removing Istio CNI config from CNI config file:?) ${FILE}$`),
    role: "remove",
    source: "istio cni/pkg/install/install.go cleanup",
    samples: [
      {
        component: "istio-cni",
        message: "removed CNI config /host/etc/cni/net.d/05-cilium.conflist",
        expect: { writer: "istio-cni", path: "/etc/cni/net.d/05-cilium.conflist", role: "remove" },
      },
    ],
  },
  {
    name: "linkerd-created",
    writer: "linkerd-cni",
    components: LINKERD,
    text: new RegExp(`^(?:Created CNI config|Wrote CNI config) ${FILE}$`),
    role: "write",
    source: "linkerd2-proxy-init cni-plugin/deployment/scripts/install-cni.sh install_cni_conf",
    samples: [
      {
        component: "linkerd-cni",
        message: "Created CNI config /host/etc/cni/net.d/05-cilium.conflist",
        expect: { writer: "linkerd-cni", path: "/etc/cni/net.d/05-cilium.conflist", role: "write" },
      },
    ],
  },
  {
    name: "linkerd-removed",
    writer: "linkerd-cni",
    components: LINKERD,
    text: new RegExp(`^Removing linkerd-cni config from ${FILE}$`),
    role: "remove",
    source: "linkerd2-proxy-init cni-plugin/deployment/scripts/install-cni.sh cleanup",
    samples: [
      {
        component: "linkerd-cni",
        message: "Removing linkerd-cni config from /host/etc/cni/net.d/10-calico.conflist",
        expect: { writer: "linkerd-cni", path: "/etc/cni/net.d/10-calico.conflist", role: "remove" },
      },
    ],
  },
  {
    name: "linkerd-detected",
    writer: null,
    components: LINKERD,
    text: new RegExp(String.raw`^Detected event: (?:CREATE|MOVED_TO|MODIFY|CLOSE_WRITE)\S* ${FILE}$`),
    role: "observed",
    source: "linkerd2-proxy-init cni-plugin/deployment/scripts/install-cni.sh sync",
    samples: [
      {
        component: "linkerd-cni",
        message: "Detected event: MODIFY /host/etc/cni/net.d/05-cilium.conflist",
        expect: { writer: null, path: "/etc/cni/net.d/05-cilium.conflist", role: "observed" },
      },
    ],
  },
  {
    name: "multus-created",
    writer: "multus",
    components: MULTUS,
    text: new RegExp(String.raw`^(?:Config file created @ ${FILE}|multus config file is created\.)$`),
    defaultPath: "/etc/cni/net.d/00-multus.conf",
    role: "write",
    source: "multus-cni images/entrypoint.sh; cmd/thin_entrypoint/main.go",
    samples: [
      {
        component: "multus",
        message: "Config file created @ /host/etc/cni/net.d/00-multus.conf",
        expect: { writer: "multus", path: "/etc/cni/net.d/00-multus.conf", role: "write" },
      },
      { component: "multus", message: "multus config file is created.", expect: { writer: "multus", path: "/etc/cni/net.d/00-multus.conf", role: "write" } },
    ],
  },
  {
    name: "calico-created",
    writer: "calico",
    components: CALICO,
    text: new RegExp(`^${CALICO_CALLER}(?:Created CNI config|Wrote CNI config(?: to)?|Created) ${FILE}$`),
    role: "write",
    source: "calico cni-plugin/pkg/install/install.go; k8s-install/scripts/install-cni.sh",
    samples: [
      {
        component: "cni-calico",
        message: "Created /host/etc/cni/net.d/10-calico.conflist",
        expect: { writer: "calico", path: "/etc/cni/net.d/10-calico.conflist", role: "write" },
      },
      {
        component: "calico",
        message: "Created CNI config 10-calico.conflist",
        expect: { writer: "calico", path: "/etc/cni/net.d/10-calico.conflist", role: "write" },
      },
      {
        component: "cni-calico",
        message: "cni-installer/<nil> <nil>: Created /host/etc/cni/net.d/10-calico.conflist",
        expect: { writer: "calico", path: "/etc/cni/net.d/10-calico.conflist", role: "write" },
      },
    ],
  },
  {
    name: "calico-removed",
    writer: "calico",
    components: CALICO,
    text: new RegExp(`^${CALICO_CALLER}Removing ${FILE}$`),
    role: "remove",
    source: "calico cni-plugin/pkg/install/install.go",
    samples: [
      {
        component: "cni-calico",
        message: "Removing /host/etc/cni/net.d/10-calico.conflist",
        expect: { writer: "calico", path: "/etc/cni/net.d/10-calico.conflist", role: "remove" },
      },
    ],
  },
  {
    name: "inotify-written",
    writer: null,
    components: INOTIFY,
    text: inotify("CLOSE_WRITE|MOVED_TO"),
    role: "observed",
    source: "inotify-tools inotifywait -m",
    samples: [
      {
        component: "inotifywait",
        message: "/etc/cni/net.d/ CLOSE_WRITE,CLOSE 05-cilium.conflist",
        expect: { writer: null, path: "/etc/cni/net.d/05-cilium.conflist", role: "observed" },
      },
      {
        component: "inotifywait",
        message: "/host/etc/cni/net.d/ MOVED_TO 05-cilium.conflist",
        expect: { writer: null, path: "/etc/cni/net.d/05-cilium.conflist", role: "observed" },
      },
      {
        component: "inotifywait",
        message: "./ CLOSE_WRITE,CLOSE 10-calico.conflist",
        expect: { writer: null, path: "/etc/cni/net.d/10-calico.conflist", role: "observed" },
      },
    ],
  },
  {
    name: "inotify-part",
    writer: null,
    components: INOTIFY,
    text: inotify("CREATE|MODIFY"),
    role: "observed-part",
    source: "inotify-tools inotifywait -m",
    samples: [
      {
        component: "inotifywait",
        message: "/etc/cni/net.d/ MODIFY 05-cilium.conflist",
        expect: { writer: null, path: "/etc/cni/net.d/05-cilium.conflist", role: "observed-part" },
      },
      {
        component: "inotifywait",
        message: "/etc/cni/net.d/ CREATE 00-multus.conf",
        expect: { writer: null, path: "/etc/cni/net.d/00-multus.conf", role: "observed-part" },
      },
    ],
  },
  {
    name: "inotify-removed",
    writer: null,
    components: INOTIFY,
    text: inotify("DELETE|MOVED_FROM"),
    role: "remove",
    source: "inotify-tools inotifywait -m",
    samples: [
      {
        component: "inotifywait",
        message: "/etc/cni/net.d/ DELETE 10-calico.conflist",
        expect: { writer: null, path: "/etc/cni/net.d/10-calico.conflist", role: "remove" },
      },
    ],
  },
];

/** Lines no rule may take (neighbouring texts of the same agents). */
export const NOT_CONFIG_WRITES: readonly ConfigWriteInput[] = [
  { component: "cilium", message: "Generating CNI configuration file with mode none" },
  { component: "cilium", message: "Activity in /host/etc/cni/net.d/, re-generating CNI configuration" },
  { component: "istio-cni", message: "wrote kubeconfig file /var/run/istio-cni/istio-cni-kubeconfig with: " },
  { component: "istio-cni", message: "file modified: /host/etc/cni/net.d/.05-cilium.conflist1234567890" },
  { component: "inotifywait", message: "/etc/cni/net.d/ CLOSE_WRITE,CLOSE .05-cilium.conflist1000" },
  { component: "inotifywait", message: "/etc/cni/net.d/ OPEN,ISDIR" },
  { component: "inotifywait", message: "/etc/cni/net.d/ CLOSE_NOWRITE,CLOSE 05-cilium.conflist" },
  { component: "multus", message: "Generating Multus configuration file using files in /host/etc/cni/net.d..." },
  { component: "linkerd-cni", message: "Wrote linkerd CNI binaries to /host/opt/cni/bin" },
  { component: "kubelet", message: "Created CNI config /etc/cni/net.d/05-cilium.conflist" },
];
