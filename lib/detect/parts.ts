/**
 * Parts of a folded finding. A cause that repeats per pod (a retry storm hits every DaemonSet
 * pod that tolerates the taint) is one finding with its parts inside, not one finding per pod:
 * a boot of 550 storming pods reads as one storm with a 550-row table.
 *
 * Shape, in `Finding.metrics`:
 *  - `parts`: one row per part, each a `FindingPart` (`key` unique in the finding, `startMs` /
 *    `endMs` UTC ms, `endMs` null when still open at the end of the data, then the detector's own
 *    columns, numbers in seconds with 3 decimals);
 *  - `partsOf`: what a part is (`"pod"`), the word the pages and exports count in ("550 pods").
 *
 * Pure: values in, values out.
 */

/** One row of a folded finding's table. */
export interface FindingPart {
  /** unique in the finding (the pod's `namespace/name`); used in links (`?part=`) */
  key: string;
  /** first and last time of the part, UTC ms; `endMs` null when still open at the end of the data */
  startMs: number;
  endMs: number | null;
  [column: string]: unknown;
}

/** The parts of a finding's metrics (an empty list when it has none or they are malformed). */
export function partsOf(metrics: Record<string, unknown> | null | undefined): FindingPart[] {
  const raw = metrics?.parts;
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (p): p is FindingPart => !!p && typeof p === "object" && typeof (p as FindingPart).key === "string" && typeof (p as FindingPart).startMs === "number",
  );
}

/** The word a part is counted in (`metrics.partsOf`; "part" when missing). */
export function partWord(metrics: Record<string, unknown> | null | undefined): string {
  const w = metrics?.partsOf;
  return typeof w === "string" && w ? w : "part";
}

/** Every part of `findings` (of `detector` when given), finding by finding, in table order. */
export function allParts(findings: ReadonlyArray<{ detector: string; metrics: Record<string, unknown> }>, detector?: string): FindingPart[] {
  return findings.filter((f) => detector === undefined || f.detector === detector).flatMap((f) => partsOf(f.metrics));
}
