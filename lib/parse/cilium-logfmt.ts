/**
 * cilium-agent logfmt; upstream cilium `pkg/logging` (logrus text, later slog).
 *
 *     level=info msg="Restored endpoint" endpointID=1234 subsys=endpoint
 *     time="2025-05-19T04:20:13Z" level=info msg="…" subsys=daemon        (text-ts, logrus era)
 *     time=2025-05-19T04:20:13Z level=info msg=…                          (after the slog move)
 *     time=2025-02-26T10:29:53.081069372Z level=info source=/go/src/github.com/cilium/cilium/pkg/x/y.go:22 msg="…" module=agent.infra.cni-config
 *
 * Cilium >= 1.17 logs through slog's text handler: unquoted `time=`, `level` (lowercase as Cilium
 * prints it; slog's own uppercase `INFO` accepted), `source=<file>:<line>` before `msg` when
 * source locations are on, and `module=` instead of `subsys=`; all kept in `fields`.
 *
 * The default format has no time at all: such records are kept with a null time. With `time=`,
 * the stamp is RFC3339Nano, whose fraction loses its trailing zeros (`.90314509` = .903145090 s):
 * any 1-9 digits are a fraction of a second, floored to the ms.
 * A line with a quoted `time=` and no `subsys=` is containerd/logrus, not cilium.
 */
import { type ComponentLine, componentLineParser } from "./helpers/component-line";
import { LOGRUS_LEVELS, scanLogfmt } from "./helpers/logfmt";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec } from "./types";

/** Parse one cilium logfmt line; null when `s` is not one. */
export function parseCiliumText(s: string): ComponentLine | null {
  const l = scanLogfmt(s);
  if (!l || l.msg === undefined) return null;
  const sev = LOGRUS_LEVELS[l.level] ?? LOGRUS_LEVELS[l.level.toLowerCase()];
  if (sev === undefined) return null;
  let time = null;
  if (l.time !== undefined) {
    if (l.fields.subsys === undefined && s.charCodeAt(5) === 34) return null; // containerd/logrus
    time = parseIsoStamp(l.time);
    if (!time) return null;
  }
  const out: ComponentLine = { time, severity: sev, message: l.msg, component: "cilium" };
  if (l.hasFields) out.fields = l.fields;
  return out;
}

const SNIFF = /^(?:time="?[^" ]+"? )?level=(?:debug|info|warn(?:ing)?|error|fatal|panic|DEBUG|INFO|WARN|ERROR) (?:source=\S+ )?msg=/;

/** Format spec: cilium-agent logfmt files (records without a time are kept). */
export const ciliumLogfmtSpec: FormatSpec = {
  name: "cilium-logfmt",
  kind: "cilium",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => SNIFF.test(l) && (l.startsWith("level=") || l.includes(" subsys=") || !l.startsWith('time="'))),
  createParser: componentLineParser({ parse: parseCiliumText, writer: "cilium", continuation: "indented" }),
  samples: [
    {
      line: 'level=info msg="Wrote CNI configuration file to /host/etc/cni/net.d/05-cilium.conflist" subsys=cni-config',
      expect: {
        time: null,
        component: "cilium",
        severity: 1,
        message: "Wrote CNI configuration file to /host/etc/cni/net.d/05-cilium.conflist",
        fields: { subsys: "cni-config" },
      },
    },
    {
      line: 'time="2025-05-19T04:20:13Z" level=warning msg="Unable to connect to agent" error="dial unix /var/run/cilium/cilium.sock: connect: no such file or directory" subsys=cilium-cni',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 13, ms: 0, offsetMin: 0, precision: "s" },
        severity: 2,
        message: "Unable to connect to agent",
        fields: { error: "dial unix /var/run/cilium/cilium.sock: connect: no such file or directory", subsys: "cilium-cni" },
      },
    },
    {
      // Go's RFC3339Nano drops trailing zeros: 8 digits are still a fraction of a second (.903145090)
      line: 'time="2025-05-23T20:14:38.90314509Z" level=info msg="Activity in /host/etc/cni/net.d/, re-generating CNI configuration" subsys=cni-config',
      expect: {
        time: { year: 2025, month: 5, day: 23, hour: 20, minute: 14, second: 38, ms: 903, offsetMin: 0, precision: "ns" },
        severity: 1,
        message: "Activity in /host/etc/cni/net.d/, re-generating CNI configuration",
        fields: { subsys: "cni-config" },
      },
    },
    {
      line: "time=2025-05-19T04:20:13Z level=info msg=Restored module=endpoint-manager",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 13, ms: 0, offsetMin: 0, precision: "s" },
        message: "Restored",
        fields: { module: "endpoint-manager" },
      },
    },
    {
      // slog text (Cilium >= 1.17) with the source location before msg
      line: 'time=2025-03-04T18:22:41.50422311Z level=info source=/go/src/github.com/cilium/cilium/pkg/cni/config.go:288 msg="Wrote CNI configuration file" module=agent.infra.cni-config cniPath=/host/etc/cni/net.d/05-cilium.conflist',
      expect: {
        time: { year: 2025, month: 3, day: 4, hour: 18, minute: 22, second: 41, ms: 504, offsetMin: 0, precision: "ns" },
        component: "cilium",
        severity: 1,
        message: "Wrote CNI configuration file",
        fields: {
          source: "/go/src/github.com/cilium/cilium/pkg/cni/config.go:288",
          module: "agent.infra.cni-config",
          cniPath: "/host/etc/cni/net.d/05-cilium.conflist",
        },
      },
    },
    {
      line: 'time=2025-03-04T18:22:47.9Z level=ERROR source=/go/src/github.com/cilium/cilium/daemon/cmd/cni.go:97 msg="Failed to set up endpoint" module=agent.controlplane.daemon error="timeout"',
      expect: {
        severity: 3,
        message: "Failed to set up endpoint",
        fields: { source: "/go/src/github.com/cilium/cilium/daemon/cmd/cni.go:97", module: "agent.controlplane.daemon", error: "timeout" },
      },
    },
  ],
  notMine: [
    'time="2025-05-19T04:20:05.931046219Z" level=info msg="starting containerd" version=v1.7.27',
    'time="2025-05-19 04:20:05.931046219Z" level=info msg="Starting CRI-O"',
    "I0519 04:20:10.100200       1 main.go:231] level=info msg=x",
  ],
};
