/**
 * The attempt model the sandbox detectors share: attempts (one failed RunPodSandbox, its lines
 * grouped) and their evidence (docs/definitions.md "Attempt").
 *
 * Attempts:
 *  - attempt lines are `sandbox.create.failed` events (kubelet, runtime and Kubernetes
 *    event lines); failed stops, CNI DEL failures and "network not ready" reports are
 *    other kinds and never count. The runtime's own report of a failed CNI `ADD` (CRI-O's
 *    `Error adding pod … to CNI network`, `cni.add.failed` in the runtime lane) is its line of
 *    the failure and counts as one. A boot with no such line but CNI plugin logs of failed
 *    `ADD`s (`cni.add.failed`: a plugin's own log file, all a reviewer has) takes those:
 *    each failed `ADD` is one sandbox's network set-up failing;
 *  - node-log lines are grouped: by sandbox id where a line names one; a line with a pod
 *    but no id joins an attempt of that pod; a line with neither joins an attempt that has
 *    a line of the same component and the same error text, or of any component and the same
 *    error class (the kubelet's and the runtime's lines of one failure), or whose pod the line
 *    names by its name alone (`for pod "<name>"`, as the dockershim-era kubelet printed it, or
 *    by its start where the line was cut inside the name); otherwise a line starts an attempt.
 *    Before that, a line with neither that answers a request its component logged
 *    (aws-vpc-cni's ipamd) takes the request's pod and sandbox (attempt-requests.ts). A line
 *    without a sandbox id joins only where `SAME_ATTEMPT` allows: the attempt's lines, this
 *    one included, span at most `joinS` (no chain of lines each close to the last), and no
 *    line of the attempt comes from the same writer (the kubelet's remote_runtime,
 *    kuberuntime_sandbox, kuberuntime_manager and pod_workers each log one failure once: a
 *    second `RunPodSandbox from runtime service failed` is the next failure). An attempt's
 *    time is its earliest line;
 *  - a Kubernetes event (count N between first and last seen, spread evenly) adds an
 *    attempt for each occurrence that no node log covers: an occurrence is covered
 *    when it lies within `eventSlackS` of the time span of a kubelet or runtime log
 *    file of this boot and the node logs report failures of its pod at all. Covered
 *    events join the nearest node attempt of their pod as evidence. An event printed more than once (a watch capture, two describes) counts once, by
 *    its latest printing (`k8s-event-identity.ts`).
 *
 * The sandbox failure windows these attempts form are failure-windows.ts.
 *
 * Pure: no I/O, no clock reads. Times are UTC ms.
 */
import type { BootEvent } from "./types";
import { splitStructured } from "../normalise/go-text";
import { answersToRequests } from "./attempt-requests";
import { latestPrintings } from "./k8s-event-identity";
import { mayJoin } from "./same-attempt";

/** How failure lines are grouped into attempts (the parameters every attempt-reading detector carries). */
export interface AttemptParams {
  /** lines of one failure lie within this of each other, s */
  joinS: number;
  /** tolerance when matching Kubernetes events (whole-second stamps on the control plane's clock) to node logs, s */
  eventSlackS: number;
}

/**
 * The defaults the attempt-reading detectors share (docs/definitions.md): lines of one failure
 * within 1 s, Kubernetes events matched within 2 s, a window closed by 60 s without attempts.
 */
export const attemptDefaults: AttemptParams & { quietS: number } = { quietS: 60, joinS: 1, eventSlackS: 2 };

/** One failed RunPodSandbox. */
export interface Attempt {
  /** earliest failure line, UTC ms */
  time: number;
  lastTs: number;
  sandboxId: string | null;
  pod: string | null;
  lines: BootEvent[];
  /** Kubernetes events merged into this attempt as evidence */
  eventLines: BootEvent[];
  /** added from a Kubernetes event's count (no node log covers it) */
  fromEvent: boolean;
  errorClass: string | null;
}

/** Ids of every line of the attempts (their node-log lines and merged Kubernetes events), ascending, each once: a finding's evidence. */
export function attemptEvidence(attempts: readonly Attempt[]): number[] {
  let total = 0;
  for (const a of attempts) total += a.lines.length + a.eventLines.length;
  // a typed array sorts numbers without a comparator call per pair
  const sorted = new Float64Array(total);
  let k = 0;
  for (const a of attempts) {
    for (const l of a.lines) sorted[k++] = l.id;
    for (const l of a.eventLines) sorted[k++] = l.id;
  }
  sorted.sort();
  const ids: number[] = [];
  for (let i = 0; i < total; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) ids.push(sorted[i]);
  return ids;
}

