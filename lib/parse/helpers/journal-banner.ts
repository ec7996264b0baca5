/**
 * journalctl separator and header lines (systemd `src/journal/journalctl.c`): banners, not
 * records.
 *
 *     -- Boot 6c0f2ea14b7d4e1a9c3358b0f2d7e611 --               boot (id)        systemd ≥ v247
 *     -- Reboot --                                               reboot           systemd ≤ v246
 *     -- Logs begin at Mon 2022-05-30 14:37:44 PDT. --           logs-begin       systemd ≤ v245 (also ", end at …")
 *     -- Journal begins at Mon 2025-05-12 00:00:03 UTC, ends at … --   logs-begin  v246-v249
 *     -- No entries --                                           no-entries
 *
 * A `logs-begin` banner carries the first entry's time with its year (a lower bound for year
 * inference) and the zone abbreviation journalctl printed (`offsetMin`; see time-util.ts
 * `ZONE_ABBREVIATIONS`). The banner's words are always English, but its weekday is `%a` in the
 * node's LC_TIME, as the prefix's month is (`-- Logs begin at mer. 2018-09-19 11:42:51 CEST. --`,
 * `Mi`, `Ср`, `水`: locale-names.ts); the zone is tzdata's abbreviation, whatever the locale.
 */
import { zoneFromToken } from "./time-util";
import type { Banner } from "../types";

const BOOT_RE = /^-- Boot ([0-9a-f]{32}) --\s*$/;
const BEGIN_RE =
  /^-- (?:Logs begin at|Journal begins at) (?:[^\s\d-]{1,12} )?(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?: ([A-Za-z]{1,6}|[+-]\d{2}(?::?\d{2})?))?[,.]?.*--\s*$/;

/** Is `line` a journal banner (J0)? Cheap: first three characters, then the specific form. */
export function isJournalBanner(line: string): boolean {
  return line.charCodeAt(0) === 45 && line.charCodeAt(1) === 45 && line.charCodeAt(2) === 32 && parseJournalBanner(line) !== null;
}

/** Parse a journal banner line; null when `line` is not one. */
export function parseJournalBanner(line: string): Banner | null {
  if (line.charCodeAt(0) !== 45 || line.charCodeAt(1) !== 45 || line.charCodeAt(2) !== 32) return null;
  const c = line.charCodeAt(3);
  if (c === 66) {
    // B
    const m = BOOT_RE.exec(line);
    return m ? { type: "boot", bootId: m[1] } : null;
  }
  if (c === 82) return /^-- Reboot --\s*$/.test(line) ? { type: "reboot", bootId: null } : null;
  if (c === 78) return /^-- No entries --\s*$/.test(line) ? { type: "no-entries" } : null;
  if (c === 76 || c === 74) {
    // L / J
    const m = BEGIN_RE.exec(line);
    if (!m) return /^-- (?:Logs begin at|Journal begins at) .* --\s*$/.test(line) ? { type: "logs-begin", time: null, offsetMin: null } : null;
    const zone = m[8] ? zoneFromToken(m[8]) : null;
    const frac = m[7] ?? "";
    return {
      type: "logs-begin",
      time: {
        year: Number(m[1]),
        month: Number(m[2]),
        day: Number(m[3]),
        hour: Number(m[4]),
        minute: Number(m[5]),
        second: Number(m[6]),
        ms: frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0,
        offsetMin: zone ? zone.offsetMin : null,
        precision: frac ? (frac.length <= 3 ? "ms" : "us") : "s",
      },
      offsetMin: zone ? zone.offsetMin : null,
      zoneName: m[8] ?? null,
    };
  }
  return null;
}
