/**
 * Weave Net router and weave-npc (`weaveworks/weave` `common/log.go`: a logrus formatter writing
 * `<LEVEL4>: <2006/01/02 15:04:05.000000> <message>`).
 *
 *     INFO: 2023/07/02 05:11:52.239363 Command line options: map[conn-limit:200 …]
 *     DEBU: 2023/07/02 05:11:52.162403 [kube-peers] Checking peer "36:11:85:21:8c:f6" against list …
 *     FATA: 2019/10/02 21:15:49.419326 All system IDs are blank
 *
 * Levels DEBU INFO WARN ERRO FATA PANI; the stamp has a year, µs and no zone (the container's local
 * time, UTC in the weave images). Indented lines continue the record before them. Component
 * `weave`.
 */
import { type ComponentLine, componentLineParser } from "./helpers/component-line";
import { sniffRatio } from "./helpers/sniff-util";
import { d2, d4, fractionMs } from "./helpers/time-util";
import type { FormatSpec, Severity } from "./types";

const LEVELS: Readonly<Record<string, Severity>> = { DEBU: 0, INFO: 1, WARN: 2, ERRO: 3, FATA: 4, PANI: 4 };
const RE = /^(DEBU|INFO|WARN|ERRO|FATA|PANI): (\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))? ?(.*)$/;

/** Parse one Weave Net line; null when `s` is not one. */
export function parseWeaveText(s: string): ComponentLine | null {
  if (s.charCodeAt(4) !== 58) return null;
  const m = RE.exec(s);
  if (!m) return null;
  const year = d4(m[2], 0);
  const month = d2(m[3], 0);
  const day = d2(m[4], 0);
  const hour = d2(m[5], 0);
  const minute = d2(m[6], 0);
  const second = d2(m[7], 0);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const frac = m[8] ?? "";
  const ms = frac ? fractionMs(frac, 0, frac.length) : 0;
  const precision = frac.length === 0 ? "s" : frac.length <= 3 ? "ms" : frac.length <= 6 ? "us" : "ns";
  return {
    time: { year, month, day, hour, minute, second, ms, offsetMin: null, precision },
    severity: LEVELS[m[1]],
    message: m[9],
    component: "weave",
  };
}

const SNIFF = /^(?:DEBU|INFO|WARN|ERRO|FATA|PANI): \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/;

/** Format spec: Weave Net router / weave-npc logs. */
export const weaveSpec: FormatSpec = {
  name: "weave",
  kind: "weave",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser: componentLineParser({ parse: parseWeaveText, writer: "weave", continuation: "indented" }),
  samples: [
    {
      line: "INFO: 2024/03/11 07:02:40.518220 Discovered local MAC 6a:1e:22:90:0d:41",
      expect: {
        time: { year: 2024, month: 3, day: 11, hour: 7, minute: 2, second: 40, ms: 518, offsetMin: null, precision: "us" },
        component: "weave",
        severity: 1,
        message: "Discovered local MAC 6a:1e:22:90:0d:41",
      },
    },
    {
      line: 'ERRO: 2024/03/11 07:02:41.000917 Failed to get peers: Get "https://10.96.0.1:443/api/v1/nodes": dial tcp 10.96.0.1:443: i/o timeout',
      expect: { severity: 3, message: 'Failed to get peers: Get "https://10.96.0.1:443/api/v1/nodes": dial tcp 10.96.0.1:443: i/o timeout' },
    },
  ],
  notMine: [
    "INFO[0005] Waiting for node to be registered",
    "2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint",
    "I0519 04:20:10.100200       1 main.go:231] Created subnet manager",
  ],
};
