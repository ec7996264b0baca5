/**
 * CRI-O's logrus text; upstream cri-o `internal/log` / `cmd/crio/main.go`
 * (TimestampFormat `2006-01-02 15:04:05.000000000Z07:00`: a space instead of `T`, 9 digits).
 *
 *     time="2025-05-19 04:20:05.931046219Z" level=info msg="Starting CRI-O, version: 1.31.4, git: …"
 *
 * The offset may be CRI-O's broken `+05:1800` form (minutes printed as seconds), read as +05:30.
 * The same key layout with Go's `time.Time.String()` stamp (`time="2024-01-01 00:00:00.123 +0000
 * UTC"`) is read too; its component comes from the path (k3s, rke2, docker, kata), else crio.
 */
import { type ComponentLine, componentLineParser } from "./helpers/component-line";
import { LOGRUS_LEVELS, parseLogrusText, scanLogfmt } from "./helpers/logfmt";
import { parseGoTimeText } from "./logrus-text";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec } from "./types";
import { componentFromPath } from "../model/components";

/** Parse one CRI-O logrus line (space between date and time); null when it is not one. */
export function parseCrioText(s: string): ComponentLine | null {
  return parseLogrusText(s, " ") ?? parseGoStringTime(s);
}

/**
 * logrus lines whose `time` is Go's `time.Time.String()` (`2024-01-01 00:00:00.123 +0000 UTC`,
 * optionally ` m=+0.01`), as programs that format the stamp with `%v` print it. Null otherwise.
 */
function parseGoStringTime(s: string): ComponentLine | null {
  if (s.charCodeAt(5) !== 34 || s.charCodeAt(16) !== 32 || !s.startsWith("time=")) return null;
  const l = scanLogfmt(s);
  if (!l || l.time === undefined) return null;
  const sev = LOGRUS_LEVELS[l.level];
  const time = parseGoTimeText(l.time);
  if (sev === undefined || !time) return null;
  const out: ComponentLine = { time, severity: sev, message: l.msg ?? "", component: null };
  if (l.hasFields) out.fields = l.fields;
  return out;
}

/** Component of a file in this layout: from the path (k3s, rke2, docker, kata), else crio. */
const fileComponent = (path: string | undefined): string => componentFromPath(path, ["rke2", "k3s", "docker", "kata"]) ?? "crio";

const SNIFF = /^time="\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?[^"]*" level=\w+ /;
const K0S_CHILD_RE = /^time="[^".]*" level=\w+ msg=.* component=[a-z][\w.-]*(?: stream=std(?:out|err))?\s*$/;

/** Format spec: CRI-O logrus text files. */
export const crioLogrusSpec: FormatSpec = {
  name: "crio-logrus",
  kind: "crio",
  // not k0s' supervisor lines (whole seconds, a child's `component=` last: k0s-supervisor.ts)
  sniff: (_path, lines) => sniffRatio(lines, SNIFF, (l) => SNIFF.test(l) && !K0S_CHILD_RE.test(l)),
  createParser: componentLineParser({ parse: parseCrioText, writer: fileComponent, continuation: "indented" }),
  samples: [
    {
      line: 'time="2025-05-19 04:20:05.931046219Z" level=info msg="Starting CRI-O, version: 1.31.4, git: abc"',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 5, ms: 931, offsetMin: 0, precision: "ns" },
        component: "crio",
        severity: 1,
        message: "Starting CRI-O, version: 1.31.4, git: abc",
      },
    },
    {
      line: 'time="2025-05-19 09:50:11.000000001+05:1800" level=error msg="Error stopping network on cleanup" file="server/sandbox_network.go:119" id=5f1c',
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 9, minute: 50, second: 11, ms: 0, offsetMin: 330, precision: "ns" },
        severity: 3,
        message: "Error stopping network on cleanup",
        fields: { file: "server/sandbox_network.go:119", id: "5f1c" },
      },
    },
    {
      line: 'time="2024-02-01 09:15:02.482913 +0000 UTC m=+0.031" level=warning msg="unable to find cgroup for pod" pod=web-0',
      path: "host/dockerd.log",
      expect: {
        time: { year: 2024, month: 2, day: 1, hour: 9, minute: 15, second: 2, ms: 482, offsetMin: 0, precision: "us" },
        component: "docker",
        severity: 2,
        message: "unable to find cgroup for pod",
        fields: { pod: "web-0" },
      },
    },
  ],
  notMine: [
    'time="2025-05-19T04:20:05.931046219Z" level=info msg="starting containerd"',
    "2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint",
    'level=info msg="Restored endpoint" subsys=endpoint',
  ],
};
