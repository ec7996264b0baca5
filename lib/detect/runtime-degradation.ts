/**
 * Detector `runtime-degradation` (docs/detectors.md, pattern 2: every failed attempt leaves
 * cleanup work in containerd waiting on its shim; under enough load containerd stalls or dies,
 * its event stream to the kubelet breaks, and the node looks dead).
 *
 * Input: one node boot's events (BootEvent, UTC ms), sorted by (ts, fileId, line).
 *
 * The storm is the boot's sandbox failures (`collectAttempts` / `computeWindows`, as
 * `sandbox-failure-window`); its first window's start opens the watch, which lasts until
 * `afterStormS` after the last window closed, or to the end of the data while a window is
 * open (a runtime that sank during a storm does not recover when the storm ends). Signals
 * counted inside the watch (a line may count for several):
 *  - `sandbox-stop-timeout`: a failed stop (`sandbox.stop.failed`) that timed out
 *    (class `context-deadline-exceeded`, or "deadline"/"timeout"/"timed out" in the
 *    text); one per sandbox id (lines without an id count each);
 *  - `task-exit-event`: containerd "failed to handle container TaskExit event" / backOff;
 *  - `ttrpc`: shim transport errors ("ttrpc: closed", inactive stream, shim disconnected);
 *  - `event-stream`: the runtime's event stream failing ("Failed to handle event stream",
 *    failed to publish/forward events);
 *  - `runtime-restart`: a `runtime.started` event (containerd/CRI-O started again);
 *  - `pleg-unhealthy`: kubelet "PLEG is not healthy";
 *  - `runtime-down`: kubelet "container runtime is down" / "Container runtime not ready" /
 *    runtime calls failing Unavailable or DeadlineExceeded on the runtime socket;
 *  - `network-not-ready`: kubelet "Container runtime network not ready" (normal before the
 *    CNI is up, so it never triggers a finding by itself).
 * A finding when the health signals other than `network-not-ready` add up to at least
 * `minSignalEvents`. It spans the first to the last health signal; `end` is null unless a
 * sandbox succeeded after the last one (the runtime worked again). Severity: critical with a runtime restart, runtime-down or PLEG
 * report; high otherwise.
 *
 * Pure: no I/O, no clock reads.
 */
import type { BootEvent, BootInfo, Detector, Finding } from "./types";
import { computeWindows } from "./failure-windows";
import { attemptsOf } from "./attempts-cache";
import { fmtT, isoOf, plural, sec } from "./numbers";

/** Thresholds, with units in their names. */
export interface RuntimeDegradationParams extends Record<string, number> {
  /** health signals (network-not-ready aside) that make a finding: one timed-out stop happens on a busy healthy node; three in one storm are a pattern */
  minSignalEvents: number;
  /** quiet time that closes a failure window, s (as sandbox-failure-window) */
  quietS: number;
  /** lines of one failure lie within this of each other, s */
  joinS: number;
  /** tolerance when matching Kubernetes events to node logs, s */
  eventSlackS: number;
  /** how long after the storm's last failure signals still count, s: the runtime sinks behind the storm (in a long storm, until the node reboots), but trouble much later has other causes */
  afterStormS: number;
}

/** Default thresholds (sources on `RuntimeDegradationParams`). */
export const defaults: RuntimeDegradationParams = { minSignalEvents: 3, quietS: 60, joinS: 1, eventSlackS: 2, afterStormS: 600 };

/** Slug stored on findings and used in URLs. */
export const name = "runtime-degradation";
/** Display name. */
export const title = "Container runtime degradation";

/** Signal names, in the order they are reported. */
export const SIGNALS = [
  "sandbox-stop-timeout",
  "task-exit-event",
  "ttrpc",
  "event-stream",
  "runtime-restart",
  "pleg-unhealthy",
  "runtime-down",
  "network-not-ready",
] as const;
/** One health signal. */
export type SignalName = (typeof SIGNALS)[number];

/** Plain-words description quoting the thresholds in force. */
export function describe(p: RuntimeDegradationParams): string {
  return (
    `The container runtime losing health during a sandbox failure storm: timed-out sandbox stops, TaskExit event and ttrpc errors, event stream failures, runtime restarts, ` +
    `kubelet PLEG-not-healthy and runtime-down reports (network-not-ready reports are listed but never enough alone). A finding from ${p.minSignalEvents} signal events from the storm's start until ${p.afterStormS} s after its last failure.`
  );
}

