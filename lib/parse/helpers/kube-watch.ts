/**
 * Times of a watch capture's rows from what they print (`kubectl get events -w`, no print time
 * on the lines). A watch prints an event again each time it repeats, as it happens, so every row's
 * age reads `0s`: counted from the one collection time they would all fall on one second. What
 * the rows do tell is the span of each event: an Event object printed as `0s (x14 over 3m15s)`
 * was first seen 195 s before that printing, and its earlier printings (`0s (x2 over 15s)`, ...)
 * lie at first seen + their own span. So the rows of one event (one object, reason and kind of
 * message: the kubelet's "(combined from similar events)" aggregate is an Event of its own) are
 * placed from its last printing back, each at first seen + its span; `keepPrintOrder` then keeps
 * the rows printed between them in print order.
 *
 * Source of the format: kubectl's event printer (`LAST SEEN` = now - lastTimestamp, with
 * `(xN over D)` where D = lastTimestamp - firstTimestamp and N > 1), printed per watch update.
 * Pure.
 */
import type { PendingAgeRecord } from "./kube-age";

const COMBINED = "(combined from similar events)";

/** The Event a row prints: namespace, object, reason and whether it is the aggregate. */
function seriesKey(p: PendingAgeRecord): string | null {
  const ev = p.record.k8sEvent;
  if (!ev.objectName || !ev.reason) return null;
  const combined = p.record.message.includes(COMBINED);
  return `${ev.namespace ?? ""}\u0000${ev.objectKind ?? ""}\u0000${ev.objectName}\u0000${ev.reason}\u0000${combined ? 1 : 0}`;
}

/** Each row's span (`over D`, ms; 0 for a count of 1), read before any time is moved. */
export function watchSpans(pending: readonly PendingAgeRecord[]): Map<PendingAgeRecord, number> {
  const out = new Map<PendingAgeRecord, number>();
  for (const p of pending) {
    const ev = p.record.k8sEvent;
    out.set(p, ev.count > 1 && ev.firstMs !== null && ev.lastMs !== null ? Math.max(0, ev.lastMs - ev.firstMs) : 0);
  }
  return out;
}

/**
 * Places the rows of each event printed more than once at first seen + their span (see the module
 * comment); rows of events printed once, and rows without a time, are left as they are.
 */
export function timeWatchSeries(pending: readonly PendingAgeRecord[], spans: ReadonlyMap<PendingAgeRecord, number>): void {
  const series = new Map<string, PendingAgeRecord[]>();
  for (const p of pending) {
    if (p.record.epochMs === null || p.record.epochMs === undefined) continue;
    const k = seriesKey(p);
    if (k === null) continue;
    const list = series.get(k);
    if (list) list.push(p);
    else series.set(k, [p]);
  }
  for (const rows of series.values()) {
    if (rows.length < 2) continue;
    const span = (p: PendingAgeRecord) => spans.get(p) ?? 0;
    const last = rows[rows.length - 1];
    const firstSeen = (last.record.epochMs as number) - span(last);
    for (const p of rows) {
      const t = firstSeen + span(p);
      p.record.epochMs = t;
      p.record.k8sEvent.lastMs = t;
      p.record.k8sEvent.firstMs = firstSeen;
    }
  }
}
