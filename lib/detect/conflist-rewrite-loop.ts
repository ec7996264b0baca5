/**
 * Detector `conflist-rewrite-loop` (docs/detectors.md, pattern 3: agents fight over one
 * conflist; cases 002, 003, 006).
 *
 * Input: one node boot's events (BootEvent, UTC ms), sorted by (ts, fileId, line). Writes are the
 * `cni.config.written` / `cni.config.removed` events the rules of lib/normalise/config-writes.ts
 * read (Cilium, istio-cni, linkerd-cni, Multus, Calico install-cni, and `inotifywait -m` output),
 * one per real write (conflist-writes.ts: an announcement and its completion are one; a write a
 * watch saw and an agent logged is one). Paths are compared as the host sees them
 * (`/host/etc/cni/net.d/x` is `/etc/cni/net.d/x`).
 *
 * A loop: the timed writes of one path, chained while consecutive writes are at most `maxGapS`
 * apart, in which some `withinS`-long interval holds at least `minWrites` writes. `start`/`end`
 * are its first/last write; `end` is null when the data ends less than `openGapS` after the last
 * write (the loop was still going). Metrics:
 *  - `writes`: every write of the chain, with or without a known writer; `writesPerS` =
 *    (writes - 1) / `durationS` (the rate of evenly spaced writes), `durationS` = last - first;
 *  - `writers` (in order of first write) and `writesByWriter`: the agents that wrote;
 *    `unattributedWrites`: writes a watch saw that no agent's log explains (in the rate, not a writer);
 *  - `turns`: changes of writer between consecutive writes of known writers (A, B, A: 2 turns);
 *  - `untimedWrites`: writes of the path without a time, per writer (`unattributed` for a watch's).
 *
 * Records without a time (Cilium's default logfmt, case 003) cannot be placed. Where a path has
 * no timed loop but at least `minWrites` writes without a time, they are counted in line order
 * (turns within one log), with no rate or duration (`ordering: "line"`); such a finding spans the
 * boot (`start` = T+0, `end` = the boot's end).
 *
 * Pure: no I/O, no clock reads.
 */
import { type ConfigWrite, collectWrites } from "./conflist-writes";
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
  /** a write a watch saw and an agent's logged write of the same file within this are one write, ms (inotifywait's `%T` stamps are whole seconds: up to 1 s late, plus margin) */
  observeMs: number;
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
  observeMs: 1500,
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
    `by one writer or by writers taking turns (Cilium, istio-cni, linkerd-cni, Multus and Calico install lines; writes an inotifywait watch saw count without a writer). ` +
    `An announcement and its completion within ${p.pairMs} ms are one write; a watched write within ${p.observeMs} ms of an agent's logged write of the file is that write. ` +
    `High severity from ${p.highWritesPerS} write/s; open when the data ends within ${p.openGapS} s of the last write.`
  );
}

/** Plugins that chain into another plugin's conflist rather than own one. */
const CHAINED = new Set(["istio-cni", "linkerd-cni", "kuma-cni", "consul-cni", "cni-bandwidth", "portmap"]);

/** How a writer (lib/normalise/config-writes.ts `writer`) is named in prose. */
const DISPLAY: Record<string, string> = {
  cilium: "Cilium",
  "cni-calico": "Calico",
  calico: "Calico",
  multus: "Multus",
  flannel: "flannel",
};
/** A writer's name in prose (`cilium` -> `Cilium`; null: a watch that saw writes without their writer). */
export const writerName = (w: string | null): string => (w === null ? "an unknown writer (seen by inotifywait)" : (DISPLAY[w] ?? w));

/** The plugin a conflist file is named after (`05-cilium.conflist` -> `cilium`), or null. */
function ownerOfPath(path: string): string | null {
  const m = /\/\d*-?([a-z][a-z0-9]*)[^/]*\.(?:conflist|conf|json)$/i.exec(path);
  return m ? m[1].toLowerCase() : null;
}

/** The configuration cause in plain words, given the writers seen. */
export function causeText(path: string, writers: string[], removedHint: boolean): string {
  const owner = ownerOfPath(path);
  const chained = writers.filter((w) => CHAINED.has(w));
  const primaries = writers.filter((w) => !CHAINED.has(w));
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
  if (writers.includes("cilium") && owner !== "cilium" && writers.length > 1) {
    const other = writers.filter((w) => w !== "cilium").map(writerName);
    return (
      `Likely configuration cause: Cilium's \`cni-exclusive\` (Helm \`cni.exclusive\`) is true, so Cilium renames every other plugin's config file away (to \`.cilium_bak\`), ` +
      `and ${other.join(" and ")} writes ${path} back each time. Turn \`cni-exclusive\` off when another plugin must keep its file.`
    );
  }
  if (!writers.length)
    return `Likely configuration cause: two programs keep rewriting ${path} (a primary plugin with cni-exclusive on and a chained plugin editing its file produce this pattern); the logs of the agents would name them.`;
  return (
    `Likely configuration cause: ${writers.length > 1 ? `${writers.map(writerName).join(" and ")} take turns on` : `${writerName(writers[0])} keeps rewriting`} ${path}; a primary plugin with cni-exclusive on and a chained plugin editing its file ` +
    `produce this pattern (each write fires the other's watch).`
  );
}

