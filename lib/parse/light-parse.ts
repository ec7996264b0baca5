/**
 * A large file parsed without holding its records whole: `parseFileLight(path, text, opts)` →
 * a `ParsedFile` whose records are light (time, line range, host, component, boot segment and
 * the times resolved; `message`, `raw` and `fields` emptied), and `replay(take)`, which hands
 * the whole records over, in order, in batches, each with the same values `parseFile` gives it.
 *
 * Times need every record of the file (the year of a year-less stamp walks back from the last
 * one, a newest-first file is reversed as a whole), so the file is read twice: the first read
 * keeps each record whole only until the lines after it can no longer change it (it is then made
 * light), and resolves the times over the light records; `replay` reads the lines again and
 * gives each record its first read's times. A record the first read changed after its lines
 * (klog blocks put on it, a cut marker, continuation text, a Kubernetes event's age basis) and
 * the one after a record with continuation text stay whole and are handed over as they are.
 * When the first read cannot stand for the second (a newest-first file, records dropped, a
 * parser that rebuilds its records at the end, paste layers), `replay` parses the file whole
 * again (`parseFile`: memory as large as the file's records; rare for files this large).
 * Pure, like `parseFile`.
 */
import type { Entries } from "./file-entries";
import { splitLines } from "./file-lines";
import type { FileRecord, ParsedFile } from "./file-types";
import { parseLinesWith, type ParseFileOptions } from "./parse-file";

/** Records per batch `replay` hands over. */
export const REPLAY_BATCH = 16_384;

/** `parseFileLight`'s result: light records (see the module comment) and the whole ones on demand. */
export interface LightParse extends ParsedFile {
  /**
   * Hands the whole records over in order (batches of at most `REPLAY_BATCH`); call once, after
   * reading the light `records`: it lets go of them (`records` is then empty, unless nothing was light).
   */
  replay(take: (records: FileRecord[]) => void): void;
}

/**
 * What the first read settled after the lines for each light record, packed (some 20 bytes a
 * record instead of the light record's few hundred), so that the light records can go before the
 * second read: `put` each, then `onto` the second read's record.
 */
class SettledTimes {
  private readonly ts: Float64Array;
  private readonly flags: Uint8Array;
  private readonly segment: Int32Array;
  private readonly precision: Array<FileRecord["precision"]>;
  private readonly bootId: Array<string | null | undefined>;
  constructor(n: number) {
    this.ts = new Float64Array(n);
    this.flags = new Uint8Array(n);
    this.segment = new Int32Array(n);
    this.precision = new Array(n);
    this.bootId = new Array(n);
  }
  put(k: number, r: FileRecord): void {
    this.ts[k] = r.ts === null ? Number.NaN : r.ts;
    this.flags[k] = (r.yearInferred ? 1 : 0) | (r.zoneAssumed ? 2 : 0) | (r.outOfOrder ? 4 : 0);
    this.segment[k] = r.bootSegment;
    this.precision[k] = r.precision;
    this.bootId[k] = r.journalBootId;
  }
  onto(k: number, whole: FileRecord): FileRecord {
    const ts = this.ts[k];
    const f = this.flags[k];
    whole.ts = Number.isNaN(ts) ? null : ts;
    whole.precision = this.precision[k];
    whole.yearInferred = (f & 1) !== 0;
    whole.zoneAssumed = (f & 2) !== 0;
    whole.outOfOrder = (f & 4) !== 0;
    whole.bootSegment = this.segment[k];
    whole.journalBootId = this.bootId[k];
    return whole;
  }
}

/** Records before this index are final: continuation lines go to `current` (none: -1, after a boot separator). */
function finalBefore(e: Entries, current: number): number {
  return current < 0 ? e.recs.length : current;
}

/** A growable set of record indices (one byte each). */
class LightMarks {
  private marks = new Uint8Array(1 << 16);
  size = 0;
  add(k: number): void {
    if (k >= this.marks.length) {
      const grown = new Uint8Array(Math.max(k + 1, 2 * this.marks.length));
      grown.set(this.marks);
      this.marks = grown;
    }
    if (!this.marks[k]) this.size++;
    this.marks[k] = 1;
  }
  has(k: number): boolean {
    return this.marks[k] === 1;
  }
}

