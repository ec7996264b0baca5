/**
 * `journalctl -o verbose`: upstream systemd `src/shared/logs-show.c` (`output_verbose`).
 *
 *     Thu 2017-10-12 21:22:44.858901 CDT [s=b9bc…;i=188b;b=b0ca…;m=1858abae7;t=15f2d8c3c834a;x=7504…]
 *         PRIORITY=6
 *         _BOOT_ID=b0ca4a9fc52ec1d22af0a385a9024276
 *         _HOSTNAME=node-p
 *         SYSLOG_IDENTIFIER=kubelet
 *         _PID=2817
 *         MESSAGE=I1012 21:22:44.858842    2817 kubelet.go:2321] "Starting kubelet main sync loop"
 *
 * One entry = a header line (weekday, date with year, time with µs, the zone as strftime `%Z`
 * prints it, the cursor in brackets) and indented `KEY=VALUE` lines (4 blanks). A value holding
 * line breaks goes on over lines indented further (to the value's column). The header is the
 * record; the field lines are its continuations (adding no text), read when the entry is complete
 * (next header or end of file: `finish`).
 *
 * Time: the printed header (local time of the collecting shell, its zone abbreviation →
 * offset, time-util.ts `ZONE_ABBREVIATIONS`; an unknown name leaves the offset to the file's
 * zone). The cursor's `t=` (hex µs since the epoch) is not used: excerpts replace hex fields like
 * ids. The MESSAGE goes through the component parsers: its own stamp wins and takes the year and
 * offset of the header when it has none (klog). `PRIORITY` → severity when the MESSAGE has no
 * level; `_BOOT_ID` (else the cursor's `b=`) → bootId; `_HOSTNAME` → host; `SYSLOG_IDENTIFIER`
 * (else `_COMM`) → identifier; `_PID` (else `SYSLOG_PID`) → pid; `_SYSTEMD_UNIT` → `fields.unit`.
 * An entry with no MESSAGE is kept with an empty message. Journal banners (`-- Boot … --`) as in
 * journal-short. The weekday may be localised in older
 * systemd (strftime `%a`): any token is accepted there.
 */
import { envelopeRecord } from "./helpers/component";
import { parseJournalBanner } from "./helpers/journal-banner";
import { fieldText, severityOfPriority } from "./helpers/journal-fields";
import { sniffRatio } from "./helpers/sniff-util";
import { zoneFromToken } from "./helpers/time-util";
import type { FormatSpec, LineParser, LineResult, ParsedRecord, WallTime } from "./types";

/** groups: 1 year, 2 month, 3 day, 4 h, 5 m, 6 s, 7 fraction, 8 zone, 9 cursor */
const HEADER = /^\S+ (\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?: ([A-Za-z]{1,6}|[+-]\d{2}(?::?\d{2})?))? \[(s=[0-9a-f]+;[^\]]*)\]\s*$/;
const FIELD = /^ {4}([A-Za-z0-9_]+)=(.*)$/;
const BOOT_IN_CURSOR = /(?:^|;)b=([0-9a-f]{32})(?:;|$)/;

/** Header line → its stamp and cursor; null when not one. */
export function parseVerboseHeader(line: string): { time: WallTime; cursor: string } | null {
  const m = HEADER.exec(line);
  if (!m) return null;
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const frac = m[7] ?? "";
  const zone = m[8] ? zoneFromToken(m[8]) : null;
  return {
    time: {
      year: Number(m[1]),
      month,
      day,
      hour,
      minute,
      second,
      ms: frac ? Math.floor(Number(`${frac}000`.slice(0, 3))) : 0,
      offsetMin: zone ? zone.offsetMin : null,
      precision: frac.length === 0 ? "s" : frac.length <= 3 ? "ms" : "us",
    },
    cursor: m[9],
  };
}

/** The record of one complete entry: header stamp, cursor and field map. */
export function verboseRecord(time: WallTime, cursor: string, f: Record<string, string>): ParsedRecord {
  const pidText = f._PID ?? f.SYSLOG_PID;
  const ident = fieldText(f.SYSLOG_IDENTIFIER) ?? fieldText(f._COMM);
  const rec = envelopeRecord(
    {
      time,
      host: f._HOSTNAME,
      ident,
      pid: pidText && /^\d+$/.test(pidText) ? Number(pidText) : undefined,
      severity: severityOfPriority(f.PRIORITY),
    },
    f.MESSAGE ?? "",
  );
  for (const k of ["host", "ident", "pid"] as const) if (rec[k] === undefined) delete rec[k];
  const boot = f._BOOT_ID && /^[0-9a-f]{32}$/.test(f._BOOT_ID) ? f._BOOT_ID : BOOT_IN_CURSOR.exec(cursor)?.[1];
  if (boot) rec.bootId = boot;
  if (f._SYSTEMD_UNIT) rec.fields = { ...(rec.fields ?? {}), unit: f._SYSTEMD_UNIT };
  return rec;
}

