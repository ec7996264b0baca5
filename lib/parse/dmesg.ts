/**
 * Kernel ring buffer dumps, every time format of util-linux `dmesg` (sys-utils/dmesg.c) and the
 * raw `/dev/kmsg` records (kernel Documentation/ABI/testing/dev-kmsg), as collectors and pastes hold them
 * (EKS `kernel/dmesg.*`, Rancher `systeminfo/dmesg`, Bottlerocket `dmesg`, consoles).
 *
 *     [   11.803512] ena 0000:00:05.0 eth0: ENA device version: 0.10        raw: seconds since boot
 *     <6>[   11.803512] ena 0000:00:05.0 …                                 `dmesg -r`, console with PRI
 *     <12>[   46.972729] [talos] service[kubelet](Waiting): …              Talos machined via kmsg
 *     kern  :info  : [   11.803512] ena …                                   `dmesg -x` (facility:level)
 *     [   11.803512 <    0.000057>] ena …                                   `dmesg -d`
 *     [Mon May 19 04:20:07 2025] ena …                                      `-T` / `--ctime`: local time
 *     [Mi Apr  6 18:23:24 2022] cni0: port 8(veth…) entered disabled state  `-T` in a German locale
 *     [May19 04:20] ena …  /  [  +0.000057] …                              `-e` / `--reltime`
 *     2022-04-06T18:23:24,123456+02:00 ena …                                `--time-format iso`
 *     6,339,5140900,-;NET: Registered protocol family 10                     `cat /dev/kmsg`
 *
 * Seconds since boot (raw, `-d`, kmsg µs): no wall time. Such a record keeps `time: null` and
 * the seconds as printed in `fields.uptime` (kmsg: its µs written as seconds with 6 decimals);
 * the timeline places it at T+uptime of its boot when something anchors that boot, else it stays
 * without UTC. A fall of the clock towards 0 is a new boot (parse-file.ts).
 *
 * `-T` prints strftime `%a %b %e %H:%M:%S %Y` in the node's locale: weekday and month in any
 * language (locale-names.ts; ja/ko months 1-9 padded with a blank), space-padded day, year
 * last, whole seconds, local time without zone. The weekday must agree with the date. A line cut
 * inside its stamp is still a record, timed from what is left (no year: from the neighbours;
 * no seconds: minute precision; less than month, day and hh:mm: no time), with an empty message.
 *
 * Severity: the `<PRI>` / kmsg priority (low 3 bits) or `-x` level when printed; with no level
 * printed the record is info (1), as every format without a level. Component `kernel`; a
 * `[talos]` message is machined's or its service's (talos-message.ts); a user-space line
 * `ident[pid]: message` (journald `ForwardToKMsg=`, a VM's serial console) is its program's, read
 * like a journal entry's MESSAGE (a klog line gives its own stamp and level; `fields.uptime` kept). Lines indented with
 * blanks (a multi-line message, kmsg `SUBSYSTEM=`/`DEVICE=` properties, also unindented) are
 * continuations.
 */
import { localMonth, dayOfWeek, weekdayMask } from "./helpers/locale-names";
import { sniffRatio } from "./helpers/sniff-util";
import { envelopeRecord } from "./helpers/component";
import { applyTalos, isTalosMessage } from "./helpers/talos-message";
import { monthFromAbbrev, parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineParser, LineResult, ParsedRecord, Severity, WallTime } from "./types";

/** syslog severity (0 emerg … 7 debug) → Severity */
export const PRIORITY_SEVERITY: readonly Severity[] = [4, 4, 4, 3, 2, 1, 1, 0];

/** `dmesg -x` / talosctl level names → Severity */
export const LEVEL_SEVERITY: Readonly<Record<string, Severity>> = {
  emerg: 4,
  alert: 4,
  crit: 4,
  err: 3,
  error: 3,
  warn: 2,
  warning: 2,
  notice: 1,
  info: 1,
  debug: 0,
};

