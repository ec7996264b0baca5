/**
 * journalctl `-o short` (the default of every collector) and `-o short-precise`, and traditional
 * rsyslog files (`/var/log/messages`; docs/formats-journal-kernel.md); upstream systemd
 * `src/shared/logs-show.c` (`output_short`).
 *
 *     Mar 10 14:23:33 node-p kubelet[74160]: E0310 14:23:33.100579   74160 log.go:32] "StopPodSandbox …" err="…"
 *     May 19 04:20:07.512401 ip-10-20-30-40 kubenswrapper[2817]: I0519 04:20:07.512344 …      (short-precise)
 *     May  9 04:20:07 ip-10-20-30-40 kubelet: I0509 …                                          (rsyslog: space-padded day, no pid)
 *
 * No year, no zone (the collecting shell's local time). The MESSAGE goes through the component
 * parsers (component.ts): the record's time is the component's own stamp when it has one.
 * Banners (`-- Boot … --`, `-- Logs begin at … --`, …) are banners; lines indented with spaces are
 * continuations of a multi-line MESSAGE.
 */
import { type Envelope, envelopeRecordOf, parseComponentMessage } from "./helpers/component";
import { isPaddedCjkMonth, JournalEnvelopeParser } from "./journal-envelope";
import { sniffRatio } from "./helpers/sniff-util";
import { localMonth } from "./helpers/locale-names";
import { d2, digitsValue, monthFromAbbrev } from "./helpers/time-util";
import type { FormatSpec, LineResult, Severity, WallTime } from "./types";

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Host and identifier of the last line: the next line most often repeats them (one string kept, not one per line). */
let lastHost = "";
let lastIdent = "";

/**
 * line[start..end), or `last` when it holds the same text. A new value is copied out of the line
 * (concatenation, then slice: V8 flattens it into a string of its own), so that the strings kept
 * here and shared by the records do not hold the whole file's text in memory after the parse.
 */
function sliceOrLast(line: string, start: number, end: number, last: string): string {
  if (end - start === last.length && line.startsWith(last, start)) return last;
  return ` ${line.slice(start, end)}`.slice(1);
}

/**
 * Parse the envelope of one journal short line (`Mon DD hh:mm:ss[.uuuuuu] host ident[pid]: msg`)
 * into a record, the MESSAGE going through the component parsers; null
 * when the line is not one. Hand-written scanner for the C-locale month (the hot path): fixed
 * stamp columns, then `indexOf`; host and identifier equal to the previous line's are that line's
 * strings (no new substring). Other prefixes (a localised month, a prefix that lost its month)
 * go through `parseOtherPrefix`, only when the English month is not there.
 */
export function parseJournalShortLine(line: string): LineResult {
  const month = monthFromAbbrev(line, 0);
  if (month === 0 || line.charCodeAt(3) !== 32 || line.charCodeAt(6) !== 32) return parseOtherPrefix(line);
  return parseCLocaleLine(line, month);
}

/**
 * A line of a journal short file: `parseJournalShortLine`, else a line cut inside its prefix
 * (`parseCutPrefix`). Only for a file of this format: a payload elsewhere (a cloud entry's text)
 * that looks like a cut prefix keeps its text.
 */
export function parseJournalShortFileLine(line: string): LineResult {
  const res = parseJournalShortLine(line);
  return res === null && line.length <= CUT_MAX ? parseCutPrefix(line) : res;
}

/** Longest line `parseCutPrefix` tries: a month token, day, clock with µs, a host of 40. */
const CUT_MAX = 80;
/** A prefix that ends after the minute, the second or the host column (groups: month, day, h, m, s, µs, host). */
const CUT_PREFIX = /^ ?(\S{1,12}) {1,2}(\d{1,2}) ([0-2]\d):([0-5]\d)(?::([0-6]\d)(?:\.(\d{1,6}))?)?(?: (\S+))?\s*$/;

/**
 * A line cut inside its prefix (`sept. 20 16:43`: an excerpt that stops mid-line, a terminal cut
 * at its right edge): a record timed to what the stamp still shows (precision `min` when the
 * seconds are gone), with the host when it is there and an empty message, so that the line stays
 * a line of its own instead of continuing the record before it. Null when the month token is no
 * month.
 */
