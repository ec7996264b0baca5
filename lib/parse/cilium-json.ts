/**
 * Cilium agent `json` / `json-ts` log format, slog era (Cilium >= 1.17); upstream cilium
 * `pkg/logging/slog.go` (the slog attribute names below are not yet checked against real output).
 *
 *     {"time":"2025-05-19T04:20:13.123456789Z","level":"info","msg":"Restored endpoint","module":"agent.controlplane.endpoint-manager","endpointID":1234}
 *     {"level":"info","msg":"Wrote CNI configuration file","subsys":"cni-config"}                         (json: no time)
 *
 * slog's JSON handler writes `time` (RFC3339Nano; absent in Cilium's plain `json`), `level`
 * (lowercased by Cilium; `INFO` accepted), `source` (an object: function, file, line; only when
 * source locations are on, placed before `msg`), `msg`, then attributes (`source`, `module`, `subsys`,
 * …) as fields. Lines without a time keep a null time (the CRI envelope, when there is one, gives
 * it). zap (`"ts":`) and istio (`"scope":`) JSON lines are refused.
 */
import { otherFields } from "./helpers/json-fields";
import { type ComponentLine, componentRecord } from "./helpers/component-line";
import { LOGRUS_LEVELS } from "./helpers/logfmt";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineResult, WallTime } from "./types";

const PREFIX = /^\{(?:"time":"(\d{4}-\d{2}-\d{2}T[^"]+)",)?"level":"(\w+)",(?:"source":\{[^{}]*\},)?"msg":/;

/** Parse one Cilium slog JSON line; null when `s` is not one. */
export function parseCiliumJson(s: string): ComponentLine | null {
  if (s.charCodeAt(0) !== 123) return null;
  const m = PREFIX.exec(s);
  if (!m) return null;
  const sev = LOGRUS_LEVELS[m[2].toLowerCase()];
  if (sev === undefined) return null;
  let time: WallTime | null = null;
  if (m[1]) {
    time = parseIsoStamp(m[1]);
    if (!time) return null;
  }
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(s) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (obj.scope !== undefined) return null; // istio
  const out: ComponentLine = { time, severity: sev, message: typeof obj.msg === "string" ? obj.msg : "", component: "cilium" };
  const fields = otherFields(obj, "level", "time", "msg");
  if (fields) out.fields = fields;
  return out;
}

const SNIFF = /^\{(?:"time":"\d{4}-\d{2}-\d{2}T[^"]+",)?"level":"\w+",(?:"source":\{[^{}]*\},)?"msg":/;

/** Format spec: Cilium agent slog JSON files. */
export const ciliumJsonSpec: FormatSpec = {
  name: "cilium-json",
  kind: "cilium",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => SNIFF.test(l) && !l.includes('"scope":')),
  createParser() {
    return {
      parseLine(line: string): LineResult {
        const c = parseCiliumJson(line);
        return c ? { type: "record", record: componentRecord(c, "cilium") } : null;
      },
    };
  },
  samples: [
    {
      line: '{"time":"2025-05-19T04:20:13.123456789Z","level":"info","msg":"Restored endpoint","module":"agent.controlplane.endpoint-manager","endpointID":1234}',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 13, ms: 123, offsetMin: 0, precision: "ns" },
        component: "cilium",
        severity: 1,
        message: "Restored endpoint",
        fields: { module: "agent.controlplane.endpoint-manager", endpointID: "1234" },
      },
    },
    {
      line: '{"level":"warn","msg":"Unable to connect to agent","subsys":"cilium-cni","error":"dial unix /var/run/cilium/cilium.sock: connect: no such file or directory"}',
      expect: {
        time: null,
        severity: 2,
        message: "Unable to connect to agent",
        fields: { subsys: "cilium-cni", error: "dial unix /var/run/cilium/cilium.sock: connect: no such file or directory" },
      },
    },
    {
      // slog's JSON handler with source locations on: `source` object between level and msg, level as slog prints it
      line: '{"time":"2025-03-04T18:22:41.50422311Z","level":"WARN","source":{"function":"github.com/cilium/cilium/pkg/endpoint.(*Endpoint).restore","file":"/go/src/github.com/cilium/cilium/pkg/endpoint/restore.go","line":80},"msg":"Unable to restore endpoint","module":"agent.controlplane.endpoint-manager","endpointID":311}',
      expect: {
        time: { year: 2025, month: 3, day: 4, hour: 18, minute: 22, second: 41, ms: 504, offsetMin: 0, precision: "ns" },
        component: "cilium",
        severity: 2,
        message: "Unable to restore endpoint",
        fields: {
          source:
            '{"function":"github.com/cilium/cilium/pkg/endpoint.(*Endpoint).restore","file":"/go/src/github.com/cilium/cilium/pkg/endpoint/restore.go","line":80}',
          module: "agent.controlplane.endpoint-manager",
          endpointID: "311",
        },
      },
    },
  ],
  notMine: [
    '{"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"x"}',
    '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
    'level=info msg="Restored endpoint" subsys=endpoint',
  ],
};
