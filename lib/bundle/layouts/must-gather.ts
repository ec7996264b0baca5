import { base, parseCollectionDate, withNoise } from "./helpers";
import type { CollectorSpec } from "./types";

/** OpenShift must-gather / `oc adm node-logs`. */
export const mustGather: CollectorSpec = {
  name: "must-gather",
  title: "OpenShift must-gather",
  source: "openshift/must-gather collection-scripts; oc adm node-logs",
  samples: [
    {
      archive: "must-gather.tar.gz",
      members: {
        "must-gather.local.5046021473914/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-1a2b/timestamp": "2025-05-19 04:31:02.512 +0000 UTC m=+0.104\n",
        "must-gather.local.5046021473914/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-1a2b/host_service_logs/masters/kubelet_service.log": "",
        "must-gather.local.5046021473914/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-1a2b/namespaces/openshift-multus/pods/multus-4xk9z/multus-4xk9z.yaml":
          "spec:\n  nodeName: master-0\n",
        "must-gather.local.5046021473914/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-1a2b/namespaces/openshift-multus/pods/multus-4xk9z/kube-multus/kube-multus/logs/current.log":
          "",
      },
      expect: {
        nodes: {
          "must-gather.local.5046021473914/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-1a2b/host_service_logs/masters/kubelet_service.log": null,
          "must-gather.local.5046021473914/quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-1a2b/namespaces/openshift-multus/pods/multus-4xk9z/kube-multus/kube-multus/logs/current.log":
            "master-0",
        },
        collected: "2025-05-19T04:31:02.000Z",
      },
    },
  ],
  detect(g) {
    return (
      /must-gather/.test(g.top ?? "") ||
      /must-gather/.test(g.archive ?? "") ||
      g.rel.some((r) => /(?:^|\/)host_service_logs\/(?:masters|workers)\/[^/]+_service\.log$/.test(r) || /(?:^|\/)nodes\/([^/]+)\/\1_logs_[^/]+$/.test(r))
    );
  },
  describe(g) {
    const out = base(g);
    const podNode = new Map<string, string | null>();
    g.rel.forEach((r, k) => {
      if (/(?:^|\/)host_service_logs\/(?:masters|workers)\/[^/]+_service\.log$/.test(r)) {
        out[k].zone = "UTC"; // the kubelet runs journalctl --utc; several nodes merged: the hostname column decides
        withNoise(out[k], "journalctl-warnings");
      }
      const n = /(?:^|\/)nodes\/([^/]+)\/\1_logs_[^/]+$/.exec(r);
      if (n) {
        out[k].node = n[1];
        out[k].zone = "UTC";
      }
      const p = /^(.*namespaces\/([^/]+)\/pods\/([^/]+))\/[^/]+\/[^/]+\/logs\/(?:current|previous)\.log$/.exec(r);
      if (p) {
        const yaml = `${p[1]}/${p[3]}.yaml`;
        if (!podNode.has(yaml)) {
          const y = g.find(yaml);
          podNode.set(yaml, y >= 0 ? (/^\s*nodeName:\s*(\S+)\s*$/m.exec(g.text(y))?.[1] ?? null) : null);
        }
        out[k].node = podNode.get(yaml) ?? null;
      }
    });
    return out;
  },
  collected(g) {
    const k = g.rel.findIndex((r) => /(?:^|\/)timestamp$/.test(r));
    const d = k >= 0 ? parseCollectionDate(g.text(k)) : null;
    return d !== null ? { ms: d, source: "collection-file" } : null;
  },
};
