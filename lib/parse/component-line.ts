/**
 * What a component format (klog, logrus, Calico, istio, cilium) yields for one message, whether the
 * message is a whole line of its own file or the MESSAGE inside a journal/syslog/CRI envelope
 * (FORMATS.md 5b "Two-level parsing").
 */
import type { ParsedRecord, Severity, WallTime } from "./types";

/** One parsed component line (see the module comment). */
export interface ComponentLine {
  /** the component's own stamp (year/offset may be null), null when it prints none (cilium) */
  time: WallTime | null;
  severity: Severity;
  /** message text: klog message (unquoted) followed by its key=value pairs as printed; logrus `msg` */
  message: string;
  /** key/value pairs, unescaped; absent when the line has none */
  fields?: Record<string, string>;
  /** component the format itself implies (Calico → cni-calico), null for shared formats (klog, logrus) */
  component: string | null;
  /** process/thread id the component prints (klog thread id, Calico pid) */
  pid?: number;
  /** set by the envelope dispatch (component.ts) when the line is klog */
  format?: "klog";
}

/**
 * The record of a standalone component line (a file of its own, no envelope). Built property by
 * property (no object spread: V8 turns spread-then-override objects into slow dictionaries).
 */
export function componentRecord(c: ComponentLine, component: string, withPid = false): ParsedRecord {
  const rec: ParsedRecord = { time: c.time, component, severity: c.severity, message: c.message };
  if (withPid && c.pid !== undefined) rec.pid = c.pid;
  if (c.fields) rec.fields = c.fields;
  return rec;
}
