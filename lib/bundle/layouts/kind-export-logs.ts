import { base, dupOfWholeJournal, pairContainerCopies, withNoise } from "./helpers";
import type { CollectorSpec } from "./types";

const KIND_NODE_FILES = /^(?:journal\.log|kubelet\.log|containerd\.log|serial\.log|kubernetes-version\.txt|inspect\.json|images\.log)$/;

/** `kind export logs`: a folder per node container. */
export const kindExportLogs: CollectorSpec = {
  name: "kind-export-logs",
  title: "kind export logs",
  source: "kubernetes-sigs/kind pkg/cluster/provider.go CollectLogs",
  samples: [
    {
      archive: "kind-logs.tar.gz",
      members: {
        "kind-version.txt": "kind v0.22.0 go1.21.7 linux/amd64\n",
        "kind-control-plane/journal.log": "",
        "kind-control-plane/kubelet.log": "",
        "kind-control-plane/kubernetes-version.txt": "v1.29.2\n",
        "kind-worker/journal.log": "",
        "kind-worker/containers/kube-proxy-7xk2p_kube-system_kube-proxy-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.log": "",
        "kind-worker/pods/kube-system_kube-proxy-7xk2p_5c1f0d2e-7a4b-4c8e-9f10-2b3c4d5e6f70/kube-proxy/0.log": "",
      },
      expect: {
        nodes: {
          "kind-version.txt": null,
          "kind-control-plane/kubelet.log": "kind-control-plane",
          "kind-worker/pods/kube-system_kube-proxy-7xk2p_5c1f0d2e-7a4b-4c8e-9f10-2b3c4d5e6f70/kube-proxy/0.log": "kind-worker",
        },
      },
    },
  ],
  detect(g) {
    if (g.rel.includes("kind-version.txt")) return true;
    return g.rel.some((r) => /^[^/]+\/journal\.log$/.test(r)) && g.rel.some((r) => /^[^/]+\/(?:kubernetes-version\.txt|inspect\.json|serial\.log)$/.test(r));
  },
  describe(g) {
    const nodes = new Set<string>();
    for (const r of g.rel) {
      const m = /^([^/]+)\/([^/]+)$/.exec(r);
      if (m && KIND_NODE_FILES.test(m[2])) nodes.add(m[1]);
    }
    const out = base(g);
    g.rel.forEach((r, k) => {
      const n = r.split("/")[0];
      if (r.includes("/") && nodes.has(n)) out[k].node = n;
      if (/^[^/]+\/(?:journal|kubelet|containerd)\.log$/.test(r)) withNoise(out[k], "journalctl-warnings");
    });
    for (const n of nodes) {
      // journal.log is the whole journal: the unit dumps repeat it
      dupOfWholeJournal(g, out, g.find(`${n}/journal.log`), [g.find(`${n}/kubelet.log`), g.find(`${n}/containerd.log`)]);
    }
    pairContainerCopies(
      g,
      out,
      (r) => /^([^/]+\/containers\/)[^/]+$/.exec(r)?.[1] ?? null,
      (r) => /^([^/]+\/pods\/)/.exec(r)?.[1] ?? null,
    );
    return out;
  },
};
