import { base, dupOfWholeJournal, hostFromFiles, withNoise } from "./helpers";
import type { CollectorSpec } from "./types";

/** Bottlerocket `logdog`. */
export const bottlerocketLogdog: CollectorSpec = {
  name: "bottlerocket-logdog",
  title: "Bottlerocket logdog",
  source: "bottlerocket-os/bottlerocket sources/logdog/conf",
  samples: [
    {
      archive: "bottlerocket-logs.tar.gz",
      members: {
        "bottlerocket-logs/journalctl.log": "May 19 04:20:07 ip-10-20-30-40.us-west-2.compute.internal kubelet[1]: x\n",
        "bottlerocket-logs/journalctl.errors": "",
        "bottlerocket-logs/journalctl-boots": "",
        "bottlerocket-logs/settings.json": "",
      },
      expect: {
        nodes: {
          "bottlerocket-logs/journalctl.log": "ip-10-20-30-40.us-west-2.compute.internal",
          "bottlerocket-logs/settings.json": "ip-10-20-30-40.us-west-2.compute.internal",
        },
      },
    },
  ],
  detect(g) {
    const all = g.top ? g.rel.map((r) => `${g.top}/${r}`) : g.rel;
    const hasLog = g.rel.includes("journalctl.log");
    return (
      hasLog &&
      (g.rel.includes("journalctl-boots") ||
        g.rel.includes("journalctl.errors") ||
        all.some((r) => r.startsWith("bottlerocket-logs/")) ||
        g.rel.includes("settings.json"))
    );
  },
  describe(g) {
    const log = g.find("journalctl.log");
    const node = hostFromFiles(g, [log, g.find("journalctl.errors")]);
    const out = base(g, node);
    for (const p of ["journalctl.log", "journalctl.errors"]) {
      const k = g.find(p);
      if (k >= 0) withNoise(out[k], "journalctl-warnings");
    }
    // `-p err` is a subset of the whole journal
    dupOfWholeJournal(g, out, log, [g.find("journalctl.errors")]);
    return out;
  },
};
