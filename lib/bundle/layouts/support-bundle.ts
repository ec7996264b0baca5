import { base, withNoise } from "./helpers";
import type { CollectorSpec } from "./types";

const SUPPORT_TOP = /^support-bundle-(\d{4})-(\d\d)-(\d\d)T(\d\d)_(\d\d)_(\d\d)/;

/** Replicated troubleshoot `kubectl support-bundle`. */
export const supportBundle: CollectorSpec = {
  name: "support-bundle",
  title: "troubleshoot support bundle",
  source: "replicatedhq/troubleshoot pkg/collect",
  samples: [
    {
      archive: "support-bundle-2025-05-19T04_31_02.tar.gz",
      members: {
        "support-bundle-2025-05-19T04_31_02/version.yaml": "",
        "support-bundle-2025-05-19T04_31_02/cluster-resources/pods/kube-system.json":
          '{"items":[{"metadata":{"name":"calico-node-x7k2p"},"spec":{"nodeName":"ip-10-20-30-40"}}]}',
        "support-bundle-2025-05-19T04_31_02/cluster-resources/pods/logs/kube-system/calico-node-x7k2p/calico-node.log": "",
        "support-bundle-2025-05-19T04_31_02/host-collectors/system/hostos_info.json": '{"name":"ip-10-20-30-41","kernelVersion":"6.1.0"}',
        "support-bundle-2025-05-19T04_31_02/host-collectors/journald/kubelet.txt": "",
      },
      expect: {
        nodes: {
          "support-bundle-2025-05-19T04_31_02/cluster-resources/pods/logs/kube-system/calico-node-x7k2p/calico-node.log": "ip-10-20-30-40",
          "support-bundle-2025-05-19T04_31_02/host-collectors/journald/kubelet.txt": "ip-10-20-30-41",
        },
        collected: "2025-05-19T04:31:02.000Z",
      },
    },
  ],
  detect(g) {
    return (
      (!!g.top && SUPPORT_TOP.test(g.top)) ||
      (g.rel.some((r) => r.startsWith("cluster-resources/")) && (g.rel.includes("version.yaml") || g.rel.some((r) => r.startsWith("host-collectors/"))))
    );
  },
  describe(g) {
    const out = base(g);
    const info = g.find("host-collectors/system/hostos_info.json");
    let localHost: string | null = null;
    if (info >= 0) {
      try {
        const j = JSON.parse(g.text(info)) as Record<string, unknown>;
        const h = j.hostname ?? j.name;
        if (typeof h === "string" && h) localHost = h;
      } catch {
        // not JSON: leave the hostname column to decide
      }
    }
    const podsByNs = new Map<string, Map<string, string>>();
    const podNode = (ns: string, pod: string): string | null => {
      let m = podsByNs.get(ns);
      if (!m) {
        m = new Map();
        podsByNs.set(ns, m);
        const k = g.find(`cluster-resources/pods/${ns}.json`);
        if (k >= 0) {
          try {
            const j = JSON.parse(g.text(k)) as { items?: Array<{ metadata?: { name?: string }; spec?: { nodeName?: string } }> } | unknown[];
            const items = Array.isArray(j) ? (j as Array<{ metadata?: { name?: string }; spec?: { nodeName?: string } }>) : (j.items ?? []);
            for (const it of items) if (it.metadata?.name && it.spec?.nodeName) m.set(it.metadata.name, it.spec.nodeName);
          } catch {
            // unreadable pod list: no node from it
          }
        }
      }
      return m.get(pod) ?? null;
    };
    g.rel.forEach((r, k) => {
      let m = /^host-collectors\/journald\/[^/]+\.txt$/.exec(r);
      if (m && !r.endsWith("-stderr.txt")) {
        out[k].node = localHost;
        withNoise(out[k], "journalctl-warnings");
      }
      m = /^host-collectors\/([^/]+)\/journald\/[^/]+\.txt$/.exec(r);
      if (m && m[1] !== "journald" && !r.endsWith("-stderr.txt")) {
        out[k].node = m[1];
        withNoise(out[k], "journalctl-warnings");
      }
      m = /^cluster-resources\/pods\/logs\/([^/]+)\/([^/]+)\/[^/]+\.log$/.exec(r);
      if (m) out[k].node = podNode(m[1], m[2]);
    });
    return out;
  },
  collected(g) {
    const m = SUPPORT_TOP.exec(g.top ?? "") ?? SUPPORT_TOP.exec((g.archive ?? "").split("/").pop() ?? "");
    if (!m) return null;
    return { ms: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])), source: "archive-name" };
  },
};
