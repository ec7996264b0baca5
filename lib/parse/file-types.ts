/**
 * Output of `parseFile` (lib/parse/parse-file.ts): one file's records with resolved UTC
 * times, and the per-file line accounting (docs/definitions.md "Line accounting").
 */
import type { Banner, ParsedRecord, Precision } from "./types";

/** Every physical line is exactly one of these; `skipped` is broken down in `skippedByReason`. */
export interface LineCounts {
  lines: number;
  /** records + continuation + banner */
  parsed: number;
  blank: number;
  skipped: number;
  skippedByReason: Record<string, number>;
  records: number;
  continuation: number;
  banner: number;
  /** records with no UTC time: none of their own and none counted back from an age */
  noTimestamp: number;
  /** of `noTimestamp`, records whose own time is seconds since boot only (dmesg, kmsg, `-o short-monotonic` with no anchor) */
  sinceBoot: number;
  /** records whose time was counted back from a relative age (`5m` in a kubectl table) and the collection or upload time; the rest of `records - noTimestamp` carry a time of their own */
  aged: number;
  outOfOrder: number;
  /** records that began on a physical line another record began on (records glued by a terminal); then records + continuation + banner - glued = parsed */
  glued?: number;
}

export interface FileRecord extends ParsedRecord {
  /** 1-based physical line of the record's first line */
  line: number;
  /** last physical line that belongs to it (continuations) */
  endLine: number;
  /** event time, UTC ms (floored), null when none */
  ts: number | null;
  precision: Precision;
  yearInferred: boolean;
  zoneAssumed: boolean;
  outOfOrder: boolean;
  /** the raw text: the first line, plus continuation lines joined with "\n" */
  raw: string;
  /** journal boot id in force for this record (from a preceding `-- Boot <id> --` or `_BOOT_ID`) */
  journalBootId?: string | null;
  /** index of the boot segment within the file (increments at each boot/reboot separator) */
  bootSegment: number;
}

/** Options the user (or the bundle) gives for time resolution. */
export interface TimeOptions {
  /** `--year`: year of year-less stamps when the file does not say */
  year?: number | null;
  /** `--tz`: IANA zone or fixed offset (e.g. `Europe/Berlin`, `+09:00`) for zone-less stamps */
  tz?: string | null;
  /** `--collected`: when the bundle was taken (UTC ms) */
  collectedMs?: number | null;
  /** the upload's own date (UTC ms): last-resort upper bound for year inference, flagged as a guess */
  uploadMs?: number | null;
}

/**
 * What the bundle's layout says about one file (lib/bundle/collectors.ts), beyond the time options:
 * pure data handed to `parseFile`.
 */
export interface LayoutOptions {
  /** noise rules (lib/parse/noise.ts) whose lines are skipped with the rule's reason */
  noise?: readonly string[];
  /** zone the collector guarantees for zone-less stamps (`journalctl --utc` in OpenShift node-logs); zoneSource `collector` */
  zone?: string | null;
  /**
   * sos >= 4.10 journal dumps (`--reverse` then `tac`): each `-- Boot <id> --` separator names the
   * boot *before* it; the records after the last separator get no id.
   */
  separatorsLabelPrevious?: boolean;
}

export interface ParsedFile {
  format: string;
  kind: string;
  records: FileRecord[];
  banners: Array<{ line: number; banner: Banner }>;
  counts: LineCounts;
  /** where the year came from: stamp | neighbour | header | banner | user | collected | guess | none */
  yearSource: string;
  /** zone used for zone-less stamps, and where it came from: banner | collector | user | default */
  timeZone: string;
  zoneSource: string;
  /** per-line problems worth showing (file-level reason + line) */
  errors: Array<{ line: number; message: string }>;
}
