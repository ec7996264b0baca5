/**
 * CRI-O's logrus text: FORMATS.md 3.4; upstream cri-o `internal/log` / `cmd/crio/main.go`
 * (TimestampFormat `2006-01-02 15:04:05.000000000Z07:00`: a space instead of `T`, 9 digits).
 *
 *     time="2025-05-19 04:20:05.931046219Z" level=info msg="Starting CRI-O, version: 1.31.4, git: …"
 *
 * The offset may be CRI-O's broken `+05:1800` form (minutes printed as seconds), read as +05:30.
 */
import { type ComponentLine, componentRecord } from "./component-line";
import { parseLogrusText } from "./logfmt";
import { sniffRatio } from "./sniff-util";
import type { FormatSpec } from "./types";

/** Parse one CRI-O logrus line (space between date and time); null when it is not one. */
export function parseCrioText(s: string): ComponentLine | null {
  return parseLogrusText(s, " ");
}

const SNIFF = /^time="\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?[^"]*" level=\w+ /;

/** Format spec: CRI-O logrus text files. */
export const crioLogrusSpec: FormatSpec = {
  name: "crio-logrus",
  kind: "crio",
  sniff: (_path, lines) => sniffRatio(lines, SNIFF),
  createParser() {
    let seen = false;
    return {
      parseLine(line) {
        const c = parseCrioText(line);
        if (!c) {
          const c0 = line.charCodeAt(0);
          return seen && (c0 === 32 || c0 === 9) ? { type: "continuation", text: line } : null;
        }
        seen = true;
        return { type: "record", record: componentRecord(c, "crio") };
      },
    };
  },
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
  ],
  notMine: [
    'time="2025-05-19T04:20:05.931046219Z" level=info msg="starting containerd"',
    "2025-05-19 04:20:11.207 [INFO][4123] cni-plugin/k8s.go 418: Populated endpoint",
    'level=info msg="Restored endpoint" subsys=endpoint',
  ],
};
