/**
 * istio-cni agent, zap console encoder: FORMATS.md 3.9; upstream istio/istio `pkg/log/config.go`.
 *
 *     2025-05-19T04:20:12.400120Z<TAB>info<TAB>cni<TAB>Pod default/web-7d9c6b5f4-x2x9q excluded from mesh
 *
 * Always UTC with µs and `Z`; then the lowercase level, the scope (absent for the default scope:
 * three fields instead of four, case 006), and the message. A message may span lines (case 006:
 * `wrote kubeconfig file … with: ` followed by the YAML it wrote): lines after a record that are not
 * records are its continuations. Seen through journalctl without `-a`, tabs arrive as spaces; the
 * component parser accepts that form too (scope = a lone token followed by two or more spaces).
 */
import { type ComponentLine, componentRecord } from "./component-line";
import { LOGRUS_LEVELS } from "./logfmt";
import { sniffRatio } from "./sniff-util";
import { parseIsoStamp } from "./time-util";
import type { FormatSpec } from "./types";

const TAB_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,9}Z)\t(debug|info|warn|error|dpanic|panic|fatal)\t(.*)$/;
const SPACE_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,9}Z)( +|\t)(debug|info|warn|error|dpanic|panic|fatal)( +|\t)(.*)$/;
const SCOPE_RE = /^[a-z][a-z0-9_-]*$/;

/**
 * Parse one istio zap console line. `tabsOnly` (standalone files) requires the real tab separators;
 * otherwise runs of spaces are accepted (journal MESSAGE). Null when `s` is not one.
 */
export function parseIstioText(s: string, tabsOnly = true): ComponentLine | null {
  const c0 = s.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || s.charCodeAt(10) !== 84) return null;
  let stamp: string;
  let level: string;
  let rest: string;
  let tabbed: boolean;
  const m = TAB_RE.exec(s);
  if (m) {
    stamp = m[1];
    level = m[2];
    rest = m[3];
    tabbed = true;
  } else {
    if (tabsOnly) return null;
    const sm = SPACE_RE.exec(s);
    if (!sm) return null;
    stamp = sm[1];
    level = sm[3];
    rest = sm[5];
    tabbed = false;
  }
  const time = parseIsoStamp(stamp);
  if (!time) return null;
  let scope: string | null = null;
  let message = rest;
  if (tabbed) {
    const t = rest.indexOf("\t");
    if (t > 0 && SCOPE_RE.test(rest.slice(0, t))) {
      scope = rest.slice(0, t);
      message = rest.slice(t + 1);
    }
  } else {
    const sp = rest.search(/ {2,}|\t/);
    if (sp > 0 && SCOPE_RE.test(rest.slice(0, sp))) {
      scope = rest.slice(0, sp);
      message = rest.slice(sp).trimStart();
    }
  }
  const out: ComponentLine = { time, severity: LOGRUS_LEVELS[level], message, component: "istio-cni" };
  if (scope !== null) out.fields = { scope };
  return out;
}

const SNIFF = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,9}Z\t(?:debug|info|warn|error|dpanic|panic|fatal)\t/;

/** Format spec: istio-cni agent zap console text (tab separated; multi-line records). */
export const istioCniSpec: FormatSpec = {
  name: "istio-cni",
  kind: "istio-cni",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    let seen = false;
    return {
      parseLine(line) {
        const c = parseIstioText(line, true);
        if (!c) return seen ? { type: "continuation", text: line } : null;
        seen = true;
        return { type: "record", record: componentRecord(c, "istio-cni") };
      },
    };
  },
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
  ],
  notMine: [
    "2025-05-19T04:20:09.10473Z stderr F I0519 04:20:09.104500       1 main.go:88] x",
    '{"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"x"}',
    "2025-05-19T04:20:07.512401+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "apiVersion: v1",
  ],
};
