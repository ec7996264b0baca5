import { base, firstLine, parseCollectionDate, withNoise } from "./helpers";
import type { CollectorSpec } from "./types";

const RANCHER_TOP = /^(.+)-(\d{4})-(\d\d)-(\d\d)_(\d\d)_(\d\d)_(\d\d)$/;

/** Rancher `rancher2_logs_collector.sh`. */
export const rancherLogsCollector: CollectorSpec = {
  name: "rancher-logs-collector",
  title: "Rancher logs collector",
  source: "rancherlabs/support-tools collection/rancher/v2.x/logs-collector",
  samples: [
    {
      archive: "ip-10-20-30-40-2025-05-19_04_31_02.tar.gz",
      members: {
        "ip-10-20-30-40-2025-05-19_04_31_02/journald/kubelet": "",
        "ip-10-20-30-40-2025-05-19_04_31_02/systeminfo/date": "Mon May 19 04:31:09 UTC 2025\n",
        "ip-10-20-30-40-2025-05-19_04_31_02/networking/iptablessave": "",
      },
      expect: { nodes: { "ip-10-20-30-40-2025-05-19_04_31_02/journald/kubelet": "ip-10-20-30-40" }, collected: "2025-05-19T04:31:09.000Z" },
    },
  ],
  detect(g) {
    return !!g.top && RANCHER_TOP.test(g.top) && g.rel.some((r) => /^(?:journald|systeminfo|networking)\//.test(r) || r === "collector-output.log");
  },
  describe(g) {
    const node = RANCHER_TOP.exec(g.top ?? "")?.[1] ?? null;
    const out = base(g, node);
    g.rel.forEach((r, k) => {
      if (r.startsWith("journald/")) withNoise(out[k], "journalctl-warnings");
    });
    return out;
  },
  collected(g) {
    const d = parseCollectionDate(firstLine(g, g.find("systeminfo/date")));
    if (d !== null) return { ms: d, source: "collection-file" };
    const m = RANCHER_TOP.exec(g.top ?? "");
    if (!m) return null;
    // node local time: taken as UTC (the year bound has a day of slack)
    return { ms: Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4]), Number(m[5]), Number(m[6]), Number(m[7])), source: "archive-name" };
  },
};
