/**
 * The cost of the rule catalogue (rules/*.yaml) in `npm run bench`: one node of the bench's
 * bundle (its files as the scenario generator wrote them) read in memory (lib/ingest/reference.ts),
 * then, per boot, what the ingest adds for the rules (lib/ingest/detect-boot.ts and
 * rule-files.ts): the prefilter over every event (`detectorWants`, run where the node's rows are
 * made and again where events are spilled, so counted twice), the runner's own choice of events
 * (`RuleBook.wants`), their sort and the runner (`runRules`). `runs` repetitions, the median kept, times the bundle's node count
 * (its nodes are copies of this one). Single-threaded time against the ingest's wall clock: an
 * upper bound of the share, since the ingest spreads nodes over its threads.
 */
import { sortBootEvents } from "../lib/detect/index";
import { runRules } from "../lib/detect/rules/run";
import type { BootEvent } from "../lib/detect/types";
import { analyseBundle } from "../lib/ingest/reference";
import { detectorWants, rules } from "../lib/ingest/rule-files";
import { toBootEvent } from "../lib/model/boot-event";

/** What `benchRules` measured. */
export interface RulesBench {
  /** rules loaded, and their files */
  rules: number;
  ruleSets: number;
  /** events of the measured node, and those passed to the runner */
  nodeEvents: number;
  wantedEvents: number;
  /** rule findings on the node */
  findings: number;
  /** one node's median, ms, and each run's */
  nodeMs: number;
  runsMs: number[];
  /** the bundle's nodes times `nodeMs`, s */
  bundleSeconds: number;
}

/** Times the rules on one node's `files`, `runs` times, and scales to `nodes` nodes. */
export function benchRules(files: Array<{ path: string; content: string }>, nodes: number, runs = 9): RulesBench {
  const book = rules();
  const now = Date.UTC(2030, 0, 1);
  const a = analyseBundle(
    files.map((f) => ({ path: f.path, status: "read" as const, data: Buffer.from(f.content, "utf8") })),
    { uploadMs: now },
  );
  const boots: Array<{ info: Parameters<typeof runRules>[0]; events: BootEvent[] }> = [];
  for (const [node, list] of a.nodes)
    list.forEach((b, bi) =>
      boots.push({
        info: { node, bootKey: b.bootKey, start: b.start, end: b.end },
        events: a.events.flatMap((e, i) => (e.node === node && e.boot === bi ? [toBootEvent(e, i + 1, e.fileIdx + 1)] : [])),
      }),
    );
  const runsMs: number[] = [];
  let wanted = 0;
  let findings = 0;
  for (let r = 0; r < runs; r++) {
    wanted = 0;
    findings = 0;
    const t = performance.now();
    for (const b of boots) {
      let kept: BootEvent[] = [];
      for (let pass = 0; pass < 2; pass++) kept = b.events.filter(detectorWants);
      // detect-boot.ts: the events the runner needs, sorted, then the runner
      const forRules = kept.filter((e) => book.wants(e));
      wanted += forRules.length;
      findings += runRules(b.info, sortBootEvents(forRules), book).findings.length;
    }
    runsMs.push(+(performance.now() - t).toFixed(1));
  }
  const nodeMs = [...runsMs].sort((x, y) => x - y)[Math.floor(runs / 2)];
  return {
    rules: book.rules.length,
    ruleSets: new Set(book.rules.map((r) => r.set)).size,
    nodeEvents: boots.reduce((n, b) => n + b.events.length, 0),
    wantedEvents: wanted,
    findings,
    nodeMs,
    runsMs,
    bundleSeconds: +((nodeMs * nodes) / 1000).toFixed(3),
  };
}
