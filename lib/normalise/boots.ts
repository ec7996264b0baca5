/**
 * Boots of one node and T+0 (docs/definitions.md "Boot and T+0").
 *
 * How the ingest pipeline uses this module:
 *
 *   1. Parse every file of the node (`parseFile`), classify every record
 *      (`classifyRecord`), and build one `BootInputEvent` per record: its UTC time
 *      (`FileRecord.ts`, ms, or null), its `kind`, `journalBootId` and
 *      `bootSegment` as the parser gave them, `fileId` (any number unique per file of
 *      the node) and the record's 1-based `line`. Add `rebootBootId` for Kubernetes
 *      `Rebooted` events (`Classification.rebootBootId`).
 *   2. Call `detectBoots(events)` once per node with ALL of the node's records
 *      (every file, records without a time included): silence and time ranges are
 *      node-wide, so a partial list gives different boots.
 *   3. Call `assignBoots(events, boots)` (batch; records without a time inherit the boot
 *      of the nearest timed record of their file) or `assignBoot(event, boots)` (one
 *      event) to get each record's `bootKey`.
 *   4. Store `Boot { bootKey, start, end, detectedBy, startApprox }`; `start` is T+0
 *      and is what detectors receive as `BootInfo.start`.
 *
 * Rules, strongest first (docs/definitions.md "Boot and T+0"):
 *   - journal boot ids: records after a `-- Boot <id> --` separator carry that id
 *     (`journalBootId`, 32 hex); all records with one id form one boot whose T+0 is its
 *     earliest record (the first entry after the separator). `detectedBy` "separator"
 *     (or "boot-id" when the id came from `_BOOT_ID` without a separator).
 *   - journal segments without an id: in a file with separators, the records of a
 *     segment (`bootSegment`) with no id belong to a boot of unknown id: the records
 *     before the first separator (the previous boot, T+0 unknown: its earliest record,
 *     approximate, "first-event"), or the records after a `-- Reboot --` separator
 *     (T+0 = the first of them, "separator"). Such segments of different files whose
 *     time ranges overlap, or that end at separators naming the same boot, are the same boot.
 *   - kernel start (`kernel.start`, e.g. dmesg "Linux version"): a kernel start at most
 *     `kernelLeadS` before a journal boot's first record (and after the previous boot's
 *     records) becomes that boot's T+0; elsewhere it starts a boot ("kernel-start").
 *   - a kubelet or runtime start (`kubelet.started` / `runtime.started`, from files
 *     without separators) within `startGraceS` after at least `silenceS` of node-wide
 *     silence, when no boot already starts there: a boot starting at the first record
 *     after the silence ("kubelet-start" / "runtime-start", approximate).
 *   - boots stated by lists (`bootDecl` records: `journalctl --list-boots` rows, `last reboot`
 *     rows): a list-boots row gives its boot's id, FIRST ENTRY (T+0
 *     candidate, exact) and LAST ENTRY: it joins the boot with that journal id, else names the one
 *     id-less boot its range overlaps, else starts a boot ("list-boots"). A `last reboot` row
 *     (minute precision) starts a boot ("last-reboot", approximate) where no boot starts within
 *     a minute before it or `startGraceS` after it and no journal boot already covers it; when
 *     the next boot's start is only its earliest record ("first-event") and nothing lies between,
 *     that boot starts at the row instead. A
 *     stated boot that none of the node's other records fall in is left out, unless it is one of
 *     the last two of its list (the boots around the incident): lists name every boot since the
 *     journal or wtmp began.
 *   - a Kubernetes `Rebooted` event names its boot id: the boot (without a journal id)
 *     that started at most `rebootedLookbackS` before it gets that id as its key;
 *     with no boot start in that span, the event starts one ("rebooted-event",
 *     approximate).
 *   - else one boot from the earliest record ("first-event", approximate); also the
 *     boot of records earlier than every other boot's start.
 *
 * `bootKey` is the 32-hex journal boot id when known, else `inferred-<n>` with n the
 * boot's 1-based position among the node's boots by start.
 *
 * Pure: no I/O, no clock reads. Times are UTC milliseconds.
 */
