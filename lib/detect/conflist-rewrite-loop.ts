/**
 * Detector `conflist-rewrite-loop` (docs/detectors.md, pattern 3: two agents fight over one
 * conflist; cases 002, 003, 006).
 *
 * Input: one node boot's events (BootEvent, UTC ms), sorted by (ts, fileId, line). Writes
 * are `cni.config.written` / `cni.config.removed` events (lib/normalise/classify.ts):
 *  - istio-cni: `configuration requires updates, (re)writing CNI config file at "<path>"`
 *    (announces a write) and `created CNI config <path>` (completes it); one write prints
 *    both about 10 ms apart (case 006: 9.8 ms), so an announcement followed by a completion
 *    of the same writer and path within `pairMs` is one write, at the completion's time;
 *  - Cilium: `Wrote CNI configuration file to <path>`, and its removals;
 *  - Calico install-cni: `Created /host/etc/cni/net.d/<name>`;
 *  - `inotifywait -m` output (component `inotifywait`, lib/parse/inotifywait.ts): its
 *    stamps are whole seconds at best, so where agent writes of the same path lie within
 *    `maxGapS` they explain what inotify saw (its lines join them as evidence); elsewhere
 *    each observed write counts, by writer "unknown".
 * Paths are compared as the host sees them: a container's `/host` mount prefix is
 * dropped (`/host/etc/cni/net.d/05-cilium.conflist` -> `/etc/cni/net.d/05-cilium.conflist`).
 * The writer is the event's component (`istio-cni`, `cilium`, `cni-calico`, ...).
 *
 * Records without a time (Cilium's default logfmt, case 003) cannot be placed: they are
 * counted per writer in `untimedWrites` and cited, but rates and spans use timed writes only.
 *
 * A loop: the timed writes of one path, chained while consecutive writes are at most
 * `maxGapS` apart, in which some `withinS`-long interval holds at least `minWrites`
 * writes. `start`/`end` are its first/last write; `end` is null when the data ends less
 * than `openGapS` after the last write (the loop was still going). `writesPerS` =
 * (writes - 1) / durationS (the rate of evenly spaced writes), `durationS` = last - first.
 *
 * Pure: no I/O, no clock reads.
 */
import type { BootEvent, BootInfo, Detector, Finding } from "./types";
import { fmtT, lastTs, plural, round3, sec } from "./numbers";

/** Thresholds, with units in their names. */
export interface ConflistRewriteLoopParams extends Record<string, number> {
  /** writes of one path that make a loop (an agent writes its conflist once per start: case 002; restarts add a few per minute at most) */
  minWrites: number;
  /** ... within this long, s */
  withinS: number;
  /** consecutive writes further apart than this end a loop, s (a loop writes several times a second) */
  maxGapS: number;
  /** an announcement and the completion of one write lie within this, ms (case 006: 9.8 ms; margin for a slow disk, below one turn of a loop) */
  pairMs: number;
  /** a loop whose last write is less than this before the end of the data is still open, s */
  openGapS: number;
  /** writes per second from which the loop is high severity (several per second starve the agent and fail its readiness) */
  highWritesPerS: number;
}

/** Default thresholds (sources on `ConflistRewriteLoopParams`). */
export const defaults: ConflistRewriteLoopParams = {
  minWrites: 10,
  withinS: 60,
  maxGapS: 10,
  pairMs: 500,
  openGapS: 10,
  highWritesPerS: 1,
};

/** Slug stored on findings and used in URLs. */
export const name = "conflist-rewrite-loop";
/** Display name. */
export const title = "CNI config rewrite loop";

/** Plain-words description quoting the thresholds in force. */
export function describe(p: ConflistRewriteLoopParams): string {
  return (
    `The same CNI config file written at least ${p.minWrites} times within ${p.withinS} s (writes at most ${p.maxGapS} s apart chain into one loop), ` +
    `by one writer or by writers taking turns (istio-cni, Cilium, Calico install lines; inotifywait output). An istio-cni announcement and its completion within ${p.pairMs} ms are one write. ` +
    `High severity from ${p.highWritesPerS} write/s; open when the data ends within ${p.openGapS} s of the last write.`
  );
}