const isK8sEvent = (e: BootEvent): boolean => e.lane === "events" || e.k8s != null;

/** The error text two lines must share to be one failure ("same error text"). */
function errorText(e: BootEvent): string {
  const f = e.fields ?? {};
  const own = f.err ?? f.error;
  if (own) return own;
  const split = splitStructured(e.message ?? "");
  return split.fields.err ?? split.fields.error ?? e.errorClass ?? e.message ?? "";
}

/**
 * Two lines state the same cause (the same error class, not `truncated`): the kubelet's line and the
 * runtime's line of one failure when neither names the pod or the sandbox.
 */
function sameCause(a: BootEvent, b: BootEvent): boolean {
  return a.errorClass !== null && a.errorClass === b.errorClass && a.errorClass !== "truncated";
}

/**
 * The line names the pod (`namespace/name`) by its name alone: `"<name>"` or `"<name>_<namespace>…`,
 * or by the start of it where the line was cut inside the quoted name (`createPodSandbox for pod
 * "pharos-pro`: at least `CUT_NAME_MIN` characters before the line's end).
 */
function namesPod(e: BootEvent, pod: string | null): boolean {
  if (!pod) return false;
  const name = pod.slice(pod.indexOf("/") + 1);
  const m = e.message ?? "";
  if (m.includes(`"${name}"`) || m.includes(`"${name}_`) || m.includes(`\\"${name}\\"`)) return true;
  const cut = CUT_NAME_RE.exec(m);
  return cut !== null && name.startsWith(cut[1]);
}

/** Fewest characters of a cut pod name that still tell it (a 3-letter prefix is shared by too many pods). */
const CUT_NAME_MIN = 4;
/** A line that ends inside a quoted pod name: `pod "<start of name>` (or `\"`), nothing after. */
const CUT_NAME_RE = new RegExp(`\\bpod \\\\?"([A-Za-z0-9][A-Za-z0-9.-]{${CUT_NAME_MIN - 1},})$`);

function distance(a: Attempt, ts: number): number {
  return ts < a.time ? a.time - ts : ts > a.lastTs ? ts - a.lastTs : 0;
}

/**
 * The distinct pods of some attempts (`namespace/name`): a bare name (namespace unknown) counts
 * only when no namespaced key of the same name is among them.
 */
export function distinctPods(attempts: readonly Attempt[]): Set<string> {
  const full = new Set<string>();
  const bare = new Set<string>();
  for (const a of attempts) if (a.pod) (a.pod.includes("/") ? full : bare).add(a.pod);
  const names = new Set([...full].map(podName));
  for (const b of bare) if (!names.has(b)) full.add(b);
  return full;
}

/** The name part of a pod key (`namespace/name`, or a bare name when the namespace is unknown). */
function podName(pod: string): string {
  return pod.slice(pod.indexOf("/") + 1);
}

/** Two pod keys name the same pod: equal, or equal names where one of them has no namespace. */
function samePod(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  return (!a.includes("/") || !b.includes("/")) && podName(a) === podName(b);
}

function addLine(a: Attempt, e: BootEvent): void {
  a.lines.push(e);
  a.time = Math.min(a.time, e.ts!);
  a.lastTs = Math.max(a.lastTs, e.ts!);
  // the fullest name of the pod any of its lines gives
  if (e.pod && (!a.pod || (!a.pod.includes("/") && e.pod.includes("/")))) a.pod = e.pod;
  if (!a.sandboxId && e.sandboxId) a.sandboxId = e.sandboxId;
}

function newAttempt(e: BootEvent): Attempt {
  return { time: e.ts!, lastTs: e.ts!, sandboxId: e.sandboxId, pod: e.pod, lines: [e], eventLines: [], fromEvent: false, errorClass: null };
}

/**
 * Class of an attempt: the first fixed slug among its lines by time, else the `sig:` class most of
 * its lines state (ties: the earliest; a cause stated in full beats a line cut before it), else
 * `truncated`.
 */
