/**
 * Kernel ring buffer dumps: FORMATS.md 3.15, 5b rules DR/DC (EKS `kernel/dmesg.*`, Rancher
 * `systeminfo/dmesg`, Bottlerocket `dmesg`).
 *
 *     [   11.803512] ena 0000:00:05.0 eth0: ENA device version: 0.10        raw: seconds since boot
 *     [Mon May 19 04:20:07 2025] ena 0000:00:05.0 eth0: …                  --ctime / -T: local time, year
 *
 * Raw lines have no wall time: the record keeps a null time and the seconds since boot in
 * `fields.uptime` (text, µs) so the timeline can anchor them on the boot. Component `kernel`.
 */
import { sniffRatio } from "./sniff-util";
import { monthFromAbbrev } from "./time-util";
import type { FormatSpec, LineResult, ParsedRecord } from "./types";

const RAW_RE = /^\[\s*(\d+\.\d{6})\] ?(.*)$/;
const CTIME_RE = /^\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})\] ?(.*)$/;

/** Parse one dmesg line (raw or ctime); null when not one. */
export function parseDmesgLine(line: string): LineResult {
  if (line.charCodeAt(0) !== 91) return null;
  const c1 = line.charCodeAt(1);
  if (c1 === 32 || (c1 >= 48 && c1 <= 57)) {
    const m = RAW_RE.exec(line);
    if (!m) return null;
    const record: ParsedRecord = { time: null, component: "kernel", severity: 1, message: m[2], fields: { uptime: m[1] } };
    return { type: "record", record };
  }
  const m = CTIME_RE.exec(line);
  if (!m) return null;
  const month = monthFromAbbrev(m[1]);
  if (month === 0) return null;
  const record: ParsedRecord = {
    time: {
      year: Number(m[6]),
      month,
      day: Number(m[2].trim()),
      hour: Number(m[3]),
      minute: Number(m[4]),
      second: Number(m[5]),
      ms: 0,
      offsetMin: null,
      precision: "s",
    },
    component: "kernel",
    severity: 1,
    message: m[7],
  };
  return { type: "record", record };
}

/** raw lines that look like `host ident[pid]: ` after the stamp are journal short-monotonic (FORMATS.md 5b DR) */
const SNIFF = /^\[(?:\s*\d+\.\d{6}\] (?!\S+ [^\s[:]+(?:\[\d+\])?: )|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}\] )/;

/** Format spec: Kernel ring buffer dumps (`dmesg`, `dmesg -T`). */
export const dmesgSpec: FormatSpec = {
  name: "dmesg",
  kind: "kernel",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    return { parseLine: parseDmesgLine };
  },
  samples: [
    {
      line: "[   11.803512] ena 0000:00:05.0 eth0: ENA device version: 0.10",
      expect: { time: null, component: "kernel", severity: 1, message: "ena 0000:00:05.0 eth0: ENA device version: 0.10", fields: { uptime: "11.803512" } },
    },
    {
      line: "[Mon May 19 04:20:07 2025] ena 0000:00:05.0 eth0: ENA device version: 0.10",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 0, offsetMin: null, precision: "s" },
        component: "kernel",
        message: "ena 0000:00:05.0 eth0: ENA device version: 0.10",
      },
    },
  ],
  notMine: [
    "May 19 04:20:07 ip-10-20-30-40 kernel: Linux version 6.1",
    "[INFO] something",
    "I0519 04:20:10.100200       1 main.go:231] x",
  ],
};
