/**
 * Which boot each record of a node belongs to, once its boots are known (boots.ts
 * `detectBoots`): by journal boot id, by journal segment, else by time. Pure.
 */
import type { BootInputEvent, DetectedBoot } from "./boot-types";

/**
 * The boot one record belongs to: by journal boot id where known, else by its journal
 * segment (records before a file's first separator belong to that file's earlier
 * boot whatever their times), else by time (the last boot whose start <= ts; a record
 * earlier than every boot goes to the first). Null for a record without a time that
 * has neither id nor segment owner (use `assignBoots` for those) or when there are no boots.
 * @param boots as returned by `detectBoots` (sorted by start)
 */
export function assignBoot(e: Pick<BootInputEvent, "ts" | "journalBootId" | "bootSegment" | "fileId">, boots: DetectedBoot[]): string | null {
  if (!boots.length) return null;
  if (e.journalBootId) {
    const b = boots.find((x) => x.journalBootId === e.journalBootId);
    if (b) return b.bootKey;
  }
  const seg = e.bootSegment ?? 0;
  for (const b of boots) {
    if (b.segments.some((s) => s.fileId === e.fileId && s.bootSegment === seg)) return b.bootKey;
  }
  if (e.ts === null) return null;
  let found = boots[0];
  for (const b of boots) {
    if (b.start <= e.ts) found = b;
    else break;
  }
  return found.bootKey;
}

/**
 * `assignBoot` for a whole node at once, in input order. A record without a time
 * takes the boot of the nearest earlier timed record of its file (by line), else of
 * the nearest later one, else the node's only boot, else null.
 */
export function assignBoots(events: BootInputEvent[], boots: DetectedBoot[]): Array<string | null> {
  const out = events.map((e) => assignBoot(e, boots));
  const byFile = new Map<number, number[]>();
  events.forEach((e, i) => {
    const list = byFile.get(e.fileId);
    if (list) list.push(i);
    else byFile.set(e.fileId, [i]);
  });
  for (const list of byFile.values()) {
    list.sort((a, b) => events[a].line - events[b].line);
    let prev: string | null = null;
    const pending: number[] = [];
    for (const i of list) {
      if (out[i] === null) {
        if (prev !== null) out[i] = prev;
        else pending.push(i);
      } else prev = out[i];
    }
    // records before the first assigned one take the next assigned record's boot
    if (pending.length) {
      const next = list.map((i) => out[i]).find((k) => k !== null) ?? (boots.length === 1 ? boots[0].bootKey : null);
      for (const i of pending) out[i] = next;
    }
  }
  return out;
}
