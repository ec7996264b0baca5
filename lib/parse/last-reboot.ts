/**
 * `last reboot` (wtmp; EKS `system/last_reboot.txt`); upstream util-linux `login-utils/last.c`.
 *
 *     reboot   system boot  6.1.134-150.224. Mon May 19 04:19   still running
 *     reboot   system boot  6.1.134-150.224. Mon May 12 00:00 - 04:18 (7+04:18)
 *
 *     wtmp begins Thu May  1 00:00:02 2025
 *
 * Newest first; minute precision (`last -F` prints seconds and the year: accepted); the year
 * appears only on the `wtmp begins` line at the end. Each `reboot` row is a record whose time is
 * the boot (local time, zone of the file) with `bootDecl` stating it (lib/normalise/boots.ts);
 * `shutdown system down` rows (`last -x`) are records without it. The `wtmp begins` line is a
 * header banner: at `finish`, the rows take years walking from the oldest row (the first year at
 * or after `wtmp begins`) to the newest (each at or after the one before it). Component `wtmp`.
 */
import { sniffRatio } from "./helpers/sniff-util";
import { monthFromAbbrev, naiveMs } from "./helpers/time-util";
import type { FormatSpec, LineParser, LineResult, ParsedRecord, WallTime } from "./types";

const ROW =
  /^(reboot|shutdown)\s+system (boot|down)\s+(\S+)\s+(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]?\d) (\d{2}):(\d{2})(?::(\d{2}))?(?: (\d{4}))?\s*(.*)$/;
const WTMP = /^wtmp begins (?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]?\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})\s*$/;

class LastParser implements LineParser {
  private readonly rows: ParsedRecord[] = [];
  private begins: WallTime | null = null;

  parseLine(line: string): LineResult {
    const w = WTMP.exec(line);
    if (w) {
      this.begins = {
        year: Number(w[6]),
        month: monthFromAbbrev(w[1]),
        day: Number(w[2].trim()),
        hour: Number(w[3]),
        minute: Number(w[4]),
        second: Number(w[5]),
        ms: 0,
        offsetMin: null,
        precision: "s",
      };
      return { type: "banner", banner: { type: "header", time: this.begins } };
    }
    const m = ROW.exec(line);
    if (!m) return null;
    const month = monthFromAbbrev(m[4]);
    if (month === 0) return null;
    const time: WallTime = {
      year: m[9] ? Number(m[9]) : null,
      month,
      day: Number(m[5].trim()),
      hour: Number(m[6]),
      minute: Number(m[7]),
      second: m[8] ? Number(m[8]) : 0,
      ms: 0,
      offsetMin: null,
      precision: m[8] ? "s" : "min",
    };
    const boot = m[1] === "reboot";
    const rest = m[10].trim();
    const record: ParsedRecord = {
      time,
      component: "wtmp",
      severity: boot ? 1 : 2,
      message: boot ? `system boot (kernel ${m[3]}): ${rest}` : `system down (kernel ${m[3]}): ${rest}`,
      fields: { kernel: m[3], until: rest },
    };
    if (boot) record.bootDecl = { id: null, lastMs: null, source: "last-reboot" };
    this.rows.push(record);
    return { type: "record", record };
  }

  /** Years from `wtmp begins` (see the module comment). */
  finish(): void {
    if (!this.begins) return;
    let prev = naiveMs(this.begins, this.begins.year as number);
    let year = this.begins.year as number;
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const t = this.rows[i].time as WallTime;
      if (t.year !== null) {
        prev = naiveMs(t, t.year);
        year = t.year;
        continue;
      }
      let y = year;
      while (naiveMs(t, y) < prev || Number.isNaN(naiveMs(t, y))) {
        y++;
        if (y > year + 8) break;
      }
      t.year = y;
      prev = naiveMs(t, y);
      year = y;
    }
  }
}

const SNIFF = /^(?:reboot|shutdown)\s+system (?:boot|down)\s+/;

/** Format spec: `last reboot` / `last -x reboot` output. */
export const lastRebootSpec: FormatSpec = {
  name: "last-reboot",
  kind: "wtmp",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => SNIFF.test(l) || WTMP.test(l)),
  createParser: () => new LastParser(),
  newestFirst: true,
  samples: [
    {
      line: "reboot   system boot  6.1.134-150.224. Mon May 19 04:19   still running",
      after: ["reboot   system boot  6.1.134-150.224. Mon May 12 00:00 - 04:18 (7+04:18)", "wtmp begins Thu May  1 00:00:02 2025"],
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 19, second: 0, ms: 0, offsetMin: null, precision: "min" },
        component: "wtmp",
        severity: 1,
        message: "system boot (kernel 6.1.134-150.224.): still running",
        bootDecl: { id: null, lastMs: null, source: "last-reboot" },
      },
    },
    {
      // across a new year: the older row stays in the year wtmp begins
      line: "reboot   system boot  5.10.215-203.850 Fri Jan  3 08:12   still running",
      after: ["reboot   system boot  5.10.215-203.850 Tue Dec 31 23:50 - 08:10 (2+08:20)", "wtmp begins Sun Dec  1 00:00:02 2024"],
      expect: { time: { year: 2025, month: 1, day: 3, hour: 8, minute: 12, second: 0, ms: 0, offsetMin: null, precision: "min" } },
    },
    { line: "wtmp begins Thu May  1 00:00:02 2025", expect: { banner: { type: "header" } } },
  ],
  notMine: [
    "root     pts/0        10.0.0.1         Mon May 19 04:25   still logged in",
    " -1 6c0f2ea14b7d4e1a9c3358b0f2d7e611 Mon 2025-05-12 00:00:03 UTC Mon 2025-05-19 04:18:52 UTC",
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
  ],
};