/** One write of a CNI config file. */
export interface ConfigWrite {
  /** UTC ms, null when the record has none */
  ts: number | null;
  /** host path (no `/host` prefix) */
  path: string;
  writer: string;
  removal: boolean;
  events: BootEvent[];
}

const CONF_PATH_RE = /(\/[\w.@+-]+(?:\/[\w.@+-]+)*\/[\w.@+-]+\.(?:conflist|conf|json))(?![\w.])/;
const ANNOUNCE_RE = /\(re\)writing CNI config file\b/i;
const INOTIFY = "inotifywait";

/** `inotifywait -m` default output: `<watched dir>/ <EVENT[,EVENT]> <file>` (`%w %e %f`). */
const INOTIFY_RE = /(\/\S*\/) +([A-Z_]+(?:,[A-Z_]+)*) +(\S+\.(?:conflist|conf|json))$/;

/** The host path of the CNI config file a write line names (agent lines, or inotifywait's `dir/ EVENTS file`), or null. */
export function configPathOf(message: string): string | null {
  const i = INOTIFY_RE.exec(message);
  const m = i ? [i[0], i[1] + i[3]] : CONF_PATH_RE.exec(message);
  if (!m) return null;
  return m[1].replace(/^\/host(?=\/)/, "");
}

/**
 * The writes among a boot's events, one per real write: an announcement and its
 * completion within `pairMs` are one; an inotifywait observation with an agent write of
 * the same path within `observeGapMs` is evidence of the nearest such write, otherwise a
 * write of its own by writer "unknown".
 */
export function collectWrites(events: BootEvent[], pairMs = defaults.pairMs, observeGapMs = defaults.maxGapS * 1000): ConfigWrite[] {
  const raw = events
    .filter((e) => e.kind === "cni.config.written" || e.kind === "cni.config.removed")
    .map((e) => ({ e, path: configPathOf(e.message ?? "") }))
    .filter((x): x is { e: BootEvent; path: string } => x.path !== null);
  const writes: ConfigWrite[] = [];
  const pending = new Map<string, ConfigWrite>(); // writer|path -> an announcement awaiting its completion
  const observations: Array<{ e: BootEvent; path: string }> = [];
  for (const { e, path } of raw) {
    if (e.component === INOTIFY) {
      observations.push({ e, path });
      continue;
    }
    const key = `${e.component}|${path}`;
    const removal = e.kind === "cni.config.removed";
    const announce = !removal && ANNOUNCE_RE.test(e.message ?? "");
    const open = pending.get(key);
    if (open && !announce && !removal && e.ts !== null && open.ts !== null && e.ts - open.ts <= pairMs) {
      open.events.push(e);
      open.ts = e.ts; // the completion is when the file changed
      pending.delete(key);
      continue;
    }
    const w: ConfigWrite = { ts: e.ts, path, writer: e.component, removal, events: [e] };
    writes.push(w);
    if (announce) pending.set(key, w);
    else pending.delete(key);
  }
  // inotifywait prints whole seconds (strftime %T) at best, too coarse to pair with one agent
  // write at several writes per second: where agent lines of the path are near, they explain
  // what inotify saw; only where they are silent do observations count as writes
  const agentWrites = writes.filter((w) => w.ts !== null);
  for (const { e, path } of observations) {
    let near: ConfigWrite | null = null;
    if (e.ts !== null) {
      for (const w of agentWrites) {
        if (w.path !== path || Math.abs(w.ts! - e.ts) > observeGapMs) continue;
        if (!near || Math.abs(w.ts! - e.ts) < Math.abs(near.ts! - e.ts)) near = w;
      }
    }
    if (near) near.events.push(e);
    else writes.push({ ts: e.ts, path, writer: "unknown", removal: e.kind === "cni.config.removed", events: [e] });
  }
  return writes.sort((a, b) => (a.ts ?? Infinity) - (b.ts ?? Infinity) || a.events[0].fileId - b.events[0].fileId || a.events[0].line - b.events[0].line);
}

