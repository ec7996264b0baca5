/**
 * The store step of the ingest for one node, on an ingest thread (ingest-tasks.ts `TASKS`):
 * - `prepareNode` gathers the node's events (held here or spilled by other threads: held-parts.ts),
 *   applies the clock offsets, infers error classes and finds the node's boots
 *   (node-boots.ts `analyseNode`); keeps the events until:
 * - `nodeRows`: with the database ids the caller chose, formats the node's `Event` and
 *   `EventDensity` rows as COPY text, its search postings, log patterns and boot facets, and runs the detectors
 *   on each new boot.
 * Prepared nodes are kept in this module, keyed by the caller's node key (`<token>:<node>`).
 */
import { copyJsonText, copyText } from "../db/sql";
import type { BootEvent, BootInfo, Lane } from "../detect/types";
import { shiftEvent } from "../normalise/clock-skew";
import { analyseNode } from "./node-boots";
import type { AnalysedBoot, AnalysedEvent } from "../model/event";
import { copyTail, decodeEvent, lightEvent } from "./spill";
import { findingRows } from "./finding-rows";
import { detectBoot } from "./detect-boot";
import { toBootEvent } from "../model/boot-event";
import { detectorWants } from "./rule-files";
import { messageFieldsAt } from "../model/message-fields";
import { NodeWords, tailText, type WordsMode } from "../search/thread-words";
import { BootMiners } from "../patterns/boot-miner";
import { BootFacets } from "./facet-rows";
import { patternRows } from "./pattern-rows";
import { fileLines } from "./spill-files";
import { RowChunks, type RowSender } from "./row-stream";
import { PROGRESS_STEP_EVENTS, workSteps } from "./progress";
import { collectAfterLarge, collectEvery, letGo, type PartSource, takeParts } from "./held-parts";

/** The node step's input: one node's events (held here under `sources`, or spilled by other threads). */
export interface PrepareNodeTask {
  token: string;
  /** key of the prepared node in this thread (for `nodeRows`) */
  key: string;
  /** the node (null: the records on no node) */
  node: string | null;
  /** the parts this thread holds of the node (`PartSource`: its own, and the records of its files that name no node) */
  sources: PartSource[];
  /** parts spilled by other threads */
  spilled: Array<{ ord: number; path: string }>;
  /** clock offset by file ord, ms */
  offsets: Record<number, number>;
}

interface NodeState {
  node: string | null;
  /** in order; those read back from a spill are light (`lightEvent`): their whole form is read again by `nodeRows` */
  events: AnalysedEvent[];
  /** the runs of `events` read back from spill files, in order (`from`: index of the first, `off`: its file's clock offset, ms) */
  spilled: SpilledRun[];
}

interface SpilledRun {
  from: number;
  count: number;
  path: string;
  ord: number;
  off: number;
}

const prepared = new Map<string, NodeState>();

/** Rows written between two full collections while a node read back from spill files is formatted (held-parts.ts `collectEvery`). */
const COLLECT_EVENTS = 256 << 10;

/**
 * A spill file's events back, light (`lightEvent`: what the node's boots and error classes are
 * found from), read in bounded pieces (`fileLines`): a node's messages, fields and COPY tails are
 * never all in memory; `nodeRows` reads them again, one event at a time (`PreparedEvents`).
 */
function readSpill(p: { ord: number; path: string }, node: string | null): AnalysedEvent[] {
  const events: AnalysedEvent[] = [];
  for (const line of fileLines(p.path)) if (line) events.push(lightEvent(decodeEvent(line, p.ord, node).e));
  return events;
}

/**
 * A prepared node's events in order for `nodeRows` (`at(i)` for i = 0, 1, ...): held events as
 * they are; those of a spilled run read again from its file, whole, with their clock offset, and
 * the boot and error class `prepareNode` gave the light one. Each is let go from the node's list
 * as it is taken. `tail`: the COPY tail of the event last taken when it came from a spill.
 */
