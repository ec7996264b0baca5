/**
 * What an ingest thread holds between its tasks (parse-task.ts, node-task.ts): each parsed
 * file's events, grouped by bundle token and by the node the records name ("" for none), in
 * memory or spilled to disk (spill.ts), with an estimate of the bytes held in memory
 * (`heldSize`). The memory policy lives here too: past the thread's budget the largest parts are
 * spilled (`spillOver`), and a full collection follows a large step (`collectAfterLarge`).
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { AnalysedEvent } from "../model/event";
import { encodeEvent } from "./spill";
import { writeChunked } from "./spill-files";

/** One file's events for one node: in memory, or spilled to `path` (spill.ts). */
export interface HeldPart {
  ord: number;
  /** its estimated size in memory (`heldSize`); 0 for a part that went to disk as it was parsed */
  bytes: number;
  events?: AnalysedEvent[];
  path?: string;
}

/** This thread's held parts: bundle token -> node ("" for none) -> parts. */
const held = new Map<string, Map<string, HeldPart[]>>();
let heldBytes = 0;

const nodeKey = (node: string | null) => node ?? "";

/** Keeps a file's part of one node's events (`node` null: records that name none) on this thread. */
export function holdPart(token: string, node: string | null, part: HeldPart): void {
  let nodes = held.get(token);
  if (!nodes) held.set(token, (nodes = new Map()));
  const list = nodes.get(nodeKey(node)) ?? [];
  nodes.set(nodeKey(node), list);
  list.push(part);
  if (part.events) heldBytes += part.bytes;
}

/** Writes a part's events to a spill file (in bounded chunks) and lets them go; throws when the file cannot be written (the part stays in memory). */
function spillPart(dir: string, p: HeldPart): void {
  if (!p.events) return;
  const events = p.events;
  const to = path.join(dir, `${p.ord}-${randomUUID()}.ev`);
  writeChunked(to, events.length, (i) => encodeEvent(events[i]));
  p.path = to;
  delete p.events;
  heldBytes -= p.bytes;
}

/**
 * Estimated memory of held events, bytes: their share of the source text (slices of it keep it
 * alive) plus `EVENT_OVERHEAD` per event: the object, its fields object and the strings the
 * parsers build (messages and field values unquoted from Go's quoting are new strings, not
 * slices). `EVENT_OVERHEAD` comes from a V8 heap snapshot of parsed events (docs/scaling.md); an
 * estimate below the real size lets a thread hold more than its budget.
 */
export function heldSize(sourceBytes: number, events: number): number {
  return Math.round(sourceBytes + events * EVENT_OVERHEAD);
}
const EVENT_OVERHEAD = 1400;

/**
 * A full collection of this thread's heap after a task on a large file or node (at least
 * `LARGE_EVENTS` events), when the thread allows one (ingest-worker.mjs exposes `gc`): V8 lets a
 * heap grow far past what is live before it collects, so the garbage of one step (a 450 MiB log's
 * text and records, a node read back) would still be resident in the next one.
 */
export function collectAfterLarge(events: number): void {
  if (events >= LARGE_EVENTS) (globalThis as { gc?: () => void }).gc?.();
}
const LARGE_EVENTS = 200_000;

/**
 * A step's progress (`done`: lines read, events written, rising) that runs a full collection
 * each time `every` more units have passed: a large step (a streamed file's reads, a node's rows
 * from its spill files) makes garbage faster than V8 collects its old generation, which would
 * let the heap grow to several times what is live before the step ends.
 */
export function collectEvery(every: number): (done: number) => void {
  let next = every;
  return (done) => {
    if (done < next) return;
    next = done + every;
    (globalThis as { gc?: () => void }).gc?.();
  };
}

/** Spills in-memory parts, largest first, until this thread holds at most `limit` bytes. */
export function spillOver(dir: string, limit: number): void {
  while (heldBytes > limit) {
    let best: HeldPart | null = null;
    for (const nodes of held.values()) {
      for (const parts of nodes.values()) for (const p of parts) if (p.events && (!best || p.bytes > best.bytes)) best = p;
    }
    if (!best) return;
    spillPart(dir, best);
  }
}

/** Drops the held parts of files found to repeat another (their events are not stored). */
export function dropFiles(t: { token: string; ords: number[] }): void {
  const drop = new Set(t.ords);
  for (const parts of held.get(t.token)?.values() ?? []) {
    for (let i = parts.length - 1; i >= 0; i--) {
      if (!drop.has(parts[i].ord)) continue;
      if (parts[i].events) heldBytes -= parts[i].bytes;
      parts.splice(i, 1);
    }
  }
}

/**
 * Which held parts make up one node's events: those held under the node key `node` (the node the
 * records named, or `null` for none), of the files `ords` only, or of every file when `ords` is
 * absent. The records of one file that name no node go to the node the settle step gives that
 * file, so two nodes (or a node and "no node") may each take some of the parts held under `null`.
 */
export interface PartSource {
  node: string | null;
  ords?: number[];
}

/**
 * Removes and returns the parts of this thread that `src` names (`PartSource`); their events
 * leave the thread's estimate when the caller takes them (`letGo`) or spills them.
 */
export function takeParts(token: string, src: PartSource): HeldPart[] {
  const nodes = held.get(token);
  const parts = nodes?.get(nodeKey(src.node));
  if (!nodes || !parts) return [];
  if (!src.ords) {
    nodes.delete(nodeKey(src.node));
    return parts;
  }
  const want = new Set(src.ords);
  const taken = parts.filter((p) => want.has(p.ord));
  const kept = parts.filter((p) => !want.has(p.ord));
  if (kept.length) nodes.set(nodeKey(src.node), kept);
  else nodes.delete(nodeKey(src.node));
  return taken;
}

/** A taken part's events in memory leave the thread's estimate (the caller holds them now). */
export function letGo(p: HeldPart): void {
  if (p.events) heldBytes -= p.bytes;
}

/** Spills this thread's in-memory parts named by `sources` (another thread prepares them); returns every spilled part of them. */
export function spillNodes(t: { token: string; sources: PartSource[]; dir: string }): Array<{ ord: number; path: string }> {
  const out: Array<{ ord: number; path: string }> = [];
  for (const src of t.sources) {
    for (const p of takeParts(t.token, src)) {
      spillPart(t.dir, p);
      out.push({ ord: p.ord, path: p.path! });
    }
  }
  return out;
}

/** Drops the parts this thread holds for a bundle; returns whether it holds any other bundle's. */
export function forgetHeld(token: string): boolean {
  for (const parts of held.get(token)?.values() ?? []) for (const p of parts) letGo(p);
  held.delete(token);
  // nothing held: the estimate starts again from zero (no drift can outlive the bundles)
  if (held.size === 0) heldBytes = 0;
  return held.size > 0;
}

/** Bundles with held parts on this thread, and their estimated bytes in memory. */
export function heldTotals(): { bundles: string[]; heldBytes: number } {
  return { bundles: [...held.keys()], heldBytes };
}
