import { base, looksLikeJournal, withNoise } from "./helpers";
import type { CollectorSpec } from "./types";

/** Hand-made archives of journalctl output (any archive no other collector claims, holding journal text). */
export const journalctlArchive: CollectorSpec = {
  name: "journalctl-archive",
  title: "archive of journalctl output",
  source: "systemd src/shared/logs-show.c (journalctl output formats); any archive of journal text no collector claims",
  samples: [
    {
      archive: "node-logs.tar.gz",
      members: {
        "logs/kubelet.txt":
          "-- Logs begin at Mon 2025-05-19 04:18:12 UTC, end at Mon 2025-05-19 04:31:02 UTC. --\nMay 19 04:20:07 ip-10-20-30-40 kubelet[1]: x\n",
        "logs/notes.md": "",
      },
      expect: { nodes: { "logs/kubelet.txt": null, "logs/notes.md": null } },
    },
  ],
  detect(g) {
    return g.archive !== null && g.idx.some((_, k) => g.size(k) > 0 && looksLikeJournal(g.head(k)));
  },
  describe(g) {
    const out = base(g);
    g.idx.forEach((_, k) => {
      if (g.size(k) > 0 && looksLikeJournal(g.head(k))) withNoise(out[k], "journalctl-warnings");
    });
    return out;
  },
};
