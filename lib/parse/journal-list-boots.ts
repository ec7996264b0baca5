/**
 * `journalctl --list-boots` (sos `sos_commands/systemd/journalctl_--list-boots`, Bottlerocket
 * `journalctl-boots`); upstream systemd `src/journal/journalctl.c` (`list_boots`).
 *
 *     IDX BOOT ID                          FIRST ENTRY                 LAST ENTRY              (newer: header, blanks)
 *      -1 6c0f2ea14b7d4e1a9c3358b0f2d7e611 Mon 2025-05-12 00:00:03 UTC Mon 2025-05-19 04:18:52 UTC
 *     -1 6c0f2ea14b7d4e1a9c3358b0f2d7e611 Mon 2025-05-12 00:00:03 UTC—Mon 2025-05-19 04:18:52 UTC   (older: em dash)
 *
 * Each row is one record: its time is the FIRST ENTRY (with year and the zone abbreviation's
 * offset), `bootId` the boot id, and `bootDecl` states the boot with its LAST ENTRY (UTC ms) for
 * boot detection (lib/normalise/boots.ts). The IDX is kept in `fields.idx` only: it is unreliable
 * on journals with clock jumps (systemd#27422); ids and times are used. The header is a banner.
 */
import { sniffRatio } from "./helpers/sniff-util";
import { naiveMs, zoneFromToken } from "./helpers/time-util";
import type { FormatSpec, LineResult, WallTime } from "./types";

const STAMP = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\\d{4})-(\\d{2})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) ([A-Za-z]{1,6}|[+-]\\d{2}(?::?\\d{2})?)";
const ROW = new RegExp(`^\\s*(-?\\d+) ([0-9a-f]{32}) ${STAMP}(?:\\u2014| +)${STAMP}\\s*$`);
const HEADER = /^IDX BOOT ID\s+FIRST ENTRY\s+LAST ENTRY\s*$/;

function wall(m: RegExpExecArray, at: number): WallTime {
  const zone = zoneFromToken(m[at + 6]);
  return {
    year: Number(m[at]),
    month: Number(m[at + 1]),
    day: Number(m[at + 2]),
    hour: Number(m[at + 3]),
    minute: Number(m[at + 4]),
    second: Number(m[at + 5]),
    ms: 0,
    offsetMin: zone ? zone.offsetMin : null,
    precision: "s",
  };
}

/** Parse one list-boots line: the header (banner) or a row (record); null otherwise. */
export function parseListBootsLine(line: string): LineResult {
  if (HEADER.test(line)) return { type: "banner", banner: { type: "header" } };
  const m = ROW.exec(line);
  if (!m) return null;
  const first = wall(m, 3);
  const last = wall(m, 10);
  // the last entry as UTC ms (a zone the table does not name is read as UTC)
  const lastMs = naiveMs(last, last.year as number) - (last.offsetMin ?? 0) * 60_000;
  const firstText = line
    .slice(line.indexOf(m[2]) + 33)
    .split(/\u2014| {2,}/)[0]
    .trim();
  const lastText = line.slice(line.lastIndexOf(m[9]) - 24).trim();
  return {
    type: "record",
    record: {
      time: first,
      component: "systemd",
      ident: "journalctl",
      severity: 1,
      message: `boot ${m[2]} (index ${m[1]}): first entry ${firstText}, last entry ${lastText.replace(/^\u2014/, "")}`,
      fields: { idx: m[1], bootId: m[2] },
      bootId: m[2],
      bootDecl: { id: m[2], lastMs: Number.isNaN(lastMs) ? null : lastMs, source: "list-boots" },
    },
  };
}

const SNIFF = new RegExp(`^-?\\d+ [0-9a-f]{32} ${STAMP}(?:\\u2014| +)(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \\d{4}-`);

/** Format spec: `journalctl --list-boots` output (both forms). */
export const journalListBootsSpec: FormatSpec = {
  name: "journal-list-boots",
  kind: "list-boots",
  // rows start with blanks (right-aligned IDX): trimmed before the shared ratio rule
  sniff: (_path, lines) =>
    (lines.length > 0 && HEADER.test(lines[0])) ||
    sniffRatio(
      lines.map((l) => l.trimStart()),
      SNIFF,
    ),
  createParser() {
    return { parseLine: parseListBootsLine };
  },
  samples: [
    {
      context: ["IDX BOOT ID                          FIRST ENTRY                 LAST ENTRY"],
      line: " -1 6c0f2ea14b7d4e1a9c3358b0f2d7e611 Mon 2025-05-12 00:00:03 UTC Mon 2025-05-19 04:18:52 UTC",
      expect: {
        time: { year: 2025, month: 5, day: 12, hour: 0, minute: 0, second: 3, ms: 0, offsetMin: 0, precision: "s" },
        component: "systemd",
        bootId: "6c0f2ea14b7d4e1a9c3358b0f2d7e611",
        fields: { idx: "-1", bootId: "6c0f2ea14b7d4e1a9c3358b0f2d7e611" },
        bootDecl: { id: "6c0f2ea14b7d4e1a9c3358b0f2d7e611", lastMs: Date.UTC(2025, 4, 19, 4, 18, 52), source: "list-boots" },
      },
    },
    {
      // older systemd: no header, an em dash between the entries; a zone with an offset
      line: " 0 a91e07c25d3f4b08b6e2f4c1d9a07e33 Sun 2025-05-18 21:19:31 PDT\u2014Sun 2025-05-18 21:31:10 PDT",
      expect: {
        time: { year: 2025, month: 5, day: 18, hour: 21, minute: 19, second: 31, ms: 0, offsetMin: -420, precision: "s" },
        bootId: "a91e07c25d3f4b08b6e2f4c1d9a07e33",
        bootDecl: { id: "a91e07c25d3f4b08b6e2f4c1d9a07e33", lastMs: Date.UTC(2025, 4, 19, 4, 31, 10), source: "list-boots" },
      },
    },
    { line: "IDX BOOT ID                          FIRST ENTRY                 LAST ENTRY", expect: { banner: { type: "header" } } },
  ],
  notMine: [
    "-- Boot 6c0f2ea14b7d4e1a9c3358b0f2d7e611 --",
    "May 19 04:20:07 ip-10-20-30-40 kubelet[2817]: x",
    "reboot   system boot  6.1.134-150.224. Mon May 19 04:19   still running",
  ],
};
