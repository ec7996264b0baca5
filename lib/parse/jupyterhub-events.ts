/**
 * JupyterHub's spawn page and hub log, as users paste them when a notebook server does not start.
 * Upstream: jupyterhub/kubespawner `spawner.py` (`progress()`: each Kubernetes event of the user's
 * pod as `"%s [%s] %s" % (lastTimestamp, type, message)`; newer releases print
 * `f"{lastTimestamp or eventTime} [{type}] {message}"`), jupyterhub `handlers/pages.py` and
 * `spawner.py` (the progress texts of its own), tornado `log.LogFormatter` (the hub's log lines).
 *
 *     Server requested
 *     2022-10-03T18:25:40Z [Normal] Successfully assigned jhub/jupyter-ana to node-3
 *     2022-10-03T18:25:49Z [Warning] Failed to create pod sandbox: rpc error: code = Unknown …
 *     2022-10-03 18:25:49+00:00 [Warning] Failed to create pod sandbox: …   (an older kubespawner: Python's str of the time)
 *     None [Normal] Created container notebook                            (an event without either time)
 *     Spawn failed: pod jhub/jupyter-ana did not start in 300 seconds!
 *     [W 2022-10-03 18:30:49.123 JupyterHub user:881] ana's server failed to start in 300 seconds, giving up.
 *     [I 221003 18:25:40 spawner:1830] Attempting to create pod jupyter-ana   (tornado's default date format)
 *
 * Shapes:
 * - a progress event: the event's last time (RFC 3339 with `Z` or an offset, or Python's
 *   `YYYY-MM-DD HH:MM:SS[.ffffff]+00:00`; `None` when the event has neither time), its type in
 *   brackets, its message. One record per line, component `k8s-events`, as an event of the reason
 *   its message belongs to (k8s-message.ts), count 1 (the page shows one line per event update).
 *   The events are all about the spawn's pod: once the scheduler's `Successfully assigned
 *   <ns>/<pod> to <node>` is read, it and the events after it carry that pod and node (until the
 *   next `Server requested`);
 * - the hub's progress texts (`Server requested`, `Spawning server...`, `Server ready at …`,
 *   `Spawn failed: …`): records without a time, component `jupyterhub`;
 * - a hub log line: `[<level letter> <date> <time>[.ms] [<app>] <module>:<line>] message`, the date
 *   `YYYY-MM-DD` or `YYMMDD`, no zone (the hub's clock, usually UTC in its container); component
 *   `jupyterhub`, level D/I/W/E/C.
 * A page wraps a long event message at blanks: a line that is none of these continues the record
 * before it, joined after one blank. Messages copied from an escaped page are read with their
 * character references decoded.
 */
import { decodeEntities } from "./helpers/html-entities";
import { ASSIGNED_RE } from "./helpers/kubectl-paste";
import { parseIsoStamp } from "./helpers/time-util";
import { parseK8sMessage } from "./k8s-message";
import { RECORD_START } from "./paste";
import type { FormatSpec, K8sEventInfo, LineParser, LineResult, ParsedRecord, Severity, WallTime } from "./types";

/** `<stamp|None> [Normal|Warning] message` */
const EVENT_RE = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?|None) \[(Normal|Warning)\] (\S.*)$/;
/** tornado LogFormatter: `[W 2022-10-03 18:30:49.123 JupyterHub user:881] msg` or `[I 221003 18:25:40 spawner:1830] msg` */
const HUB_RE = /^\[([DIWEC]) (\d{4}-\d{2}-\d{2}|\d{6}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}))?(?: [A-Za-z][\w.-]*)? [\w.-]+:\d+\] ?(.*)$/;
/** JupyterHub's own progress texts on the spawn page */
const PROGRESS_RE = /^(?:Server requested|Spawning server\.\.\.|Server ready at \S+|Spawn failed: .+)$/;

const HUB_SEVERITY: Readonly<Record<string, Severity>> = { D: 0, I: 1, W: 2, E: 3, C: 4 };

