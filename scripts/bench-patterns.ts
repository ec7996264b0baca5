/**
 * The cost of mining patterns (lib/patterns) in `npm run bench`: one node of the bench's bundle
 * read in memory (lib/ingest/reference.ts), then what the ingest adds per event where a node's
 * rows are formatted (lib/ingest/node-task.ts `nodeRows`): `BootMiners.add` for every event on
 * a boot, then the rows (`patternRows`). `runs` repetitions, the median kept, times the bundle's
 * node count (its nodes are copies of this one). Single-threaded time against the ingest's wall
 * clock: an upper bound of the share, since the ingest spreads nodes over its threads.
 */
import { analyseBundle } from "../lib/ingest/reference";
import { patternRows } from "../lib/ingest/pattern-rows";
import { BootMiners } from "../lib/patterns/boot-miner";

/** What `benchPatterns` measured. */
export interface PatternsBench {
  /** events of the measured node mined, and the templates they gave */
  nodeEvents: number;
  templates: number;
  /** one node's median, ms, and each run's */
  nodeMs: number;
  runsMs: number[];
  /** the bundle's nodes times `nodeMs`, s */
  bundleSeconds: number;
}

/** Times the miner on one node's `files`, `runs` times, and scales to `nodes` nodes. */
export function benchPatterns(files: Array<{ path: string; content: string }>, nodes: number, runs = 5): PatternsBench {
  const a = analyseBundle(
    files.map((f) => ({ path: f.path, status: "read" as const, data: Buffer.from(f.content, "utf8") })),
    { uploadMs: Date.UTC(2030, 0, 1) },
  );
  const events = a.events.filter((e) => e.boot !== null);
  const runsMs: number[] = [];
  let templates = 0;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    const m = new BootMiners();
    for (let i = 0; i < events.length; i++) m.add(events[i].boot!, events[i], i + 1);
    templates = patternRows(m, "bench", "bench").split("\n").length - 1;
    runsMs.push(+(performance.now() - t).toFixed(1));
  }
  const nodeMs = [...runsMs].sort((x, y) => x - y)[Math.floor(runs / 2)];
  return { nodeEvents: events.length, templates, nodeMs, runsMs, bundleSeconds: +((nodeMs * nodes) / 1000).toFixed(3) };
}
