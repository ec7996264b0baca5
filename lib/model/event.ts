/**
 * The normalised model every stage shares: one event (a parsed record, classified, with its node
 * and boot), one source file (its accounting, zone and year facts, and its text in blocks), and
 * one boot of a node. Parsing and the bundle's settling steps make them (lib/ingest), clock skew
 * shifts them (lib/normalise/clock-skew.ts), the store writes them (lib/ingest/store-bundle.ts).
 * Times are UTC ms. Types and constants only.
 */
import type { UnreadPattern } from "../patterns/unread";
import type { EventKind, Lane } from "../detect/types";
import type { LineCounts } from "../parse/file-types";
import type { BootInputEvent } from "../normalise/boots";

/** Event flag bits stored in Event.flags. */
export const FLAG_YEAR_INFERRED = 1;
export const FLAG_ZONE_ASSUMED = 2;
export const FLAG_OUT_OF_ORDER = 4;
export const FLAG_TRUNCATED = 8;

/** One normalised event: a parsed record, classified, on its node and boot. */
export interface AnalysedEvent {
  fileIdx: number;
  line: number;
  /** physical lines of the record (1 + continuations) */
  span: number;
  ts: number | null;
  precision: string;
  flags: number;
  component: string;
  lane: Lane;
  severity: number;
  kind: EventKind;
  pod: string | null;
  sandboxId: string | null;
  errorClass: string | null;
  message: string;
  fields: Record<string, unknown> | null;
  node: string | null;
  /** index into the node's boots */
  boot: number | null;
  /** journal boot id in force for the record, and its boot segment in the file (boot detection input) */
  journalBootId: string | null;
  bootSegment: number;
  /** boot id named by a Kubernetes `Rebooted` event */
  rebootBootId: string | null;
  /** a boot the record states (list-boots / `last reboot` row; boot detection input) */
  bootDecl?: BootInputEvent["bootDecl"];
}

/** One source file of a bundle, as analysed (one `SourceFile` row). */
export interface AnalysedFile {
  ord: number;
  path: string;
  status: "read" | "skipped" | "duplicate";
  reason: string | null;
  duplicateOf: string | null;
  kind: string;
  format: string;
  node: string | null;
  byteSize: number;
  counts: LineCounts;
  firstTs: number | null;
  lastTs: number | null;
  timeZone: string;
  zoneSource: string;
  yearSource: string | null;
  /** clock offset applied to the file's times, ms (SourceFile.clockOffsetMs) */
  clockOffsetMs?: number;
  errors: Array<{ line: number; message: string }>;
  /** the file's text in compressed blocks of whole lines (SourceBlock rows) */
  blocks: SourceBlockData[];
  /** templates of the lines no format read (lib/patterns/unread.ts), when it has some */
  unreadPatterns?: UnreadPattern[];
}

/** One stored block of a file's lines (one `SourceBlock` row). */
export interface SourceBlockData {
  firstLine: number;
  lineCount: number;
  /** the block's lines joined with "\n", compressed (lib/db/source-block-codec.ts) */
  data: Buffer;
}

/** One boot of a node: its key, T+0 and end (UTC ms), how it was found, and whether T+0 is approximate. */
export interface AnalysedBoot {
  bootKey: string;
  start: number;
  end: number | null;
  detectedBy: string;
  startApprox: boolean;
}
