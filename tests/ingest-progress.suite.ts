/**
 * The progress a bundle's ingest reports, as the upload panel shows it (lib/ingest/live-status.ts,
 * phases and steps from lib/ingest/progress.ts), on a bundle of 300,000 real-format lines on one
 * node (lib/sample/big-node.ts: kubelet klog and containerd logrus journal lines): every report
 * the ingest makes is recorded, in order, and the run must
 * - go through the phases of its way once each, in `INGEST_PHASES` order, each from its start to 1,
 *   never going back;
 * - move in every long phase (unpack, parse, ingest, store) by at most `MAX_STEP` of the phase
 *   between two reports that change it: a report at least every twelfth of a phase's work.
 *
 * The bound is on work, not on time: the reports come by units of work (bytes read, events
 * handled, rows taken by the COPY: progress.ts `workSteps`, row-stream.ts), so the same bundle gives
 * the same largest step on a loaded machine as on an idle one. The wall-clock figure (the longest
 * time between two changes, against the 2 s the issue sets) is measured by `npm run bench`
 * (scripts/bench-progress.ts, `progress.maxGapS`).
 *
 * Shared by ingest-progress.pg.test.ts and ingest-progress.pglite.test.ts.
 */
import { expect } from "vitest";
import type { DbHandles } from "../lib/db/connection";
import { claimBundle } from "../lib/ingest/bundle-status";
import { enqueueBundle } from "../lib/ingest/enqueue-bundle";
import { onLiveStatus } from "../lib/ingest/live-status";
import { processBundle } from "../lib/ingest/pipeline";
import { INGEST_PHASES, type IngestPhase } from "../lib/ingest/progress";
import { bigNodeBundle } from "../lib/sample/big-node";

/** Lines of the test bundle, as the issue sets it. */
export const LINES = 300_000;

/**
 * The largest step of a long phase between two reports. The largest steps by design, for this
 * bundle: the node's boots found in one computation (lib/normalise/boots.ts `detectBoots`, 0.7 of
 * the node's boot step: 0.06 of `store`, whose nodes take 0.9; 0.035 of `ingest`, whose second
 * half is the store), an unpack report every 256 KiB of a 5.7 MB upload (0.046), and a parse
 * report every 4,096 lines (0.014).
 */
export const MAX_STEP = 1 / 12;

/** Phases whose work is reported as it goes (the others are a few statements, told at their ends). */
const LONG: ReadonlySet<IngestPhase> = new Set(["unpack", "ingest"]);

/** Every report of one ingest of the bundle, in order; its outcome. */
export async function recordProgress(db: DbHandles): Promise<{ seen: Array<[IngestPhase, number]>; events: number; status: string }> {
  const b = bigNodeBundle(LINES);
  const { bundleId } = await enqueueBundle(db, { title: "progress", files: [{ name: b.name, data: b.data }] });
  await claimBundle(db.sql, bundleId);
  const seen: Array<[IngestPhase, number]> = [];
  const stop = onLiveStatus((l) => {
    if (l.id === bundleId) seen.push([l.phase, l.progress]);
  });
  try {
    const r = await processBundle(db, bundleId);
    return { seen, events: r.events, status: r.status };
  } finally {
    stop();
  }
}

/** The reports grouped by phase, in the order the phases came. */
function byPhase(seen: Array<[IngestPhase, number]>): Array<[IngestPhase, number[]]> {
  const out: Array<[IngestPhase, number[]]> = [];
  for (const [phase, p] of seen) {
    if (out.at(-1)?.[0] === phase) out.at(-1)![1].push(p);
    else out.push([phase, [p]]);
  }
  return out;
}

/** Checks a run's reports: `phases` in order, each to 1, never back, and no long phase's step over `MAX_STEP`. */
export function expectSteadyProgress(seen: Array<[IngestPhase, number]>, phases: IngestPhase[]): { maxStep: number; reports: number } {
  const groups = byPhase(seen);
  expect(groups.map(([p]) => p)).toEqual(phases);
  const order = groups.map(([p]) => INGEST_PHASES.indexOf(p));
  expect(order).toEqual([...order].sort((a, b) => a - b));
  let maxStep = 0;
  for (const [phase, fractions] of groups) {
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]);
    expect(fractions.at(-1)).toBe(1);
    if (!LONG.has(phase)) continue;
    // from the phase's start (its first report, or 0) through each change
    const steps = [0, ...fractions].map((f, i, all) => (i ? f - all[i - 1] : 0));
    const largest = Math.max(...steps);
    maxStep = Math.max(maxStep, largest);
    expect(largest, `largest step of phase ${phase}`).toBeLessThanOrEqual(MAX_STEP);
  }
  return { maxStep, reports: seen.length };
}