/** Reasons of common event texts the kubelet and the scheduler print (the page shows no reason). */
const REASONS: ReadonlyArray<[RegExp, string]> = [
  [/^Successfully assigned \S+ to \S+/, "Scheduled"],
  [/^\d+\/\d+ nodes are available\b/, "FailedScheduling"],
  [/^Pulling image\b/, "Pulling"],
  [/^(?:Successfully pulled|Container image "[^"]*" already present)/, "Pulled"],
  [/^Created container\b/, "Created"],
  [/^Started container\b/, "Started"],
  [/^Back-off restarting failed container\b/, "BackOff"],
];

function eventReason(message: string): string {
  const m = parseK8sMessage(message);
  if (m) return m.reason;
  for (const [re, reason] of REASONS) if (re.test(message)) return reason;
  return "Unknown";
}

function utcMs(w: WallTime): number | null {
  if (w.offsetMin === null || w.year === null) return null;
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.ms) - w.offsetMin * 60_000;
}

/** The progress event a line holds; null when it is not one. */
function eventRecord(line: string): ParsedRecord | null {
  const m = EVENT_RE.exec(line);
  if (!m) return null;
  const time = m[1] === "None" ? null : parseIsoStamp(m[1]);
  if (m[1] !== "None" && time === null) return null;
  const type = m[2];
  const message = decodeEntities(m[3].trimEnd());
  const ms = time ? utcMs(time) : null;
  const k8sEvent: K8sEventInfo = {
    reason: eventReason(message),
    type,
    count: 1,
    namespace: null,
    objectKind: null,
    objectName: null,
    node: null,
    firstMs: null,
    lastMs: ms,
  };
  return { time, component: "k8s-events", severity: type === "Warning" ? 2 : 1, message, k8sEvent };
}

/** The hub log record a line holds; null when it is not one. */
function hubRecord(line: string): ParsedRecord | null {
  const m = HUB_RE.exec(line);
  if (!m) return null;
  const date = m[2];
  const long = date.length === 10;
  const year = long ? Number(date.slice(0, 4)) : 2000 + Number(date.slice(0, 2));
  const month = Number(long ? date.slice(5, 7) : date.slice(2, 4));
  const day = Number(long ? date.slice(8, 10) : date.slice(4, 6));
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const time: WallTime = {
    year,
    month,
    day,
    hour: Number(m[3]),
    minute: Number(m[4]),
    second: Number(m[5]),
    ms: m[6] ? Number(m[6]) : 0,
    offsetMin: null,
    precision: m[6] ? "ms" : "s",
  };
  return { time, component: "jupyterhub", severity: HUB_SEVERITY[m[1]], message: decodeEntities(m[7]) };
}

function placeOnPod(rec: ParsedRecord, ev: K8sEventInfo, pod: SpawnPod): void {
  ev.objectKind = "Pod";
  ev.objectName = pod.name;
  ev.namespace = pod.namespace;
  ev.node = pod.node;
  rec.fields = { ...rec.fields, object: `Pod/${pod.name}`, pod: pod.namespace ? `${pod.namespace}/${pod.name}` : pod.name, node: pod.node };
}

/** A line of the format: a record, or null when it is neither of the three shapes. */
export function parseJupyterHubLine(line: string): ParsedRecord | null {
  const c0 = line.charCodeAt(0);
  if (c0 === 91) return hubRecord(line);
  if ((c0 >= 48 && c0 <= 57) || c0 === 78) return eventRecord(line);
  if (PROGRESS_RE.test(line)) return { time: null, component: "jupyterhub", severity: line.startsWith("Spawn failed") ? 3 : 1, message: line };
  return null;
}

/** The pod a spawn's events are about: the scheduler's `Successfully assigned <ns>/<pod> to <node>`. */
interface SpawnPod {
  namespace: string | null;
  name: string;
  node: string;
}

class JupyterHubParser implements LineParser {
  readonly settled = true;
  private seen = false;
  private pod: SpawnPod | null = null;
  parseLine(line: string): LineResult {
    const rec = parseJupyterHubLine(line.trimEnd());
    if (rec) {
      this.seen = true;
      const ev = rec.k8sEvent;
      if (ev) {
        const a = ASSIGNED_RE.exec(rec.message);
        if (a) this.pod = { namespace: a[1] ?? null, name: a[2], node: a[3] };
        if (this.pod) placeOnPod(rec, ev, this.pod);
      } else if (rec.message === "Server requested") this.pod = null; // a new spawn: its pod is not known yet
      return { type: "record", record: rec };
    }
    const text = line.trim();
    // a log record's start (a time, a level) is no piece of a wrapped message
    return this.seen && text !== "" && !RECORD_START.test(line) ? { type: "continuation", text: decodeEntities(text), glue: " " } : null;
  }
}

