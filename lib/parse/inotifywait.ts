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
 *     CLOSE_WRITE:CLOSE /etc/cni/net.d/05-cilium.conflist                       `--format '%:e %w%f'`
 *     /etc/cni/net.d/,"CLOSE_WRITE,CLOSE",05-cilium.conflist                   `--csv`
 *     13:04:22 net.d/ MOVED_TO 10-calico.conflist                               `--timefmt '%T'`, a relative watch
 *     Setting up watches.  /  Watches established.                              stderr banners (none with `-q`)
 *
 * Directories may be relative (`./`, `net.d/`); `-r` names subdirectories in `%w`. Event names
 * joined by another character (`%:e`, `%|e`) are normalised to commas. A clock without a date
 * (`--timefmt '%T'`) cannot be placed: the record has no time and keeps it as `fields.clock`. The
 * two banners are banners, not records.
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

const EVENT =
  "(?:ACCESS|MODIFY|ATTRIB|CLOSE_WRITE|CLOSE_NOWRITE|CLOSE|OPEN|MOVED_TO|MOVED_FROM|MOVE|MOVE_SELF|CREATE|DELETE|DELETE_SELF|UNMOUNT|ISDIR|IGNORED|Q_OVERFLOW)";
/** The event names, joined by `,` (`%e`) or the character of `%Xe` (`%:e`, `%|e`) */
const EVENTS = `${EVENT}(?:[,:|]${EVENT})*`;
/** A directory as `%w` prints it, ending in `/`: absolute, or relative (`./`, `net.d/`, `cni/net.d/`) */
const DIR = "(?:/(?:\\S*/)?|\\.{1,2}/(?:\\S*/)?|[\\w.-]+/(?:\\S*/)?)";
/** A path as `%w%f` prints it */
const PATH = "(?:/\\S*|\\.{1,2}/\\S*|[\\w.-]+/\\S*)";
/** `%w %e %f` (the file part absent for events on the watched directory itself) */
const DEFAULT_RE = new RegExp(`^(${DIR}) (${EVENTS})(?: (\\S(?:.*\\S)?))?$`);
/** `%w%f %e` */
const JOINED_RE = new RegExp(`^(${PATH}) (${EVENTS})$`);
/** `%e %w%f` and `%e %w %f`: the events first */
const EVENTS_FIRST_RE = new RegExp(`^(${EVENTS}) (${PATH})(?: (\\S(?:.*\\S)?))?$`);
/** `--csv`: `%w,%e,%f` with the events quoted when they hold a comma */
const CSV_RE = new RegExp(`^(${DIR}),("?)(${EVENTS})\\2,(.*)$`);
/** `--timefmt` stamps: ISO / `%F %T` (fraction and zone optional), epoch `%s`, or `%T` alone (no date) */
const STAMP_RE = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?|\d{10}(?:\.\d{1,9})?|\d{2}:\d{2}:\d{2}) (.*)$/;
/** inotifywait's stderr banners (not shown with `-q`); `-r` adds its warning to the first */
const BANNER_RE = /^(?:Setting up watches\.(?:\s+Beware: since -r was given, this may take a while!)?|Watches established\.)\s*$/;

/** A joined `%w%f`: the directory up to its last `/`, the file after it (empty for the directory itself). */
function splitPath(path: string): { dir: string; file: string } {
  const at = path.lastIndexOf("/");
  return { dir: path.slice(0, at + 1), file: path.slice(at + 1) };
}

/** The event part of a line in any of the orders: `{ dir, events, file }`, or null. */
function parseEventPart(s: string): { dir: string; events: string; file: string } | null {
  const d = DEFAULT_RE.exec(s);
  if (d) return { dir: d[1], events: d[2], file: d[3] ?? "" };
  const j = JOINED_RE.exec(s);
  if (j) return { ...splitPath(j[1]), events: j[2] };
  const e = EVENTS_FIRST_RE.exec(s);
  if (e) return e[3] !== undefined ? { dir: e[2].endsWith("/") ? e[2] : `${e[2]}/`, events: e[1], file: e[3] } : { ...splitPath(e[2]), events: e[1] };
  const c = CSV_RE.exec(s);
  if (c) return { dir: c[1], events: c[3], file: c[4].replace(/^"(.*)"$/, "$1") };
  return null;
}

/** Whether a line is one of inotifywait's `Setting up watches.` / `Watches established.` banners. */
export function isInotifyBanner(line: string): boolean {
  return line.charCodeAt(0) === 83 || line.charCodeAt(0) === 87 ? BANNER_RE.test(line) : false;
}

