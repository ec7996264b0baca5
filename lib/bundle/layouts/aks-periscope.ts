import { base, withNoise } from "./helpers";
import type { CollectorSpec } from "./types";

const RUN_ID = /^(\d{4})-(\d\d)-(\d\d)T(\d\d)-(\d\d)-(\d\d)Z$/;

/** Index of the Periscope RUN_ID segment in a path (`<RUN_ID>/<node>/<key>`), or -1. */
function runIdAt(rel: string): number {
  const parts = rel.split("/");
  for (let i = 0; i + 2 < parts.length; i++) if (RUN_ID.test(parts[i])) return i;
  return -1;
}

/** AKS Periscope (`az aks kollect`). */
export const aksPeriscope: CollectorSpec = {
  name: "aks-periscope",
  title: "AKS Periscope",
  source: "Azure/aks-periscope pkg/collector, pkg/exporter/azureblob_exporter.go",
  samples: [
    {
      archive: "aks-periscope.zip",
      members: {
        "2025-05-19T04-31-02Z/aks-nodepool1-12345678-vmss000000/kubelet": "",
        "2025-05-19T04-31-02Z/aks-nodepool1-12345678-vmss000000/collectorlist": "",
        "2025-05-19T04-31-02Z/aks-nodepool1-12345678-vmss000001/containerd": "",
      },
      expect: {
        nodes: {
          "2025-05-19T04-31-02Z/aks-nodepool1-12345678-vmss000000/kubelet": "aks-nodepool1-12345678-vmss000000",
          "2025-05-19T04-31-02Z/aks-nodepool1-12345678-vmss000001/containerd": "aks-nodepool1-12345678-vmss000001",
        },
        collected: "2025-05-19T04:31:02.000Z",
      },
    },
  ],
  detect(g) {
    const all = g.top ? g.rel.map((r) => `${g.top}/${r}`) : g.rel;
    return all.some((r) => {
      const i = runIdAt(r);
      if (i < 0) return false;
      const key = r
        .split("/")
        .slice(i + 2)
        .join("/");
      return /^(?:kubelet|docker|containerd|var_log_\S+|collector\S*|dns\S*|networkoutbound\S*)$/.test(key);
    });
  },
  describe(g) {
    const out = base(g);
    g.rel.forEach((r, k) => {
      const full = g.top ? `${g.top}/${r}` : r;
      const i = runIdAt(full);
      if (i < 0) return;
      const parts = full.split("/");
      out[k].node = parts[i + 1];
      if (/^(?:kubelet|docker|containerd)$/.test(parts.slice(i + 2).join("/"))) withNoise(out[k], "journalctl-warnings");
    });
    return out;
  },
  collected(g) {
    const all = g.top ? g.rel.map((r) => `${g.top}/${r}`) : g.rel;
    let best: number | null = null;
    for (const r of all) {
      const i = runIdAt(r);
      if (i < 0) continue;
      const m = RUN_ID.exec(r.split("/")[i])!;
      const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
      if (best === null || ms > best) best = ms;
    }
    return best === null ? null : { ms: best, source: "archive-name" };
  },
};