function parseCutPrefix(line: string): LineResult {
  const m = CUT_PREFIX.exec(line);
  if (!m) return null;
  const month = (m[1].length === 3 ? monthFromAbbrev(m[1], 0) : 0) || localMonth(m[1]);
  const day = Number(m[2]);
  const hour = Number(m[3]);
  if (month === 0 || day < 1 || day > 31 || hour > 23) return null;
  const frac = m[6] ?? "";
  const time: WallTime = {
    year: null,
    month,
    day,
    hour,
    minute: Number(m[4]),
    second: m[5] === undefined ? 0 : Number(m[5]),
    ms: frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0,
    offsetMin: null,
    precision: m[5] === undefined ? "min" : frac ? "us" : "s",
  };
  const env: Envelope = { time };
  if (m[7] !== undefined) env.host = m[7];
  return { type: "record", record: envelopeRecordOf(env, "", null) };
}

/** `parseJournalShortLine` after a C-locale month (`month`) and the blanks around the day. */
function parseCLocaleLine(line: string, month: number): LineResult {
  const dayTens = line.charCodeAt(4);
  const day = dayTens === 32 ? line.charCodeAt(5) - 48 : d2(line, 4);
  if (day < 1 || day > 31 || !isDigit(line.charCodeAt(5))) return null;
  const hour = d2(line, 7);
  const minute = d2(line, 10);
  const second = d2(line, 13);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return null;
  if (line.charCodeAt(9) !== 58 || line.charCodeAt(12) !== 58) return null;
  let i = 15;
  let precise = false;
  if (line.charCodeAt(i) === 46) {
    for (let k = 16; k < 22; k++) if (!isDigit(line.charCodeAt(k))) return null;
    precise = true;
    i = 22;
  }
  const ms = precise ? (line.charCodeAt(16) - 48) * 100 + (line.charCodeAt(17) - 48) * 10 + (line.charCodeAt(18) - 48) : 0;
  return parseAfterStamp(line, i, month, day, hour, minute, second, ms, precise);
}

/**
 * Localised month token, 1-2 digit day (zero-padded by journalctl, glibc pads ja/ko/zh_TW months
 * 1-9 with a blank: ` 1月 05`). groups: 1 month token, 2 day, 3 h, 4 m, 5 s, 6 µs
 */
const LOCAL_STAMP = /^ ?(\S{1,12}) {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{6}))? /;
/** a prefix cut at its left edge (a pager's horizontal scroll): day or nothing left of the clock */
const LOST_STAMP = /^(?:(\d{1,2}) )?(\d{2}):(\d{2}):(\d{2})(?:\.(\d{6}))? /;

/**
 * A short prefix whose month is not the C locale's (`12月 26 …`, `okt. 29 …`, `Mär 09 …`:
 * locale-names.ts), or that lost its month (`9 12:58:07 node kubelet[6366]: …`, cut by a pager):
 * without a month the record's time is the MESSAGE's own stamp (klog `E1029 …`) or null.
 */
function parseOtherPrefix(line: string): LineResult {
  let m = LOCAL_STAMP.exec(line);
  let month = 0;
  let day = 0;
  let k = 2;
  if (m) {
    month = localMonth(m[1]);
    if (month === 0) m = null;
    else day = Number(m[2]);
  }
  if (!m) {
    m = LOST_STAMP.exec(line);
    if (!m) return null;
    k = 1;
    day = m[1] === undefined ? 0 : Number(m[1]);
  }
  const hour = Number(m[k + 1]);
  const minute = Number(m[k + 2]);
  const second = Number(m[k + 3]);
  if (hour > 23 || minute > 59 || second > 60 || day > 31 || (month !== 0 && day < 1)) return null;
  const frac = m[k + 4];
  const ms = frac === undefined ? 0 : Math.floor(Number(frac) / 1000);
  return parseAfterStamp(line, m[0].length - 1, month, day, hour, minute, second, ms, frac !== undefined);
}

/**
 * The rest of a short line from the blank after its stamp (`i`): ` host ident[pid]: msg`, or
 * ` ident[pid]: msg` without the host column (`journalctl --no-hostname`, syslog from /dev/log).
 * `month` 0: the stamp has no month (the envelope gives no time).
 */