/** Parse one inotifywait line into a record; null when it is not one. */
export function parseInotifyLine(line: string): ParsedRecord | null {
  if (!line) return null;
  let time: WallTime | null = null;
  let epochMs: number | null = null;
  let clock: string | null = null;
  let rest = line;
  const c0 = line.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57) {
    // a stamp first (a relative path may start with a digit too: tried as the event part below)
    const m = STAMP_RE.exec(line);
    if (m) {
      if (m[1].length >= 19) {
        time = parseIsoStamp(m[1]);
        if (!time) return null;
      } else if (m[1].length === 8) {
        clock = m[1];
      } else {
        const [sec, frac = ""] = m[1].split(".");
        epochMs = Number(sec) * 1000 + (frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0);
      }
      rest = m[2];
    }
  }
  const ev = parseEventPart(rest);
  if (!ev) return null;
  const events = ev.events.replace(/[:|]/g, ",");
  const fields: Record<string, string> = { events, path: `${ev.dir}${ev.file}` };
  // `--timefmt '%T'` prints the clock alone: no date to place it, kept as a field
  if (clock) fields.clock = clock;
  const rec = componentRecord(
    { time, severity: 1, message: `${ev.dir} ${events}${ev.file ? ` ${ev.file}` : ""}`, fields, component: "inotifywait" },
    "inotifywait",
  );
  if (epochMs !== null) {
    rec.epochMs = epochMs;
    rec.epochPrecision = line.slice(0, 11).includes(".") ? "ms" : "s";
  }
  return rec;
}

/** The `inotifywait` format spec (registered in lib/parse/registry.ts). */
export const inotifywaitSpec: FormatSpec = {
  name: "inotifywait",
  kind: "inotifywait",
  sniff: (_path, lines) => {
    const rest = lines.filter((l) => !isInotifyBanner(l));
    return sniffRatio(rest, /$^/, (l) => parseInotifyLine(l) !== null);
  },
  createParser(): LineParser {
    return {
      parseLine(line) {
        if (isInotifyBanner(line)) return { type: "banner", banner: { type: "header" } };
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
    {
      line: "Setting up watches.  Beware: since -r was given, this may take a while!",
      expect: { banner: { type: "header" } },
    },
    {
      // `-r`: events of a subdirectory name it in `%w`
      line: "/etc/cni/net.d/multus.d/ CREATE multus.kubeconfig",
      expect: {
        time: null,
        message: "/etc/cni/net.d/multus.d/ CREATE multus.kubeconfig",
        fields: { events: "CREATE", path: "/etc/cni/net.d/multus.d/multus.kubeconfig" },
      },
    },
    {
      // `--format '%e %w%f'`, events joined by `%:e`'s colon: normalised to the default form
      line: "CLOSE_WRITE:CLOSE /etc/cni/net.d/05-cilium.conflist",
      expect: {
        time: null,
        message: "/etc/cni/net.d/ CLOSE_WRITE,CLOSE 05-cilium.conflist",
        fields: { events: "CLOSE_WRITE,CLOSE", path: "/etc/cni/net.d/05-cilium.conflist" },
      },
    },
    {
      // `--csv`
      line: '/etc/cni/net.d/,"CLOSE_WRITE,CLOSE",05-cilium.conflist',
      expect: {
        message: "/etc/cni/net.d/ CLOSE_WRITE,CLOSE 05-cilium.conflist",
        fields: { events: "CLOSE_WRITE,CLOSE", path: "/etc/cni/net.d/05-cilium.conflist" },
      },
    },
    {
      // `--timefmt '%T'`: a clock without a date, kept as a field; a relative watch (`inotifywait -m net.d/`)
      line: "13:04:22 net.d/ MOVED_TO 10-calico.conflist",
      expect: {
        time: null,
        message: "net.d/ MOVED_TO 10-calico.conflist",
        fields: { events: "MOVED_TO", path: "net.d/10-calico.conflist", clock: "13:04:22" },
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:07+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "2024-09-17T13:04:21.295868Z\tinfo\tcni-agent\tcreated CNI config /host/etc/cni/net.d/05-cilium.conflist",
    "/etc/cni/net.d/05-cilium.conflist",
    'level=info msg="Activity in /host/etc/cni/net.d/, re-generating CNI configuration" subsys=cni-config',
  ],
};
