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
 * A journal short-iso line (`<stamp> host ident[pid]: `) is refused, and so is a seelog line of
 * the AWS VPC CNI (`2019-11-26T02:28:11.342Z [INFO]<TAB>…`, aws-vpc-cni.ts): a `[LEVEL]` token after
 * a stamp of 3 fraction digits (whole seconds never match here). A `[LEVEL]` payload after a longer
 * fraction is the container's own text (CoreDNS prints `[INFO] plugin/reload: …`).
 */
import { envelopeRecord } from "./helpers/component";
import { containerFromPath } from "./cri-log";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, LineResult, ParseContext } from "./types";

const RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,9}(?:Z|[+-]\d{2}:\d{2})) (.*)$/;
/**
 * a CRI stream/tag column, a journal `host ident[pid]: `, an RFC 5424 `host app pid - -` envelope,
 * or a zap console level column (istio-cni's own `<stamp> info scope msg`, tabs turned to spaces)
 */
const NOT_PAYLOAD =
  /^(?:(?:stdout|stderr) [FP](?::\S+)? |[^\s[]\S* [^\s[:]+(?:\[\d+\])?: |\S+ \S+ (?:\d+|-) - -\s|(?:debug|info|warn|error|dpanic|panic|fatal)(?:[\t ]|$))/;
/** a seelog `[LEVEL]` column (aws-vpc-cni's own files), refused after a 3-digit fraction */
const SEELOG_LEVEL = /^\[(?:TRACE|DEBUG|INFO|WARN|ERROR|CRITICAL)\][\t ]/;

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
  if (m[2].charCodeAt(0) === 91 && m[1].length === 24 && SEELOG_LEVEL.test(m[2])) return null;
  const time = parseIsoStamp(m[1]);
  if (!time) return null;
  return { type: "record", record: envelopeRecord({ time, ident }, m[2]) };
}

const SNIFF =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,9}(?:Z|[+-]\d{2}:\d{2}) (?!(?:stdout|stderr) [FP]|[^\s[]\S* [^\s[:]+(?:\[\d+\])?: |\S+ \S+ (?:\d+|-) - -\s|(?:debug|info|warn|error|dpanic|panic|fatal)(?:[\t ]|$))\S/;
/** seelog-era AWS VPC CNI lines (aws-vpc-cni.ts), not pod logs */
const SNIFF_SEELOG = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z \[(?:TRACE|DEBUG|INFO|WARN|ERROR|CRITICAL)\][\t ]/;

/** Format spec: API pod logs with timestamps (`kubectl logs --timestamps`). */
export const kubectlTimestampsSpec: FormatSpec = {
  name: "kubectl-timestamps",
  kind: "container",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => SNIFF.test(l) && !SNIFF_SEELOG.test(l)),
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
    {
      // CoreDNS's own `[INFO]` after a 9-digit kubelet stamp: the container's text
      line: "2025-05-19T04:20:10.200310000Z [INFO] plugin/reload: Running configuration SHA512 = 7a1c",
      path: "must-gather.local.1/quay-io-x/namespaces/kube-system/pods/coredns-5d78c9869d-abcde/coredns/coredns/logs/current.log",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 10, ms: 200, offsetMin: 0, precision: "ns" },
        ident: "coredns",
        message: "[INFO] plugin/reload: Running configuration SHA512 = 7a1c",
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
    "2018-05-12T00:59:59Z [ERROR] Failed to assign IP address to pod default/web-0: no available IP addresses",
  ],
};
