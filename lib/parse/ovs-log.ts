/**
 * Open vSwitch / OVN daemon logs (`ovs-vswitchd.log`, `ovsdb-server.log`, `ovn-controller.log`,
 * `ovn-northd.log`; also what Antrea's and ovn-kubernetes' OVS containers write): upstream
 * openvswitch `lib/vlog.c`, `ovs-appctl(8)` "vlog/set PATTERN" (file pattern
 * `%D{%Y-%m-%dT%H:%M:%S.###Z}|%05N|%c%T|%p|%m`, console `%D{%Y-%m-%dT%H:%M:%SZ}|%05N|%c%T|%p|%m`,
 * syslog `ovs|%05N|%c%T|%p|%m`).
 *
 *     2022-03-02T22:59:48.049Z|00001|vlog|INFO|opened log file /var/log/openvswitch/ovsdb-server.log
 *     2022-03-02T23:01:00.046Z|00005|fatal_signal|WARN|terminating with signal 15 (Terminated)
 *     2021-07-01T10:00:00Z|00012|dpif_netlink(handler3)|WARN|…                          (console; a thread name)
 *     ovs|00001|vlog|INFO|opened log file …                                             (syslog / journal: no time)
 *
 * Fields: `seq` (the per-process sequence number: it restarts at 00001 when the daemon starts, so
 * `00001` lines are process starts), `module`, `thread` when printed. UTC (`Z`), ms or s.
 * Levels EMER (fatal), ERR, WARN, INFO, DBG. Component `ovs`, or `ovn` when the path names an OVN
 * daemon. The file layout also arrives as container output (ovn-kubernetes' `ovn-controller` and
 * `ovs-node` containers tail the daemons' files): a CRI, docker json-file or journal line's message,
 * read by `parseComponentMessage` (helpers/component.ts).
 */
import { type ComponentLine, componentLineParser } from "./helpers/component-line";
import { componentFromPath } from "../model/components";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, Severity } from "./types";

const LINE_RE = /^(?:(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z)|ovs)\|(\d{5,})\|([\w.-]+)(?:\(([^)|]*)\))?\|(EMER|ERR|WARN|INFO|DBG)\|(.*)$/;
const LEVELS: Readonly<Record<string, Severity>> = { EMER: 4, ERR: 3, WARN: 2, INFO: 1, DBG: 0 };

/** Parse one vlog line (stamped or syslog `ovs|…`); null when it is not one. */
export function parseOvsText(s: string): ComponentLine | null {
  const c0 = s.charCodeAt(0);
  if (c0 !== 111 && (c0 < 48 || c0 > 57)) return null;
  const m = LINE_RE.exec(s);
  if (!m) return null;
  let time = null;
  if (m[1] !== undefined) {
    time = parseIsoStamp(m[1]);
    if (!time) return null;
  }
  const fields: Record<string, string> = { seq: m[2], module: m[3] };
  if (m[4] !== undefined) fields.thread = m[4];
  return { time, severity: LEVELS[m[5]], message: m[6], fields, component: "ovs" };
}

const SNIFF = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\|\d{5,}\|[\w.()-]+\|(?:EMER|ERR|WARN|INFO|DBG)\|/;

/** Format spec: Open vSwitch / OVN vlog files. */
export const ovsLogSpec: FormatSpec = {
  name: "ovs-log",
  kind: "ovs",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser: componentLineParser({ parse: parseOvsText, writer: (path) => componentFromPath(path, ["ovn"]) ?? "ovs", continuation: "indented" }),
  samples: [
    {
      line: "2023-06-11T07:40:02.318Z|00001|vlog|INFO|opened log file /var/log/openvswitch/ovs-vswitchd.log",
      expect: {
        time: { year: 2023, month: 6, day: 11, hour: 7, minute: 40, second: 2, ms: 318, offsetMin: 0, precision: "ms" },
        component: "ovs",
        severity: 1,
        message: "opened log file /var/log/openvswitch/ovs-vswitchd.log",
        fields: { seq: "00001", module: "vlog" },
      },
    },
    {
      line: "2023-06-11T07:41:15Z|00042|netdev_linux(handler5)|WARN|antrea-gw0: removing policing failed: No such device",
      expect: {
        time: { year: 2023, month: 6, day: 11, hour: 7, minute: 41, second: 15, ms: 0, offsetMin: 0, precision: "s" },
        severity: 2,
        message: "antrea-gw0: removing policing failed: No such device",
        fields: { seq: "00042", module: "netdev_linux", thread: "handler5" },
      },
    },
    {
      line: "2023-06-11T07:42:00.900Z|00077|reconnect|ERR|unix:/var/run/openvswitch/db.sock: connection attempt failed (No such file or directory)",
      path: "logs/ovn-controller.log",
      expect: { component: "ovn", severity: 3, fields: { seq: "00077", module: "reconnect" } },
    },
  ],
  notMine: [
    "2021/02/12 00:08:59 [3045] [cni-net] Plugin azure-vnet version v1.2.0.",
    "2025-05-19T04:20:08.321Z\tinfo\tcni\tsomething",
    "server.go:12: 2023-06-11T07:40:02Z|x",
  ],
};
