/**
 * `inotifywait -m` output (inotify-tools; `man inotifywait`: `--format`, `--timefmt`), as a
 * reviewer saves it while watching the CNI config directory during a conflist rewrite loop
 * (docs/detectors.md):
 *
 *     /etc/cni/net.d/ CLOSE_WRITE,CLOSE 05-cilium.conflist           default `%w %e %f`: no time
 *     /etc/cni/net.d/ OPEN,ISDIR                                     an event on the directory itself
 *     2024-09-17T13:04:21+0000 /etc/cni/net.d/ MOVED_TO 05-cilium.conflist      `--timefmt '%FT%T%z' --format '%T %w %e %f'`
 *     2024-09-17 13:04:21 /etc/cni/net.d/05-cilium.conflist CLOSE_WRITE,CLOSE   `--timefmt '%F %T' --format '%T %w%f %e'`
 *     1726578261 /etc/cni/net.d/ MOVED_TO 05-cilium.conflist                    `--timefmt '%s'`
 *
 * Every record's message is normalised to the default form `<dir>/ <EVENTS> <file>` (the
 * event names comma-separated, as printed), with fields `events` and `path` (the full path).
 * Without `--timefmt` the lines carry no time: they are kept with a null time. `%T` has
 * at most second precision (strftime), unless the stamp prints a fraction.
 */
import { componentRecord } from "./helpers/component-line";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineParser, ParsedRecord, WallTime } from "./types";

const EVENT = "(?:ACCESS|MODIFY|ATTRIB|CLOSE_WRITE|CLOSE_NOWRITE|CLOSE|OPEN|MOVED_TO|MOVED_FROM|MOVE|MOVE_SELF|CREATE|DELETE|DELETE_SELF|UNMOUNT|ISDIR)";
const EVENTS = `${EVENT}(?:,${EVENT})*`;
/** `%w %e %f` (the file part absent for events on the watched directory itself) */
const DEFAULT_RE = new RegExp(`^(/\\S*/) (${EVENTS})(?: (\\S(?:.*\\S)?))?$`);
/** `%w%f %e` */
const JOINED_RE = new RegExp(`^(/\\S*?)(/[^/\\s]+)? (${EVENTS})$`);
const STAMP_RE = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?|\d{10}(?:\.\d{1,9})?) (\/.*)$/;

/** The event part of a line in either order: `{ dir, events, file }`, or null. */
function parseEventPart(s: string): { dir: string; events: string; file: string } | null {
  const d = DEFAULT_RE.exec(s);
  if (d) return { dir: d[1], events: d[2], file: d[3] ?? "" };
  const j = JOINED_RE.exec(s);
  if (j) return j[2] ? { dir: `${j[1]}/`, events: j[3], file: j[2].slice(1) } : { dir: j[1].endsWith("/") ? j[1] : `${j[1]}/`, events: j[3], file: "" };
  return null;
}

/** Parse one inotifywait line into a record; null when it is not one. */
export function parseInotifyLine(line: string): ParsedRecord | null {
  if (!line) return null;
  let time: WallTime | null = null;
  let epochMs: number | null = null;
  let rest = line;
  const c0 = line.charCodeAt(0);
  if (c0 !== 47) {
    // a stamp first
    if (c0 < 48 || c0 > 57) return null;
    const m = STAMP_RE.exec(line);
    if (!m) return null;
    if (m[1].length >= 19) {
      time = parseIsoStamp(m[1]);
      if (!time) return null;
    } else {
      const [sec, frac = ""] = m[1].split(".");
      epochMs = Number(sec) * 1000 + (frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0);
    }
    rest = m[2];
  }
  const ev = parseEventPart(rest);
  if (!ev) return null;
  const rec = componentRecord(
    {
      time,
      severity: 1,
      message: `${ev.dir} ${ev.events}${ev.file ? ` ${ev.file}` : ""}`,
      fields: { events: ev.events, path: `${ev.dir}${ev.file}` },
      component: "inotifywait",
    },
    "inotifywait",
  );
  if (epochMs !== null) {
    rec.epochMs = epochMs;
    rec.epochPrecision = line.slice(0, 11).includes(".") ? "ms" : "s";
  }
  return rec;
}

const SNIFF = new RegExp(`^(?:(?:\\d{4}-\\d{2}-\\d{2}[T ]\\S+(?: \\S+)?|\\d{10}(?:\\.\\d+)?) )?/\\S* (?:${EVENTS}|\\S+ ${EVENTS})`);

/** The `inotifywait` format spec (registered in lib/parse/registry.ts). */
export const inotifywaitSpec: FormatSpec = {
  name: "inotifywait",
  kind: "inotifywait",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => parseInotifyLine(l) !== null),
  createParser(): LineParser {
    return {
      parseLine(line) {
        const r = parseInotifyLine(line);
        return r ? { type: "record", record: r } : null;
      },
    };
  },
  samples: [
    {
      line: "/etc/cni/net.d/ CLOSE_WRITE,CLOSE 05-cilium.conflist",
      expect: {
        time: null,
        component: "inotifywait",
        severity: 1,
        message: "/etc/cni/net.d/ CLOSE_WRITE,CLOSE 05-cilium.conflist",
        fields: { events: "CLOSE_WRITE,CLOSE", path: "/etc/cni/net.d/05-cilium.conflist" },
      },
    },
    {
      line: "/etc/cni/net.d/ OPEN,ISDIR",
      expect: { time: null, message: "/etc/cni/net.d/ OPEN,ISDIR", fields: { events: "OPEN,ISDIR", path: "/etc/cni/net.d/" } },
    },
    {
      line: "2024-09-17T13:04:21+0000 /etc/cni/net.d/ MOVED_TO 05-cilium.conflist",
      expect: {
        time: { year: 2024, month: 9, day: 17, hour: 13, minute: 4, second: 21, ms: 0, offsetMin: 0, precision: "s" },
        message: "/etc/cni/net.d/ MOVED_TO 05-cilium.conflist",
        fields: { events: "MOVED_TO", path: "/etc/cni/net.d/05-cilium.conflist" },
      },
    },
    {
      line: "2024-09-17 13:04:21 /etc/cni/net.d/05-cilium.conflist CLOSE_WRITE,CLOSE",
      expect: {
        time: { year: 2024, month: 9, day: 17, hour: 13, minute: 4, second: 21, ms: 0, offsetMin: null, precision: "s" },
        message: "/etc/cni/net.d/ CLOSE_WRITE,CLOSE 05-cilium.conflist",
      },
    },
    {
      line: "1726578261 /etc/cni/net.d/ MOVED_FROM .05-cilium.conflist4276606968",
      expect: { time: null, epochMs: 1726578261000, epochPrecision: "s", message: "/etc/cni/net.d/ MOVED_FROM .05-cilium.conflist4276606968" },
    },
  ],
  notMine: [
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "2024-09-17T13:04:21.295868Z\tinfo\tcni-agent\tcreated CNI config /host/etc/cni/net.d/05-cilium.conflist",
    "/etc/cni/net.d/05-cilium.conflist",
    'level=info msg="Activity in /host/etc/cni/net.d/, re-generating CNI configuration" subsys=cni-config',
  ],
};
