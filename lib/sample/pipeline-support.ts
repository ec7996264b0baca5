/**
 * Test support: the part of the ingest pipeline that needs no database, for checking
 * generated scenarios end to end: `parseFile` -> `classifyRecord` (+ inherited error
 * classes) -> `detectBoots` / `assignBoots` -> `runDetectors` for one boot.
 * (The real pipeline lives in lib/ingest; this one keeps everything in memory.)
 */
import { runDetectors } from "../detect/index";
import type { BootEvent, Finding } from "../detect/types";
import { parseFile } from "../parse/parse-file";
import { assignBoots, detectBoots, type BootInputEvent, type DetectedBoot } from "../timeline/boots";
import { classifyRecord, inheritErrorClasses } from "../timeline/classify";
import type { ScenarioFile } from "./calico-boot";

/** Boots, classified events (with their boot) and findings per boot. */
export interface PipelineResult {
  boots: DetectedBoot[];
  /** all events of the node, with their boot */
  events: Array<BootEvent & { bootKey: string | null; path: string }>;
  findingsByBoot: Map<string, Finding[]>;
  errors: Array<{ detector: string; message: string }>;
}

/**
 * Parse, classify, detect boots and run the detectors on one node's files.
 * @param opts `collectedMs` (UTC ms) and `year` as `parseFile` takes them
 */
export function runPipeline(files: ScenarioFile[], opts: { collectedMs?: number; year?: number } = {}): PipelineResult {
  const events: Array<BootEvent & { bootKey: string | null; path: string }> = [];
  const inputs: BootInputEvent[] = [];
  files.forEach((f, i) => {
    const pf = parseFile(f.path, f.content, { collectedMs: opts.collectedMs ?? null, year: opts.year ?? null });
    for (const r of pf.records) {
      const c = classifyRecord(r);
      events.push({
        id: events.length + 1,
        ts: r.ts,
        fileId: i + 1,
        line: r.line,
        component: r.component,
        lane: c.lane,
        severity: r.severity,
        kind: c.kind,
        pod: c.pod,
        sandboxId: c.sandboxId,
        errorClass: c.errorClass,
        message: r.message,
        k8s: r.k8sEvent ? { reason: r.k8sEvent.reason, count: r.k8sEvent.count, firstMs: r.k8sEvent.firstMs, lastMs: r.k8sEvent.lastMs } : null,
        fields: r.fields ?? null,
        bootKey: null,
        path: f.path,
      });
      inputs.push({ ts: r.ts, kind: c.kind, journalBootId: r.journalBootId ?? null, bootSegment: r.bootSegment, fileId: i + 1, line: r.line, rebootBootId: c.rebootBootId ?? null });
    }
  });
  inheritErrorClasses(events).forEach((cls, i) => (events[i].errorClass = cls));
  const boots = detectBoots(inputs);
  assignBoots(inputs, boots).forEach((k, i) => (events[i].bootKey = k));
  const findingsByBoot = new Map<string, Finding[]>();
  const errors: PipelineResult["errors"] = [];
  for (const b of boots) {
    const out = runDetectors({ node: "node", bootKey: b.bootKey, start: b.start, end: b.end }, events.filter((e) => e.bootKey === b.bootKey));
    findingsByBoot.set(b.bootKey, out.findings);
    errors.push(...out.errors);
  }
  return { boots, events, findingsByBoot, errors };
}
