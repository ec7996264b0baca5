/**
 * istio-cni agent and installer, zap console encoder; upstream istio/istio
 * `pkg/log/config.go` (`formatDate`: UTC, 6 digits, `Z`), `pkg/log/scope.go` (labels after a tab).
 *
 *     2025-05-19T04:20:12.400120Z<TAB>info<TAB>cni<TAB>Pod default/web-7d9c6b5f4-x2x9q excluded from mesh
 *     2023-07-11T11:19:29.415159Z    info    install    Created CNI config /host/etc/cni/net.d/05-cilium.conflist
 *     2025-05-19T04:20:04.811203Z info cni-agent created CNI config /host/etc/cni/net.d/05-cilium.conflist
 *
 * The lowercase level, the scope (absent for the default scope: three fields instead of four, case
 * 006), and the message. The separators are tabs as written, or runs of spaces (a terminal, a copy,
 * journalctl without `-a`, tab stops) or single spaces; the scope rule is zap-console.ts's. A
 * message may span lines (case 006: `wrote kubeconfig file … with: ` followed by the YAML it wrote):
 * lines after a record that are not records are its continuations.
 */
import { componentLineParser } from "./helpers/component-line";
import type { ComponentLine } from "./helpers/component-line";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec } from "./types";
import { parseZapConsole } from "./zap-console";
import { isZtunnelSniffLine } from "./ztunnel";

/**
 * Parse one istio zap console line (istio's stamp and lowercase level; any separators). `tabsOnly`
 * requires a tab right after the stamp. Null when `s` is not one.
 */
export function parseIstioText(s: string, tabsOnly = false): ComponentLine | null {
  if (tabsOnly && s.charCodeAt(27) !== 9) return null;
  const c = parseZapConsole(s);
  return c && c.component === "istio-cni" ? c : null;
}

const SNIFF = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z[\t ]+(?:debug|info|warn|error|dpanic|panic|fatal)(?:[\t ]|$)/;

/** Format spec: istio-cni agent / install-cni zap console text (tabs or spaces; multi-line records). */
export const istioCniSpec: FormatSpec = {
  name: "istio-cni",
  kind: "istio-cni",
  // ztunnel's lines share the layout: its files are ztunnel.ts's
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => SNIFF.test(l) && !isZtunnelSniffLine(l)),
  createParser: componentLineParser({ parse: (line) => parseIstioText(line), writer: "istio-cni", continuation: "any" }),
  samples: [
    {
      line: "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod default/web-7d9c6b5f4-x2x9q excluded from mesh",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 12, ms: 400, offsetMin: 0, precision: "us" },
        component: "istio-cni",
        severity: 1,
        message: "Pod default/web-7d9c6b5f4-x2x9q excluded from mesh",
        fields: { scope: "cni" },
      },
    },
    {
      // default scope: three fields
      line: "2024-09-17T13:04:21.312993Z\tinfo\tfile modified: /host/etc/cni/net.d/.05-cilium.conflist4276606968",
      expect: {
        time: { year: 2024, month: 9, day: 17, hour: 13, minute: 4, second: 21, ms: 312, offsetMin: 0, precision: "us" },
        severity: 1,
        message: "file modified: /host/etc/cni/net.d/.05-cilium.conflist4276606968",
      },
    },
    {
      // istio labels after a tab become fields
      line: "2024-08-02T05:07:02.954371Z\tdebug\tsync complete\tname=informer attempt=1",
      expect: { severity: 0, message: "sync complete", fields: { name: "informer", attempt: "1" } },
    },
  ],
  notMine: [
    "2021-06-04T20:11:07.449Z\tINFO\tcontroller\tReconciling",
    "2025-05-19T04:20:09.10473Z stderr F I0519 04:20:09.104500       1 main.go:88] x",
    '{"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"x"}',
    "2025-05-19T04:20:07.512401+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "apiVersion: v1",
  ],
};
