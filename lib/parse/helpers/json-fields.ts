/**
 * The fields of a JSON log line (zap, logrus, slog, klog JSON): every key but the three the
 * format reads itself (its time, level and message keys), strings as they are, other values as
 * their JSON text; undefined when there are none.
 */
export function otherFields(obj: Record<string, unknown>, a: string, b: string, c: string): Record<string, string> | undefined {
  let fields: Record<string, string> | undefined;
  for (const k in obj) {
    if (k === a || k === b || k === c) continue;
    const v = obj[k];
    (fields ??= {})[k] = typeof v === "string" ? v : JSON.stringify(v);
  }
  return fields;
}
