/**
 * journalctl `-o short-full` and `-o with-unit`; upstream systemd
 * `src/shared/logs-show.c` (`output_short`, `OUTPUT_WITH_UNIT`).
 *
 *     Mon 2025-05-19 04:20:07 UTC ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344 …          short-full
 *     Mon 2025-05-19 04:20:07 UTC ip-10-20-30-40 kubelet.service[2817]: I0519 …                   with-unit
 *
 * Weekday (C locale, or the node's locale in older systemd), date with year, time (µs with `--output=short-full` + precise timestamps), the zone as
 * strftime `%Z` prints it (an abbreviation, ambiguous for IST/CST: time-util.ts
 * `ZONE_ABBREVIATIONS`; numeric `+09` for zones without one; unknown → the file's zone), host,
 * identifier (with-unit: the unit, else the identifier), pid. The MESSAGE goes through the
 * component parsers. `with-unit` keeps the unit in `fields.unit` and its name without the suffix
 * as the identifier. Banners and continuations as in journal-short.
 */
import { envelopeRecord } from "./helpers/component";
import { JournalEnvelopeParser } from "./journal-envelope";
import { sniffRatio } from "./helpers/sniff-util";
import { zoneFromToken } from "./helpers/time-util";
import type { FormatSpec, LineResult, WallTime } from "./types";

/** groups: 1 year, 2 month, 3 day, 4 h, 5 m, 6 s, 7 µs, 8 zone, 9 host, 10 ident, 11 pid, 12 message */
const RE =
  /^\S{1,8} (\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{6}))? ([A-Za-z]{1,6}|[+-]\d{2}(?::?\d{2})?) (\S+) ([^\s[:]+)(?:\[(\d+)\])?:(?: (.*))?$/;
/** systemd unit suffixes (with-unit prints `_SYSTEMD_UNIT`) */
export const UNIT_SUFFIX = /\.(?:service|scope|socket|mount|slice|target|timer|path|swap|device|automount)$/;

/** Parse one short-full / with-unit line; `withUnit` false refuses identifiers that are unit names. Null when not one. */
export function parseJournalFullLine(line: string, withUnit: boolean): LineResult {
  // weekday: C locale (`Mon`), or localised by older systemd (strftime `%a`: `Mo`, `lun.`, `月`)
  const sp = line.indexOf(" ");
  if (sp < 1 || sp > 8) return null;
  const d = line.charCodeAt(sp + 1);
  if (d < 48 || d > 57) return null;
  const m = RE.exec(line);
  if (!m) return null;
  const isUnit = UNIT_SUFFIX.test(m[10]);
  if (isUnit && !withUnit) return null;
  const zone = zoneFromToken(m[8]);
  const time: WallTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6]),
    ms: m[7] ? Math.floor(Number(m[7]) / 1000) : 0,
    offsetMin: zone ? zone.offsetMin : null,
    precision: m[7] ? "us" : "s",
  };
  const ident = isUnit ? m[10].replace(UNIT_SUFFIX, "").replace(/@.*$/, "") : m[10];
  const rec = envelopeRecord({ time, host: m[9], ident, pid: m[11] !== undefined ? Number(m[11]) : undefined }, m[12] ?? "");
  if (isUnit) rec.fields = { ...(rec.fields ?? {}), unit: m[10] };
  return { type: "record", record: rec };
}

const SNIFF = /^\S{1,8} \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{6})? \S+ \S+ [^\s[:]+(?:\[\d+\])?: /;
const UNIT_SNIFF = /^\S+ \S+ \S+ \S+ \S+ [^\s[:]+\.(?:service|scope|socket|mount|slice|target|timer|path|swap|device|automount)(?:\[\d+\])?: /;

/** Format spec: `journalctl -o short-full` dumps. */
export const journalShortFullSpec: FormatSpec = {
  name: "journal-short-full",
  kind: "journal",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF) && !lines.some((l) => UNIT_SNIFF.test(l) && SNIFF.test(l)),
  createParser() {
    return new JournalEnvelopeParser((l) => parseJournalFullLine(l, false));
  },
  samples: [
    {
      line: 'Mon 2025-05-19 04:20:07 UTC ip-10-20-30-40 kubelet[2817]: I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"',
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
      // a zone abbreviation; systemd's own message keeps the envelope time
      line: "Sun 2025-05-18 21:19:31 PDT ip-10-20-30-40 systemd[1]: Started kubelet.service - Kubernetes Kubelet.",
      expect: {
        time: { year: 2025, month: 5, day: 18, hour: 21, minute: 19, second: 31, ms: 0, offsetMin: -420, precision: "s" },
        ident: "systemd",
        component: "systemd",
        message: "Started kubelet.service - Kubernetes Kubelet.",
      },
    },
    {
      // older systemd prints the weekday in the node's locale (German `Mo`)
      line: 'Mo 2023-10-09 06:00:12 CEST node-7 containerd[640]: time="2023-10-09T06:00:12.004511876+02:00" level=info msg="loading plugin"',
      expect: {
        time: { year: 2023, month: 10, day: 9, hour: 6, minute: 0, second: 12, ms: 4, offsetMin: 120, precision: "ns" },
        host: "node-7",
        component: "containerd",
        message: "loading plugin",
      },
    },
  ],
  notMine: [
    "Mon 2025-05-19 04:20:07 UTC ip-10-20-30-40 kubelet.service[2817]: x",
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "Mon 2025-05-19 04:20:07.512401 UTC [s=0a1b;i=1;b=6c0f;m=b41a38;t=6357;x=1]",
  ],
};