function parseAfterStamp(
  line: string,
  i: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
  precise: boolean,
): LineResult {
  if (line.charCodeAt(i) !== 32) return null;
  let hostStart = i + 1;
  let hostEnd = line.indexOf(" ", hostStart);
  if (hostEnd <= hostStart) return null;
  let identStart = hostEnd + 1;
  if (line.charCodeAt(hostEnd - 1) === 58) {
    // `ident[pid]:` right after the stamp: no host column
    identStart = hostStart;
    hostStart = hostEnd = -1;
  }
  // identifier: up to `[` or `:`, no blanks
  let j = identStart;
  const n = line.length;
  while (j < n) {
    const c = line.charCodeAt(j);
    if (c === 91 || c === 58 || c === 32 || c === 9) break;
    j++;
  }
  if (j === identStart || j >= n) return null;
  const identEnd = j;
  let pid: number | undefined;
  if (line.charCodeAt(j) === 91) {
    const close = line.indexOf("]", j + 1);
    if (close <= j + 1) return null;
    for (let k = j + 1; k < close; k++) if (!isDigit(line.charCodeAt(k))) return null;
    pid = digitsValue(line, j + 1, close);
    j = close + 1;
  }
  if (line.charCodeAt(j) !== 58) return null;
  j++;
  let msg = "";
  if (j < n) {
    if (line.charCodeAt(j) !== 32) return null;
    msg = line.slice(j + 1);
  }
  const parsed = parseComponentMessage(msg);
  let time: WallTime | null = null;
  if ((!parsed || !parsed.time) && month !== 0) {
    time = { year: null, month, day, hour, minute, second, ms, offsetMin: null, precision: precise ? "us" : "s" };
  }
  lastIdent = sliceOrLast(line, identStart, identEnd, lastIdent);
  if (hostStart >= 0) lastHost = sliceOrLast(line, hostStart, hostEnd, lastHost);
  // one literal (absent keys undefined, as envelopeRecordOf reads them): no shape changes per line
  const env: Envelope = {
    time,
    host: hostStart >= 0 ? lastHost : undefined,
    ident: lastIdent,
    pid,
    severity: priSeverity >= 0 ? (priSeverity as Severity) : undefined,
  };
  return { type: "record", record: envelopeRecordOf(env, msg, parsed) };
}

/** Severity of a syslog `<PRI>` the caller stripped before the stamp (syslog-rfc3164.ts), -1 when none. */
let priSeverity = -1;

/**
 * `parseJournalShortLine` for a line whose `<PRI>` the caller removed: `severity` is PRI's (the
 * transport's label), kept only when the MESSAGE has no level of its own.
 */
export function parseShortLineWithPri(line: string, severity: Severity): LineResult {
  priSeverity = severity;
  try {
    return parseJournalShortLine(line);
  } finally {
    priSeverity = -1;
  }
}

