/**
 * `journalctl -o json-pretty`; upstream systemd
 * `src/shared/logs-show.c` (`output_json`, pretty flag: one field per line, ` : ` between key and
 * value, indented, `{` and `}` alone on their lines).
 *
 *     {
 *             "__CURSOR" : "s=0a1b;i=1;b=6c0f2ea14b7d4e1a9c3358b0f2d7e611",
 *             "__REALTIME_TIMESTAMP" : "1747628407512401",
 *             "_BOOT_ID" : "6c0f2ea14b7d4e1a9c3358b0f2d7e611",
 *             "SYSLOG_IDENTIFIER" : "kubelet",
 *             "MESSAGE" : "I0519 04:20:07.512344    2817 kubelet.go:2321] \"Starting kubelet main sync loop\""
 *     }
 *
 * The same entries as `-o json` (journal-fields.ts builds the record: `_BOOT_ID` as its boot id,
 * the klog or logrus time inside MESSAGE, else the entry's instant). The `{` line is the record;
 * the lines up to its `}` are continuations, decoded together when the `}` arrives (or at the end
 * of the file). An entry that does not parse whole (cut short, a line cut at the line limit) is
 * read field by field (`fieldsOf`); with nothing usable left it is an empty `unknown` record.
 */
import { journalEntryRecord } from "./helpers/journal-fields";
import type { FormatSpec, LineParser, LineResult, ParsedRecord } from "./types";

const OPEN = /^\{\s*$/;
const CLOSE = /^\}\s*$/;
/** A field line of an entry: indented `"KEY" : value` (also the first one, which sniffing reads). */
const FIELD = /^\s+"[A-Za-z0-9_]+"\s*:\s*/;

const FIELD_LINE = /^\s+("(?:[^"\\]|\\.)*")\s*:\s*(.*?),?\s*$/;

/**
 * The fields of an entry that does not parse as a whole, line by line: each `"KEY" : value` line
 * alone (an array value with the lines up to its `]`). A field that does not parse is left out,
 * except a string cut short (a line past the line limit, or the file's end), which is kept as far
 * as it goes: the rest of the entry is not lost with one broken field.
 */
function fieldsOf(lines: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < lines.length; i++) {
    const m = FIELD_LINE.exec(lines[i]);
    if (!m) continue;
    let value = m[2];
    if (value === "[") {
      const parts = ["["];
      while (++i < lines.length && !/^\s*\],?\s*$/.test(lines[i])) parts.push(lines[i]);
      value = `${parts.join("")}]`;
    }
    let key: string;
    try {
      key = JSON.parse(m[1]) as string;
    } catch {
      continue;
    }
    try {
      out[key] = JSON.parse(value);
    } catch {
      // a string cut short: closed after its last whole character (an escape is at most 6 long)
      if (value.startsWith('"')) {
        for (let drop = 0; drop < 6 && drop < value.length; drop++) {
          try {
            out[key] = JSON.parse(`${value.slice(0, value.length - drop)}"`);
            break;
          } catch {
            // one character fewer
          }
        }
      }
    }
  }
  return out;
}

class JsonPrettyParser implements LineParser {
  private record: ParsedRecord | null = null;
  private text: string[] = [];

  /** Decodes the open entry into its record (in place). */
  private complete(): void {
    const r = this.record;
    if (!r) return;
    this.record = null;
    const lines = this.text;
    this.text = [];
    let fields: Record<string, unknown> | null = null;
    try {
      const obj: unknown = JSON.parse(lines.join("\n"));
      if (obj && typeof obj === "object" && !Array.isArray(obj)) fields = obj as Record<string, unknown>;
    } catch {
      // cut short (by the collector, or a line cut at the line limit): field by field
      fields = fieldsOf(lines);
    }
    const built = (fields && journalEntryRecord(fields)) ?? { time: null, component: "unknown", severity: 1 as const, message: "" };
    Object.assign(r, built);
  }

  finish(): void {
    this.complete();
  }

  parseLine(line: string): LineResult {
    if (OPEN.test(line)) {
      this.complete();
      this.text = ["{"];
      this.record = { time: null, component: "unknown", severity: 1, message: "" };
      return { type: "record", record: this.record };
    }
    if (!this.record) return null;
    this.text.push(line);
    if (CLOSE.test(line)) this.complete();
    return { type: "continuation", text: "" };
  }
}

/** Format spec: `journalctl -o json-pretty` dumps. */
export const journalJsonPrettySpec: FormatSpec = {
  name: "journal-json-pretty",
  kind: "journal",
  sniff: (_path, lines) => lines.length > 1 && OPEN.test(lines[0]) && /^\s+"__(?:CURSOR|REALTIME_TIMESTAMP)"\s*:\s*"/.test(lines[1]) && FIELD.test(lines[1]),
  createParser: () => new JsonPrettyParser(),
  samples: [
    {
      line: "{",
      after: [
        '\t"__CURSOR" : "s=0a1b2c;i=1;b=6c0f2ea14b7d4e1a9c3358b0f2d7e611",',
        '\t"__REALTIME_TIMESTAMP" : "1747628407512401",',
        '\t"__MONOTONIC_TIMESTAMP" : "11803512",',
        '\t"_BOOT_ID" : "6c0f2ea14b7d4e1a9c3358b0f2d7e611",',
        '\t"PRIORITY" : "6",',
        '\t"_HOSTNAME" : "ip-10-20-30-40.ec2.internal",',
        '\t"SYSLOG_IDENTIFIER" : "kubelet",',
        '\t"_PID" : "2817",',
        '\t"MESSAGE" : "I0519 04:20:07.512344    2817 kubelet.go:2321] \\"Starting kubelet main sync loop\\""',
        "}",
      ],
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 512, offsetMin: 0, precision: "us" },
        host: "ip-10-20-30-40.ec2.internal",
        ident: "kubelet",
        pid: 2817,
        component: "kubelet",
        severity: 1,
        message: "Starting kubelet main sync loop",
        bootId: "6c0f2ea14b7d4e1a9c3358b0f2d7e611",
      },
    },
    {
      // a MESSAGE that is not UTF-8 comes as an array of byte values, one per line; 8-space indent
      line: "{",
      after: [
        '        "__CURSOR" : "s=0a1b2c;i=2",',
        '        "__REALTIME_TIMESTAMP" : "1747628371000123",',
        '        "SYSLOG_IDENTIFIER" : "kernel",',
        '        "_HOSTNAME" : "node-b",',
        '        "MESSAGE" : [',
        "                76,",
        "                105,",
        "                110,",
        "                117,",
        "                120",
        "        ]",
        "}",
      ],
      expect: { time: null, epochMs: 1747628371000, epochPrecision: "us", component: "kernel", message: "Linux" },
    },
  ],
  notMine: ['{"__CURSOR":"s=0a1b","__REALTIME_TIMESTAMP":"1747628407512401","MESSAGE":"x"}', '  "metadata": {', "__CURSOR=s=0a1b;i=1"],
};
