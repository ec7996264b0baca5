import { base, firstLine, hostFromFiles, pairContainerCopies, withNoise } from "./helpers";
import type { CollectorSpec } from "./types";

/** Amazon EKS `eks-log-collector.sh`. */
export const eksLogCollector: CollectorSpec = {
  name: "eks-log-collector",
  title: "Amazon EKS log collector",
  source: "awslabs/amazon-eks-ami log-collector-script/linux/eks-log-collector.sh",
  samples: [
    {
      archive: "eks_i-0abc123def4567890_2025-05-19_0431-UTC_0.7.9.tar.gz",
      members: {
        "kubelet/kubelet.log": 'May 19 04:20:07 ip-10-20-30-40.ec2.internal kubelet[2101]: I0519 04:20:07.512401    2101 server.go:1256] "Started kubelet"\n',
        "containerd/containerd-log.txt": "",
        "containerd/containerd.811.stacks.log": "",
        "system/instance-id.txt": "i-0abc123def4567890\n",
        "ipamd/ipamd.log": "",
        "kernel/dmesg.current": "",
      },
      expect: {
        nodes: { "kubelet/kubelet.log": "ip-10-20-30-40.ec2.internal", "ipamd/ipamd.log": "ip-10-20-30-40.ec2.internal" },
        skipped: { "containerd/containerd.811.stacks.log": "collector-stack-dump" },
        collected: "2025-05-19T04:31:59.999Z",
      },
    },
  ],
  detect(g) {
    if (/(?:^|\/)eks_(?:i-[0-9a-f]+)?_\d{4}-\d\d-\d\d_\d{4}-UTC/.test(g.archive ?? "")) return true;
    const marks = [
      "kubelet/kubelet.log",
      "containerd/containerd-log.txt",
      "system/instance-id.txt",
      "ipamd/",
      "var_log/aws-routed-eni/",
      "kernel/dmesg.current",
    ];
    return marks.filter((m) => g.rel.some((r) => (m.endsWith("/") ? r.startsWith(m) : r === m))).length >= 2;
  },
  describe(g) {
    const kubelet = g.find("kubelet/kubelet.log");
    const containerd = g.find("containerd/containerd-log.txt");
    const journals = g.rel
      .map((r, k) =>
        /^(?:kubelet\/kubelet\.log|containerd\/containerd-log\.txt|docker\/docker\.log|nodeadm\/.+\.log|sandbox-image\/.+\.txt|networking\/configure-multicard-interfaces\.txt|var_log\/messages)$/.test(
          r,
        )
          ? k
          : -1,
      )
      .filter((k) => k >= 0);
    const instance = firstLine(g, g.find("system/instance-id.txt")) || (/eks_(i-[0-9a-f]+)_/.exec(g.archive ?? "")?.[1] ?? "");
    const host = hostFromFiles(g, [kubelet, containerd, ...journals]);
    const node = host ?? (instance || null);
    const out = base(g, node);
    if (node && instance && instance !== node) for (const l of out) l.aliases = [instance];
    for (const k of journals) withNoise(out[k], "journalctl-warnings");
    if (containerd >= 0) withNoise(out[containerd], "collector-stack-dump");
    g.rel.forEach((r, k) => {
      if (/^containerd\/containerd\.\d+\.stacks\.log$/.test(r)) out[k].skipReason = "collector-stack-dump";
    });
    pairContainerCopies(
      g,
      out,
      (r) => (/^var_log\/[^/]+$/.test(r) ? "var_log/" : null),
      (r) => (/^var_log\/[^/]+_[^/]+_[^/]+\/[^/]+\/\d+\.log$/.test(r) ? "var_log/" : null),
    );
    return out;
  },
  collected(g) {
    const m = /eks_(?:i-[0-9a-f]+)?_(\d{4})-(\d\d)-(\d\d)_(\d\d)(\d\d)-UTC/.exec(g.archive ?? "");
    if (!m) return null;
    return { ms: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) + 59_999, source: "archive-name" };
  },
};
