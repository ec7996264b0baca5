/**
 * `LogPattern` COPY rows of the patterns a thread mined while formatting a node's rows
 * (lib/patterns/boot-miner.ts, called from node-task.ts `nodeRows`).
 */
import { copyText } from "../db/sql";
import type { BootMiners } from "../patterns/boot-miner";

/** `LogPattern` columns in the order `patternRows` writes them. */
export const PATTERN_COLUMNS = [
  "incidentId",
  "bootId",
  "bundleId",
  "template",
  "count",
  "firstTs",
  "lastTs",
  "firstEventId",
  "lanes",
  "components",
  "bucketMs",
  "buckets",
];

const iso = (ms: number | null) => (ms === null ? "\\N" : new Date(ms).toISOString());

/** The miners' templates as COPY text ("" when none). */
export function patternRows(miners: BootMiners, incidentId: string, bundleId: string): string {
  let out = "";
  for (const { bootId, patterns } of miners.result()) {
    for (const p of patterns) {
      out += `${copyText(incidentId)}\t${bootId}\t${copyText(bundleId)}\t${copyText(p.template)}\t${p.count}\t${iso(p.firstTs)}\t${iso(p.lastTs)}\t${p.firstId}\t${copyText(p.lanes.join(","))}\t${copyText(p.components.join(","))}\t${p.bucketMs}\t${JSON.stringify(p.buckets)}\n`;
    }
  }
  return out;
}