/** `<PRI>` or `fac :level : ` before the stamp. groups: 1 PRI, 2 level name */
const PREFIX =
  /^(?:<(\d{1,3})>|(?:kern|user|mail|daemon|auth|syslog|lpr|news|uucp|cron|authpriv|ftp|res[0-3]|local[0-7]) *: *(emerg|alert|crit|err|warn|notice|info|debug) *: )/;
/** `[  uptime]` or `-d`'s `[  uptime <  delta>]`; groups: 1 seconds, 2 text */
const RAW = /^\[\s*(\d+\.\d+)(?: <\s*\d+\.\d+>)?\] ?(.*)$/;
/** `-e` delta line `[  +0.000057] text`; group 1 text */
const DELTA = /^\[\s*\+\d+\.\d+\] ?(.*)$/;
/** kmsg record: groups 1 priority (with facility), 2 µs since boot, 3 text */
const KMSG = /^(\d{1,4}),\d+,(\d+)(?:,[^;]*)?;(.*)$/;
/** `--time-format iso`; groups 1 stamp, 2 text */
const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[,.]\d{6}(?:[+-]\d{2}:?\d{2}|Z)) ?(.*)$/;
/** kmsg dictionary properties printed unindented (talosctl, raw copies) */
const PROPERTY = /^(?:SUBSYSTEM|DEVICE)=/;

/**
 * A user-space line in the ring buffer, `ident[pid]: message`: journald's `ForwardToKMsg=`, or a
 * console that shows both (a cloud VM's serial port output); the kernel's own `comm[pid]: segfault
 * at …` report is the kernel's. Groups: ident, pid, message.
 */
const USER_LINE = /^([A-Za-z_][\w@.-]{0,63})\[(\d+)\]: (?!segfault at )(.*)$/;

function recordOf(time: WallTime | null, severity: Severity, message: string, uptime?: string): ParsedRecord {
  const user = USER_LINE.exec(message);
  // a user-space line: its program and, when it is a component line (klog, logrus), its own stamp and level
  const rec: ParsedRecord = user
    ? envelopeRecord({ time, ident: user[1], pid: Number(user[2]), severity }, user[3])
    : { time, component: "kernel", severity, message };
  if (uptime !== undefined) rec.fields = rec.fields ? { ...rec.fields, uptime } : { uptime };
  if (isTalosMessage(message)) applyTalos(rec, message);
  return rec;
}

/** Month of a `%b` token: C locale first, then any locale (locale-names.ts); 0 when none. */
function monthOf(t: string): number {
  return (t.length === 3 && monthFromAbbrev(t)) || localMonth(t);
}

const DIGITS = /^\d{1,2}$/;

/**
 * The bracketed wall-clock stamp of `-T` / `-e` (`s` starts after `[`): a record, or null when
 * the text is no such stamp. `close` is the index of `]` in `s`, -1 when the line was cut inside it.
 */
