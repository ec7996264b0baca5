/**
 * `journalctl -o export` (COS sos `--all-logs`, hand-made exports); upstream systemd's export
 * format specification (https://systemd.io/JOURNAL_EXPORT_FORMATS/).
 *
 *     __CURSOR=s=0a1b;i=1
 *     __REALTIME_TIMESTAMP=1747628407512401
 *     _BOOT_ID=6c0f2ea14b7d4e1a9c3358b0f2d7e611
 *     MESSAGE=I0519 04:20:07.512344    2817 kubelet.go:2321] "Starting kubelet main sync loop"
 *     <blank line>
 *
 * `KEY=value` lines, a blank line between entries, each entry starting with `__CURSOR=`. A binary
 * field is `KEY` alone on its line, then a little-endian 64-bit length and the bytes: the key line
 * is a continuation, the bytes line (holding NULs) is skipped as `binary` by parseFile. The
 * `__CURSOR` line is the record; its other lines are continuations, read when the entry is
 * complete (the next `__CURSOR` or the end of the file): `finish` settles the record in place.
 */
import { journalEntryRecord } from "./helpers/journal-fields";
import { sniffRatio } from "./helpers/sniff-util";
import type { FormatSpec, LineParser, LineResult, ParsedRecord } from "./types";

const FIELD = /^([A-Za-z0-9_]+)=(.*)$/;

class ExportParser implements LineParser {
  private record: ParsedRecord | null = null;
  private fields: Record<string, string> = {};

  private complete(): void {
    const r = this.record;
    if (!r) return;
    this.record = null;
    const built = journalEntryRecord(this.fields) ?? {
      time: null,
      component: "unknown",
      severity: 1 as const,
      message: this.fields.MESSAGE ?? "",
    };
    const target = r as unknown as Record<string, unknown>;
    for (const k of Object.keys(target)) delete target[k];
    Object.assign(target, built);
  }

  finish(): void {
    this.complete();
  }

  parseLine(line: string): LineResult {
    if (line.startsWith("__CURSOR=")) {
      this.complete();
      this.fields = { __CURSOR: line.slice(9) };
      this.record = { time: null, component: "unknown", severity: 1, message: "" };
      return { type: "record", record: this.record };
    }
    if (!this.record) return null;
    const m = FIELD.exec(line);
    if (m) {
      this.fields[m[1]] ??= m[2];
      return { type: "continuation", text: "" };
    }
    if (/^[A-Z0-9_]+$/.test(line)) return { type: "continuation", text: "" }; // binary field name
    return null;
  }
}

const SNIFF = /^__CURSOR=s=[0-9a-f]+;/;

/** Format spec: `journalctl -o export` dumps. */
export const journalExportSpec: FormatSpec = {
  name: "journal-export",
  kind: "journal",
  sniff: (_path, lines) => lines.length > 0 && SNIFF.test(lines[0]) && sniffRatio(lines, /^[A-Za-z0-9_]+=/),
  createParser: () => new ExportParser(),
  samples: [
    {
      line: "__CURSOR=s=0a1b2c;i=1;b=6c0f2ea14b7d4e1a9c3358b0f2d7e611",
      after: [
        "__REALTIME_TIMESTAMP=1747628407512401",
        "__MONOTONIC_TIMESTAMP=11803512",
        "_BOOT_ID=6c0f2ea14b7d4e1a9c3358b0f2d7e611",
        "PRIORITY=6",
        "_HOSTNAME=ip-10-20-30-40",
        "SYSLOG_IDENTIFIER=containerd",
        "_PID=811",
        'MESSAGE=time="2025-05-19T04:20:07.512344000Z" level=info msg="starting containerd" version=v1.7.27',
      ],
      expect: {
        time: { year: 2025, month: 5, day: 19, hour: 4, minute: 20, second: 7, ms: 512, offsetMin: 0, precision: "ns" },
        host: "ip-10-20-30-40",
        ident: "containerd",
        pid: 811,
        component: "containerd",
        message: "starting containerd",
        bootId: "6c0f2ea14b7d4e1a9c3358b0f2d7e611",
      },
    },
    {
      // plain message: the entry's instant is the time
      line: "__CURSOR=s=0a1b2c;i=2",
      after: ["__REALTIME_TIMESTAMP=1747628371000123", "SYSLOG_IDENTIFIER=kernel", "_HOSTNAME=ip-10-20-30-40", "MESSAGE=Linux version 6.1.134"],
      expect: { time: null, epochMs: 1747628371000, epochPrecision: "us", component: "kernel", message: "Linux version 6.1.134" },
    },
  ],
  notMine: [
    "MESSAGE=no cursor before",
    '{"__CURSOR":"s=0a1b","__REALTIME_TIMESTAMP":"1747628407512401","MESSAGE":"x"}',
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
  ],
};
