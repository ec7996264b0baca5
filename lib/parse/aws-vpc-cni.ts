/**
 * AWS VPC CNI logs of the seelog era (amazon-vpc-cni-k8s before v1.7, when ipamd and the plugin
 * logged through `github.com/cihub/seelog`): `/var/log/aws-routed-eni/ipamd.log` and `plugin.log`.
 * Later versions write zap JSON (zap-json.ts).
 *
 *     2019-11-26T02:28:11.342Z [INFO]<TAB>Starting L-IPAMD v1.5.3  ...
 *     2019-11-26T02:28:13.101Z [ERROR]<TAB>Failed to retrieve interfaces data from instance metadata …
 *
 * ISO-8601 with milliseconds and `Z`, the level in brackets (TRACE DEBUG INFO WARN ERROR
 * CRITICAL), a tab (or spaces after a copy), the message. Component `aws-vpc-cni`.
 *
 * seelog's config in those versions was `%UTCDate(2006-01-02T15:04:05Z07:00) [%LEVEL] %Msg%n`: the
 * first releases (2018) print whole seconds and one space; later ones milliseconds and a tab:
 *
 *     2018-06-02T07:40:58Z [INFO] Received AddNetwork for NS /proc/4242/ns/net, Pod web-0, NameSpace default, …
 *     2018-06-02T07:40:58Z [ERROR] Failed to assign IP address to pod default/web-0: no available IP addresses
 *
 * ipamd logs each request from the plugin and its answer at INFO (`Received AddNetwork for NS …, Pod
 * …, NameSpace …, Container …`, then `Send AddNetworkReply: …, err: <cause>`); which answers are
 * failures is the classifier's (lib/normalise/classify.ts).
 *
 * Read as a component line (component.ts), e.g. inside a journal, CRI or cloud export envelope, and
 * as a file of its own (`aws-vpc-cni-seelog`): its records, and indented lines continuing them.
 * `kubectl-timestamps` refuses these lines (a `[LEVEL]` token after a stamp of 0 or 3 fraction
 * digits), so the file comes here.
 */
import { type ComponentLine, componentLineParser } from "./helpers/component-line";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp } from "./helpers/time-util";
import type { FormatSpec, Severity } from "./types";

const LEVELS: Readonly<Record<string, Severity>> = { TRACE: 0, DEBUG: 0, INFO: 1, WARN: 2, ERROR: 3, CRITICAL: 4 };
const RE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})) \[(TRACE|DEBUG|INFO|WARN|ERROR|CRITICAL)\][\t ]+(.*)$/;

/** Parse one seelog-era AWS VPC CNI line; null when `s` is not one. */
export function parseAwsSeelog(s: string): ComponentLine | null {
  const m = RE.exec(s);
  if (!m) return null;
  const time = parseIsoStamp(m[1]);
  if (!time) return null;
  return { time, severity: LEVELS[m[2]], message: m[3], component: "aws-vpc-cni" };
}

/** a seelog-era line: RFC 3339 UTC stamp with 0 or 3 fraction digits, then `[LEVEL]` */
const SNIFF = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z \[(?:TRACE|DEBUG|INFO|WARN|ERROR|CRITICAL)\][\t ]/;

/** Format spec: AWS VPC CNI `ipamd.log` / `plugin.log` of the seelog era (see the module comment). */
export const awsVpcCniSeelogSpec: FormatSpec = {
  name: "aws-vpc-cni-seelog",
  kind: "aws-vpc-cni",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser: componentLineParser({
    // the stamp has 0 or 3 fraction digits (a 9-digit one is a `kubectl logs --timestamps` envelope)
    parse: (line) => (line.charCodeAt(19) === 90 || (line.charCodeAt(19) === 46 && line.charCodeAt(23) === 90) ? parseAwsSeelog(line) : null),
    writer: "aws-vpc-cni",
    continuation: "indented",
  }),
  samples: [
    {
      line: "2018-06-02T07:41:05Z [ERROR] Failed to assign IP address to pod kube-system/coredns-7f9c4-q2xz8: no available IP addresses",
      expect: {
        time: { year: 2018, month: 6, day: 2, hour: 7, minute: 41, second: 5, ms: 0, offsetMin: 0, precision: "s" },
        component: "aws-vpc-cni",
        severity: 3,
        message: "Failed to assign IP address to pod kube-system/coredns-7f9c4-q2xz8: no available IP addresses",
      },
    },
    {
      line: "2019-11-26T02:28:11.342Z [INFO]\tReceived CNI add request: ContainerID(4b1c0e) Netns(/proc/3310/ns/net) IfName(eth0)",
      expect: {
        time: { year: 2019, month: 11, day: 26, hour: 2, minute: 28, second: 11, ms: 342, offsetMin: 0, precision: "ms" },
        severity: 1,
        message: "Received CNI add request: ContainerID(4b1c0e) Netns(/proc/3310/ns/net) IfName(eth0)",
      },
    },
    {
      // ipamd's answer to the plugin, at INFO whatever it says (its err is the failure)
      line: "2020-03-16T18:05:27.389Z [INFO] Send AddNetworkReply: IPv4Addr , DeviceNumber: 0, err: assignPodIPv4AddressUnsafe: no available IP addresses",
      expect: {
        time: { year: 2020, month: 3, day: 16, hour: 18, minute: 5, second: 27, ms: 389, offsetMin: 0, precision: "ms" },
        component: "aws-vpc-cni",
        severity: 1,
        message: "Send AddNetworkReply: IPv4Addr , DeviceNumber: 0, err: assignPodIPv4AddressUnsafe: no available IP addresses",
      },
    },
    {
      line: "2018-06-02T07:41:06Z [DEBUG] IP pool stats: total = 14, used = 14, c.currentMaxAddrsPerENI = 15",
      expect: { severity: 0, message: "IP pool stats: total = 14, used = 14, c.currentMaxAddrsPerENI = 15" },
    },
  ],
  notMine: [
    "2025-05-19T04:20:09.104730000Z [INFO] plugin/reload: Running configuration SHA512 = 1f2e",
    '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs"}',
    '2025-05-19T04:20:14Z [verbose] ADD starting CNI request ContainerID:"5f1c"',
    "2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint",
  ],
};
