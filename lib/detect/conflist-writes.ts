/**
 * The writes of CNI config files among one boot's events, one per real write, for the conflist
 * rewrite loop detector (conflist-rewrite-loop.ts). Each `cni.config.written` /
 * `cni.config.removed` event is read by the rules of lib/normalise/config-writes.ts (writer,
 * host path, role), from its message and, where the path is an attribute (Cilium's slog
 * `destination`), its fields.
 *
 * - An agent's announcement and its completion (istio-cni prints both about 10 ms apart, case
 *   006: 9.8 ms) are one write at the completion's time when they are at most `pairMs` apart
 *   (without times: when the completion is the next line of that writer and file in the same
 *   log). An announcement without completion is a write.
 * - A watch's lines (`inotifywait -m`, linkerd-cni's `Detected event`) are writes seen without a
 *   writer. Per log and file: where the watch reports the end of writes (CLOSE_WRITE, MOVED_TO),
 *   each end is one write and the CREATE / MODIFY lines before it are its parts; where it reports
 *   only CREATE / MODIFY (`-e create,modify`), each CREATE is a write, a MODIFY at the same time
 *   right after it is part of it, and every other MODIFY is a write.
 * - A seen write is an agent's logged write when the agent wrote that file within `observeMs` of
 *   the seen one's time (inotifywait prints whole seconds at best): each logged write explains at
 *   most one seen write (matched in time order, the earliest first), which joins its evidence;
 *   the seen writes left over count as writes without a writer.
 *
 * Pure: no I/O, no clock reads.
 */
import { type ConfigWrite as RuleWrite, configWriteOf } from "../normalise/config-writes";
import type { BootEvent } from "./types";

/** One write of a CNI config file. */
export interface ConfigWrite {
  /** UTC ms, null when the record has none */
  ts: number | null;
  /** host path (no `/host` prefix) */
  path: string;
  /** the agent that wrote it (`cilium`, `istio-cni`, ...); null: seen by a watch, writer unknown */
  writer: string | null;
  removal: boolean;
  /** the lines of this write, the first being the one that placed it */
  events: BootEvent[];
}

interface Line {
  e: BootEvent;
  w: RuleWrite & { path: string };
}

/** The rules' reading of a config event; null when no rule names its file. */
function lineOf(e: BootEvent): Line | null {
  const w = configWriteOf({ component: e.component, message: e.message ?? "", fields: e.fields });
  return w && w.path !== null ? { e, w: w as Line["w"] } : null;
}

const byPlace = (a: ConfigWrite, b: ConfigWrite) =>
  (a.ts ?? Infinity) - (b.ts ?? Infinity) || a.events[0].fileId - b.events[0].fileId || a.events[0].line - b.events[0].line;

/** Agent lines into writes: an announcement and its completion are one. */
function agentWrites(lines: Line[], pairMs: number): ConfigWrite[] {
  const out: ConfigWrite[] = [];
  const pending = new Map<string, ConfigWrite>(); // writer|path -> an announcement awaiting its completion
  for (const { e, w } of lines) {
    const key = `${w.writer}|${w.path}`;
    const open = pending.get(key);
    pending.delete(key);
    if (open && w.role === "write") {
      const o = open.events[0];
      const paired = e.ts !== null && open.ts !== null ? e.ts - open.ts <= pairMs : e.ts === null && open.ts === null && o.fileId === e.fileId;
      if (paired) {
        open.events.push(e);
        open.ts = e.ts; // the completion is when the file changed
        continue;
      }
    }
    const cw: ConfigWrite = { ts: e.ts, path: w.path, writer: w.writer, removal: w.role === "remove", events: [e] };
    out.push(cw);
    if (w.role === "announce") pending.set(key, cw);
  }
  return out;
}

/** A watch's lines into the writes it saw (see the module comment). */
function seenWrites(lines: Line[]): ConfigWrite[] {
  const groups = new Map<string, Line[]>();
  for (const l of lines) {
    const k = `${l.e.fileId}|${l.w.path}`;
    const g = groups.get(k);
    if (g) g.push(l);
    else groups.set(k, [l]);
  }
  const out: ConfigWrite[] = [];
  for (const g of groups.values()) {
    g.sort((a, b) => a.e.line - b.e.line);
    const ends = g.some((l) => l.w.role !== "observed-part");
    let parts: BootEvent[] = [];
    let last: ConfigWrite | null = null;
    for (const { e, w } of g) {
      const seen = (ev: BootEvent[]): ConfigWrite => ({ ts: e.ts, path: w.path, writer: null, removal: w.role === "remove", events: ev });
      if (w.role !== "observed-part") {
        out.push(seen([e, ...parts]));
        parts = [];
        last = null;
      } else if (ends) parts.push(e);
      else if (last && /\bMODIFY\b/.test(e.message) && e.ts === last.ts && /\bCREATE\b/.test(last.events[last.events.length - 1].message)) {
        last.events.push(e);
      } else {
        last = seen([e]);
        out.push(last);
      }
    }
  }
  return out;
}

/**
 * The writes among a boot's events (any order), sorted by (time, file, line), writes without a
 * time last. `pairMs`: an announcement and its completion within this are one write;
 * `observeMs`: a seen write and an agent's logged write of the file within this are one.
 */
export function collectWrites(events: BootEvent[], pairMs: number, observeMs: number): ConfigWrite[] {
  const lines = events
    .filter((e) => e.kind === "cni.config.written" || e.kind === "cni.config.removed")
    .map(lineOf)
    .filter((l): l is Line => l !== null)
    .sort((a, b) => (a.e.ts ?? Infinity) - (b.e.ts ?? Infinity) || a.e.fileId - b.e.fileId || a.e.line - b.e.line);
  const agents = agentWrites(
    lines.filter((l) => l.w.writer !== null),
    pairMs,
  );
  const seen = seenWrites(lines.filter((l) => l.w.writer === null)).sort(byPlace);
  // each logged write explains at most one seen write of its file: greedy in time order
  const timedAgents = agents.filter((w) => w.ts !== null).sort(byPlace);
  const claimed = new Set<ConfigWrite>();
  const left: ConfigWrite[] = [];
  for (const s of seen) {
    let match: ConfigWrite | null = null;
    if (s.ts !== null) {
      for (const a of timedAgents) {
        if (a.ts! > s.ts + observeMs) break;
        if (a.path === s.path && !claimed.has(a) && a.ts! >= s.ts - observeMs) {
          match = a;
          break;
        }
      }
    }
    if (match) {
      claimed.add(match);
      match.events.push(...s.events);
    } else left.push(s);
  }
  return [...agents, ...left].sort(byPlace);
}
