/**
 * One Kubernetes event printed more than once: a `kubectl get events -w` capture prints an event
 * again each time it is updated (its count grows: `0s (x2 over 3s)`, then `0s (x3 over 6s)`), a
 * report may paste two `kubectl describe` runs minutes apart, and a watch stream of `-o json`
 * objects repeats the event with a higher `count`. Each printing carries the event's whole count
 * so far, so counting attempts from every printing counts the early occurrences again.
 *
 * Two printings are taken for one event when they name the same pod and reason, the one with the
 * lower count (or the same count) lies inside the other's span from first to last seen (within the
 * uncertainty of their ages and one second), and their messages are the same, or both are the
 * kubelet's aggregate (`(combined from similar events): …`, whose message is the latest similar
 * one's). The printing with the highest count (the latest) stands for the event; single
 * occurrences with different messages (one sandbox id each) stay apart.
 *
 * Pure: no I/O, no clock reads.
 */
import type { BootEvent } from "./types";

const COMBINED = "(combined from similar events)";
const SLACK_MS = 1000;

function span(e: BootEvent): [number, number] | null {
  const last = e.k8s?.lastMs ?? e.ts;
  if (last === null || last === undefined) return null;
  const first = Math.min(e.k8s?.firstMs ?? last, last);
  return [first, last];
}

/** Does printing `a` (count at most `b`'s) repeat the event `b` printed later or earlier? */
function repeats(a: BootEvent, b: BootEvent): boolean {
  const ca = a.k8s?.count ?? 1;
  const cb = b.k8s?.count ?? 1;
  if (ca > cb) return false;
  const sa = span(a);
  const sb = span(b);
  if (!sa || !sb) return false;
  const tolFirst = Math.max(a.k8s?.firstUncertaintyMs ?? 0, b.k8s?.firstUncertaintyMs ?? 0) + SLACK_MS;
  const tolLast = Math.max(a.k8s?.lastUncertaintyMs ?? 0, b.k8s?.lastUncertaintyMs ?? 0) + SLACK_MS;
  if (sa[0] < sb[0] - tolFirst || sa[1] > sb[1] + tolLast) return false;
  // the same count: only the very same printing (a paste holding the listing twice)
  if (ca === cb && (Math.abs(sa[0] - sb[0]) > tolFirst || Math.abs(sa[1] - sb[1]) > tolLast)) return false;
  if (a.message === b.message) return true;
  return a.message.startsWith(COMBINED) && b.message.startsWith(COMBINED);
}

/**
 * `events` (Kubernetes event printings) without the printings another one repeats (see the module
 * comment); the rest keep their order.
 */
export function latestPrintings(events: readonly BootEvent[]): BootEvent[] {
  if (events.length < 2) return [...events];
  const groups = new Map<string, number[]>();
  events.forEach((e, i) => {
    const key = `${e.pod ?? ""}\t${e.k8s?.reason ?? ""}`;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  const dropped = new Set<number>();
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    // highest count first: each later one is compared with those that may stand for it
    const byCount = [...g].sort((x, y) => (events[y].k8s?.count ?? 1) - (events[x].k8s?.count ?? 1) || y - x);
    const kept: number[] = [];
    for (const i of byCount) {
      if (kept.some((k) => repeats(events[i], events[k]))) dropped.add(i);
      else kept.push(i);
    }
  }
  return dropped.size === 0 ? [...events] : events.filter((_, i) => !dropped.has(i));
}
