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
 * Read as a component line (component.ts), e.g. inside a journal, CRI or cloud export envelope. A
 * standalone file in this layout is claimed by `kubectl-timestamps` (a fractional stamp, then text).
 */
import type { ComponentLine } from "./component-line";
import { parseIsoStamp } from "./time-util";
import type { Severity } from "./types";

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