function parseBracketStamp(s: string, close: number, severity: Severity): LineResult {
  const text = close < 0 ? "" : s.charCodeAt(close + 1) === 32 ? s.slice(close + 2) : s.slice(close + 1);
  if (close === 24) {
    const fast = cLocaleCtime(s, severity, text);
    if (fast !== null) return fast;
  }
  const stamp = close < 0 ? s : s.slice(0, close);
  const tok = stamp.trim().split(/\s+/);
  if (tok[0] === "") return null;
  // `-e`: `May19 04:20` (month and day glued)
  const glued = /^(\D+?)(\d{1,2})$/.exec(tok[0]);
  if (glued) {
    const mo = monthOf(glued[1]);
    return mo ? clockRecord(mo, Number(glued[2]), tok[1], undefined, severity, text) : null;
  }
  // month first (`Apr  6 18:23`), else weekday first (`-T`)
  let k = 0;
  let wd = 0;
  let month = tok.length > 1 && DIGITS.test(tok[1]) ? monthOf(tok[0]) : 0;
  if (month === 0) {
    wd = weekdayMask(tok[0]);
    if (wd === 0 && !/^[^\d[\]<>:]{1,6}$/.test(tok[0])) return null;
    if (tok.length === 1) return wd ? { type: "record", record: recordOf(null, severity, text) } : null;
    k = 1;
    month = monthOf(tok[1]);
    if (month === 0) return null;
  }
  const dayTok = tok[k + 1];
  if (dayTok === undefined) return { type: "record", record: recordOf(null, severity, text) };
  if (!DIGITS.test(dayTok)) return null;
  const day = Number(dayTok);
  const yearTok = tok[k + 3];
  let year: number | undefined;
  if (yearTok !== undefined && !(close < 0 && /^\d{1,3}$/.test(yearTok))) {
    if (!/^\d{4}$/.test(yearTok) || tok.length > k + 4) return null;
    year = Number(yearTok);
    if (wd !== 0 && day <= 31 && (wd & (1 << dayOfWeek(year, month, day))) === 0) return null;
  }
  return clockRecord(month, day, tok[k + 2], year, severity, text);
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Columns of the digits in a `-T` stamp `Www Mmm dd hh:mm:ss yyyy` (the day's are checked apart). */
const CTIME_DIGITS = [11, 12, 14, 15, 17, 18, 20, 21, 22, 23];

/**
 * Fast path of `parseBracketStamp` for the common `-T` stamp, `Www Mmm dd hh:mm:ss yyyy` with a
 * C-locale month and a known weekday (`s` starts after `[`, `]` at 24), read by its fixed columns:
 * the same record the general reader gives. Null for anything else (the general reader decides).
 */
function cLocaleCtime(s: string, severity: Severity, text: string): LineResult {
  if (
    s.charCodeAt(3) !== 32 ||
    s.charCodeAt(7) !== 32 ||
    s.charCodeAt(10) !== 32 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58 ||
    s.charCodeAt(19) !== 32
  )
    return null;
  if (!isAsciiLetter(s.charCodeAt(0)) || !isAsciiLetter(s.charCodeAt(1)) || !isAsciiLetter(s.charCodeAt(2))) return null;
  const month = monthFromAbbrev(s, 4);
  if (month === 0) return null;
  const d1 = s.charCodeAt(8);
  const d2 = s.charCodeAt(9);
  if (!isDigitCode(d2) || (d1 !== 32 && !isDigitCode(d1))) return null;
  for (let k = 0; k < CTIME_DIGITS.length; k++) if (!isDigitCode(s.charCodeAt(CTIME_DIGITS[k]))) return null;
  const wd = weekdayMask(s.slice(0, 3));
  if (wd === 0) return null;
  const day = (d1 === 32 ? 0 : (d1 - 48) * 10) + (d2 - 48);
  const year = (s.charCodeAt(20) - 48) * 1000 + (s.charCodeAt(21) - 48) * 100 + (s.charCodeAt(22) - 48) * 10 + (s.charCodeAt(23) - 48);
  const hour = (s.charCodeAt(11) - 48) * 10 + (s.charCodeAt(12) - 48);
  const minute = (s.charCodeAt(14) - 48) * 10 + (s.charCodeAt(15) - 48);
  const second = (s.charCodeAt(17) - 48) * 10 + (s.charCodeAt(18) - 48);
  if (day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  if ((wd & (1 << dayOfWeek(year, month, day))) === 0) return null;
  const time: WallTime = { year, month, day, hour, minute, second, ms: 0, offsetMin: null, precision: "s" };
  return { type: "record", record: recordOf(time, severity, text) };
}

/** Record of a month/day and what is left of `hh:mm[:ss]` (cut stamps keep what they have). */
function clockRecord(month: number, day: number, clock: string | undefined, year: number | undefined, severity: Severity, text: string): LineResult {
  if (day < 1 || day > 31) return null;
  if (clock === undefined) return { type: "record", record: recordOf(null, severity, text) };
  const m = /^(\d{1,2})(?::(\d{2})(?::(\d{2}))?)?$/.exec(clock);
  if (!m) return null;
  if (m[2] === undefined) return { type: "record", record: recordOf(null, severity, text) };
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = m[3] === undefined ? 0 : Number(m[3]);
  if (hour > 23 || minute > 59 || second > 60) return null;
  const time: WallTime = {
    year: year ?? null,
    month,
    day,
    hour,
    minute,
    second,
    ms: 0,
    offsetMin: null,
    precision: m[3] === undefined ? "min" : "s",
  };
  return { type: "record", record: recordOf(time, severity, text) };
}

/** Parse one dmesg line (any of the module comment's shapes); null when not one. */
export function parseDmesgLine(line: string): LineResult {
  let s = line;
  let severity: Severity = 1;
  let c0 = s.charCodeAt(0);
  if (c0 !== 91) {
    if (c0 === 60 || (c0 >= 97 && c0 <= 122)) {
      const p = PREFIX.exec(s);
      if (p) {
        severity = p[1] !== undefined ? PRIORITY_SEVERITY[Number(p[1]) & 7] : LEVEL_SEVERITY[p[2]];
        s = s.slice(p[0].length);
        c0 = s.charCodeAt(0);
      }
    }
    if (c0 >= 48 && c0 <= 57) {
      const k = KMSG.exec(s);
      if (k) {
        const us = k[2].padStart(7, "0");
        return { type: "record", record: recordOf(null, PRIORITY_SEVERITY[Number(k[1]) & 7], k[3], `${us.slice(0, -6)}.${us.slice(-6)}`) };
      }
      const iso = ISO.exec(s);
      if (!iso) return null;
      const time = parseIsoStamp(iso[1].replace(",", "."));
      return time ? { type: "record", record: recordOf(time, severity, iso[2]) } : null;
    }
    if (c0 !== 91) return null;
  }
  const c1 = s.charCodeAt(1);
  if (c1 === 32 || (c1 >= 48 && c1 <= 57)) {
    const m = RAW.exec(s);
    if (m) return { type: "record", record: recordOf(null, severity, m[2], m[1]) };
    const d = DELTA.exec(s);
    return d ? { type: "record", record: recordOf(null, severity, d[1]) } : null;
  }
  return parseBracketStamp(s.slice(1), s.indexOf("]") - 1, severity);
}

class DmesgParser implements LineParser {
  readonly settled = true;
  private seen = false;

  parseLine(line: string): LineResult {
    const c = line.charCodeAt(0);
    if (this.seen && (c === 32 || c === 9 || (c === 83 || c === 68 ? PROPERTY.test(line) : false))) {
      return { type: "continuation", text: line.trim() };
    }
    const res = parseDmesgLine(line);
    if (res) this.seen = true;
    return res;
  }
}

/**
 * First lines of a dmesg dump: raw lines that look like `host ident[pid]: ` after the stamp are
 * journal short-monotonic; `-T` stamps need a known weekday and month.
 */
const SNIFF_RAW =
  /^(?:(?:<\d{1,3}>|[a-z0-9]+ *: *[a-z]+ *: )\[\s*\+?\d+\.\d+(?: <\s*\d+\.\d+>)?\]|\[\s*\+?\d+\.\d+(?: <\s*\d+\.\d+>)?\](?! ?\S+ [^\s[:]+(?:\[\d+\])?: ))/;
const SNIFF_CTIME = /^(?:<\d{1,3}>|[a-z0-9]+ *: *[a-z]+ *: )?\[(\S{1,8}) +(\S{1,8}) +\d{1,2} \d{2}:\d{2}:\d{2} \d{4}\] /;
const SNIFF_OTHER = /^(?:\d{1,4},\d+,\d+(?:,[^;]*)?;|\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2},\d{6}(?:[+-]\d{2}:?\d{2}|Z) )/;

function sniffLine(l: string): boolean {
  if (SNIFF_RAW.test(l) || SNIFF_OTHER.test(l)) return true;
  const m = SNIFF_CTIME.exec(l);
  return m !== null && weekdayMask(m[1]) !== 0 && (monthFromAbbrev(m[2]) !== 0 || localMonth(m[2]) !== 0);
}

/** Format spec: kernel ring buffer dumps (`dmesg` in every time format, `/dev/kmsg`). */
export const dmesgSpec: FormatSpec = {
  name: "dmesg",
  kind: "kernel",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF_RAW, sniffLine),
  createParser() {
    return new DmesgParser();
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
        severity: 1,
        message: "ena 0000:00:05.0 eth0: ENA device version: 0.10",
      },
    },
    {
      // French locale: weekday and month with dots, space-padded day
      line: "[sam. mars  2 07:41:09 2024] cni0: port 3(veth6a1f2c0e) entered forwarding state",
      expect: {
        time: { year: 2024, month: 3, day: 2, hour: 7, minute: 41, second: 9, ms: 0, offsetMin: null, precision: "s" },
        severity: 1,
        message: "cni0: port 3(veth6a1f2c0e) entered forwarding state",
      },
    },
    {
      // Japanese locale: month 1-9 padded with a blank
      line: "[金  1月 12 23:05:51 2024] IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready",
      expect: {
        time: { year: 2024, month: 1, day: 12, hour: 23, minute: 5, second: 51, ms: 0, offsetMin: null, precision: "s" },
        message: "IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready",
      },
    },
    {
      // cut inside its stamp: a record without year or text
      context: ["[Do Okt 13 09:12:44 2022] device vethb1c9d2a7 left promiscuous mode"],
      line: "[Do Okt 13 09:12:44",
      expect: {
        time: { year: null, month: 10, day: 13, hour: 9, minute: 12, second: 44, ms: 0, offsetMin: null, precision: "s" },
        message: "",
      },
    },
    {
      // console / `dmesg -r`: syslog priority (3 = err) before the uptime
      line: "<3>[  812.440913] Out of memory: Killed process 20817 (kubelet) total-vm:1987624kB",
      expect: {
        time: null,
        component: "kernel",
        severity: 3,
        message: "Out of memory: Killed process 20817 (kubelet) total-vm:1987624kB",
        fields: { uptime: "812.440913" },
      },
    },
    {
      // Talos machined through kmsg: facility user, severity warning; the service is the component
      line: "<12>[   31.118204] [talos] service[etcd](Running): Health check failed: context deadline exceeded",
      expect: {
        time: null,
        component: "etcd",
        severity: 2,
        message: "[talos] service[etcd](Running): Health check failed: context deadline exceeded",
        fields: { uptime: "31.118204", service: "etcd", state: "Running" },
      },
    },
    {
      line: "kern  :warn  : [ 4021.007715] TCP: request_sock_TCP: Possible SYN flooding on port 10250. Sending cookies.",
      expect: {
        time: null,
        severity: 2,
        message: "TCP: request_sock_TCP: Possible SYN flooding on port 10250. Sending cookies.",
        fields: { uptime: "4021.007715" },
      },
    },
    {
      line: "6,1284,95518804,-;cni0: port 2(vethb1c9d2a7) entered blocking state",
      expect: { time: null, component: "kernel", severity: 1, message: "cni0: port 2(vethb1c9d2a7) entered blocking state", fields: { uptime: "95.518804" } },
    },
    {
      line: "2024-03-02T07:41:09,518804+01:00 cni0: port 2(vethb1c9d2a7) entered disabled state",
      expect: {
        time: { year: 2024, month: 3, day: 2, hour: 7, minute: 41, second: 9, ms: 518, offsetMin: 60, precision: "us" },
        message: "cni0: port 2(vethb1c9d2a7) entered disabled state",
      },
    },
  ],
  notMine: [
    "May 19 04:20:07 ip-10-20-30-40 kernel: Linux version 6.1",
    "[INFO] something",
    "I0519 04:20:10.100200       1 main.go:231] x",
    "[Foo Bar 19 04:20:07 2025] not a stamp",
    "2025-05-19T04:20:09.104730000+00:00 stdout F listening on :8080",
  ],
};
