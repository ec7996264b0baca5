/**
 * How steadily an ingest reports its progress, for `npm run bench` (scripts/bench.ts
 * `--progress-lines N`, default 300,000; 0 skips): the longest wall-clock time between two
 * changes of the progress the upload panel shows (phase or fraction: lib/ingest/live-status.ts),
 * against the 2 s the upload panel must never stand still for. Every ingest child
 * (scripts/bench-ingest-child.ts) measures it on its bundle (`ingest.progress`); this runs one
 * more, on one node of N lines (lib/sample/big-node.ts), the case with the least to move by: the
 * whole bundle is one node's work on one thread. The unit tests bound the same reports by work
 * (tests/ingest-progress.suite.ts), never by time.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { bigNodeBundle } from "../lib/sample/big-node";

/** The longest time the shown progress stood still (`maxGapS`, s), where (`at`: the report before it, and the one that ended it), and how many reports. */
export interface ProgressFigures {
  maxGapS: number;
  at: string;
  reports: number;
}

/** Times a run's progress reports (`report` each one, `end` once the run is over). */
export class ProgressGaps {
  private last = performance.now();
  private prev = "start";
  private shown = "";
  private reports = 0;
  private max = 0;
  private at = "";

  report(phase: string, progress: number): void {
    this.reports++;
    const shown = `${phase} ${(progress * 100).toFixed(1)}%`;
    if (shown === this.shown) return; // no change the panel would show
    this.mark(shown);
  }

  end(): void {
    this.mark("done");
  }

  private mark(shown: string): void {
    const now = performance.now();
    if (now - this.last > this.max) {
      this.max = now - this.last;
      this.at = `${this.prev} -> ${shown}`;
    }
    this.last = now;
    this.prev = this.shown = shown;
  }

  result(): ProgressFigures {
    return { maxGapS: +(this.max / 1000).toFixed(2), at: this.at, reports: this.reports };
  }
}

interface ChildOut {
  status: string;
  error: string | null;
  events: number;
  seconds: number;
  progress: ProgressFigures;
}

/** The one-node bundle of `lines` lines, ingested by the child (`run`, with `env`): its progress figures. Throws when the ingest fails. */
export async function benchProgress(
  work: string,
  lines: number,
  run: (script: string, args: string[], env: NodeJS.ProcessEnv) => Promise<ChildOut>,
  env: NodeJS.ProcessEnv,
): Promise<ProgressFigures & { lines: number; seconds: number }> {
  const dir = path.join(work, "progress");
  mkdirSync(dir, { recursive: true });
  try {
    const b = bigNodeBundle(lines);
    writeFileSync(path.join(dir, b.name), b.data);
    const r = await run("scripts/bench-ingest-child.ts", [dir], env);
    if (r.status !== "ready") throw new Error(`progress bundle failed: ${r.error}`);
    return { lines, seconds: +r.seconds.toFixed(2), ...r.progress };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
