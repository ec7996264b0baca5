/**
 * journalctl `-o short-monotonic` and `-o short-delta`; upstream systemd `src/shared/logs-show.c`.
 *
 *     [   11.803512] ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"
 *     [   11.803512 <    0.000057>] ip-10-20-30-40 kubelet[2817]: …              (short-delta; `*` instead of a blank across boots)
 *
 * Seconds since *that* boot (reset at every boot: parseFile starts a new boot segment at a reset),
 * kept in `fields.uptime`. The monotonic stamp is no wall time: the record's time is the MESSAGE's
 * own stamp when it has one (klog, containerd), else null. Requires `: ` after the identifier (a
 * raw dmesg line such as `[ 11.8] ena 0000:00:05.0 eth0: …` is not one). Banners and
 * continuations as in journal-short.
 */
import { envelopeRecord } from "./helpers/component";
import { JournalEnvelopeParser } from "./journal-envelope";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec, LineResult } from "./types";

const RE = /^\[\s*(\d+\.\d{6})(?: <\s*\d+\.\d{6}[ *]>)?\] (\S+) ([^\s[:]+)(?:\[(\d+)\])?:(?: (.*))?$/;

/** Parse one short-monotonic / short-delta line; null when not one. */
export function parseJournalMonotonicLine(line: string): LineResult {
  if (line.charCodeAt(0) !== 91) return null;
  const m = RE.exec(line);
  if (!m) return null;
  if (m[5] === undefined && line.charCodeAt(line.length - 1) !== 58) return null;
  const rec = envelopeRecord({ time: null, host: m[2], ident: m[3], pid: m[4] !== undefined ? Number(m[4]) : undefined }, m[5] ?? "");
  rec.fields = { ...(rec.fields ?? {}), uptime: m[1] };
  return { type: "record", record: rec };
}

const SNIFF = /^\[\s*\d+\.\d{6}(?: <\s*\d+\.\d{6}[ *]>)?\] \S+ [^\s[:]+(?:\[\d+\])?: /;

/** Format spec: `journalctl -o short-monotonic` / `short-delta` dumps. */
export const journalShortMonotonicSpec: FormatSpec = {
  name: "journal-short-monotonic",
  kind: "journal",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    return new JournalEnvelopeParser(parseJournalMonotonicLine);
  },
  samples: [
    {
      line: "[   11.803512] ip-10-20-30-40 systemd[1]: Started kubelet.service - Kubernetes Kubelet.",
      expect: {
        time: null,
        host: "ip-10-20-30-40",
        ident: "systemd",
        pid: 1,
        component: "systemd",
        message: "Started kubelet.service - Kubernetes Kubelet.",
        fields: { uptime: "11.803512" },
      },
    },
    {
      line: '[   12.001877 <    0.198365 >] ip-10-20-30-40 kubelet[2817]: E0519 04:20:09.001877    2817 kubelet.go:3002] "Container runtime network not ready"',
      expect: {
        time: { year: null, month: 5, day: 19, hour: 4, minute: 20, second: 9, ms: 1, offsetMin: null, precision: "us" },
        component: "kubelet",
        severity: 3,
        message: "Container runtime network not ready",
        fields: { uptime: "12.001877" },
      },
    },
  ],
  notMine: [
    "[   11.803512] ena 0000:00:05.0 eth0: ENA device version: 0.10",
    "[Mon May 19 04:20:07 2025] ena 0000:00:05.0 eth0: ENA device version: 0.10",
    "1747628407.512401 ip-10-20-30-40 kubelet[2817]: x",
  ],
};
