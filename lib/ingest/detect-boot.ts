/**
 * The pipeline's detect step for one boot, the one place every way runs the detectors: the
 * ingest threads on a node's new boots (ingest-tasks.ts `nodeRows`), the store on boots the
 * incident already had (store-bundle.ts `detectFindings`), the paste preview and the in-memory
 * reference's users (lib/sample). Events of kind `log` carry no signal for any detector and are
 * left out here; the rest go to `runDetectors` (lib/detect/index.ts) in any order.
 */
import { type DetectorError, runDetectors } from "../detect/index";
import type { BootEvent, BootInfo, Finding } from "../detect/types";

/** One boot's detector outcome: findings, the detectors that failed, and those as log lines. */
export interface BootDetection {
  findings: Finding[];
  errors: DetectorError[];
  /** each failure as "<detector> on <node> boot <bootKey>: <message>" */
  failures: string[];
}

/** Runs every registered detector on boot `info` over its `events` (any order, `log` events included or not). */
export function detectBoot(info: BootInfo, events: readonly BootEvent[]): BootDetection {
  const { findings, errors } = runDetectors(
    info,
    events.filter((e) => e.kind !== "log"),
  );
  return { findings, errors, failures: errors.map((e) => `${e.detector} on ${info.node} boot ${info.bootKey}: ${e.message}`) };
}
