/**
 * Pod logs read through the API with timestamps (`kubectl logs --timestamps`, must-gather
 * `namespaces/<ns>/pods/<pod>/<ctr>/<ctr>/logs/{current,previous}.log`, troubleshoot pod logs with
 * `timestamps: true`, RKE1 `docker logs -t`).
 *
 *     2025-05-19T04:20:09.104730000Z I0519 04:20:09.104500       1 main.go:88] "Starting" component="coredns"
 *     2025-05-19T04:20:09.10473Z listening on :8080                                   (docker logs -t trims zeros)
 *
 * RFC3339Nano (the kubelet writes a fixed 9-digit fraction) and the payload, with no stream or
 * tag column (that is cri-log). The payload goes through the component parsers; its own stamp
 * wins (cilium prints none: the envelope's is used). The container comes from the path.
 * A journal short-iso line (`<stamp> host ident[pid]: `) is refused.
 */
import { envelopeRecord } from "./component";
import { containerFromPath } from "./cri-log";
import { sniffRatio } from "./sniff-util";
import { parseIsoStamp } from "./time-util";
import type { FormatSpec, LineResult, ParseContext } from "./types";

const RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,9}(?:Z|[+-]\d{2}:\d{2})) (.*)$/;
/**
 * a CRI stream/tag column, a journal `host ident[pid]: `, an RFC 5424 `host app pid - -` envelope,
 * a zap console level column (istio-cni's own `<stamp> info scope msg`, tabs turned to spaces), or a
 * seelog `[LEVEL]` column (aws-vpc-cni's own files)
 */
const NOT_PAYLOAD = /^(?:(?:stdout|stderr) [FP](?::\S+)? |\S+ [^\s[:]+(?:\[\d+\])?: |\S+ \S+ (?:\d+|-) - -\s|(?:debug|info|warn|error|dpanic|panic|fatal)(?:[\t ]|$)|\[(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL)\]\s)/;

/** Container name from an API log path (must-gather, troubleshoot, sos podlogs), else the CRI layouts. */
export function containerFromApiPath(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const mg = /(?:^|\/)pods\/[^/]+\/([^/]+)\/[^/]+\/logs\/(?:current|previous)\.log$/.exec(path);
  if (mg) return mg[1];
  const ts = /(?:^|\/)pods\/logs\/[^/]+\/[^/]+\/(.+?)(?:-previous)?\.log$/.exec(path);
  if (ts) return ts[1];
  return containerFromPath(path);
}

/** Parse one timestamped API log line for container `ident`; null when not one. */
export function parseApiTimestampLine(line: string, ident?: string): LineResult {
  const c0 = line.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || line.charCodeAt(10) !== 84) return null;
  const m = RE.exec(line);
  if (!m || NOT_PAYLOAD.test(m[2]) || m[2].charCodeAt(0) === 9) return null;
  const time = parseIsoStamp(m[1]);
  if (!time) return null;
  return { type: "record", record: envelopeRecord({ time, ident }, m[2]) };
}

const SNIFF = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,9}(?:Z|[+-]\d{2}:\d{2}) (?!(?:stdout|stderr) [FP]|\S+ [^\s[:]+(?:\[\d+\])?: |\S+ \S+ (?:\d+|-) - -\s|(?:debug|info|warn|error|dpanic|panic|fatal)(?:[\t ]|$)|\[(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL)\]\s)\S/;

/** Format spec: API pod logs with timestamps (`kubectl logs --timestamps`). */
export const kubectlTimestampsSpec: FormatSpec = {
  name: "kubectl-timestamps",
  kind: "container",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser(ctx: ParseContext) {
    const ident = containerFromApiPath(ctx.path);
    return { parseLine: (line: string) => parseApiTimestampLine(line, ident) };
  },
  samples: [
    {
      line: '2025-05-19T04:20:09.104730000Z I0519 04:20:09.104500       1 main.go:88] "Starting" component="coredns"',
      path: "must-gather.local.1/quay-io-x/namespaces/kube-system/pods/coredns-5d78c9869d-abcde/coredns/coredns/logs/current.log",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 9, ms: 104, offsetMin: 0, precision: "us" },
        ident: "coredns",
        component: "coredns",
        severity: 1,
        message: 'Starting component="coredns"',
      },
    },
    {
      line: "2025-05-19T04:20:09.10473Z listening on :8080",
      path: "support-bundle-2025-05-19T04_31_02/cluster-resources/pods/logs/default/web-7d9c6b5f4-x2x9q/web.log",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 9, ms: 104, offsetMin: 0, precision: "us" },
        ident: "web",
        component: "web",
        message: "listening on :8080",
      },
    },
  ],
  notMine: [
    "2025-05-19T04:20:09.10473Z stderr F listening on :8080",
    "2025-05-19T04:20:07.512401+00:00 ip-10-20-30-40 kubelet[2817]: x",
    "2025-05-19T04:20:12.400120Z\tinfo\tcni\tPod default/web excluded from mesh",
    "2024-02-07T05:45:40.738Z NodeA containerd 1234 - -  time=x",
    "2025-05-19T04:20:12.400120Z info    cni-agent    Pod default/web excluded from mesh",
    "2019-08-14T09:12:40.127Z [INFO]\tStarting IPAM daemon",
  ],
};