/** Plugins that chain into another plugin's conflist rather than own one. */
const CHAINED = new Set(["istio-cni", "linkerd-cni", "kuma-cni", "consul-cni", "cni-bandwidth", "portmap"]);

/** How a writer (event component) is named in prose. */
const DISPLAY: Record<string, string> = {
  cilium: "Cilium",
  "cni-calico": "Calico",
  calico: "Calico",
  flannel: "flannel",
  unknown: "an unknown writer (inotifywait)",
};
/** A writer's name in prose (`cilium` -> `Cilium`). */
export const writerName = (w: string): string => DISPLAY[w] ?? w;

/** The plugin a conflist file is named after (`05-cilium.conflist` -> `cilium`), or null. */
function ownerOfPath(path: string): string | null {
  const m = /\/\d*-?([a-z][a-z0-9]*)[^/]*\.(?:conflist|conf|json)$/i.exec(path);
  return m ? m[1].toLowerCase() : null;
}

/** The configuration cause in plain words, given the writers seen. */
export function causeText(path: string, writers: string[], removedHint: boolean): string {
  const owner = ownerOfPath(path);
  const chained = writers.filter((w) => CHAINED.has(w));
  const primaries = writers.filter((w) => !CHAINED.has(w) && w !== "unknown");
  const primary = primaries[0] ?? (owner && !CHAINED.has(owner) ? owner : null);
  const P = primary ? writerName(primary) : null;
  const C = chained.map(writerName);
  const exclusive =
    primary === "cilium"
      ? "Cilium's `cni-exclusive` (Helm `cni.exclusive`) set to true"
      : primary
        ? `the exclusive-config setting of ${P} (it owns the CNI config directory)`
        : "an exclusive-config setting on the primary plugin";
  if (chained.length && primary) {
    return (
      `Likely configuration cause: ${P} is the primary CNI and owns ${path}; with ${exclusive} it restores the file whenever another plugin edits it, ` +
      `while ${C.join(" and ")} runs in chained mode and inserts its plugin into the same file, so each write fires the other's file watch. ` +
      `Turn the exclusive setting off on ${P}, or run ${C[0]} in a mode that does not edit ${P}'s file.`
    );
  }
  if (chained.length) {
    return (
      `Likely configuration cause: ${C.join(" and ")} runs in chained mode and keeps re-inserting its plugin into ${path}` +
      `${removedHint ? ", whose entry another writer keeps removing (its own lines say so)" : ""}; the primary plugin (cni-exclusive on) restores the file, but its writes carry no time here. ` +
      `Turn the exclusive setting off on the primary plugin, or run the chained plugin in a mode that does not edit that file.`
    );
  }
  return (
    `Likely configuration cause: ${writers.length > 1 ? `${writers.map(writerName).join(" and ")} take turns on` : `${writerName(writers[0])} keeps rewriting`} ${path}; a primary plugin with cni-exclusive on and a chained plugin editing its file ` +
    `produce this pattern (each write fires the other's watch).`
  );
}

