/**
 * The journal segments of a node's records (boots.ts step 2): a file's stretch between two
 * `-- Boot <id> --` separators (or before the first), with the boot id most of its records
 * carry and its time range. Pure.
 */
import type { BootInputEvent } from "./boot-types";

/** One journal segment of one file. */
export interface Segment {
  fileId: number;
  bootSegment: number;
  id: string | null;
  first: number | null;
  last: number | null;
  /** id of the file's next segment when it follows right after (the boot after this one) */
  nextId?: string | null;
}

/** Files whose records carry journal structure: a separator (bootSegment > 0) or a journal boot id. */
export function structuredFiles(events: BootInputEvent[]): Set<number> {
  const s = new Set<number>();
  for (const e of events) if ((e.bootSegment ?? 0) > 0 || e.journalBootId) s.add(e.fileId);
  return s;
}

/** The segments of the structured files' records, by file and segment number; each knows the id of the segment right after it. */
export function collectSegments(events: BootInputEvent[], structured: Set<number>): Segment[] {
  const map = new Map<string, Segment & { ids: Map<string, number> }>();
  for (const e of events) {
    if (!structured.has(e.fileId)) continue;
    const seg = e.bootSegment ?? 0;
    const key = `${e.fileId}:${seg}`;
    let s = map.get(key);
    if (!s) {
      s = { fileId: e.fileId, bootSegment: seg, id: null, first: null, last: null, ids: new Map() };
      map.set(key, s);
    }
    if (e.journalBootId) s.ids.set(e.journalBootId, (s.ids.get(e.journalBootId) ?? 0) + 1);
    if (e.ts !== null) {
      s.first = s.first === null ? e.ts : Math.min(s.first, e.ts);
      s.last = s.last === null ? e.ts : Math.max(s.last, e.ts);
    }
  }
  const out: Segment[] = [];
  for (const s of map.values()) {
    let best: string | null = null;
    let n = 0;
    for (const [id, c] of s.ids) if (c > n) [best, n] = [id, c];
    out.push({ fileId: s.fileId, bootSegment: s.bootSegment, id: best, first: s.first, last: s.last });
  }
  out.sort((a, b) => a.fileId - b.fileId || a.bootSegment - b.bootSegment);
  for (let i = 0; i + 1 < out.length; i++) {
    const a = out[i];
    const b = out[i + 1];
    if (a.fileId === b.fileId && b.bootSegment === a.bootSegment + 1) a.nextId = b.id;
  }
  return out;
}
