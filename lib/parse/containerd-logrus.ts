/**
 * containerd's logrus text (also k3s/rke2 `agent/containerd/containerd.log` and their supervisor
 * lines); upstream containerd `log/context.go` (`RFC3339NanoFixed`).
 *
 *     time="2025-05-19T04:20:05.931046219Z" level=info msg="starting containerd" revision=… version=v1.7.27
 *
 * RFC3339 with 9 fractional digits (fewer accepted) and `Z` or the local offset; `msg` becomes the
 * message, every other key (error, podsandboxid, …) a field, unescaped. A line with `subsys=` is
 * cilium's (see cilium-logfmt.ts), not containerd's. The kata shim (containerd-shim-kata-v2) logs
 * in the same layout under containerd's name, with `source=virtcontainers|katautils|agent|…` and
 * `name=containerd-shim-v2`: component `kata`. dockerd writes the same layout (component from
 * the path, else containerd), and so do linkerd-cni's plugin (`linkerd-cni` when the path names
 * linkerd) and Calico's Windows scripts (`cni-calico` by the path).
 */
import { type ComponentLine, componentLineParser } from "./helpers/component-line";
import { componentFromPath } from "../model/components";
import { parseLogrusText } from "./helpers/logfmt";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec } from "./types";

/** Parse one containerd/logrus line (`T` between date and time); null when it is not one. */
export function parseContainerdText(s: string): ComponentLine | null {
  const c = parseLogrusText(s, "T");
  if (!c) return null;
  const f = c.fields;
  if (f !== undefined) {
    if (f.subsys !== undefined) return null;
    if (f.source !== undefined && KATA_SOURCES.has(f.source)) c.component = "kata";
  }
  return c;
}

/** `source=` values of kata-runtime / containerd-shim-kata-v2 / kata-agent lines (logrus via the shim). */
const KATA_SOURCES = new Set(["virtcontainers", "katautils", "runtime", "agent", "cgroups", "kata-runtime"]);

/** a fraction is required: second-precision lines are the k3s/rke2 supervisor's (k3s-logrus.ts) */
const SNIFF = /^time="\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+[^"]*" level=(?:trace|debug|info|warning|error|fatal|panic) msg=/;

/** Format spec: containerd logrus text files (k3s/rke2 `agent/containerd/containerd.log`). */
export const containerdLogrusSpec: FormatSpec = {
  name: "containerd-logrus",
  kind: "containerd",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => SNIFF.test(l) && !l.includes(" subsys=")),
  createParser: componentLineParser({
    parse: parseContainerdText,
    // other Go programs write this layout too: the linkerd-cni plugin and its repair controller, Calico's Windows scripts
    writer: (path) => componentFromPath(path, ["docker", "linkerd-cni", "cni-calico"]) ?? "containerd",
    // kata's lines through the shim name it
    componentOf: (c, file) => c.component ?? file,
    continuation: "indented",
  }),
  samples: [
    {
      line: 'time="2025-05-19T04:20:11.204518733Z" level=error msg="Failed to destroy network for sandbox \\"5f1c\\"" error="plugin type=\\"calico\\" failed (delete): stat /var/lib/calico/nodename: no such file or directory"',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 11, ms: 204, offsetMin: 0, precision: "ns" },
        component: "containerd",
        severity: 3,
        message: 'Failed to destroy network for sandbox "5f1c"',
        fields: { error: 'plugin type="calico" failed (delete): stat /var/lib/calico/nodename: no such file or directory' },
      },
    },
    {
      line: 'time="2025-05-19T04:20:05.931046219-07:00" level=info msg="starting containerd" revision=abc123 version=v1.7.27',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 5, ms: 931, offsetMin: -420, precision: "ns" },
        severity: 1,
        message: "starting containerd",
        fields: { revision: "abc123", version: "v1.7.27" },
      },
    },
  ],
  notMine: [
    'time="2025-05-19 04:20:05.931046219Z" level=info msg="Starting CRI-O, version: 1.31.4"',
    'level=info msg="Restored endpoint" endpointID=1234 subsys=endpoint',
    'time="2025-05-19T04:20:13Z" level=info msg="Restored endpoint" subsys=endpoint',
    'May 19 04:20:07 ip-10-20-30-40 containerd[811]: time="2025-05-19T04:20:07Z" level=info msg=x',
    '{"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"x"}',
  ],
};
