/**
 * The pipeline's detect step for one boot, the one place every way runs the detectors: the
 * ingest threads on a node's new boots (node-task.ts `nodeRows`), the store on boots the
 * incident already had (store-bundle.ts `detectFindings`), the paste preview and the in-memory
 * reference's users (lib/sample). The coded detectors (`runDetectors`, lib/detect/index.ts) get
 * the events of kinds other than `log`; then the rules (`runRules`, lib/detect/rules/run.ts,
 * the files of rule-files.ts) get the events their prefilter takes (`RuleBook.wants`). Callers
 * may pass every event or only those `detectorWants` keeps.
 */
import { type DetectorError, runDetectors, sortBootEvents } from "../detect/index";
import type { RuleBook } from "../detect/rules/compile";
import { runRules } from "../detect/rules/run";
import type { BootEvent, BootInfo, Finding } from "../detect/types";
import { rules } from "./rule-files";
import { reachesDetectors } from "../model/event-kinds";

/** One boot's detector outcome: findings, the detectors that failed, and those as log lines. */
export interface BootDetection {
  findings: Finding[];
  errors: DetectorError[];
  /** each failure as "<detector> on <node> boot <bootKey>: <message>" */
  failures: string[];
}

/**
 * Runs every registered detector, then every rule, on boot `info` over its `events` (any
 * order, `log` events included or not).
 * @param book the rules to apply (default: the loaded rule files)
 */
export function detectBoot(info: BootInfo, events: readonly BootEvent[], book: RuleBook = rules()): BootDetection {
  const signal: BootEvent[] = [];
  const forRules: BootEvent[] = [];
  for (const e of events) {
    if (reachesDetectors(e.kind)) signal.push(e);
    if (book.wants(e)) forRules.push(e);
  }
  const coded = runDetectors(info, signal);
  const ruled = runRules(info, sortBootEvents(forRules), book);
  const findings = [...coded.findings, ...ruled.findings];
  const errors = [...coded.errors, ...ruled.errors];
  return { findings, errors, failures: errors.map((e) => `${e.detector} on ${info.node} boot ${info.bootKey}: ${e.message}`) };
}