const TEXT: Array<[SignalName, RegExp]> = [
  ["task-exit-event", /TaskExit event|Failed to handle backOff event/i],
  ["ttrpc", /ttrpc|shim disconnected/i],
  ["event-stream", /event stream|failed to (?:send|publish|forward) event/i],
  ["pleg-unhealthy", /PLEG is not healthy/i],
  [
    "runtime-down",
    /container runtime is down|Container runtime not ready|RuntimeReady=false|code = (?:Unavailable|DeadlineExceeded)[^"]*(?:containerd|crio)\.sock|(?:containerd|crio)\.sock: connect/i,
  ],
];

/** Signals one event carries (the sandbox-stop-timeout key is handled by the caller). */
export function signalsOf(e: BootEvent): SignalName[] {
  const out: SignalName[] = [];
  if (e.kind === "runtime.started") out.push("runtime-restart");
  else if (e.kind === "network.not-ready") out.push("network-not-ready");
  else if (e.kind === "runtime.unhealthy" || e.kind === "sandbox.stop.failed" || e.kind === "log") {
    // the text is read only for the kinds whose text tells a signal
    const text = `${e.message ?? ""} ${e.errorClass ?? ""} ${e.fields?.err ?? ""} ${e.fields?.error ?? ""}`;
    if (e.kind === "sandbox.stop.failed" && (e.errorClass === "context-deadline-exceeded" || /deadline|timeout|timed out/i.test(text)))
      out.push("sandbox-stop-timeout");
    for (const [sig, re] of TEXT) if (re.test(text)) out.push(sig);
  }
  return out;
}

/** One signal's tally (times UTC ms). */
export interface SignalTally {
  signal: SignalName;
  count: number;
  first: string;
  last: string;
  firstAfterBootS: number;
  lastAfterBootS: number;
}

/** Run the detector on one boot. */
export function run(boot: BootInfo, events: BootEvent[], params: RuntimeDegradationParams = defaults): Finding[] {
  const p = { ...defaults, ...params };
  const t0 = boot.start;
  const attempts = attemptsOf(events, p).filter((a) => a.time >= t0);
  const windows = computeWindows(attempts, events, p.quietS);
  if (!windows.length) return [];
  const from = windows[0].start;
  const lastWindow = windows[windows.length - 1];
  const until = lastWindow.end === null ? Number.POSITIVE_INFINITY : lastWindow.end + p.afterStormS * 1000;
  const acc = new Map<SignalName, { keys: Set<string>; first: number; last: number; ids: number[] }>();
  for (const e of events) {
    if (e.ts === null || e.ts < from || e.ts > until) continue;
    for (const sig of signalsOf(e)) {
      const key = sig === "sandbox-stop-timeout" && e.sandboxId ? `sb:${e.sandboxId}` : `ev:${e.id}`;
      let a = acc.get(sig);
      if (!a) acc.set(sig, (a = { keys: new Set(), first: e.ts, last: e.ts, ids: [] }));
      a.keys.add(key);
      a.first = Math.min(a.first, e.ts);
      a.last = Math.max(a.last, e.ts);
      a.ids.push(e.id);
    }
  }
  const signals: SignalTally[] = SIGNALS.filter((s) => acc.has(s)).map((s) => {
    const a = acc.get(s)!;
    return { signal: s, count: a.keys.size, first: isoOf(a.first), last: isoOf(a.last), firstAfterBootS: sec(a.first - t0), lastAfterBootS: sec(a.last - t0) };
  });
  const health = signals.filter((s) => s.signal !== "network-not-ready");
  const total = health.reduce((n, s) => n + s.count, 0);
  if (total < p.minSignalEvents) return [];
  const grave = health.some((s) => s.signal === "runtime-restart" || s.signal === "runtime-down" || s.signal === "pleg-unhealthy");
  const start = Math.min(...health.map((s) => Date.parse(s.first)));
  const end = Math.max(...health.map((s) => Date.parse(s.last)));
  const recovered = events.some((e) => e.kind === "sandbox.created" && e.ts !== null && e.ts > end);
  const stormAttempts = windows.reduce((n, w) => n + w.attempts.length, 0);
  const label: Record<SignalName, [string, string]> = {
    "sandbox-stop-timeout": ["timed-out sandbox stop", "timed-out sandbox stops"],
    "task-exit-event": ["TaskExit event error", "TaskExit event errors"],
    ttrpc: ["ttrpc/shim error", "ttrpc/shim errors"],
    "event-stream": ["event stream error", "event stream errors"],
    "runtime-restart": ["runtime restart", "runtime restarts"],
    "pleg-unhealthy": ["PLEG not healthy report", "PLEG not healthy reports"],
    "runtime-down": ["runtime down report", "runtime down reports"],
    "network-not-ready": ["network not ready report", "network not ready reports"],
  };
  const says = (s: SignalTally) => plural(s.count, ...label[s.signal]);

  const list = signals.map((s) => `${says(s)} (${fmtT(s.firstAfterBootS)} to ${fmtT(s.lastAfterBootS)})`).join("; ");
  const explanation =
    `During the sandbox failure storm that began at ${fmtT(sec(from - t0))} (${plural(stormAttempts, "failed attempt")} in ${plural(windows.length, "window")}), the container runtime lost health: ${list}. ` +
    `${total} health signal${total === 1 ? "" : "s"} from ${fmtT(sec(start - t0))} to ${fmtT(sec(end - t0))}${recovered ? "; a sandbox succeeded after the last one" : "; no sandbox succeeded after the last one before the data ended"}. ` +
    (grave
      ? `The kubelet saw the runtime as unhealthy: the node can look dead until it is rebooted (restarting containerd alone has been seen not to recover it).`
      : `Cleanups piling up in the runtime (stops timing out, shim events failing) come before the runtime stalls.`);
  return [
    {
      detector: name,
      severity: grave ? "critical" : "high",
      start,
      end: recovered ? end : null,
      title: `Container runtime degraded during the storm: ${health.map(says).join(", ")}`,
      explanation,
      metrics: {
        signals,
        healthSignals: total,
        stormStartAfterBootS: sec(from - t0),
        stormAttempts,
      },
      evidence: [...new Set(health.flatMap((s) => acc.get(s.signal)!.ids))].sort((a, b) => a - b),
    },
  ];
}

/** The detector as registered in lib/detect/index.ts. */
export const runtimeDegradation: Detector<RuntimeDegradationParams> = { name, title, defaults, describe, run };
