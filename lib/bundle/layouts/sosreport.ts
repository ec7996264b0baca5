import { base, dupOfWholeJournal, firstLine, hostFromFiles, parseCollectionDate, withNoise } from "./helpers";
import type { CollectorGroup, CollectorSpec } from "./types";

const SOS_TOP = /^sosreport-/;

/** sos version from `version.txt` / `sos_reports/manifest.json` as [major, minor], or null. */
function sosVersion(g: CollectorGroup): [number, number] | null {
  for (const p of ["version.txt", "sos_reports/manifest.json"]) {
    const k = g.find(p);
    if (k < 0 || g.size(k) > 1 << 20) continue;
    const m = /(?:sosreport|sos)\D{0,20}(\d+)\.(\d+)|"version"\s*:\s*"(\d+)\.(\d+)/.exec(g.text(k));
    if (m) return m[1] ? [Number(m[1]), Number(m[2])] : [Number(m[3]), Number(m[4])];
  }
  return null;
}

/** sos report. */
export const sosreport: CollectorSpec = {
  name: "sosreport",
  title: "sos report",
  source: "sosreport/sos sos/report/plugins",
  samples: [
    {
      archive: "sosreport-ip-10-20-30-40-2025-05-19-abcdefg.tar.xz",
      members: {
        "sosreport-ip-10-20-30-40-2025-05-19-abcdefg/version.txt": "sosreport: 4.5.6\n",
        "sosreport-ip-10-20-30-40-2025-05-19-abcdefg/sos_commands/host/hostname": "ip-10-20-30-40.ec2.internal\n",
        "sosreport-ip-10-20-30-40-2025-05-19-abcdefg/sos_commands/logs/journalctl_--no-pager": "",
        "sosreport-ip-10-20-30-40-2025-05-19-abcdefg/sos_commands/logs/journalctl_--list-boots": "",
        "sosreport-ip-10-20-30-40-2025-05-19-abcdefg/var/log/messages": "",
      },
      expect: {
        nodes: { "sosreport-ip-10-20-30-40-2025-05-19-abcdefg/sos_commands/logs/journalctl_--no-pager": "ip-10-20-30-40.ec2.internal" },
        collected: "2025-05-19T23:59:59.999Z",
      },
    },
  ],
  detect(g) {
    return (
      (!!g.top && SOS_TOP.test(g.top) && g.rel.some((r) => r.startsWith("sos_commands/"))) ||
      (g.rel.some((r) => r.startsWith("sos_commands/")) && g.rel.some((r) => r.startsWith("sos_reports/") || r === "version.txt"))
    );
  },
  describe(g) {
    const hostFile = ["sos_commands/host/hostname", "sos_commands/general/hostname", "etc/hostname"].map((p) => firstLine(g, g.find(p))).find((h) => h !== "");
    const journals = g.rel.map((r, k) => (/(?:^|\/)journalctl_--no-pager/.test(r) ? k : -1)).filter((k) => k >= 0);
    const top = /^sosreport-(.+?)(?:-\d{4}-\d\d-\d\d-[a-z]{7}|[-.]\d{14})$/.exec(g.top ?? "")?.[1] ?? null;
    const node = hostFile ?? hostFromFiles(g, journals) ?? top;
    const out = base(g, node);
    const v = sosVersion(g);
    const relabel = v !== null && (v[0] > 4 || (v[0] === 4 && v[1] >= 10));
    for (const k of journals) {
      withNoise(out[k], "journalctl-warnings");
      if (relabel) out[k].separatorsLabelPrevious = true;
    }
    const whole = g.find("sos_commands/logs/journalctl_--no-pager");
    dupOfWholeJournal(
      g,
      out,
      whole,
      journals.filter((k) => k !== whole && !/_--list-boots$/.test(g.rel[k])),
    );
    return out;
  },
  collected(g) {
    const d = parseCollectionDate(firstLine(g, g.find("sos_commands/date/date")));
    if (d !== null) return { ms: d, source: "collection-file" };
    const name = g.top ?? "";
    let m = /-(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(name);
    if (m) return { ms: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])), source: "archive-name" };
    m = /-(\d{4})-(\d\d)-(\d\d)-[a-z]{7}$/.exec(name);
    // the friendly name gives only the day: its end is the bound
    if (m) return { ms: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999), source: "archive-name" };
    return null;
  },
};