/** Format spec: JupyterHub spawn-page progress events and hub log lines. */
export const jupyterHubEventsSpec: FormatSpec = {
  name: "jupyterhub-events",
  kind: "k8s-events",
  // an event or hub log line among them (the progress texts alone say too little), and the first line or half of them of the shapes
  sniff: (_path, lines) => {
    let hits = 0;
    let shaped = 0;
    for (const l of lines) {
      const r = parseJupyterHubLine(l);
      if (r === null) continue;
      hits++;
      if (r.component === "k8s-events" || r.time !== null) shaped++;
    }
    return shaped > 0 && (parseJupyterHubLine(lines[0]) !== null || hits * 2 >= lines.length);
  },
  createParser: () => new JupyterHubParser(),
  samples: [
    {
      line: "2022-10-03T18:25:49Z [Warning] Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox &#34;ed07&#34;: stat /var/lib/calico/nodename: no such file or directory",
      expect: {
        time: { year: 2022, month: 10, day: 3, hour: 18, minute: 25, second: 49, ms: 0, offsetMin: 0, precision: "s" },
        component: "k8s-events",
        severity: 2,
        message:
          'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "ed07": stat /var/lib/calico/nodename: no such file or directory',
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 1,
          namespace: null,
          objectKind: null,
          objectName: null,
          node: null,
          firstMs: null,
          lastMs: Date.UTC(2022, 9, 3, 18, 25, 49),
        },
      },
    },
    {
      line: "2019-06-12 09:14:02+00:00 [Normal] Successfully assigned jhub/jupyter-ana to gke-pool-1-a",
      expect: {
        time: { year: 2019, month: 6, day: 12, hour: 9, minute: 14, second: 2, ms: 0, offsetMin: 0, precision: "s" },
        severity: 1,
        k8sEvent: {
          reason: "Scheduled",
          type: "Normal",
          count: 1,
          namespace: "jhub",
          objectKind: "Pod",
          objectName: "jupyter-ana",
          node: "gke-pool-1-a",
          firstMs: null,
          lastMs: Date.UTC(2019, 5, 12, 9, 14, 2),
        },
      },
    },
    {
      context: ["Server requested", "2019-06-12T09:14:02Z [Normal] Successfully assigned jhub/jupyter-ana to gke-pool-1-a"],
      line: "2019-06-12T09:14:05Z [Warning] Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
      expect: {
        fields: { object: "Pod/jupyter-ana", pod: "jhub/jupyter-ana", node: "gke-pool-1-a" },
        k8sEvent: {
          reason: "FailedCreatePodSandBox",
          type: "Warning",
          count: 1,
          namespace: "jhub",
          objectKind: "Pod",
          objectName: "jupyter-ana",
          node: "gke-pool-1-a",
          firstMs: null,
          lastMs: Date.UTC(2019, 5, 12, 9, 14, 5),
        },
      },
    },
    {
      line: "None [Normal] Created container notebook",
      expect: { time: null, message: "Created container notebook" },
    },
    {
      line: "[W 2022-10-03 18:30:49.123 JupyterHub user:881] ana's server failed to start in 300 seconds, giving up.",
      expect: {
        time: { year: 2022, month: 10, day: 3, hour: 18, minute: 30, second: 49, ms: 123, offsetMin: null, precision: "ms" },
        component: "jupyterhub",
        severity: 2,
        message: "ana's server failed to start in 300 seconds, giving up.",
      },
    },
    {
      line: "[I 221003 18:25:40 spawner:1830] Attempting to create pod jupyter-ana, with timeout 3",
      expect: {
        time: { year: 2022, month: 10, day: 3, hour: 18, minute: 25, second: 40, ms: 0, offsetMin: null, precision: "s" },
        severity: 1,
        message: "Attempting to create pod jupyter-ana, with timeout 3",
      },
    },
    {
      context: ["2022-10-03T18:25:49Z [Warning] Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = context deadline exceeded"],
      line: "Spawn failed: pod jhub/jupyter-ana did not start in 300 seconds!",
      expect: { time: null, component: "jupyterhub", severity: 3 },
    },
  ],
  notMine: [
    "2022-10-03T18:25:49.123456Z stdout F Failed to create pod sandbox",
    "I1003 18:25:49.123456    1234 kubelet.go:2000] Failed to create pod sandbox",
    "2022-10-03T18:25:49Z\tWarning\tFailed to create pod sandbox",
    "[2022-10-03 18:25:49] [Warning] Failed",
    "  Warning  FailedCreatePodSandBox  2m  kubelet  Failed to create pod sandbox: x",
  ],
};
