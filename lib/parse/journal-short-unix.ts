/**
 * journalctl `-o short-unix`; upstream systemd `src/shared/logs-show.c`.
 *
 *     1747628407.512401 ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"
 *
 * Epoch seconds with µs (UTC by nature), host, identifier, pid. The MESSAGE's own stamp, when it
 * has one, is the record's time, completed by the instant (journal-fields.ts). Banners and
 * continuations as in journal-short.
 */
import { instantRecord } from "./helpers/journal-fields";
import { JournalEnvelopeParser } from "./journal-envelope";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec, LineResult } from "./types";

const RE = /^(\d{9,11})\.(\d{6}) (\S+) ([^\s[:]+)(?:\[(\d+)\])?:(?: (.*))?$/;

/** Parse one short-unix line; null when not one. */
export function parseJournalUnixLine(line: string): LineResult {
  const c0 = line.charCodeAt(0);
  if (c0 < 48 || c0 > 57) return null;
  const m = RE.exec(line);
  if (!m) return null;
  const rec = instantRecord(
    { utcMs: Number(m[1]) * 1000 + Number(m[2]) / 1000, precision: "us", host: m[3], ident: m[4], pid: m[5] !== undefined ? Number(m[5]) : undefined },
    m[6] ?? "",
  );
  return { type: "record", record: rec };
}

const SNIFF = /^\d{9,11}\.\d{6} \S+ [^\s[:]+(?:\[\d+\])?: /;

/** Format spec: `journalctl -o short-unix` dumps. */
export const journalShortUnixSpec: FormatSpec = {
  name: "journal-short-unix",
  kind: "journal",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    return new JournalEnvelopeParser(parseJournalUnixLine);
  },
  samples: [
    {
      line: '1747628407.512401 ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 512, offsetMin: 0, precision: "us" },
        host: "ip-10-20-30-40",
        ident: "kubelet",
        pid: 2817,
        component: "kubelet",
        message: "Starting kubelet main sync loop",
      },
    },
    {
      line: "1747628371.000123 ip-10-20-30-40 kernel: Linux version 6.1.134-150.224.amzn2023.x86_64",
      expect: {
        time: null,
        epochMs: 1747628371000,
        epochPrecision: "us",
        ident: "kernel",
        component: "kernel",
        message: "Linux version 6.1.134-150.224.amzn2023.x86_64",
      },
    },
  ],
  notMine: [
    "[   11.803512] ip-10-20-30-40 kubelet[2817]: x",
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
    '{"ts":1747628407512.3442,"caller":"kubelet/kubelet.go:2321","msg":"x","v":0}',
  ],
};
