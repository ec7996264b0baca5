/**
 * istio-cni agent with `--log_as_json` (zap JSON; istio `pkg/log`), case 002.
 *
 *     {"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"Created CNI config /host/etc/cni/net.d/05-cilium.conflist"}
 *
 * `level`, `time` (UTC, µs, `Z`), optional `scope`, `msg`, then structured keys. A cheap prefix
 * regex rejects other lines; only matching lines are decoded with JSON.parse. `scope` and every
 * other key except level/time/msg become fields (non-string values as JSON text).
 */
import { otherFields } from "./helpers/json-fields";
import { type ComponentLine, componentRecord } from "./helpers/component-line";
import { LOGRUS_LEVELS } from "./helpers/logfmt";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec } from "./types";

const PREFIX = /^\{"level":"(\w+)","time":"(\d{4}-\d{2}-\d{2}T[^"]+Z)"/;

/** Parse one istio JSON line; null when `s` is not one (or is not valid JSON). */
export function parseIstioJson(s: string): ComponentLine | null {
  if (s.charCodeAt(0) !== 123 || s.charCodeAt(s.length - 1) !== 125) return null;
  const m = PREFIX.exec(s);
  if (!m) return null;
  const sev = LOGRUS_LEVELS[m[1]];
  const time = parseIsoStamp(m[2]);
  if (sev === undefined || !time) return null;
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(s) as Record<string, unknown>;
  } catch {
    return null;
  }
  const out: ComponentLine = { time, severity: sev, message: typeof obj.msg === "string" ? obj.msg : "", component: "istio-cni" };
  const fields = otherFields(obj, "level", "time", "msg");
  if (fields) out.fields = fields;
  return out;
}

const SNIFF = /^\{"level":"\w+","time":"\d{4}-[^"]+Z",(?:"scope":|"msg":)/;

/** Format spec: istio-cni agent zap JSON lines. */
export const istioCniJsonSpec: FormatSpec = {
  name: "istio-cni-json",
  kind: "istio-cni",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    return {
      parseLine(line) {
        const c = parseIstioJson(line);
        if (!c) return null;
        return { type: "record", record: componentRecord(c, "istio-cni") };
      },
    };
  },
  samples: [
    {
      line: '{"level":"info","time":"2024-02-03T23:50:37.091195Z","scope":"install","msg":"Created CNI config /host/etc/cni/net.d/05-cilium.conflist"}',
      expect: {
        time: { year: 2024, month: 2, day: 3, hour: 23, minute: 50, second: 37, ms: 91, offsetMin: 0, precision: "us" },
        component: "istio-cni",
        severity: 1,
        message: "Created CNI config /host/etc/cni/net.d/05-cilium.conflist",
        fields: { scope: "install" },
      },
    },
    {
      line: '{"level":"error","time":"2024-02-03T23:50:38.000001Z","msg":"failed to watch","retries":3}',
      expect: { severity: 3, message: "failed to watch", fields: { retries: "3" } },
    },
  ],
  notMine: [
    '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
    '{"kind":"EventList","apiVersion":"v1","items":[]}',
    "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod default/web excluded from mesh",
  ],
};