class PreparedEvents {
  tail: string | undefined;
  private run = 0;
  private lines: Generator<string> | null = null;
  constructor(private readonly st: NodeState) {}
  at(i: number): AnalysedEvent {
    const events = this.st.events as Array<AnalysedEvent | undefined>;
    const held = events[i]!;
    events[i] = undefined;
    const r = this.st.spilled[this.run];
    if (!r || i < r.from) {
      this.tail = undefined;
      return held;
    }
    this.lines ??= fileLines(r.path);
    let line = "";
    while (!line) {
      const n = this.lines.next();
      if (n.done) throw new Error(`spill file ${r.path}: fewer events than prepared`);
      line = n.value;
    }
    const { e, tail } = decodeEvent(line, r.ord, this.st.node);
    shiftEvent(e, r.off);
    e.boot = held.boot;
    e.errorClass = held.errorClass;
    this.tail = tail;
    if (i === r.from + r.count - 1) {
      this.lines.return(undefined);
      this.lines = null;
      this.run++;
    }
    return e;
  }
  /** Closes a spill file still open (the rows stopped early). */
  close(): void {
    this.lines?.return(undefined);
    this.lines = null;
  }
}

/** A prepared node: its boots (index = `AnalysedEvent.boot`) and how many events it holds (its `Event` rows). */
export interface PreparedNode {
  boots: AnalysedBoot[];
  events: number;
}

/**
 * Gathers a node's events (in file order), shifts them by their file's clock offset and finds
 * the node's boots; keeps them for `nodeRows`. The count returned is the number of rows
 * `nodeRows` formats: the caller gives the node its event ids from it. `onEvents`, when given, is
 * told the events gathered as it goes (`workSteps`, at most `PROGRESS_STEP_EVENTS` between two
 * calls), then as many units again as the boots are found (node-boots.ts `analyseNode`, at
 * its steps).
 */
export function prepareNode(t: PrepareNodeTask, onEvents?: (events: number) => void): PreparedNode {
  const step = onEvents ? workSteps(onEvents, PROGRESS_STEP_EVENTS) : null;
  const pieces: Array<{ ord: number; events: AnalysedEvent[]; path?: string }> = [];
  for (const src of t.sources) {
    for (const p of takeParts(t.token, src)) {
      if (p.events) {
        letGo(p);
        pieces.push({ ord: p.ord, events: p.events });
      } else pieces.push({ ord: p.ord, path: p.path!, events: readSpill({ ord: p.ord, path: p.path! }, t.node) });
    }
  }
  for (const p of t.spilled) pieces.push({ ord: p.ord, path: p.path, events: readSpill(p, t.node) });
  pieces.sort((a, b) => a.ord - b.ord);
  const events: AnalysedEvent[] = [];
  const spilled: SpilledRun[] = [];
  for (const piece of pieces) {
    const off = t.offsets[piece.ord] ?? 0;
    if (piece.path && piece.events.length) spilled.push({ from: events.length, count: piece.events.length, path: piece.path, ord: piece.ord, off });
    for (const e of piece.events) {
      e.node = t.node;
      shiftEvent(e, off);
      events.push(e);
      step?.(1);
    }
  }
  // finding the boots counts as much as gathering: as many units again, told at its steps
  let told = 0;
  const stage = (f: number) => {
    const n = Math.round(events.length * f);
    onEvents?.(n - told);
    told = n;
  };
  const boots = t.node === null ? [] : analyseNode(events, stage);
  prepared.set(t.key, { node: t.node, events, spilled });
  if (spilled.length) collectAfterLarge(events.length);
  return { boots, events: events.length };
}

/** Ids and context for formatting a prepared node's rows. */
export interface NodeRowsTask {
  /** as given to `prepareNode` */
  key: string;
  incidentId: string;
  bundleId: string;
  nodeId: number | null;
  /** database id of each of the node's boots (index as `prepareNode` returned them) */
  bootIds: number[];
  /** per boot: run the detectors here on this bundle's events (a boot new to the incident), else null */
  detect: Array<BootInfo | null>;
  /** id of the node's first event (ids are consecutive, one per event `prepareNode` counted, in its order) */
  firstId: number;
  /** SourceFile id by file ord */
  fileIds: Record<number, number>;
  /** how the database splits words: the node's search postings are made (lib/search/thread-words.ts); null or unset: none */
  words?: WordsMode | null;
}

