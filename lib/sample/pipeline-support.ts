/**
 * Test support: a generated bundle through the in-memory reference ingest (`analyseBundle` in
 * lib/ingest/reference.ts: sniff, parse, classify, inherit error classes, node and boot
 * assignment), then each boot's events through the pipeline's detect step (`detectBoot`,
 * lib/ingest/detect-boot.ts) as the store hands them over: events of kind `log` left out, `fields` null (the database path passes none), the Kubernetes event
 * extras from `fields.k8s`, ids in stored order, sorted by (ts, file, line). Only the
 * database is missing.
 */
import type { BootEvent, Finding } from "../detect/types";
import type { UnpackedFile } from "../bundle/unpack";
import { toBootEvent } from "../model/boot-event";
import { detectBoot } from "../ingest/detect-boot";
import { analyseBundle } from "../ingest/reference";
import type { AnalysedBoot } from "../model/event";
import type { ScenarioFile } from "./calico-boot";

/** Boots, classified events (with their boot) and findings per boot, for one node. */
export interface PipelineResult {
  node: string | null;
  boots: AnalysedBoot[];
  /** every event of the bundle (all kinds), with its boot key and file path */
  events: Array<BootEvent & { bootKey: string | null; path: string }>;
  findingsByBoot: Map<string, Finding[]>;
  errors: Array<{ detector: string; message: string }>;
}

/**
 * Run the files of one node's bundle through `analyseBundle` and the detectors.
 * @param opts `collectedMs` (UTC ms; the archive members' mtime in a real upload) and `year`
 */
export function runPipeline(files: ScenarioFile[], opts: { collectedMs?: number; year?: number } = {}): PipelineResult {
  const unpacked: UnpackedFile[] = files.map((f) => ({ path: f.path, status: "read", data: Buffer.from(f.content, "utf8"), mtimeMs: opts.collectedMs }));
  const a = analyseBundle(unpacked, { collectedMs: opts.collectedMs ?? null, year: opts.year ?? null, uploadMs: opts.collectedMs ?? Date.UTC(2030, 0, 1) });
  const nodes = [...a.nodes.keys()];
  if (nodes.length > 1) throw new Error(`runPipeline handles one node; the bundle has ${nodes.join(", ")}`);
  const node = nodes[0] ?? null;
  const boots = node ? a.nodes.get(node)! : [];
  const events = a.events.map((e, i) => ({
    ...toBootEvent(e, i + 1, e.fileIdx + 1),
    bootKey: e.node === node && e.boot !== null ? boots[e.boot].bootKey : null,
    path: a.files[e.fileIdx].path,
  }));
  const findingsByBoot = new Map<string, Finding[]>();
  const errors: PipelineResult["errors"] = [];
  for (const b of boots) {
    const input: BootEvent[] = events.filter((e) => e.bootKey === b.bootKey).map(({ bootKey: _k, path: _p, ...ev }) => ev);
    const out = detectBoot({ node: node!, bootKey: b.bootKey, start: b.start, end: b.end, startApprox: b.startApprox }, input);
    findingsByBoot.set(b.bootKey, out.findings);
    errors.push(...out.errors);
  }
  return { node, boots, events, findingsByBoot, errors };
}
