/**
 * `talosctl dmesg` and machined's console/`docker logs` text (Talos Linux; upstream
 * siderolabs/talos `cmd/talosctl/cmd/talos/dmesg.go`, `internal/pkg/kmsg`, machined's logger).
 *
 *     10.5.0.2: user: warning: [2025-01-01T10:00:00.123456789Z]: [talos] service[kubelet](Running): Started task kubelet (PID 2656) for container kubelet
 *     10.5.0.2: kern:    info: [2025-01-01T10:00:00.125500814Z]: IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready
 *     user: warning: [2023-08-07T19:51:52.664537547Z]: [talos] service[kubelet](Stopping): …   (one node: no node column)
 *     SUBSYSTEM=platform                                                                        (kmsg properties: continuation)
 *
 *     [talos] 2024/11/02 05:23:33 service[kubelet](Waiting): Error running Containerd(kubelet), …   (console, `docker logs`)
 *     10.5.0.2: [talos] 2024/11/02 05:23:33 task startAllServices (1/1): …
 *
 * talosctl dmesg: optional node column (`<node>: `, the node's address or name: the record's
 * host), the kmsg facility and level right-aligned (level → severity), the time as RFC 3339 with
 * ns in UTC (boot time plus the kernel clock, computed by machined), then the text. The console's
 * `[talos] YYYY/MM/DD hh:mm:ss` is Go's `log` stamp in the node's local time, which on Talos is
 * always UTC (offset 0). `[talos]` messages are machined's, or a named service's (talos-message.ts);
 * kern-facility lines are the kernel's.
 */
import { LEVEL_SEVERITY } from "./dmesg";
import { sniffRatio } from "./helpers/sniff-util";
import { applyTalos, isTalosMessage } from "./helpers/talos-message";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineParser, LineResult, ParsedRecord, Severity, WallTime } from "./types";

/** groups: 1 node, 2 facility, 3 level, 4 stamp, 5 text */
const DMESG = /^\s*(?:([^\s:]+(?::\d+)?): )?([a-z0-9]+): *([a-z]+): \[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2}))\]: ?(.*)$/;
/** groups: 1 node, 2 y, 3 mo, 4 d, 5 h, 6 mi, 7 s, 8 fraction, 9 text */
const CONSOLE = /^(?:([^\s:]+): )?\[talos\] (\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))? ?(.*)$/;
const PROPERTY = /^\s*(?:SUBSYSTEM|DEVICE)=/;
/** `name[pid]: ` at the start of a user-facility kmsg text (udevd, containerd shims) */
const IDENT = /^([\w.@-]+)\[(\d+)\]: /;

/** Parse one talosctl dmesg or machined console line; null when not one. */
export function parseTalosLine(line: string): LineResult {
  const m = DMESG.exec(line);
  if (m) {
    const time = parseIsoStamp(m[4]);
    if (!time) return null;
    const level = LEVEL_SEVERITY[m[3]];
    if (level === undefined) return null;
    const text = m[5];
    const rec: ParsedRecord = { time, component: m[2] === "kern" ? "kernel" : "unknown", severity: level, message: text };
    if (m[1] !== undefined) rec.host = m[1];
    if (isTalosMessage(text)) applyTalos(rec, text);
    else if (m[2] !== "kern") {
      const id = IDENT.exec(text);
      if (id) {
        rec.ident = id[1];
        rec.pid = Number(id[2]);
        rec.component = id[1];
      }
    }
    return { type: "record", record: rec };
  }
  const c = CONSOLE.exec(line);
  if (!c) return null;
  const frac = c[8] ?? "";
  const time: WallTime = {
    year: Number(c[2]),
    month: Number(c[3]),
    day: Number(c[4]),
    hour: Number(c[5]),
    minute: Number(c[6]),
    second: Number(c[7]),
    ms: frac ? Number(`${frac}00`.slice(0, 3)) : 0,
    offsetMin: 0,
    precision: frac.length === 0 ? "s" : frac.length <= 3 ? "ms" : frac.length <= 6 ? "us" : "ns",
  };
  const text = c[9];
  const rec: ParsedRecord = { time, component: "machined", severity: consoleSeverity(text), message: `[talos] ${text}` };
  if (c[1] !== undefined) rec.host = c[1];
  applyTalos(rec, rec.message);
  return { type: "record", record: rec };
}

/** The console prints no level: errors named in the text (`error`/`failed` fields) stay info; no guessing. */
function consoleSeverity(_text: string): Severity {
  return 1;
}

class TalosParser implements LineParser {
  readonly settled = true;
  private seen = false;

  parseLine(line: string): LineResult {
    const res = parseTalosLine(line);
    if (res) {
      this.seen = true;
      return res;
    }
    if (this.seen && PROPERTY.test(line)) return { type: "continuation", text: line.trim() };
    return null;
  }
}

const SNIFF = /^\s*(?:[^\s:]+: )?(?:[a-z0-9]+: *[a-z]+: \[\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}|\[talos\] \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2})/;

/** Format spec: `talosctl dmesg` and machined console lines. */
export const talosDmesgSpec: FormatSpec = {
  name: "talos-dmesg",
  kind: "kernel",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => (PROPERTY.test(l) ? false : SNIFF.test(l))),
  createParser() {
    return new TalosParser();
  },
  samples: [
    {
      line: '172.20.0.3: user: warning: [2024-05-14T08:31:02.480116734Z]: [talos] service[kubelet](Waiting): Error running Containerd(kubelet), going to restart forever: task "kubelet" failed: exit code 255',
      expect: {
        time: { year: 2024, month: 5, day: 14, hour: 8, minute: 31, second: 2, ms: 480, offsetMin: 0, precision: "ns" },
        host: "172.20.0.3",
        component: "kubelet",
        severity: 2,
        message: '[talos] service[kubelet](Waiting): Error running Containerd(kubelet), going to restart forever: task "kubelet" failed: exit code 255',
        fields: { service: "kubelet", state: "Waiting" },
      },
    },
    {
      line: "cp-1: kern:    info: [2024-05-14T08:30:41.902231734Z]: cni0: port 1(veth3c1f0a9d) entered forwarding state",
      expect: { host: "cp-1", component: "kernel", severity: 1, message: "cni0: port 1(veth3c1f0a9d) entered forwarding state" },
    },
    {
      // one node: no node column
      line: 'user: warning: [2024-05-14T08:31:07.600871734Z]: [talos] task startAllServices (1/1): service "etcd" to be "up"',
      expect: { component: "machined", severity: 2, message: '[talos] task startAllServices (1/1): service "etcd" to be "up"' },
    },
    {
      line: "[talos] 2024/05/14 08:31:02 service[cri](Running): Health check successful",
      expect: {
        time: { year: 2024, month: 5, day: 14, hour: 8, minute: 31, second: 2, ms: 0, offsetMin: 0, precision: "s" },
        component: "cri",
        severity: 1,
        message: "[talos] service[cri](Running): Health check successful",
        fields: { service: "cri", state: "Running" },
      },
    },
  ],
  notMine: [
    "<12>[   46.972729] [talos] service[kubelet](Preparing): Running pre state",
    "[   11.803512] ena 0000:00:05.0 eth0: ENA device version: 0.10",
    '10.200.193.195: {"ts":1753121301813.3005,"caller":"x.go:1","msg":"y"}',
  ],
};