export interface NodeRowsResult {
  /**
   * `Event` rows, COPY text (UTF-8) in `ROW_COLUMNS` + `TAIL_COLUMNS` order, in chunks of about
   * 4 MiB (row-stream.ts `CHUNK_BYTES`); empty when they went through the task's `RowSender`
   */
  rows: Uint8Array[];
  /** `EventDensity` rows, COPY text (bootId, sec, lane, bundleId, n, errors) */
  density: string;
  events: number;
  /** per boot the detectors ran on: the detectors that failed (detect-boot.ts `failures`) */
  findings: Array<{ bootId: number; failures: string[] }>;
  /** those findings as `Finding` COPY rows (store-bundle.ts `findingRows`) */
  findingRows: string[];
  /** search postings, COPY text in pieces (lib/search/postings.ts); empty without `words` */
  postings: string[];
  /** the boots' message templates as `LogPattern` COPY rows (pattern-rows.ts `PATTERN_COLUMNS`; "" for none) */
  patterns: string;
  /** the boots' counts per kind, error class, component and pod as `BootFacet` COPY rows (facet-rows.ts; "" for none) */
  facets: string;
}

/** `Event` columns of a row as `nodeRows` writes them. */
export const ROW_COLUMNS = ["id", "incidentId", "bundleId", "fileId", "nodeId", "bootId", "ts", "errorClass", "fields", "fieldsAt"];

/**
 * `Event.ts` as COPY text: ISO 8601 UTC with milliseconds (`Date.toISOString`), `\N` for none.
 * Consecutive events mostly share their second, so its text is kept and only the milliseconds
 * written (`toISOString` per event was 4% of a node's thread time).
 */
class IsoTimes {
  private sec = NaN;
  private prefix = "";
  of(ms: number | null): string {
    if (ms === null) return "\\N";
    if (!Number.isInteger(ms)) return new Date(ms).toISOString();
    const sec = Math.floor(ms / 1000);
    if (sec !== this.sec) {
      const iso = new Date(sec * 1000).toISOString();
      this.sec = sec;
      this.prefix = iso.slice(0, -4);
    }
    const frac = ms - sec * 1000;
    return `${this.prefix}${frac < 10 ? "00" : frac < 100 ? "0" : ""}${frac}Z`;
  }
}

/**
 * Formats a prepared node's `Event` rows (ids from `firstId` in order) and its per-second
 * `EventDensity` rollup, and runs the detectors on each boot `detect` names. Throws when the node
 * was not prepared on this thread. Each event is let go as soon as its row is written (only the
 * detectors' inputs of new boots stay, `toBootEvent`), so the node's events and its rows are not
 * both whole in memory: the heap shrinks as the rows grow off it. With `sender` (row-stream.ts),
 * each chunk of rows goes to the COPY as soon as it is full and formatting waits while too many
 * are on their way, so the rows are never whole either; without it, they come back in `rows`.
 * `onEvents`, when given, is told the rows formatted as it goes (`workSteps`, at most
 * `PROGRESS_STEP_EVENTS` between two calls); the detectors and the pattern rows come after them.
 */
