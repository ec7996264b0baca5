/**
 * The in-memory reference ingest: the test oracle the streaming ingest (lib/ingest/pipeline.ts)
 * is compared against (tests/ingest-streaming.test.ts, tests/duplicates-across-nodes.test.ts),
 * and the whole-bundle run the generated scenarios (lib/sample), the case tests and the paste
 * preview (preview-text.ts) use. It runs the pipeline's own steps on one thread with every
 * event in memory: `analyseFile` per file, `settleBundle` (settle.ts), then `analyseNode` per
 * node; it stores nothing and runs no detector (`detectBoot`, detect-boot.ts, takes its boots).
 */
import { collectorNames, describeBundle } from "../bundle/collectors";
import { fileSize, type UnpackedFile } from "../bundle/unpack";
import type { AnalysedBoot, AnalysedEvent, AnalysedFile } from "../model/event";
import { shiftEvent, skewInputOf } from "../normalise/clock-skew";
import { analyseFile, latestMtime, type IngestOptions, type Progress } from "./analyse-bundle";
import { analyseNode } from "./node-boots";
import { settleBundle } from "./settle";

export interface AnalysedBundle {
  files: AnalysedFile[];
  events: AnalysedEvent[];
  nodes: Map<string, AnalysedBoot[]>;
  /** collectors that made the upload (lib/bundle/collectors.ts), comma-separated; null for plain logs */
  collector?: string | null;
  /** other names of nodes (EKS instance id) */
  aliases?: Map<string, string[]>;
  /** nodes named after the upload because no log, path or option named them (settle.ts) */
  unnamed?: Set<string>;
}

/**
 * Parses and normalises every unpacked file in memory (`analyseFile` on each, then the
 * bundle-wide steps: duplicates, node fallbacks, clock offsets, error-class inheritance and
 * boots per node), all in memory. Never throws for bad
 * input: a file that cannot be read is listed with `status: "skipped"` and a reason; a file
 * whose parse throws is listed with reason `parser-error: <message>`.
 */
export function analyseBundle(unpacked: UnpackedFile[], opts: IngestOptions, progress: Progress = () => {}): AnalysedBundle {
  const layout = describeBundle(unpacked);
  const collectedMs = opts.collectedMs ?? latestMtime(unpacked);
  const totalBytes = unpacked.reduce((s, f) => s + fileSize(f), 0) || 1;
  let doneBytes = 0;
  const results = unpacked.map((u, ord) => {
    const r = analyseFile(u, { ord, layout: layout.files[ord], opts, collectedMs });
    doneBytes += r.file.byteSize;
    progress("parse", doneBytes / totalBytes);
    return r;
  });
  const settled = settleBundle(results, unpacked, layout, opts, {
    drop: (r) => (r.events = []),
    recordNodes: (r) => r.events.map((e) => e.node),
    skewInputs: (files) => results.map((r, ord) => skewInputOf(files[ord].kind, r.events)),
  });
  const { files } = settled;
  const events = results.flatMap((r) => r.events);
  // node of events whose record says nothing: their file's node, else the settled fallback
  for (const e of events) if (!e.node) e.node = files[e.fileIdx].node ?? settled.nodeOf(e.fileIdx);
  for (const e of events) shiftEvent(e, settled.offsets.get(e.fileIdx) ?? 0);
  const byNode = new Map<string, AnalysedEvent[]>();
  for (const e of events) {
    if (!e.node) continue;
    let list = byNode.get(e.node);
    if (!list) byNode.set(e.node, (list = []));
    list.push(e);
  }
  const nodes = new Map<string, AnalysedBoot[]>();
  for (const [node, list] of [...byNode].sort((a, b) => a[0].localeCompare(b[0]))) nodes.set(node, analyseNode(list));
  progress("parse", 1);
  return { files, events, nodes, collector: collectorNames(layout), aliases: layout.aliases, unnamed: settled.unnamed };
}