import { assignBoots } from "./boot-assign";
import { collectSegments, type Segment, structuredFiles } from "./boot-segments";
import type { BootDetectedBy, BootInputEvent, DetectedBoot } from "./boot-types";

export type { BootDetectedBy, BootInputEvent, DetectedBoot } from "./boot-types";

/** Thresholds (seconds) with their sources. */
export interface BootOptions {
  /** node-wide silence before a kubelet/runtime start that marks a new boot, s (default 60) */
  silenceS?: number;
  /** how long after the silence the kubelet/runtime start may come (default 120 s: systemd starts them within a minute or two of boot) */
  startGraceS?: number;
  /** how far a kernel start may precede a journal boot's first record and still be its T+0 (default 600 s) */
  kernelLeadS?: number;
  /** how long after a boot's start a `Rebooted` event may still name it (default 600 s; the kubelet posts it right after it starts) */
  rebootedLookbackS?: number;
}

/** Default thresholds (see `BootOptions` for their sources). */
export const BOOT_DEFAULTS: Required<BootOptions> = {
  silenceS: 60,
  startGraceS: 120,
  kernelLeadS: 600,
  rebootedLookbackS: 600,
};

interface WorkBoot {
  key: string | null;
  start: number;
  approx: boolean;
  detectedBy: BootDetectedBy;
  lastTs: number;
  segments: Array<{ fileId: number; bootSegment: number }>;
}

/**
 * Detect the boots of one node from all of its records (see the module comment).
 * @returns boots sorted by start (T+0), each with the journal segments it owns.
 */
export function detectBoots(allEvents: BootInputEvent[], opts: BootOptions = {}): DetectedBoot[] {
  return detectAndAssignBoots(allEvents, opts).boots;
}

/**
 * `detectBoots` and `assignBoots(allEvents, boots)` at once (the boots' ends are found from
 * those keys): `keys[i]` is the `bootKey` of `allEvents[i]`, or null.
 */
