/**
 * zap production JSON (AWS VPC CNI `/var/log/aws-routed-eni/*.log`, other zap loggers); upstream
 * `aws/amazon-vpc-cni-k8s` `pkg/utils/logger/zaplogger.go`.
 *
 *     {"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs having 2 secondary IPs"}
 *     {"level":"error","ts":"2025-05-19T13:20:08.902+0900","caller":"routed-eni-cni-plugin/cni.go:283","msg":"Error received from AddNetwork gRPC call"}
 *     {"level":"info","ts":1747628407.512,"logger":"x","msg":"…"}                (epoch seconds, other zap loggers)
 *
 * `ts` is ISO-8601 with milliseconds and `Z` or a colon-less offset (`+0900`), or a float of
 * epoch seconds. Levels debug|info|warn|error|dpanic|panic|fatal. `caller`, `logger` and the other
 * keys become fields. The component comes from the path (`aws-routed-eni/` → aws-vpc-cni, `multus`
 * → multus), else from the `logger` key, else `zap`.
 */
import { otherFields } from "./helpers/json-fields";
import { type ComponentLine, componentRecord } from "./helpers/component-line";
import { LOGRUS_LEVELS } from "./helpers/logfmt";
import { sniffRatio } from "./helpers/sniff-util";
import { parseIsoStamp, precisionOfDigits, utcWallTime } from "./helpers/time-util";
import type { FormatSpec, LineParser, LineResult, ParseContext } from "./types";
import { componentFromPath } from "../model/components";

const AZURE_CNI_ZAP = /"msg":"\[cni-(?:net|ipam)\]|"component":"cni(?:-net|-ipam)?"/;
const PREFIX =
  /^\{"level":"(debug|info|warn|error|dpanic|panic|fatal)","ts":(?:"(\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2}))"|(\d{9,11}(?:\.(\d+))?))[,}]/;

/** Parse one zap JSON line; null when `s` is not one. */
export function parseZapJson(s: string): ComponentLine | null {
  if (s.charCodeAt(0) !== 123 || s.charCodeAt(2) !== 108) return null; // {"l
  const m = PREFIX.exec(s);
  if (!m) return null;
  const time = m[2] ? parseIsoStamp(m[2]) : utcWallTime(Number(m[3]) * 1000, precisionOfDigits(m[4]?.length ?? 0));
  if (!time) return null;
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(s) as Record<string, unknown>;
  } catch {
    return null;
  }
  const out: ComponentLine = { time, severity: LOGRUS_LEVELS[m[1]], message: typeof obj.msg === "string" ? obj.msg : "", component: null };
  const fields = otherFields(obj, "level", "ts", "msg");
  if (fields) out.fields = fields;
  return out;
}

/** Component of a zap JSON file from its path (see the module comment), or null. */
export function zapComponentFromPath(path: string | undefined): string | null {
  return componentFromPath(path, ["aws-vpc-cni", "multus", "nodeadm"]);
}

/**
 * Component from zap's `caller` (`<package dir>/<file>.go:<line>`) when the path does not say: the
 * AWS VPC CNI's plugin (`routed-eni-cni-plugin/`), ipamd (`ipamd/`, `aws-k8s-agent`), multus.
 */
function componentFromCaller(caller: string | undefined): string | null {
  if (!caller) return null;
  if (/^(?:routed-eni-cni-plugin|ipamd|aws-k8s-agent|awsutils|eniconfig|cni-metrics-helper)\//.test(caller)) return "aws-vpc-cni";
  if (/^multus\//.test(caller)) return "multus";
  return null;
}

class ZapParser implements LineParser {
  private readonly component: string | null;
  constructor(ctx: ParseContext) {
    this.component = zapComponentFromPath(ctx.path);
  }
  parseLine(line: string): LineResult {
    const c = parseZapJson(line);
    if (!c) return null;
    const logger = c.fields?.logger;
    return { type: "record", record: componentRecord(c, this.component ?? componentFromCaller(c.fields?.caller) ?? logger ?? "zap") };
  }
}

const SNIFF = /^\{"level":"(?:debug|info|warn|error|dpanic|panic|fatal)","ts":(?:"\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})"|\d{9,11}(?:\.\d+)?)[,}]/;

/** Format spec: zap production JSON files (AWS VPC CNI ipamd/plugin logs). */
export const zapJsonSpec: FormatSpec = {
  name: "zap-json",
  kind: "aws-vpc-cni",
  // not Azure CNI's zap lines (`"msg":"[cni-net] …"`, `"component":"cni"`: azure-cni.ts reads them with the plugin's runs)
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => SNIFF.test(l) && !AZURE_CNI_ZAP.test(l)),
  createParser: (ctx) => new ZapParser(ctx),
  samples: [
    {
      line: '{"level":"info","ts":"2025-05-19T04:20:08.321Z","caller":"ipamd/ipamd.go:850","msg":"Found ENIs having 2 secondary IPs and 1 Prefixes"}',
      path: "var_log/aws-routed-eni/ipamd.log",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 8, ms: 321, offsetMin: 0, precision: "ms" },
        component: "aws-vpc-cni",
        severity: 1,
        message: "Found ENIs having 2 secondary IPs and 1 Prefixes",
        fields: { caller: "ipamd/ipamd.go:850" },
      },
    },
    {
      // colon-less offset
      line: '{"level":"error","ts":"2025-05-19T13:20:08.902+0900","caller":"routed-eni-cni-plugin/cni.go:283","msg":"Error received from AddNetwork gRPC call for container 5f1c: rpc error: code = Unavailable"}',
      path: "var_log/aws-routed-eni/plugin.log",
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 13, minute: 20, second: 8, ms: 902, offsetMin: 540, precision: "ms" },
        component: "aws-vpc-cni",
        severity: 3,
      },
    },
    {
      line: '{"level":"warn","ts":1747628407.512,"logger":"controller","msg":"slow"}',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 512, offsetMin: 0, precision: "ms" },
        component: "controller",
        severity: 2,
        message: "slow",
        fields: { logger: "controller" },
      },
    },
  ],
  notMine: [
    '{"level":"info","time":"2024-02-03T23:50:37.090919Z","scope":"install","msg":"x"}',
    '{"ts":1747628407512.3442,"caller":"kubelet/kubelet.go:2321","msg":"Starting kubelet main sync loop","v":0}',
    'time="2025-05-19T04:20:05.931046219Z" level=info msg="starting containerd"',
  ],
};
