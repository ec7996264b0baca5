/**
 * The real-format rule inputs of this folder (README.md) through the whole reading and the
 * detect step (lib/sample/pipeline-support.ts `runPipeline`), one node per call.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Finding } from "@/lib/detect/types";
import { runPipeline } from "@/lib/sample/pipeline-support";

const DIR = path.join(process.cwd(), "tests", "rule-inputs");
/** Year-less stamps are read as of this collection time (UTC ms). */
export const RULE_INPUTS_COLLECTED_MS = Date.UTC(2026, 11, 2, 10, 0, 0);

/** The inputs that together make one node's bundle, as the tests group them. */
export const RULE_INPUT_GROUPS: string[][] = [
  ["journal-node-trouble.log"],
  ["journal-node-trouble.log", "dmesg-raw-node.log"],
  ["journal-healthy-boot.log", "dmesg-raw-node.log"],
  ["dmesg-T-node.log"],
  ["talos-kmsg-node.log"],
  ["journal-kubelet-trouble.log"],
  ["journal-healthy-boot.log"],
];

/** Every finding of every boot of `files` read as one node's bundle, and the detectors that failed. */
export function ruleInputRun(files: string[]): { findings: Finding[]; errors: Array<{ detector: string; message: string }> } {
  const r = runPipeline(
    files.map((f) => ({ path: f, content: readFileSync(path.join(DIR, f), "utf8") })),
    { collectedMs: RULE_INPUTS_COLLECTED_MS },
  );
  return { findings: [...r.findingsByBoot.values()].flat(), errors: r.errors };
}
