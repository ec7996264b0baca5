/**
 * The detector registry and runner (modelled on Timesketch's analyzer manager): one explicit
 * array, order is priority, no registration by import side effect; duplicate names are
 * rejected when this module loads; each detector runs inside its own error wrapper and its findings are
 * validated, so one failing detector never hides the others.
 *
 * Adding a detector: one new file exporting a `Detector`, one line in `DETECTORS`.
 */
import { z } from "zod";
import type { BootEvent, BootInfo, Detector, Finding } from "./types";
import { sandboxFailureWindow } from "./sandbox-failure-window";
import { cniBootstrapDeadlock } from "./cni-bootstrap-deadlock";
import { retryStorm } from "./retry-storm";
import { conflistRewriteLoop } from "./conflist-rewrite-loop";
import { runtimeDegradation } from "./runtime-degradation";
import { imagePullStorm } from "./image-pull-storm";

/** The registry (order = priority: findings are returned in this order). */
export const DETECTORS: ReadonlyArray<Detector<Record<string, number>>> = [
  sandboxFailureWindow as unknown as Detector<Record<string, number>>,
  cniBootstrapDeadlock as unknown as Detector<Record<string, number>>,
  retryStorm as unknown as Detector<Record<string, number>>,
  conflistRewriteLoop as unknown as Detector<Record<string, number>>,
  runtimeDegradation as unknown as Detector<Record<string, number>>,
  imagePullStorm as unknown as Detector<Record<string, number>>,
];

/** Throws when two detectors share a name (the name is stored on findings and used in URLs). */
export function assertUniqueNames(detectors: ReadonlyArray<Pick<Detector, "name">>): void {
  const seen = new Set<string>();
  for (const d of detectors) {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(d.name)) throw new Error(`detector name "${d.name}" is not a slug`);
    if (seen.has(d.name)) throw new Error(`duplicate detector name "${d.name}"`);
    seen.add(d.name);
  }
}
assertUniqueNames(DETECTORS);

/** Shape every finding must have (the `Finding` table, prisma/schema.prisma). */
export const ZFinding = z.object({
  detector: z.string().min(1),
  severity: z.enum(["info", "low", "medium", "high", "critical"]),
  start: z.number().finite(),
  end: z.number().finite().nullable(),
  title: z.string().min(1),
  explanation: z.string().min(1),
  metrics: z.record(z.string(), z.unknown()),
  evidence: z.array(z.number()),
});
/** A finding as the schema validates it. */
export type TFinding = z.infer<typeof ZFinding>;

/** A detector that threw or returned an invalid finding on one boot. */
export interface DetectorError {
  detector: string;
  message: string;
}

/** Options of `runDetectors`. */
export interface RunDetectorsOptions {
  /** per-detector parameter overrides, by detector name (missing keys keep the defaults) */
  params?: Record<string, Record<string, number>>;
  /** run these instead of `DETECTORS` (tests) */
  detectors?: ReadonlyArray<Detector<Record<string, number>>>;
}

/** Events in the order detectors expect: (ts ?? +inf, fileId, line). Returns a new array. */
export function sortBootEvents(events: BootEvent[]): BootEvent[] {
  return [...events].sort((a, b) => (a.ts ?? Number.POSITIVE_INFINITY) - (b.ts ?? Number.POSITIVE_INFINITY) || a.fileId - b.fileId || a.line - b.line);
}

/**
 * Run every registered detector on one node boot.
 * @param boot the boot (T+0 = `boot.start`, UTC ms)
 * @param events all of the boot's events, any order (sorted here)
 * @returns findings in registry order, each detector's in its own order, and one error
 *   entry per detector that threw or returned an invalid finding (its findings are dropped)
 */
export function runDetectors(boot: BootInfo, events: BootEvent[], opts: RunDetectorsOptions = {}): { findings: Finding[]; errors: DetectorError[] } {
  const detectors = opts.detectors ?? DETECTORS;
  assertUniqueNames(detectors);
  const sorted = sortBootEvents(events);
  const findings: Finding[] = [];
  const errors: DetectorError[] = [];
  for (const d of detectors) {
    try {
      const params = { ...d.defaults, ...(opts.params?.[d.name] ?? {}) };
      const out = d.run(boot, sorted, params);
      const bad = out.map((f) => ZFinding.safeParse(f)).find((r) => !r.success);
      if (bad && !bad.success) {
        errors.push({ detector: d.name, message: `invalid finding: ${bad.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}` });
        continue;
      }
      findings.push(...out.map((f) => ({ ...f, detector: d.name })));
    } catch (err) {
      errors.push({ detector: d.name, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return { findings, errors };
}