const SNIFF = /^[A-Z][a-z]{2} [ 0-3]\d [0-2]\d:[0-5]\d:[0-6]\d(?:\.\d{6})? (?:\S+ )?[^\s[:]+(?:\[\d+\])?: /;
/** localised month token (checked against locale-names.ts) */
const SNIFF_LOCAL = /^(\S{1,12}) {1,2}\d{1,2} [0-2]\d:[0-5]\d:[0-6]\d(?:\.\d{6})? (?:\S+ )?[^\s[:]+(?:\[\d+\])?: /;
/** month lost to a pager's cut: a day is left, and the host column */
const SNIFF_LOST = /^\d{1,2} [0-2]\d:[0-5]\d:[0-6]\d(?:\.\d{6})? \S+ [^\s[:]+(?:\[\d+\])?: /;

/** One sniff line of journal short: C-locale month first (the common case), then the others. */
export function isShortLine(l: string): boolean {
  if (monthFromAbbrev(l, 0) !== 0 && SNIFF.test(l)) return true;
  const m = SNIFF_LOCAL.exec(l);
  if (m && localMonth(m[1]) !== 0) return true;
  return SNIFF_LOST.test(l);
}

/**
 * Sniff lines as journal short reads them: a padded CJK month (` 1月 05 …`) loses its blank,
 * `#` notes are left out.
 */
export function shortSniffLines(lines: string[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    if (l.charCodeAt(0) === 35) continue;
    out.push(l.charCodeAt(0) === 32 && isPaddedCjkMonth(l) ? l.slice(1) : l);
  }
  return out;
}

/** Format spec: journalctl `-o short[-precise]` dumps and traditional rsyslog files. */
export const journalShortSpec: FormatSpec = {
  name: "journal-short",
  kind: "journal",
  sniff: (_path, lines) => sniffRatio(shortSniffLines(lines), SNIFF, isShortLine),
  createParser() {
    return new JournalEnvelopeParser(parseJournalShortFileLine);
  },
  samples: [
    {
      line: 'May 19 04:20:07 ip-10-20-30-40.ec2.internal kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"',
      expect: {
        time: { year: null, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 512, offsetMin: null, precision: "us" },
        host: "ip-10-20-30-40.ec2.internal",
        ident: "kubelet",
        pid: 2817,
        component: "kubelet",
        severity: 1,
        message: "Starting kubelet main sync loop",
      },
    },
    {
      // short-precise, OpenShift identifier
      line: 'May 19 04:20:07.512401 ip-10-20-30-40 kubenswrapper[2817]: E0519 04:20:09.001877    2817 kubelet.go:3002] "Container runtime network not ready" networkReady="NetworkReady=false"',
      expect: {
        time: { year: null, month: 5, day: 19, hour: 4, minute: 20, second: 9, ms: 1, offsetMin: null, precision: "us" },
        host: "ip-10-20-30-40",
        ident: "kubenswrapper",
        component: "kubelet",
        severity: 3,
        message: 'Container runtime network not ready networkReady="NetworkReady=false"',
        fields: { networkReady: "NetworkReady=false" },
      },
    },
    {
      // containerd logrus inside: its own stamp (with year and zone) is the record's time
      line: 'Feb 15 23:28:31 kind-worker containerd[7599]: time="2024-02-15T23:28:31.785841950Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:server,Uid:339b,Namespace:default,Attempt:0,}"',
      expect: {
        time: { year: 2024, month: 2, day: 15, hour: 23, minute: 28, second: 31, ms: 785, offsetMin: 0, precision: "ns" },
        host: "kind-worker",
        ident: "containerd",
        pid: 7599,
        component: "containerd",
        severity: 1,
        message: "RunPodSandbox for &PodSandboxMetadata{Name:server,Uid:339b,Namespace:default,Attempt:0,}",
      },
    },
    {
      // rsyslog file: space-padded day, no pid; plain message
      line: "May  9 04:20:07 ip-10-20-30-40 systemd: Started Kubernetes Kubelet.",
      expect: {
        time: { year: null, month: 5, day: 9, hour: 4, minute: 20, second: 7, ms: 0, offsetMin: null, precision: "s" },
        ident: "systemd",
        component: "systemd",
        severity: 1,
        message: "Started Kubernetes Kubelet.",
      },
    },
    {
      line: "May 19 04:19:31 ip-10-20-30-40 kernel: Linux version 6.1.134-150.224.amzn2023.x86_64",
      expect: { ident: "kernel", component: "kernel", message: "Linux version 6.1.134-150.224.amzn2023.x86_64" },
    },
    { line: "-- Boot 6c0f2ea14b7d4e1a9c3358b0f2d7e611 --", expect: { banner: { type: "boot", bootId: "6c0f2ea14b7d4e1a9c3358b0f2d7e611" } } },
    { line: "-- Reboot --", expect: { banner: { type: "reboot", bootId: null } } },
    { line: "-- No entries --", expect: { banner: { type: "no-entries" } } },
    {
      line: "-- Logs begin at Mon 2022-05-30 14:37:44 PDT. --",
      expect: {
        banner: {
          type: "logs-begin",
          offsetMin: -420,
          zoneName: "PDT",
          time: { year: 2022, month: 5, day: 30, hour: 14, minute: 37, second: 44, ms: 0, offsetMin: -420, precision: "s" },
        },
      },
    },
    {
      // the weekday in the node's locale (fr_FR), the zone as tzdata prints it
      line: "-- Logs begin at mer. 2018-09-19 11:42:51 CEST. --",
      expect: {
        banner: {
          type: "logs-begin",
          offsetMin: 120,
          zoneName: "CEST",
          time: { year: 2018, month: 9, day: 19, hour: 11, minute: 42, second: 51, ms: 0, offsetMin: 120, precision: "s" },
        },
      },
    },
    {
      // an excerpt cut after the minute: a record of its own, timed to the minute, empty
      context: ["sept. 20 16:42:58 node-p kubelet[5407]: W0920 16:42:58.926688    5407 pod_container_deletor.go:75] Container not found"],
      line: "sept. 20 16:43",
      expect: {
        time: { year: null, month: 9, day: 20, hour: 16, minute: 43, second: 0, ms: 0, offsetMin: null, precision: "min" },
        component: "unknown",
        message: "",
      },
    },
    {
      line: "-- Journal begins at Mon 2025-05-12 00:00:03 UTC, ends at Mon 2025-05-19 04:31:10 UTC. --",
      expect: {
        banner: {
          type: "logs-begin",
          offsetMin: 0,
          time: { year: 2025, month: 5, day: 12, hour: 0, minute: 0, second: 3, ms: 0, offsetMin: 0, precision: "s" },
        },
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] x",
    'I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"',
    "Foo 19 04:20:07 host kubelet[1]: x",
    "[Mon May 19 04:20:07 2025] ena 0000:00:05.0 eth0: ENA device version: 0.10",
    "-- cursor: s=abc",
  ],
};