class VerboseParser implements LineParser {
  private record: ParsedRecord | null = null;
  private time: WallTime | null = null;
  private cursor = "";
  private fields: Record<string, string> = {};
  private lastKey = "";

  private complete(): void {
    const r = this.record;
    if (!r || !this.time) return;
    this.record = null;
    const built = verboseRecord(this.time, this.cursor, this.fields);
    const target = r as unknown as Record<string, unknown>;
    for (const k of Object.keys(target)) delete target[k];
    Object.assign(target, built);
  }

  finish(): void {
    this.complete();
  }

  parseLine(line: string): LineResult {
    const c = line.charCodeAt(0);
    if (c === 45) {
      const b = parseJournalBanner(line);
      if (!b) return null;
      this.complete();
      return { type: "banner", banner: b };
    }
    if (c !== 32 && c !== 9) {
      const h = parseVerboseHeader(line);
      if (!h) return null;
      this.complete();
      this.time = h.time;
      this.cursor = h.cursor;
      this.fields = {};
      this.lastKey = "";
      this.record = { time: h.time, component: "unknown", severity: 1, message: "" };
      return { type: "record", record: this.record };
    }
    if (!this.record) return null;
    const m = line.charCodeAt(4) !== 32 ? FIELD.exec(line) : null;
    if (m) {
      this.fields[m[1]] ??= m[2];
      this.lastKey = m[1];
      return { type: "continuation", text: "" };
    }
    // a value's further lines, indented to its column
    if (this.lastKey) this.fields[this.lastKey] += `\n${line.trim()}`;
    return { type: "continuation", text: "" };
  }
}

const SNIFF = /^\S+ \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?: \S+)? \[s=[0-9a-f]+;[^\]]*\]\s*$/;

/** Format spec: `journalctl -o verbose` dumps. */
export const journalVerboseSpec: FormatSpec = {
  name: "journal-verbose",
  kind: "journal",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    return new VerboseParser();
  },
  samples: [
    {
      line: "Mon 2025-05-19 04:20:07.512401 UTC [s=0a1b2c3d4e5f;i=4f2a;b=6c0f2ea14b7d4e1a9c3358b0f2d7e611;m=b41a38;t=6357e8f1c2a51;x=9e1d]",
      after: [
        "    _TRANSPORT=stdout",
        "    PRIORITY=6",
        "    SYSLOG_IDENTIFIER=kubelet",
        "    _PID=2817",
        "    _BOOT_ID=6c0f2ea14b7d4e1a9c3358b0f2d7e611",
        "    _HOSTNAME=ip-10-20-30-40",
        "    _SYSTEMD_UNIT=kubelet.service",
        '    MESSAGE=E0519 04:20:07.512344    2817 kubelet.go:3002] "Container runtime network not ready" networkReady="NetworkReady=false"',
      ],
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 512, offsetMin: 0, precision: "us" },
        host: "ip-10-20-30-40",
        ident: "kubelet",
        pid: 2817,
        component: "kubelet",
        severity: 3,
        bootId: "6c0f2ea14b7d4e1a9c3358b0f2d7e611",
        message: 'Container runtime network not ready networkReady="NetworkReady=false"',
        fields: { networkReady: "NetworkReady=false", unit: "kubelet.service" },
      },
    },
    {
      // zone abbreviation (US Central, summer); a plain MESSAGE keeps the header's time and PRIORITY's severity
      line: "Sat 2024-06-01 09:15:02.000118 CDT [s=77aa;i=2;b=0123456789abcdef0123456789abcdef;m=2f;t=61a;x=1]",
      after: ["    PRIORITY=4", "    SYSLOG_IDENTIFIER=systemd", "    _PID=1", "    MESSAGE=kubelet.service: Scheduled restart job, restart counter is at 3."],
      expect: {
        time: { year: 2024, month: 6, day: 1, hour: 9, minute: 15, second: 2, ms: 0, offsetMin: -300, precision: "us" },
        component: "systemd",
        severity: 2,
        bootId: "0123456789abcdef0123456789abcdef",
        message: "kubelet.service: Scheduled restart job, restart counter is at 3.",
      },
    },
  ],
  notMine: [
    "Mon 2025-05-19 04:20:07 UTC ip-10-20-30-40 kubelet[2817]: x",
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "__CURSOR=s=0a1b;i=1;b=6c0f2ea14b7d4e1a9c3358b0f2d7e611;m=1;t=2;x=3",
  ],
};