function attemptClass(lines: BootEvent[]): string | null {
  const byTime = (a: BootEvent, b: BootEvent) => (a.ts ?? 0) - (b.ts ?? 0) || a.fileId - b.fileId || a.line - b.line;
  // most attempts' lines were added in this order already: sorted (stable) they stay as they are
  let inOrder = true;
  for (let i = 1; i < lines.length && inOrder; i++) inOrder = byTime(lines[i - 1], lines[i]) <= 0;
  const sorted = inOrder ? lines : [...lines].sort(byTime);
  const cls = (l: BootEvent) => l.errorClass;
  const slug = sorted.find((l) => cls(l) && !cls(l)!.startsWith("sig:") && cls(l) !== "truncated");
  if (slug) return slug.errorClass;
  const sigs = new Map<string, number>();
  for (const l of sorted) if (cls(l)?.startsWith("sig:")) sigs.set(cls(l)!, (sigs.get(cls(l)!) ?? 0) + 1);
  let best: string | null = null;
  for (const [c, n] of sigs) if (best === null || n > sigs.get(best)!) best = c;
  return best ?? sorted.find(cls)?.errorClass ?? null;
}

/**
 * Group failure lines into attempts (docs/definitions.md "Attempt"), Kubernetes events included.
 * Exported for other detectors (retry-storm counts the same attempts).
 * @param events the boot's events (any kinds; only `sandbox.create.failed` are read)
 * @returns attempts sorted by time, all of them (T+0 not applied)
 */
export function collectAttempts(events: BootEvent[], p: AttemptParams = attemptDefaults): Attempt[] {
  const joinMs = p.joinS * 1000;
  const slackMs = p.eventSlackS * 1000;
  // the runtime reporting its CNI ADD failing (CRI-O's `Error adding pod … to CNI network`) is its line of the failure
  let lines = events.filter((e) => e.ts !== null && (e.kind === "sandbox.create.failed" || (e.kind === "cni.add.failed" && e.lane === "runtime")));
  if (lines.length === 0) lines = events.filter((e) => e.kind === "cni.add.failed" && e.ts !== null);
  lines.sort((a, b) => a.ts! - b.ts! || a.fileId - b.fileId || a.line - b.line);
  lines = answersToRequests(lines, events);
  const nodeLines = lines.filter((e) => !isK8sEvent(e));
  // an event printed again (a watch, a second describe) with its count so far counts once
  const eventLines = latestPrintings(lines.filter(isK8sEvent));

  // 1. by sandbox id
  const attempts: Attempt[] = [];
  const byId = new Map<string, Attempt>();
  for (const e of nodeLines) {
    if (!e.sandboxId) continue;
    const a = byId.get(e.sandboxId);
    if (a) addLine(a, e);
    else {
      const n = newAttempt(e);
      byId.set(e.sandboxId, n);
      attempts.push(n);
    }
  }
  // attempts by pod, in creation order, so that a line finds its pod's attempts without a scan of
  // every attempt
  // keyed by the pod's name: a line that names the pod without its namespace (`for pod "<name>"`,
  // an event table that shows none) is the same pod as one that names both
  const byPod = new Map<string, Attempt[]>();
  const indexPod = (a: Attempt) => {
    if (!a.pod) return;
    const key = podName(a.pod);
    const list = byPod.get(key);
    if (list) list.push(a);
    else byPod.set(key, [a]);
  };
  for (const a of attempts) indexPod(a);
  const order = new Map<Attempt, number>();
  const create = (e: BootEvent) => {
    const n = newAttempt(e);
    order.set(n, attempts.length);
    attempts.push(n);
    indexPod(n);
    return n;
  };
  attempts.forEach((a, i) => order.set(a, i));

  // 2. same pod within joinS
  for (const e of nodeLines) {
    if (e.sandboxId || !e.pod) continue;
    let best: Attempt | null = null;
    for (const a of byPod.get(podName(e.pod)) ?? []) {
      if (!samePod(a.pod, e.pod)) continue;
      const d = distance(a, e.ts!);
      if (mayJoin(a, e, joinMs) && (!best || d < distance(best, e.ts!))) best = a;
    }
    if (best) addLine(best, e);
    else create(e);
  }
  // 3. neither pod nor sandbox: same component and error text within joinS; candidates
  // from the attempts sorted by start (an attempt within joinS starts before ts + joinS
  // and after ts - joinS - the longest attempt)
  const anonymous = nodeLines.filter((e) => !e.sandboxId && !e.pod);
  if (anonymous.length) {
    const sorted = [...attempts].sort((a, b) => a.time - b.time);
    let longest = 0;
    for (const a of attempts) longest = Math.max(longest, a.lastTs - a.time);
    for (const e of anonymous) {
      const ts = e.ts!;
      const text = errorText(e);
      let best: Attempt | null = null;
      // first attempt starting after ts + joinMs
      let hi = sorted.length;
      let lo = 0;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid].time <= ts + joinMs) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo - 1; i >= 0 && sorted[i].time >= ts - joinMs - longest; i--) {
        const a = sorted[i];
        const d = distance(a, ts);
        if (d > joinMs || !mayJoin(a, e, joinMs)) continue;
        if (!namesPod(e, a.pod) && !a.lines.some((l) => (l.component === e.component && errorText(l) === text) || sameCause(l, e))) continue;
        if (!best || d < distance(best, ts) || (d === distance(best, ts) && order.get(a)! < order.get(best)!)) best = a;
      }
      if (best) {
        addLine(best, e);
        longest = Math.max(longest, best.lastTs - best.time);
      } else {
        const n = create(e);
        // keep `sorted` ordered by start
        let at = sorted.length;
        while (at > 0 && sorted[at - 1].time > n.time) at--;
        sorted.splice(at, 0, n);
      }
    }
  }

  // 4. Kubernetes events: occurrences no node log covers add attempts
  const spans = nodeLogSpans(events);
  const covered = (t: number) => spans.some(([a, b]) => t >= a - slackMs && t <= b + slackMs);
  for (const ev of eventLines) {
    // a node log covers a pod's occurrences only where it reports failures of that pod at all (an
    // excerpt of the kubelet's log around another pod's failures says nothing of this one)
    const podSeen = ev.pod === null || (byPod.get(podName(ev.pod)) ?? []).some((a) => !a.fromEvent && samePod(a.pod, ev.pod));
    const count = Math.max(1, ev.k8s?.count ?? 1);
    const last = ev.k8s?.lastMs ?? ev.ts!;
    const first = Math.min(ev.k8s?.firstMs ?? last, last);
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(count === 1 ? last : Math.floor(first + ((last - first) * i) / (count - 1)));
    let attached = false;
    // the same for every occurrence (the attempts it reads are the node logs', which this loop does not change): looked up once
    let match: Attempt | null | undefined;
    for (const t of times) {
      if (podSeen && covered(t)) {
        if (!attached) {
          if (match === undefined)
            match = nearestOfPod(ev.pod ? (byPod.get(podName(ev.pod)) ?? []) : attempts, ev.pod, first - slackMs - joinMs, last + slackMs + joinMs, last);
          if (match) {
            match.eventLines.push(ev);
            attached = true;
          }
        }
        continue;
      }
      attempts.push({
        time: t,
        lastTs: t,
        sandboxId: ev.sandboxId,
        pod: ev.pod,
        lines: [ev],
        eventLines: [],
        fromEvent: true,
        errorClass: null,
      });
      attached = true;
    }
  }

  for (const a of attempts) a.errorClass = attemptClass(a.lines.length ? a.lines : a.eventLines);
  attempts.sort((a, b) => a.time - b.time || firstKey(a) - firstKey(b));
  return attempts;
}

