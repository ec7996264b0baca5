/**
 * The answer rule of the attempt model (docs/definitions.md "Attempt"): a failure line that names
 * neither pod nor sandbox, logged by a component that logs each request before its answer, takes
 * the pod and sandbox of the request it answers. Used by `collectAttempts` (attempts.ts).
 *
 * Pure: no I/O, no clock reads. Times are UTC ms.
 */
import type { BootEvent } from "./types";

const isK8sEvent = (e: BootEvent): boolean => e.lane === "events" || e.k8s != null;

/** Two pod keys name the same pod: equal, or equal names where one of them has no namespace (as attempts.ts). */
function samePod(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  const name = (p: string) => p.slice(p.indexOf("/") + 1);
  return (!a.includes("/") || !b.includes("/")) && name(a) === name(b);
}

/**
 * How long a logged request may wait for its answer, ms: the kubelet's CRI calls time out after
 * `--runtime-request-timeout` (default 2 min), so an answer later than that is to another request.
 */
const REQUEST_ANSWER_MS = 120_000;

/**
 * A component that logs each request it serves and then its answer (aws-vpc-cni's ipamd:
 * `Received AddNetwork for NS …, Pod …, Container …`, then `Send AddNetworkReply: … err: …`; its
 * plugin: `Received CNI add request: ContainerID(…) …`, then its errors): a failure line that names
 * neither pod nor sandbox is the answer to the latest request (`sandbox.create.start`) of the same
 * file and component before it that no other failure line answered, within `REQUEST_ANSWER_MS`,
 * and takes that request's pod and sandbox (a copy of the line; ids unchanged). A failure line that
 * names a pod or a sandbox answers the latest such request of its pod or sandbox. So two pods
 * failing within the same second with the same cause stay two attempts.
 * @param lines failure lines sorted by time
 * @returns the lines, sorted as given, answers completed
 */
export function answersToRequests(lines: BootEvent[], events: BootEvent[]): BootEvent[] {
  const starts = events.filter((e) => e.kind === "sandbox.create.start" && e.ts !== null && (e.pod || e.sandboxId) && !isK8sEvent(e));
  if (starts.length === 0) return lines;
  const key = (e: BootEvent) => `${e.fileId}\t${e.component}`;
  // a line of a file and component that logged no request answers none, and changes nothing
  const requested = new Set(starts.map(key));
  const answering = lines.filter((e) => requested.has(key(e)));
  // only a line naming neither pod nor sandbox takes a request's (one that names either only uses its request up)
  if (!answering.some((e) => !(e.pod || e.sandboxId))) return lines;
  const open = new Map<string, BootEvent[]>();
  const merged = [...starts.map((e) => ({ e, start: true })), ...answering.map((e) => ({ e, start: false }))].sort(
    (a, b) => a.e.fileId - b.e.fileId || a.e.ts! - b.e.ts! || Number(b.start) - Number(a.start) || a.e.line - b.e.line,
  );
  const answer = new Map<BootEvent, BootEvent>();
  for (const { e, start } of merged) {
    const k = key(e);
    let list = open.get(k);
    if (start) {
      if (!list) open.set(k, (list = []));
      list.push(e);
      continue;
    }
    if (!list) continue;
    const named = !!(e.pod || e.sandboxId);
    // a key's requests are one file's, in time order, none later than `e`: past the first one too old, all are
    for (let i = list.length - 1; i >= 0; i--) {
      const r = list[i];
      if (e.ts! - r.ts! > REQUEST_ANSWER_MS) break;
      if (e.ts! < r.ts!) continue;
      if (named && !(e.sandboxId && e.sandboxId === r.sandboxId) && !(e.pod && samePod(e.pod, r.pod))) continue;
      list.splice(i, 1);
      if (!named) answer.set(e, r);
      break;
    }
  }
  if (answer.size === 0) return lines;
  return lines.map((e) => {
    const r = answer.get(e);
    return r ? { ...e, pod: r.pod, sandboxId: r.sandboxId } : e;
  });
}
