/**
 * Findings as `Finding` COPY rows: pure text formatting, run on the ingest threads and by the
 * store (store-bundle.ts). No database access.
 */
import { copyText } from "../db/sql";
import type { Finding } from "../detect/types";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** `Finding` columns of the COPY rows `findingRows` writes, in order. */
export const FINDING_COLUMNS = ["incidentId", "nodeId", "bootId", "detector", "severity", "start", "end", "title", "explanation", "metrics", "evidence"];

/**
 * One boot's findings as `Finding` COPY rows (text format, `FINDING_COLUMNS` order, one string
 * per row with its line end, so a COPY can cut them into slices). Evidence is an int8 array
 * literal: findings cite up to thousands of events each, and a jsonb parameter unpacked
 * server-side is far slower (docs/scaling.md). Called on the ingest threads for the boots new to
 * the incident (node-task.ts `nodeRows`: the evidence ids never cross to the main thread) and by
 * `replaceFindings` for the boots it had.
 */
export function findingRows(incidentId: string, nodeId: number, bootId: number, findings: Finding[]): string[] {
  return findings.map((f) => {
    const cols = [
      incidentId,
      nodeId,
      bootId,
      f.detector,
      f.severity,
      iso(f.start),
      iso(f.end),
      f.title,
      f.explanation,
      JSON.stringify(f.metrics),
      `{${f.evidence.join(",")}}`,
    ];
    return `${cols.map(copyText).join("\t")}\n`;
  });
}
