/**
 * k3s / rke2 supervisor logrus text (logrus `TextFormatter` defaults when not on a terminal;
 * second precision).
 *
 *     time="2025-05-19T04:20:06Z" level=info msg="Starting k3s agent v1.31.4+k3s1 (a1b2c3d4)"
 *
 * RFC3339 with whole seconds (containerd writes 9 fractional digits: containerd-logrus.ts). In the
 * journal (`k3s[pid]:`) these lines are interleaved with the embedded kubelet's klog lines
 * (component.ts sorts them by format). The component is `rke2` when the path says so, `cni-calico`
 * for a Calico file (`C:\CalicoWindows\logs\…`, `calico/…`), else `k3s`;
 * a line whose message is one of containerd's own (`RunPodSandbox for …`, `shim reaped`: the
 * containerd k3s embeds or supervises) is `containerd`.
 */
import { componentLineParser, isContainerdMessage } from "./helpers/component-line";
import { parseLogrusText } from "./helpers/logfmt";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec } from "./types";
import { componentFromPath } from "../model/components";

const SNIFF = /^time="\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:Z|[+-]\d{2}:\d{2})" level=(?:trace|debug|info|warning|error|fatal|panic) msg=/;

/**
 * Component of a file in this layout: `rke2`, `cni-calico` or `linkerd-cni` when the path says so
 * (Calico for Windows' installer and node scripts log this logrus layout beside its `calico.log`;
 * linkerd-cni's plugin and repair controller log it too), else `k3s`.
 */
const fileComponent = (path: string | undefined): string => componentFromPath(path, ["rke2", "cni-calico", "linkerd-cni"]) ?? "k3s";

/** Format spec: k3s / rke2 supervisor logs (logrus text, second precision). */
export const k3sLogrusSpec: FormatSpec = {
  name: "k3s-logrus",
  kind: "k3s",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => SNIFF.test(l) && !l.includes(" subsys=")),
  createParser: componentLineParser({
    // cilium's logrus lines carry `subsys=` (cilium-logfmt.ts)
    parse: (line) => {
      const c = parseLogrusText(line, "T");
      return c && c.fields?.subsys === undefined ? c : null;
    },
    writer: fileComponent,
    componentOf: (c, file) => (isContainerdMessage(c.message) ? "containerd" : file),
    continuation: "indented",
  }),
  samples: [
    {
      // Calico for Windows' logrus lines beside its calico.log: the path names the component
      line: 'time="2023-01-02T03:04:05Z" level=error msg="Failed to get HNS network" error="The network was not found." network=Calico',
      path: "C:/CalicoWindows/logs/calico-node.log",
      expect: {
        component: "cni-calico",
        severity: 3,
        message: "Failed to get HNS network",
        fields: { error: "The network was not found.", network: "Calico" },
      },
    },
    {
      line: 'time="2025-05-19T04:20:06Z" level=info msg="Starting k3s agent v1.31.4+k3s1 (a1b2c3d4)"',
      path: "var/log/k3s.log",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 6, ms: 0, offsetMin: 0, precision: "s" },
        component: "k3s",
        severity: 1,
        message: "Starting k3s agent v1.31.4+k3s1 (a1b2c3d4)",
      },
    },
    {
      line: 'time="2025-05-19T04:20:07-07:00" level=warning msg="Unable to watch for tunnel endpoints" error="connection refused"',
      path: "rke2/server-logs/rke2.log",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 0, offsetMin: -420, precision: "s" },
        component: "rke2",
        severity: 2,
        message: "Unable to watch for tunnel endpoints",
        fields: { error: "connection refused" },
      },
    },
  ],
  notMine: [
    'time="2025-05-19 04:20:05.931046219Z" level=info msg="Starting CRI-O, version: 1.31.4"',
    'level=info msg="Restored endpoint" endpointID=1234 subsys=endpoint',
    'time="2025-05-19T04:20:13Z" level=info msg="Restored endpoint" subsys=endpoint',
  ],
};