function firstKey(a: Attempt): number {
  const l = a.lines[0];
  return l ? l.fileId * 1e9 + l.line : 0;
}

function nearestOfPod(attempts: Attempt[], pod: string | null, from: number, to: number, at: number): Attempt | null {
  let best: Attempt | null = null;
  for (const a of attempts) {
    if (a.fromEvent || (pod && !samePod(a.pod, pod)) || a.time > to || a.lastTs < from) continue;
    if (!best || Math.abs(a.time - at) < Math.abs(best.time - at)) best = a;
  }
  return best;
}

/** Time spans [first, last] (UTC ms) of the node's kubelet and runtime log files among the events. */
function nodeLogSpans(events: BootEvent[]): Array<[number, number]> {
  const byFile = new Map<number, { node: boolean; min: number; max: number }>();
  for (const e of events) {
    if (e.ts === null || isK8sEvent(e)) continue;
    let f = byFile.get(e.fileId);
    if (!f) {
      f = { node: false, min: e.ts, max: e.ts };
      byFile.set(e.fileId, f);
    }
    if (e.lane === "kubelet" || e.lane === "runtime") f.node = true;
    f.min = Math.min(f.min, e.ts);
    f.max = Math.max(f.max, e.ts);
  }
  return [...byFile.values()].filter((f) => f.node).map((f) => [f.min, f.max]);
}
