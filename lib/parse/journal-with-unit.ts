/**
 * journalctl `-o with-unit` (like short-full, with the systemd unit instead of
 * the identifier where the entry has one). The line parser is journal-short-full.ts's.
 *
 *     Mon 2025-05-19 04:20:07 UTC ip-10-20-30-40 kubelet.service[2817]: I0519 04:20:07.512344 …
 */
import { JournalEnvelopeParser } from "./journal-envelope";
import { parseJournalFullLine } from "./journal-short-full";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec } from "./types";

const SNIFF = /^\S{1,8} \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{6})? \S+ \S+ [^\s[:]+(?:\[\d+\])?: /;
const UNIT = /^\S+ \S+ \S+ \S+ \S+ [^\s[:]+\.(?:service|scope|socket|mount|slice|target|timer|path|swap|device|automount)(?:\[\d+\])?: /;

/** Format spec: `journalctl -o with-unit` dumps. */
export const journalWithUnitSpec: FormatSpec = {
  name: "journal-with-unit",
  kind: "journal",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF) && lines.some((l) => UNIT.test(l) && SNIFF.test(l)),
  createParser() {
    return new JournalEnvelopeParser((l) => parseJournalFullLine(l, true));
  },
  samples: [
    {
      line: 'Mon 2025-05-19 04:20:07 UTC ip-10-20-30-40 kubelet.service[2817]: E0519 04:20:09.001877    2817 kubelet.go:3002] "Container runtime network not ready"',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 9, ms: 1, offsetMin: 0, precision: "us" },
        host: "ip-10-20-30-40",
        ident: "kubelet",
        pid: 2817,
        component: "kubelet",
        severity: 3,
        message: "Container runtime network not ready",
        fields: { unit: "kubelet.service" },
      },
    },
    {
      // containerd under its unit
      line: 'Mon 2025-05-19 13:20:05 JST ip-10-20-30-40 containerd.service[811]: time="2025-05-19T13:20:05.931046219+09:00" level=info msg="starting containerd" version=v1.7.27',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 13, minute: 20, second: 5, ms: 931, offsetMin: 540, precision: "ns" },
        ident: "containerd",
        component: "containerd",
        fields: { version: "v1.7.27", unit: "containerd.service" },
      },
    },
  ],
  notMine: [
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "Mon May 19 04:20 kubelet.service: not a journal line",
  ],
};
