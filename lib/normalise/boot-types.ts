/** The shapes boot detection (boots.ts) reads and returns. */
import type { EventKind } from "../detect/types";

/** One record of the node, as boot detection needs it. */
export interface BootInputEvent {
  /** UTC ms, null when the record has no time */
  ts: number | null;
  kind: EventKind;
  /** journal boot id (32 hex) in force for the record (FileRecord.journalBootId) */
  journalBootId?: string | null;
  /** index of the journal segment within its file (FileRecord.bootSegment; 0 before the first separator) */
  bootSegment?: number;
  /** unique per file of the node */
  fileId: number;
  /** 1-based physical line */
  line: number;
  /** boot id named by a Kubernetes `Rebooted` event (Classification.rebootBootId) */
  rebootBootId?: string | null;
  /** a boot this record states (FileRecord.bootDecl: list-boots / `last reboot` row); `ts` is its first entry */
  bootDecl?: { id: string | null; lastMs: number | null; source: "list-boots" | "last-reboot" } | null;
}

/** How a boot was found (stored as `Boot.detectedBy`). */
export type BootDetectedBy =
  | "separator"
  | "boot-id"
  | "kernel-start"
  | "kubelet-start"
  | "runtime-start"
  | "rebooted-event"
  | "list-boots"
  | "last-reboot"
  | "first-event";

/** One boot of a node as `detectBoots` returns it. */
export interface DetectedBoot {
  /** journal boot id (32 hex) or `inferred-<n>` */
  bootKey: string;
  /** T+0, UTC ms */
  start: number;
  /** the boot's last record, UTC ms; null when no timed record belongs to it */
  end: number | null;
  detectedBy: BootDetectedBy;
  /** true when T+0 is only the earliest record seen (flagged approximate) */
  startApprox: boolean;
  /** journal boot id when known (same as bootKey then) */
  journalBootId: string | null;
  /** journal segments (file, bootSegment) that belong to this boot whatever their times */
  segments: Array<{ fileId: number; bootSegment: number }>;
}
