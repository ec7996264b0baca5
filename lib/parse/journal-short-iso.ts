/**
 * journalctl `-o short-iso` / `-o short-iso-precise`, and rsyslog RFC3339 files in the same layout:
 * upstream systemd `src/shared/logs-show.c`.
 *
 *     2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344 …
 *     2025-05-19T04:20:07.512401+00:00 ip-10-20-30-40 kubelet[2817]: …        (precise: µs)
 *     2025-05-19T04:20:07+0000 kubelet[2817]: …                             (`--no-hostname`)
 *
 * Without the host column (`journalctl --no-hostname`) `ident[pid]:` or `kernel:` follows the stamp;
 * a host never carries `[pid]` nor ends in `:`, so the first token after the stamp tells the two apart.
 * Year and offset are in the stamp (journalctl never writes `Z`; accepted anyway). A component
 * stamp inside without year/zone (klog) takes them from this stamp. Banners and indented
 * continuation lines as in journal-short.
 */
import { envelopeRecord } from "./helpers/component";
import { JournalEnvelopeParser } from "./journal-envelope";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineResult } from "./types";

/**
 * groups: 1 stamp; without a host column 2 ident and 3 pid, or 4 `kernel`; with it 5 host, 6 ident,
 * 7 pid; 8 message. A line without the host column needs `ident[pid]:` or `kernel:` (the journal's
 * own identifiers), so a stamped `panic: …` is no journal line.
 */
const RE =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[+-]\d{2}:?\d{2}|Z)) (?:([^\s[:]+)\[(\d+)\]|(kernel)|(\S+) ([^\s[:]+)(?:\[(\d+)\])?):(?: (.*))?$/;

/** Parse one short-iso line into a record; null when not one. */
export function parseJournalIsoLine(line: string): LineResult {
  const c0 = line.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || line.charCodeAt(10) !== 84) return null;
  const m = RE.exec(line);
  if (!m) return null;
  const time = parseIsoStamp(m[1]);
  if (!time) return null;
  const pid = m[3] ?? m[7];
  return {
    type: "record",
    record: envelopeRecord({ time, host: m[5], ident: m[2] ?? m[4] ?? m[6], pid: pid !== undefined ? Number(pid) : undefined }, m[8] ?? ""),
  };
}

/** the host column never starts with `[` (Multus writes `<stamp> [error] …`) */
const SNIFF = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[+-]\d{2}:?\d{2}|Z) (?:[^\s[:]+\[\d+\]|kernel|[^\s[]\S* [^\s[:]+(?:\[\d+\])?): /;

/** Format spec: journalctl `-o short-iso[-precise]` dumps and rsyslog RFC3339 files. */
export const journalShortIsoSpec: FormatSpec = {
  name: "journal-short-iso",
  kind: "journal",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    return new JournalEnvelopeParser(parseJournalIsoLine);
  },
  samples: [
    {
      line: '2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 512, offsetMin: 0, precision: "us" },
        host: "ip-10-20-30-40",
        ident: "kubelet",
        pid: 2817,
        component: "kubelet",
        severity: 1,
        message: "Starting kubelet main sync loop",
      },
    },
    {
      // precise, +09:00, systemd message (envelope time kept)
      line: "2025-05-19T13:20:07.512401+09:00 ip-10-20-30-40 systemd[1]: Started containerd.service - containerd container runtime.",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 13, minute: 20, second: 7, ms: 512, offsetMin: 540, precision: "us" },
        component: "systemd",
        message: "Started containerd.service - containerd container runtime.",
      },
    },
    {
      // Dec 31 klog line inside a Jan 1 envelope: the klog stamp takes the closest year
      line: '2025-01-01T00:00:00.100000+00:00 node-a kubelet[10]: I1231 23:59:59.999999      10 kubelet.go:1] "tick"',
      expect: {
        time: { year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 59, ms: 999, offsetMin: 0, precision: "us" },
        message: "tick",
      },
    },
    {
      // `--no-hostname`: MicroK8s's kubelite under its snap identifier, UTC written `Z`
      line: '2025-05-19T04:20:07Z microk8s.daemon-kubelite[9110]: E0519 04:20:07.100200    9110 log.go:32] "RunPodSandbox from runtime service failed" err="x"',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 100, offsetMin: 0, precision: "us" },
        ident: "microk8s.daemon-kubelite",
        pid: 9110,
        component: "kubelet",
        severity: 3,
        message: 'RunPodSandbox from runtime service failed err="x"',
      },
    },
  ],
  notMine: [
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "2025-05-19T04:20:12.000000001Z panic: runtime error: invalid memory address or nil pointer dereference",
    '2024-02-07T05:45:40.739274+00:00 NodeA containerd 22938 - -  time="2024-02-07T05:45:40.738965836Z" level=info msg=x',
    "2025-05-19T04:20:09.10473Z stderr F I0519 04:20:09.104500       1 main.go:88] x",
    "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod default/web excluded from mesh",
  ],
};