/** Run the detector on one boot. */
export function run(boot: BootInfo, events: BootEvent[], params: ConflistRewriteLoopParams = defaults): Finding[] {
  const p = { ...defaults, ...params };
  const t0 = boot.start;
  const writes = collectWrites(events, p.pairMs, p.maxGapS * 1000);
  const dataEnd = boot.end !== null ? Math.max(boot.end, lastTs(events) ?? boot.end) : lastTs(events);
  const paths = [...new Set(writes.map((w) => w.path))].sort();
  const out: Finding[] = [];
  for (const path of paths) {
    const all = writes.filter((w) => w.path === path);
    const timed = all.filter((w) => w.ts !== null && w.ts >= t0);
    const untimed = all.filter((w) => w.ts === null);
    // chains of writes at most maxGapS apart
    const chains: ConfigWrite[][] = [];
    for (const w of timed) {
      const cur = chains[chains.length - 1];
      if (cur && w.ts! - cur[cur.length - 1].ts! <= p.maxGapS * 1000) cur.push(w);
      else chains.push([w]);
    }
    for (const chain of chains) {
      if (chain.length < p.minWrites) continue;
      let dense = false;
      for (let i = 0, j = 0; i < chain.length && !dense; i++) {
        while (j < chain.length && chain[j].ts! - chain[i].ts! <= p.withinS * 1000) j++;
        if (j - i >= p.minWrites) dense = true;
      }
      if (!dense) continue;
      const first = chain[0].ts!;
      const last = chain[chain.length - 1].ts!;
      const durationS = sec(last - first);
      const writesPerS = durationS > 0 ? round3((chain.length - 1) / durationS) : 0;
      const writers: string[] = [];
      for (const w of chain) if (!writers.includes(w.writer)) writers.push(w.writer);
      const byWriter: Record<string, number> = {};
      for (const w of chain) byWriter[w.writer] = (byWriter[w.writer] ?? 0) + 1;
      let handovers = 0;
      for (let i = 1; i < chain.length; i++) if (chain[i].writer !== chain[i - 1].writer) handovers++;
      const removals = chain.filter((w) => w.removal).length;
      const untimedBy: Record<string, number> = {};
      for (const w of untimed) untimedBy[w.writer] = (untimedBy[w.writer] ?? 0) + 1;
      const open = dataEnd !== null && dataEnd - last < p.openGapS * 1000;
      const removedHint = chain.some((w) => w.events.some((e) => /removed from CNI config file/i.test(e.message ?? "")));
      const causeWriters = [...writers, ...Object.keys(untimedBy).filter((w) => !writers.includes(w))];
      const parts: string[] = [];
      parts.push(
        `${path} was written ${chain.length} times in ${durationS.toFixed(3)} s (${writesPerS.toFixed(3)} writes/s), from ${fmtT(sec(first - t0))} to ${fmtT(sec(last - t0))}` +
          (open ? `, and was still being rewritten when the data ended.` : `.`),
      );
      parts.push(
        writers.length > 1
          ? `Writers taking turns: ${writers.map((w) => `${writerName(w)} (${byWriter[w]} writes)`).join(", ")}, with ${plural(handovers, "hand-over")} from one to the other.`
          : `One writer: ${writerName(writers[0])} (${byWriter[writers[0]]} writes)${removedHint ? `; its lines say its entry had been removed from the file each time` : ""}.`,
      );
      if (removals) parts.push(`${plural(removals, "write was a removal", "writes were removals")}.`);
      const untimedText = Object.entries(untimedBy)
        .map(([w, n]) => `${writerName(w)} ${n}`)
        .join(", ");
      if (untimed.length) parts.push(`Records without a time also write this file (${untimedText}); they cannot be placed and are not in the counts.`);
      parts.push(causeText(path, causeWriters, removedHint));
      out.push({
        detector: name,
        severity: writesPerS >= p.highWritesPerS ? "high" : "medium",
        start: first,
        end: open ? null : last,
        title: `${path} rewritten ${chain.length} times in ${durationS.toFixed(3)} s (${writesPerS.toFixed(3)}/s) by ${writers.map(writerName).join(" and ")}`,
        explanation: parts.join(" "),
        metrics: {
          path,
          writes: chain.length,
          writers,
          writesPerS,
          durationS,
          writesByWriter: byWriter,
          handovers,
          removals,
          untimedWrites: untimedBy,
          firstAfterBootS: sec(first - t0),
          lastAfterBootS: sec(last - t0),
        },
        evidence: [...new Set(chain.flatMap((w) => w.events.map((e) => e.id)))].sort((a, b) => a - b),
      });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The detector as registered in lib/detect/index.ts. */
export const conflistRewriteLoop: Detector<ConflistRewriteLoopParams> = { name, title, defaults, describe, run };
