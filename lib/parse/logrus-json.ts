/**
 * logrus `JSONFormatter` lines: containerd with `[debug] format = "json"` (or `--log-format json`),
 * CRI-O with `--log-format=json`, dockerd with `"log-format": "json"`, and other Go programs
 * built on logrus; upstream sirupsen/logrus `json_formatter.go`.
 *
 *     {"level":"info","msg":"starting containerd","revision":"…","time":"2024-05-02T08:11:01.004512389Z","version":"v1.7.16"}
 *     {"error":"failed to setup network for sandbox \"5e4d\": …","level":"error","msg":"RunPodSandbox for \u0026PodSandboxMetadata{…} failed, error","time":"2024-05-02T08:11:03.512345678Z"}
 *
 * The formatter marshals a Go map, so the keys come sorted: data fields (`error`, `podsandboxid`,
 * …) before and after `level`, `msg` and `time`, always in that order (RFC 3339 with nanoseconds, `Z` or the local
 * offset). `level` is one of logrus's names, `msg` the message, every other key a field
 * (strings unescaped, other values as JSON). The component comes from the path (docker, crio,
 * linkerd, calico; else containerd) for a file of its own, from the envelope in a journal; a line
 * with `subsys` is the Cilium agent's. zap (`"ts":`), istio (`"scope":`) and slog lines
 * (`{"time":` first, cilium-json.ts) are not this format.
 */
import { otherFields } from "./helpers/json-fields";
import { type ComponentLine, componentRecord, indentedContinuation } from "./helpers/component-line";
import { LOGRUS_LEVELS } from "./helpers/logfmt";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec } from "./types";
import { componentFromPath } from "../model/components";

/** Parse one logrus JSON line; null when `s` is not one. */
export function parseLogrusJson(s: string): ComponentLine | null {
  if (s.charCodeAt(0) !== 123 || s.charCodeAt(1) !== 34 || s.startsWith('{"time":')) return null;
  // the sorted keys: `level` before `msg` before `time` (istio's zap JSON writes `time` before `msg`)
  const lv = s.indexOf('"level":"');
  const msg = s.indexOf('"msg":', lv);
  if (lv < 0 || msg < 0 || s.indexOf('"time":"', msg) < 0) return null;
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(s) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (obj === null || typeof obj !== "object" || obj.ts !== undefined || obj.scope !== undefined) return null;
  const level = obj.level;
  const sev = typeof level === "string" ? LOGRUS_LEVELS[level] : undefined;
  if (sev === undefined || typeof obj.msg !== "string" || typeof obj.time !== "string") return null;
  const time = parseIsoStamp(obj.time);
  if (!time) return null;
  const out: ComponentLine = { time, severity: sev, message: obj.msg, component: obj.subsys !== undefined ? "cilium" : null };
  const fields = otherFields(obj, "level", "time", "msg");
  if (fields) out.fields = fields;
  return out;
}

/** The program whose file this is, from its path (see the module comment). */
function fileComponent(path: string): string {
  return componentFromPath(path, ["docker", "crio", "linkerd-cni", "cni-calico"]) ?? "containerd";
}

/** Format spec: logrus JSON files (containerd, CRI-O, dockerd with JSON logging). */
export const logrusJsonSpec: FormatSpec = {
  name: "logrus-json",
  kind: "containerd",
  sniff: (_path, lines) => sniffRatio(lines, /^\{"/, (l) => parseLogrusJson(l) !== null),
  createParser(ctx) {
    let seen = false;
    const component = fileComponent(ctx.path ?? "");
    return {
      settled: true,
      parseLine(line) {
        const c = parseLogrusJson(line);
        if (!c) return indentedContinuation(line, seen);
        seen = true;
        return { type: "record", record: componentRecord(c, c.component ?? component) };
      },
    };
  },
  before: {
    // logrus-era Cilium and containerd's JSON both start `{"level":"…","msg":`
    "cilium-json": [
      '{"level":"info","msg":"RunPodSandbox for \\u0026PodSandboxMetadata{Name:web-0,Uid:1f2e,Namespace:default,Attempt:0,}","time":"2024-05-02T08:11:03.120345678Z"}',
      '{"level":"info","msg":"starting containerd","revision":"926c9586fe4a6236699318391cd44976a98e31f1","time":"2024-05-02T08:11:01.004512389Z","version":"v1.7.16"}',
    ],
  },
  samples: [
    {
      line: '{"error":"failed to setup network for sandbox \\"5e4d3c2b1a09\\": plugin type=\\"calico\\" failed (add): stat /var/lib/calico/nodename: no such file or directory","level":"error","msg":"RunPodSandbox for \\u0026PodSandboxMetadata{Name:web-0,Uid:1f2e,Namespace:default,Attempt:0,} failed, error","time":"2024-05-02T08:11:03.512345678Z"}',
      path: "var/log/containerd/containerd.log",
      expect: {
        time: { year: 2024, month: 5, day: 2, hour: 8, minute: 11, second: 3, ms: 512, offsetMin: 0, precision: "ns" },
        component: "containerd",
        severity: 3,
        message: "RunPodSandbox for &PodSandboxMetadata{Name:web-0,Uid:1f2e,Namespace:default,Attempt:0,} failed, error",
        fields: {
          error:
            'failed to setup network for sandbox "5e4d3c2b1a09": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory',
        },
      },
    },
    {
      // CRI-O with --log-format=json, a local offset
      line: '{"id":"9d1e2f","level":"info","msg":"Got pod network \\u0026{Name:web-1 Namespace:default ID:9d1e2f UID:77aa NetNS:/var/run/netns/4c2d Networks:[] RuntimeConfig:map[]}","name":"/runtime.v1.RuntimeService/RunPodSandbox","time":"2024-05-02T10:11:04.000123456+02:00"}',
      path: "crio.log",
      expect: {
        time: { year: 2024, month: 5, day: 2, hour: 10, minute: 11, second: 4, ms: 0, offsetMin: 120, precision: "ns" },
        component: "crio",
        severity: 1,
        fields: { id: "9d1e2f", name: "/runtime.v1.RuntimeService/RunPodSandbox" },
      },
    },
  ],
  notMine: [
    '{"level":"error","time":"2024-02-03T23:50:38.000001Z","msg":"failed to watch","retries":3}',
    '{"time":"2025-05-19T04:20:13.123456789Z","level":"info","msg":"Restored endpoint","module":"agent.controlplane.endpoint-manager"}',
    '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
    '{"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"x"}',
    'time="2024-05-02T08:11:03.512345678Z" level=error msg="RunPodSandbox failed"',
  ],
};
