import { base } from "./helpers";
import type { CollectorGroup, CollectorSpec } from "./types";

/**
 * `talosctl support`: a zip with a folder per node (named as the node was given with `-n`, an
 * address or a name) and a `cluster` folder. Per node: `dmesg.log` (the kmsg stream, as
 * `talosctl dmesg` prints it without its node column), `<service>.log` per Talos service
 * (`machined`, `apid`, `containerd`, `cri`, `kubelet`, `etcd`, `udevd`, ...) and
 * `controller-runtime.log`, `kube-system/<container>.log` (`-exited.log` for a container no
 * longer running), and state that is not a log: `<service>.state`, `talosResources/<type>.yaml`,
 * `mounts`, `devices`, `io`, `processes`, `summary`, `dependencies.dot`. `cluster/` holds
 * `kubernetesResources/nodes.yaml` and `systemPods.yaml`.
 *
 * The node of a folder is the hostname its `talosResources/hostnamestatuses.net.talos.dev.yaml`
 * states (the Kubernetes node name), the folder's name an alias; without that file, the folder's
 * name.
 */
const STATE_FILE = /^(?:[^/]+\.state|mounts|devices|io|processes|summary|dependencies\.dot|talosResources\/[^/]+\.yaml)$/;
const TALOS_MARKER = /^[^/]+\/(?:controller-runtime\.log|machined\.log|dependencies\.dot|talosResources\/[^/]+\.yaml)$/;
const HOSTNAME_FILE = "talosResources/hostnamestatuses.net.talos.dev.yaml";

/** The hostname a HostnameStatus resource dump states (`spec:` then `hostname: <name>`), or null. */
export function talosHostname(yaml: string): string | null {
  return /^spec:\s*\n(?:[ \t]+.*\n)*?[ \t]+hostname: *["']?([A-Za-z0-9.-]+)["']?\s*$/m.exec(yaml)?.[1] ?? null;
}

function nodeFolders(g: CollectorGroup): Map<string, { node: string; aliases: string[] }> {
  const out = new Map<string, { node: string; aliases: string[] }>();
  for (const r of g.rel) {
    const folder = r.split("/")[0];
    if (!r.includes("/") || folder === "cluster" || out.has(folder)) continue;
    const k = g.find(`${folder}/${HOSTNAME_FILE}`);
    const host = k >= 0 ? talosHostname(g.text(k)) : null;
    out.set(folder, host && host !== folder ? { node: host, aliases: [folder] } : { node: folder, aliases: [] });
  }
  return out;
}

export const talosSupport: CollectorSpec = {
  name: "talos-support",
  title: "talosctl support",
  source: "siderolabs/talos pkg/cluster/support.go (GetNodeSupportBundle, GetKubernetesSupportBundle)",
  samples: [
    {
      archive: "support.zip",
      members: {
        "10.5.0.2/dmesg.log": "",
        "10.5.0.2/kubelet.log": "",
        "10.5.0.2/kubelet.state": "",
        "10.5.0.2/cri.log": "",
        "10.5.0.2/controller-runtime.log": "",
        "10.5.0.2/kube-system/kube-flannel.log": "",
        "10.5.0.2/kube-system/install-cni-exited.log": "",
        "10.5.0.2/talosResources/hostnamestatuses.net.talos.dev.yaml":
          'metadata:\n    namespace: network\n    type: HostnameStatuses.net.talos.dev\n    id: hostname\n    version: 2\n    phase: running\nspec:\n    hostname: talos-worker-1\n    domainname: ""\n',
        "10.5.0.2/summary": "",
        "10.5.0.3/dmesg.log": "",
        "10.5.0.3/machined.log": "",
        "cluster/kubernetesResources/nodes.yaml": "",
      },
      expect: {
        nodes: {
          "10.5.0.2/dmesg.log": "talos-worker-1",
          "10.5.0.2/kube-system/install-cni-exited.log": "talos-worker-1",
          "10.5.0.3/machined.log": "10.5.0.3",
          "cluster/kubernetesResources/nodes.yaml": null,
        },
        skipped: {
          "10.5.0.2/kubelet.state": "collector-state",
          "10.5.0.2/talosResources/hostnamestatuses.net.talos.dev.yaml": "collector-state",
          "10.5.0.2/summary": "collector-state",
          "cluster/kubernetesResources/nodes.yaml": "collector-state",
        },
      },
    },
  ],
  detect(g) {
    return g.rel.some((r) => TALOS_MARKER.test(r)) && g.rel.some((r) => /^[^/]+\/dmesg\.log$/.test(r));
  },
  describe(g) {
    const folders = nodeFolders(g);
    const out = base(g);
    g.rel.forEach((r, k) => {
      const [folder, ...rest] = r.split("/");
      const inFolder = rest.join("/");
      if (folder === "cluster") {
        if (/^kubernetesResources\/[^/]+\.yaml$/.test(inFolder)) out[k].skipReason = "collector-state";
        return;
      }
      const n = folders.get(folder);
      if (!n) return;
      out[k].node = n.node;
      if (n.aliases.length) out[k].aliases = n.aliases;
      if (STATE_FILE.test(inFolder)) out[k].skipReason = "collector-state";
    });
    return out;
  },
};