export async function nodeRows(t: NodeRowsTask, onEvents?: (events: number) => void, sender?: RowSender): Promise<NodeRowsResult> {
  const step = onEvents ? workSteps(onEvents, PROGRESS_STEP_EVENTS) : null;
  const st = prepared.get(t.key);
  if (!st) throw new Error(`nodeRows: node ${t.key} was not prepared on this thread`);
  prepared.delete(t.key);
  const head = `\t${t.incidentId}\t${t.bundleId}\t`;
  const nodeId = copyText(t.nodeId);
  // encoded here, on the worker thread, and handed over without a copy (see ingest-worker.mjs)
  const rows = new RowChunks(sender);
  const iso = new IsoTimes();
  const byBoot = new Map<number, BootEvent[]>();
  // per boot and lane: second -> [events, errors] (numeric keys: no key string per event)
  const density = new Map<number, Map<Lane, Map<number, [number, number]>>>();
  const words = t.words ? new NodeWords(t.words) : null;
  const miners = new BootMiners();
  const facets = new BootFacets();
  const count = st.events.length;
  // each event let go once its row is written (see above); spilled ones read again whole
  const events = new PreparedEvents(st);
  const collect = st.spilled.length ? collectEvery(COLLECT_EVENTS) : null;
  try {
    for (let i = 0; i < count; i++) {
      const e = events.at(i);
      const tail = events.tail;
      const id = t.firstId + i;
      const fileId = t.fileIds[e.fileIdx];
      const bootId = e.boot === null ? null : t.bootIds[e.boot];
      if (bootId != null) {
        miners.add(bootId, e, id);
        facets.add(bootId, e, id);
        if (t.detect[e.boot!] && detectorWants(e)) {
          let list = byBoot.get(bootId);
          if (!list) byBoot.set(bootId, (list = []));
          list.push(toBootEvent(e, id, fileId));
        }
        if (e.ts !== null) {
          let lanes = density.get(bootId);
          if (!lanes) density.set(bootId, (lanes = new Map()));
          let secs = lanes.get(e.lane);
          if (!secs) lanes.set(e.lane, (secs = new Map()));
          const sec = Math.floor(e.ts / 1000);
          const d = secs.get(sec);
          if (d) {
            d[0]++;
            if (e.severity >= 3) d[1]++;
          } else secs.set(sec, [1, e.severity >= 3 ? 1 : 0]);
        }
      }
      // a klog message holds its pairs: stored once (lib/model/message-fields.ts)
      const at = messageFieldsAt(e.message, e.fields);
      // stringified once: the fields column and the searchable text
      const json = at === null && e.fields ? JSON.stringify(e.fields) : null;
      const fields = at !== null ? `\\N\t${at}` : json === null ? "\\N\t\\N" : `${copyJsonText(json)}\t\\N`;
      // the searchable text as the database has it (lib/search/search-sql.ts docTextSql): a spilled event's only in its tail
      if (words) words.add(id, bootId, tail === undefined ? [e.pod, e.sandboxId, e.message, json] : [tailText(tail), json]);
      const wait = rows.add(
        `${id}${head}${fileId}\t${nodeId}\t${copyText(bootId)}\t${iso.of(e.ts)}\t${copyText(e.errorClass)}\t${fields}\t${tail ?? copyTail(e)}\n`,
      );
      step?.(1);
      collect?.(i);
      if (wait) await wait;
    }
  } finally {
    events.close();
  }
  const chunks = await rows.done();
  let dens = "";
  for (const [bootId, lanes] of density) {
    for (const [lane, secs] of lanes) for (const [sec, [count, errors]] of secs) dens += `${bootId}\t${sec}\t${lane}\t${t.bundleId}\t${count}\t${errors}\n`;
  }
  const findings: NodeRowsResult["findings"] = [];
  const findingText: string[] = [];
  t.bootIds.forEach((bootId, b) => {
    const info = t.detect[b];
    if (!info) return;
    const out = detectBoot(info, byBoot.get(bootId) ?? []);
    // boots belong to a node (the records on no node have none)
    findingText.push(...findingRows(t.incidentId, t.nodeId!, bootId, out.findings));
    findings.push({ bootId, failures: out.failures });
  });
  const patterns = patternRows(miners, t.incidentId, t.bundleId);
  if (st.spilled.length) collectAfterLarge(count);
  return {
    rows: chunks,
    density: dens,
    events: count,
    findings,
    findingRows: findingText,
    postings: words ? words.rows(t.nodeId) : [],
    patterns,
    facets: facets.rows(t.incidentId, t.bundleId),
  };
}

/** Drops the nodes prepared on this thread for a bundle (keys `<token>:…`). */
export function forgetPrepared(token: string): void {
  for (const k of [...prepared.keys()]) if (k.startsWith(`${token}:`)) prepared.delete(k);
}

/** How many nodes are prepared on this thread and not yet formatted. */
export function preparedCount(): number {
  return prepared.size;
}