export function detectAndAssignBoots(allEvents: BootInputEvent[], opts: BootOptions = {}): { boots: DetectedBoot[]; keys: Array<string | null> } {
  const o = { ...BOOT_DEFAULTS, ...opts };
  // records that state boots (list-boots, last reboot) are evidence of their own (step 2b, 5b)
  const decls = allEvents.filter((e) => e.bootDecl && e.ts !== null).sort((a, b) => a.ts! - b.ts!);
  const events = decls.length ? allEvents.filter((e) => !e.bootDecl) : allEvents;
  const structured = structuredFiles(events);
  const segments = collectSegments(events, structured);
  const boots: WorkBoot[] = [];

  // 1. journal boot ids
  const byId = new Map<string, WorkBoot>();
  for (const e of events) {
    const id = e.journalBootId;
    if (!id || e.ts === null) continue;
    let b = byId.get(id);
    if (!b) {
      b = { key: id, start: e.ts, approx: false, detectedBy: "boot-id", lastTs: e.ts, segments: [] };
      byId.set(id, b);
      boots.push(b);
    }
    b.start = Math.min(b.start, e.ts);
    b.lastTs = Math.max(b.lastTs, e.ts);
  }
  for (const s of segments) {
    if (!s.id) continue;
    const b = byId.get(s.id);
    if (!b) continue;
    b.segments.push({ fileId: s.fileId, bootSegment: s.bootSegment });
    if (s.bootSegment > 0) b.detectedBy = "separator";
  }

  // 2. journal segments without an id, clustered by overlapping time ranges
  const unknown = segments.filter((s) => !s.id && s.first !== null).sort((a, b) => a.first! - b.first! || a.fileId - b.fileId);
  const clusters: Array<{ first: number; last: number; segs: Segment[] }> = [];
  for (const s of unknown) {
    const c = clusters[clusters.length - 1];
    if (c && s.first! <= c.last) {
      c.last = Math.max(c.last, s.last!);
      c.segs.push(s);
    } else clusters.push({ first: s.first!, last: s.last!, segs: [s] });
  }
  // segments of different files that end at a separator naming the same boot are the boot
  // before it, whatever their times (one file's entries of that boot may stop earlier)
  for (let i = 0; i < clusters.length; i++) {
    const ids = new Set(clusters[i].segs.map((x) => x.nextId).filter((x): x is string => !!x));
    if (!ids.size) continue;
    for (let j = clusters.length - 1; j > i; j--) {
      if (!clusters[j].segs.some((x) => x.nextId && ids.has(x.nextId))) continue;
      const [c] = clusters.splice(j, 1);
      clusters[i].segs.push(...c.segs);
      clusters[i].first = Math.min(clusters[i].first, c.first);
      clusters[i].last = Math.max(clusters[i].last, c.last);
    }
  }
  for (const c of clusters) {
    // an id boot the same file shows in another segment is a different boot (a separator lies between them)
    const files = new Set(c.segs.map((s) => s.fileId));
    const overlapping = boots.filter((b) => b.key && b.start <= c.last && c.first <= b.lastTs && !b.segments.some((s) => files.has(s.fileId)));
    const segs = c.segs.map((s) => ({ fileId: s.fileId, bootSegment: s.bootSegment }));
    if (overlapping.length === 1) {
      const b = overlapping[0];
      b.segments.push(...segs);
      b.start = Math.min(b.start, c.first);
      b.lastTs = Math.max(b.lastTs, c.last);
      continue;
    }
    const afterSeparator = c.segs.some((s) => s.bootSegment > 0);
    boots.push({
      key: null,
      start: c.first,
      approx: !afterSeparator,
      detectedBy: afterSeparator ? "separator" : "first-event",
      lastTs: c.last,
      segments: segs,
    });
  }

  // the timed records by (ts, fileId, line): step 4 walks them, their times (ascending) serve the searches of 2b and 5b
  const timed = events.filter((e) => e.ts !== null).sort((a, b) => a.ts! - b.ts! || a.fileId - b.fileId || a.line - b.line);
  const timedTs = timed.map((e) => e.ts!);

  // 2b. boots stated by list-boots rows
  const anyIn = (from: number, to: number) => {
    // binary search: first timed record at or after `from`
    let lo = 0;
    let hi = timedTs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (timedTs[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < timedTs.length && timedTs[lo] <= to;
  };
  const listed = decls.filter((e) => e.bootDecl!.source === "list-boots" && e.bootDecl!.id);
  listed.forEach((e, i) => {
    const d = e.bootDecl!;
    const id = d.id!.toLowerCase();
    const first = e.ts!;
    const last = d.lastMs !== null && d.lastMs >= first ? d.lastMs : first;
    const known = boots.find((b) => b.key === id);
    if (known) {
      known.start = Math.min(known.start, first);
      known.lastTs = Math.max(known.lastTs, last);
      known.approx = false;
      return;
    }
    const overlapping = boots.filter((b) => !b.key && b.start <= last && first <= b.lastTs);
    if (overlapping.length === 1) {
      const b = overlapping[0];
      b.key = id;
      b.start = Math.min(b.start, first);
      b.lastTs = Math.max(b.lastTs, last);
      b.approx = false;
      return;
    }
    if (i < listed.length - 2 && !anyIn(first, last)) return;
    boots.push({ key: id, start: first, approx: false, detectedBy: "list-boots", lastTs: last, segments: [] });
  });

  // 3. kernel starts outside journal segments
  const kernelStarts = events
    .filter((e) => e.kind === "kernel.start" && e.ts !== null && !structured.has(e.fileId))
    .map((e) => e.ts!)
    .sort((a, b) => a - b);
  for (const k of kernelStarts) {
    sortBoots(boots);
    const next = boots.find((b) => b.start >= k);
    const prev = [...boots].reverse().find((b) => b.start < k);
    if (next && next.start - k <= o.kernelLeadS * 1000 && (!prev || prev.lastTs < k)) {
      next.start = k;
      next.approx = false;
      continue;
    }
    if (prev && k <= prev.lastTs) {
      if (prev.approx && prev.detectedBy === "first-event" && prev.start === k) prev.approx = false;
      continue; // inside a boot the journal already describes
    }
    boots.push({ key: null, start: k, approx: false, detectedBy: "kernel-start", lastTs: k, segments: [] });
  }

  // 4. kubelet / runtime start after node-wide silence
  const silenceMs = o.silenceS * 1000;
  const graceMs = o.startGraceS * 1000;
  for (let j = 1; j < timed.length; j++) {
    const gapStart = timed[j - 1].ts!;
    const gapEnd = timed[j].ts!;
    if (gapEnd - gapStart < silenceMs) continue;
    let starter: BootInputEvent | null = null;
    for (let k = j; k < timed.length && timed[k].ts! <= gapEnd + graceMs; k++) {
      if (k > j && timed[k].ts! - timed[k - 1].ts! >= silenceMs) break;
      const e = timed[k];
      if ((e.kind === "kubelet.started" || e.kind === "runtime.started") && !structured.has(e.fileId)) {
        starter = e;
        break;
      }
    }
    if (!starter) continue;
    if (boots.some((b) => b.start > gapStart && b.start <= gapEnd + graceMs)) continue;
    boots.push({
      key: null,
      start: gapEnd,
      approx: true,
      detectedBy: starter.kind === "kubelet.started" ? "kubelet-start" : "runtime-start",
      lastTs: gapEnd,
      segments: [],
    });
  }

  // 5. the earliest records (outside journal segments) before every boot
  const loose = timed.filter((e) => !structured.has(e.fileId));
  const minStart = boots.length ? Math.min(...boots.map((b) => b.start)) : Infinity;
  if (loose.length && loose[0].ts! < minStart) {
    boots.push({ key: null, start: loose[0].ts!, approx: true, detectedBy: "first-event", lastTs: loose[0].ts!, segments: [] });
  }

  // 5b. boots stated by `last reboot` rows (minute precision)
  const wtmp = decls.filter((e) => e.bootDecl!.source === "last-reboot");
  wtmp.forEach((e, i) => {
    const t = e.ts!;
    sortBoots(boots);
    if (boots.some((b) => b.start >= t - 60_000 && b.start <= t + o.startGraceS * 1000)) return;
    const containing = [...boots].reverse().find((b) => b.start <= t);
    if (containing && t <= containing.lastTs && (containing.key || containing.segments.length)) return; // the journal covers it
    const next = i + 1 < wtmp.length ? wtmp[i + 1].ts! : Number.POSITIVE_INFINITY;
    const after = boots.find((b) => b.start > t);
    if (after && after.detectedBy === "first-event" && after.start < next && (!containing || containing.lastTs < t)) {
      // the boot whose start was only its earliest record began at this reboot
      after.start = t;
      after.detectedBy = "last-reboot";
      return;
    }
    const nextBoot = after?.start ?? Number.POSITIVE_INFINITY;
    if (i < wtmp.length - 2 && !anyIn(t, Math.min(next, nextBoot) - 1)) return;
    boots.push({ key: null, start: t, approx: true, detectedBy: "last-reboot", lastTs: t, segments: [] });
  });

  // 6. Rebooted events name (or start) boots
  const rebooted = events.filter((e) => e.rebootBootId && e.ts !== null).sort((a, b) => a.ts! - b.ts!);
  for (const e of rebooted) {
    const id = e.rebootBootId!.toLowerCase();
    if (boots.some((b) => b.key === id)) continue;
    sortBoots(boots);
    const containing = [...boots].reverse().find((b) => b.start <= e.ts!);
    if (containing && e.ts! - containing.start <= o.rebootedLookbackS * 1000) {
      if (!containing.key) containing.key = id;
      continue;
    }
    boots.push({ key: id, start: e.ts!, approx: true, detectedBy: "rebooted-event", lastTs: e.ts!, segments: [] });
  }

  sortBoots(boots);
  const out: DetectedBoot[] = boots.map((b, i) => ({
    bootKey: b.key ?? `inferred-${i + 1}`,
    start: b.start,
    end: null,
    detectedBy: b.detectedBy,
    startApprox: b.approx,
    journalBootId: b.key,
    segments: b.segments,
  }));

  // end = the boot's last record
  const keys = assignBoots(allEvents, out);
  const idx = new Map(out.map((b, i) => [b.bootKey, i]));
  allEvents.forEach((e, i) => {
    const k = keys[i];
    if (k === null || e.ts === null) return;
    const b = out[idx.get(k)!];
    b.end = b.end === null ? e.ts : Math.max(b.end, e.ts);
  });
  return { boots: out, keys };
}

function sortBoots(boots: WorkBoot[]): void {
  boots.sort((a, b) => a.start - b.start);
}