/** Whether record `k` may be made light once final: nothing after its lines changes it. */
function mayLighten(entries: Entries, k: number): boolean {
  return !entries.extra.has(k) && !entries.extra.has(k - 1) && !entries.truncated.has(k) && entries.recs[k].k8sEvent === undefined;
}

/** Lines between two looks at the records read (a power of two). */
export const LIGHT_EVERY = 1 << 12;

/**
 * Parses `text` as `parseFile` does (same options; `onLines` sees both reads as one pass over
 * twice the lines), keeping its records light: see the module comment. `every`: lines between
 * two looks at the records read (a power of two).
 */
export function parseFileLight(path: string, text: string, opts: ParseFileOptions = {}, every = LIGHT_EVERY): LightParse {
  let lines: readonly string[] = splitLines(text);
  const onLines = opts.onLines;
  let entries: Entries | null = null;
  let lightened = 0; // records [0, lightened) were looked at; `light` marks those made light
  const light = new LightMarks();
  const first = parseLinesWith(
    path,
    lines,
    { ...opts, onLines: onLines && ((done, total) => onLines(done, 2 * total)) },
    {
      every,
      at(e, current) {
        if (e.srcs !== null) return; // the parser rebuilds its records at the end: keep them whole
        entries = e;
        const upTo = finalBefore(e, current);
        for (let k = lightened; k < upTo; k++) {
          if (!mayLighten(e, k)) continue;
          const r = e.recs[k];
          r.message = "";
          r.raw = "";
          // a record's monotonic stamp is counted after the read (`counts.sinceBoot`)
          r.fields = r.fields?.uptime === undefined ? undefined : { uptime: r.fields.uptime };
          light.add(k);
        }
        if (upTo > lightened) lightened = upTo;
      },
    },
  );
  const records = first.records;
  // the first read stands for the second only when its records are the read's, in file order
  const stands = entries !== null && (entries as Entries).srcs === null && records === (entries as Entries).recs;
  const whole = (take: (records: FileRecord[]) => void, list: FileRecord[]) => {
    for (let at = 0; at < list.length; at += REPLAY_BATCH) take(list.slice(at, at + REPLAY_BATCH));
  };
  const secondRead: ParseFileOptions = { ...opts, onLines: onLines && ((done, total) => onLines(total + done, 2 * total)) };
  const replay = (take: (records: FileRecord[]) => void): void => {
    if (light.size === 0) return whole(take, records);
    if (!stands) return whole(take, parseLinesWith(path, lines, secondRead, null).records);
    // the light records go before the second read; what it needs of them is packed
    const n = records.length;
    const settled = new SettledTimes(n);
    const kept = records as Array<FileRecord | undefined>;
    for (let k = 0; k < n; k++) {
      if (!light.has(k)) continue;
      settled.put(k, records[k]);
      kept[k] = undefined;
    }
    let sent = 0;
    const send = (e: Entries, upTo: number) => {
      const read = e.recs as Array<FileRecord | undefined>;
      const batch: FileRecord[] = [];
      for (; sent < upTo; sent++) {
        batch.push(light.has(sent) ? settled.onto(sent, read[sent]!) : kept[sent]!);
        read[sent] = undefined; // the second read lets go of each record it handed over
        kept[sent] = undefined;
        if (batch.length === REPLAY_BATCH) take(batch.splice(0));
      }
      if (batch.length) take(batch);
    };
    parseLinesWith(path, lines, secondRead, {
      every,
      at: (e, current) => send(e, Math.min(finalBefore(e, current), n)),
      readOnly: { end: (e) => send(e, n) },
    });
    lines = []; // read twice: let go
    records.length = 0;
    if (sent !== n) throw new Error(`${path}: the second read gave ${sent} of ${n} records`);
  };
  return Object.assign(first, { replay });
}