const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six"];
/** `2` -> `Two`. */
const countWord = (n: number): string => {
  const w = NUMBER_WORDS[n] ?? String(n);
  return w.charAt(0).toUpperCase() + w.slice(1);
};

/** What a list of writes (in order) gives: writers in order of first write, writes per writer, turns, writes without a writer. */
function tally(writes: ConfigWrite[], sameRun: (a: ConfigWrite, b: ConfigWrite) => boolean = () => true) {
  const writers: string[] = [];
  const byWriter: Record<string, number> = {};
  let unattributed = 0;
  let turns = 0;
  let prev: ConfigWrite | null = null;
  for (const w of writes) {
    if (w.writer === null) {
      unattributed++;
      continue;
    }
    if (!(w.writer in byWriter)) writers.push(w.writer);
    byWriter[w.writer] = (byWriter[w.writer] ?? 0) + 1;
    if (prev && prev.writer !== w.writer && sameRun(prev, w)) turns++;
    prev = w;
  }
  return { writers, byWriter, unattributed, turns, removals: writes.filter((w) => w.removal).length };
}

/** The sentence that names the writers: "Two agents overwrite each other: …, with N turns …". */
function writersText(t: ReturnType<typeof tally>, untimedAgents: string[], removedHint: boolean, order: string): string {
  const all = [...t.writers, ...untimedAgents.filter((w) => !t.writers.includes(w))];
  const list = t.writers.map((w) => `${writerName(w)} (${plural(t.byWriter[w], "write")})`).join(", ");
  const extra = untimedAgents.filter((w) => !t.writers.includes(w));
  const extraText = extra.length ? `, and ${extra.map(writerName).join(" and ")} in records without a time` : "";
  if (all.length > 1) {
    const turnsText = t.writers.length > 1 ? `, with ${plural(t.turns, "turn")} (a change of writer from one write to the next, ${order})` : "";
    return `${countWord(all.length)} agents overwrite each other: ${list || "none with a time"}${extraText}${turnsText}.`;
  }
  if (t.writers.length === 1) return `One writer: ${list}${removedHint ? `; its lines say its entry had been removed from the file each time` : ""}.`;
  return "No agent's log names the writer.";
}

