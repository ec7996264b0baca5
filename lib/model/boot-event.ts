/**
 * The detectors' view of a normalised event (`BootEvent`, lib/detect/types.ts) made from the
 * ingest's `AnalysedEvent` (lib/model/event.ts), given the database ids the caller chose. Pure.
 */
import type { BootEvent } from "../detect/types";
import type { AnalysedEvent } from "./event";
import { KINDS_WITH_FIELDS } from "./event-kinds";

/** The Kubernetes event extras detectors read (`BootEvent.k8s`), from the stored `fields.k8s`. */
export function k8sOfEvent(k: NonNullable<BootEvent["k8s"]>): NonNullable<BootEvent["k8s"]> {
  const out: NonNullable<BootEvent["k8s"]> = { reason: k.reason, count: k.count, firstMs: k.firstMs, lastMs: k.lastMs };
  if (k.firstUncertaintyMs !== undefined) out.firstUncertaintyMs = k.firstUncertaintyMs;
  if (k.lastUncertaintyMs !== undefined) out.lastUncertaintyMs = k.lastUncertaintyMs;
  if (k.agesFromUpload) out.agesFromUpload = true;
  return out;
}

/** The string-valued fields of a stored or analysed event of a kind the kind table gives `detectorFields` (null otherwise or when none). */
export function detectorFields(kind: string, fields: Record<string, unknown> | null | undefined): Record<string, string> | null {
  if (!fields || !KINDS_WITH_FIELDS.has(kind)) return null;
  let out: Record<string, string> | null = null;
  for (const k in fields) {
    const v = fields[k];
    if (typeof v === "string") (out ??= {})[k] = v;
  }
  return out;
}

/** What detectors see of an analysed event (`k8s`, and the fields of the kinds with `detectorFields` only). */
export function toBootEvent(e: AnalysedEvent, id: number, fileId: number): BootEvent {
  const k8s = e.fields?.k8s as NonNullable<BootEvent["k8s"]> | undefined;
  return {
    id,
    ts: e.ts,
    fileId,
    line: e.line,
    component: e.component,
    lane: e.lane,
    severity: e.severity,
    kind: e.kind,
    pod: e.pod,
    sandboxId: e.sandboxId,
    errorClass: e.errorClass,
    message: e.message,
    k8s: k8s ? k8sOfEvent(k8s) : null,
    fields: detectorFields(e.kind, e.fields),
  };
}
