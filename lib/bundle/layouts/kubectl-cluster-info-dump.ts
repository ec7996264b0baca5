import { base } from "./helpers";
import type { CollectorGroup, CollectorSpec } from "./types";

/**
 * `kubectl cluster-info dump --output-directory=<dir>` (default namespaces `kube-system` and the
 * current one, `-A` for all): `nodes.json` at the top; per namespace `events.json`,
 * `replicationcontrollers.json`, `services.json`, `daemonsets.json`, `deployments.json`,
 * `replicasets.json`, `pods.json` (`.yaml` with `-o yaml`), and `<pod>/logs.txt` holding each of
 * the pod's containers' current log between `==== START logs for container <c> of pod <ns>/<pod>
 * ====` and `==== END …` (noise rule `kubectl-log-markers`). Collection scripts often add
 * `kubectl logs --previous` output as other `.txt` files in the pod's folder.
 *
 * It collects no node file: a pod's logs are on the node its `pods.json` entry names
 * (`spec.nodeName`; the YAML output is not read, its logs' node is then the records' to say), the
 * events name their nodes themselves, and the resource lists are skipped as `collector-state`.
 */
const RESOURCE_LIST = /^(?:nodes|[^/]+\/(?:replicationcontrollers|services|daemonsets|deployments|replicasets|pods))\.(?:json|yaml)$/;
const NAMESPACE_LIST = /^[^/]+\/(?:events|pods)\.(?:json|yaml)$/;
const POD_LOG = /^([^/]+)\/([^/]+)\/[^/]+\.txt$/;

/** Pod name → node name from one namespace's `pods.json` (a PodList); empty when it does not parse. */
export function podNodes(json: string): Map<string, string> {
  const out = new Map<string, string>();
  let list: unknown;
  try {
    list = JSON.parse(json);
  } catch {
    return out;
  }
  const items = (list as { items?: unknown })?.items;
  if (!Array.isArray(items)) return out;
  for (const p of items as Array<{ metadata?: { name?: unknown }; spec?: { nodeName?: unknown } }>) {
    const name = p?.metadata?.name;
    const node = p?.spec?.nodeName;
    if (typeof name === "string" && typeof node === "string" && node) out.set(name, node);
  }
  return out;
}

function nodesByNamespace(g: CollectorGroup): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  g.rel.forEach((r, k) => {
    const m = /^([^/]+)\/pods\.json$/.exec(r);
    if (m) out.set(m[1], podNodes(g.text(k)));
  });
  return out;
}

const POD_LIST =
  '{\n    "kind": "PodList",\n    "apiVersion": "v1",\n    "metadata": {\n        "resourceVersion": "48213"\n    },\n    "items": [\n        {\n            "metadata": {\n                "name": "kindnet-x7k2p",\n                "namespace": "kube-system"\n            },\n            "spec": {\n                "nodeName": "kind-worker"\n            }\n        },\n        {\n            "metadata": {\n                "name": "coredns-7db6d8ff4d-b5pbp",\n                "namespace": "kube-system"\n            },\n            "spec": {\n                "nodeName": "kind-control-plane"\n            }\n        }\n    ]\n}\n';

export const kubectlClusterInfoDump: CollectorSpec = {
  name: "kubectl-cluster-info-dump",
  title: "kubectl cluster-info dump",
  source: "kubernetes staging/src/k8s.io/kubectl/pkg/cmd/clusterinfo/clusterinfo_dump.go (ClusterInfoDumpOptions.Run)",
  samples: [
    {
      archive: "cluster-state.tar.gz",
      members: {
        "cluster-state/nodes.json": "",
        "cluster-state/kube-system/events.json": "",
        "cluster-state/kube-system/services.json": "",
        "cluster-state/kube-system/daemonsets.json": "",
        "cluster-state/kube-system/pods.json": POD_LIST,
        "cluster-state/kube-system/kindnet-x7k2p/logs.txt": "",
        "cluster-state/kube-system/kindnet-x7k2p/logs-kindnet-cni-previous.txt": "",
        "cluster-state/kube-system/coredns-7db6d8ff4d-b5pbp/logs.txt": "",
        "cluster-state/kube-system/etcd-gone/logs.txt": "",
        "cluster-state/default/events.json": "",
        "cluster-state/default/pods.json": "",
      },
      expect: {
        nodes: {
          "cluster-state/kube-system/events.json": null,
          "cluster-state/kube-system/kindnet-x7k2p/logs.txt": "kind-worker",
          "cluster-state/kube-system/kindnet-x7k2p/logs-kindnet-cni-previous.txt": "kind-worker",
          "cluster-state/kube-system/coredns-7db6d8ff4d-b5pbp/logs.txt": "kind-control-plane",
          "cluster-state/kube-system/etcd-gone/logs.txt": null,
        },
        skipped: {
          "cluster-state/nodes.json": "collector-state",
          "cluster-state/kube-system/services.json": "collector-state",
          "cluster-state/kube-system/pods.json": "collector-state",
          "cluster-state/default/pods.json": "collector-state",
        },
      },
    },
    {
      // `--output-directory` archived from inside the folder, written with `-o yaml`
      archive: "dump.tgz",
      members: {
        "./nodes.yaml": "",
        "./kube-system/events.yaml": "",
        "./kube-system/pods.yaml": "",
        "./kube-system/kube-router-4hx9d/logs.txt": "",
      },
      expect: {
        nodes: { "./kube-system/kube-router-4hx9d/logs.txt": null },
        skipped: { "./nodes.yaml": "collector-state", "./kube-system/pods.yaml": "collector-state" },
      },
    },
  ],
  detect(g) {
    return g.rel.some((r) => /^nodes\.(?:json|yaml)$/.test(r)) && g.rel.some((r) => NAMESPACE_LIST.test(r));
  },
  describe(g) {
    const byNamespace = nodesByNamespace(g);
    const out = base(g);
    g.rel.forEach((r, k) => {
      if (RESOURCE_LIST.test(r)) {
        out[k].skipReason = "collector-state";
        return;
      }
      const m = POD_LOG.exec(r);
      if (!m) return;
      out[k].node = byNamespace.get(m[1])?.get(m[2]) ?? null;
      out[k].noise = ["kubectl-log-markers"];
    });
    return out;
  },
};