/** Run the detector on one boot. */
export function run(boot: BootInfo, events: BootEvent[], params: ConflistRewriteLoopParams = defaults): Finding[] {
  const p = { ...defaults, ...params };
  const t0 = boot.start;
  const writes = collectWrites(events, p.pairMs, p.observeMs);
  const dataEnd = boot.end !== null ? Math.max(boot.end, lastTs(events) ?? boot.end) : lastTs(events);
  const paths = [...new Set(writes.map((w) => w.path))].sort();
  const out: Finding[] = [];
  const removedHintOf = (ws: ConfigWrite[]) => ws.some((w) => w.events.some((e) => /removed from CNI config file/i.test(e.message ?? "")));
  for (const path of paths) {
    const all = writes.filter((w) => w.path === path);
    const timed = all.filter((w) => w.ts !== null && w.ts >= t0);
    const untimed = all.filter((w) => w.ts === null);
    const untimedBy: Record<string, number> = {};
    for (const w of untimed) untimedBy[w.writer ?? "unattributed"] = (untimedBy[w.writer ?? "unattributed"] ?? 0) + 1;
    const untimedAgents = Object.keys(untimedBy).filter((w) => w !== "unattributed");
    // chains of writes at most maxGapS apart
    const chains: ConfigWrite[][] = [];
    for (const w of timed) {
      const cur = chains[chains.length - 1];
      if (cur && w.ts! - cur[cur.length - 1].ts! <= p.maxGapS * 1000) cur.push(w);
      else chains.push([w]);
    }
    let found = false;
    for (const chain of chains) {
      if (chain.length < p.minWrites) continue;
      let dense = false;
      for (let i = 0, j = 0; i < chain.length && !dense; i++) {
        while (j < chain.length && chain[j].ts! - chain[i].ts! <= p.withinS * 1000) j++;
        if (j - i >= p.minWrites) dense = true;
      }
      if (!dense) continue;
      found = true;
      const first = chain[0].ts!;
      const last = chain[chain.length - 1].ts!;
      const durationS = sec(last - first);
      const writesPerS = durationS > 0 ? round3((chain.length - 1) / durationS) : 0;
      const t = tally(chain);
      const open = dataEnd !== null && dataEnd - last < p.openGapS * 1000;
      const removedHint = removedHintOf(chain);
      const parts: string[] = [];
      parts.push(
        `${path} was written ${chain.length} times in ${durationS.toFixed(3)} s (${writesPerS.toFixed(3)} writes/s, all writers together), from ${fmtT(sec(first - t0))} to ${fmtT(sec(last - t0))}` +
          (open ? `, and was still being rewritten when the data ended.` : `.`),
      );
      parts.push(writersText(t, untimedAgents, removedHint, "in time order"));
      if (t.unattributed)
        parts.push(
          `${plural(t.unattributed, "write was", "writes were")} seen by a file watch (inotifywait) that no agent's log explains: in the rate, but no writer.`,
        );
      if (t.removals) parts.push(`${plural(t.removals, "write was a removal", "writes were removals")}.`);
      const untimedText = Object.entries(untimedBy)
        .map(([w, n]) => `${w === "unattributed" ? "a file watch" : writerName(w)} ${n}`)
        .join(", ");
      if (untimed.length) parts.push(`Records without a time also write this file (${untimedText}); they cannot be placed and are not in the counts.`);
      parts.push(causeText(path, [...t.writers, ...untimedAgents.filter((w) => !t.writers.includes(w))], removedHint));
      out.push({
        detector: name,
        severity: writesPerS >= p.highWritesPerS ? "high" : "medium",
        start: first,
        end: open ? null : last,
        title: `${path} rewritten ${chain.length} times in ${durationS.toFixed(3)} s (${writesPerS.toFixed(3)}/s) by ${writersTitle(t.writers, t.unattributed)}`,
        explanation: parts.join(" "),
        metrics: {
          path,
          writes: chain.length,
          writers: t.writers,
          writesPerS,
          durationS,
          writesByWriter: t.byWriter,
          turns: t.turns,
          unattributedWrites: t.unattributed,
          removals: t.removals,
          untimedWrites: untimedBy,
          ordering: "time",
          firstAfterBootS: sec(first - t0),
          lastAfterBootS: sec(last - t0),
        },
        evidence: evidenceOf(chain),
      });
    }
    if (found || untimed.length < p.minWrites) continue;
    // no timed loop: the writes without a time, in line order (turns only within one log)
    const ordered = [...untimed].sort((a, b) => a.events[0].fileId - b.events[0].fileId || a.events[0].line - b.events[0].line);
    const t = tally(ordered, (a, b) => a.events[0].fileId === b.events[0].fileId);
    const removedHint = removedHintOf(ordered);
    const parts = [
      `${path} was written ${ordered.length} times in records that carry no time: counted in line order, so no rate or duration can be given (the finding spans the boot).`,
      writersText(t, [], removedHint, "in line order within one log"),
    ];
    if (t.unattributed) parts.push(`${plural(t.unattributed, "write was", "writes were")} seen by a file watch (inotifywait), without a writer.`);
    if (t.removals) parts.push(`${plural(t.removals, "write was a removal", "writes were removals")}.`);
    parts.push(causeText(path, t.writers, removedHint));
    out.push({
      detector: name,
      severity: "medium",
      start: t0,
      end: boot.end,
      title: `${path} rewritten ${ordered.length} times (no times: line order) by ${writersTitle(t.writers, t.unattributed)}`,
      explanation: parts.join(" "),
      metrics: {
        path,
        writes: ordered.length,
        writers: t.writers,
        writesPerS: null,
        durationS: null,
        writesByWriter: t.byWriter,
        turns: t.turns,
        unattributedWrites: t.unattributed,
        removals: t.removals,
        untimedWrites: untimedBy,
        ordering: "line",
        firstAfterBootS: null,
        lastAfterBootS: null,
      },
      evidence: evidenceOf(ordered),
    });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The writers for a title: `istio-cni and Cilium`, or the watch. */
function writersTitle(writers: string[], unattributed: number): string {
  const names = writers.map(writerName);
  if (unattributed) names.push(writers.length ? `${unattributed} writes without a writer` : writerName(null));
  return names.join(" and ");
}

/** The ids of every line of the writes, sorted. */
const evidenceOf = (ws: ConfigWrite[]): number[] => [...new Set(ws.flatMap((w) => w.events.map((e) => e.id)))].sort((a, b) => a - b);

/** The detector as registered in lib/detect/index.ts. */
export const conflistRewriteLoop: Detector<ConflistRewriteLoopParams> = { name, title, defaults, describe, run };
