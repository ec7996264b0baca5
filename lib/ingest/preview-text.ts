/**
 * What bootline recognises in a pasted text, before anything is stored: the text goes through
 * the in-memory reference ingest as an upload of one file (reference.ts `analyseBundle`: sniff, parse,
 * classify, node and boot assignment) and the detectors run on each node boot as the store step
 * would run them (detect-boot.ts `detectBoot`, `toBootEvent`). No database, no
 * files written.
 *
 * Output, per file: the format name and a plain description, records, lines read (records,
 * continuations and banners) out of non-blank lines, records with a time, the node and whether the
 * logs named it; per node boot: T+0 (UTC ms) and whether it is approximate, failed sandbox
 * attempts, the sandbox failure windows (attempts, pods, error class, first and last failure,
 * reasons the numbers are approximate) and the other findings' titles; per node, the failed
 * attempts whose lines have no time (no window holds them) and their error class. A file counts as read when
 * at least 80% of its non-blank lines were parsed; for one that is not, `explanation` says why.
 *
 * Errors: `ApiError("payload_too_large")` for a text over `PREVIEW_MAX_BYTES` (UTF-8 bytes).
 */
import { ApiError } from "../http/errors";
import { sortBootEvents } from "../detect/index";
import { attemptsOf } from "../detect/attempts-cache";
import { defaults as windowDefaults, name as WINDOW_DETECTOR } from "../detect/sandbox-failure-window";
import type { Attempt } from "../detect/attempts";
import { untimedAttempts } from "../detect/untimed-attempts";
import type { BootEvent, BootInfo, Finding } from "../detect/types";
import type { UnpackedFile } from "../bundle/unpack";
import { fileReason } from "./file-reason";
import { toBootEvent } from "../model/boot-event";
import { READ_SHARE } from "./analyse-bundle";
import { analyseBundle } from "./reference";
import { detectBoot } from "./detect-boot";
import type { AnalysedFile } from "../model/event";
import { PREVIEW_MAX_BYTES } from "./preview-limits";
import { reachesDetectors } from "../model/event-kinds";

export { PREVIEW_MAX_BYTES };

/** The file name a paste gets when none is given. */
export const DEFAULT_PASTE_NAME = "pasted.log";

export interface PreviewInput {
  text: string;
  /** the file name the text will be uploaded as (names the node when no log does) */
  name?: string | null;
  /** the upload options: node, zone of zone-less stamps, year of year-less stamps, collection time (UTC ms) */
  node?: string | null;
  tz?: string | null;
  year?: number | null;
  collectedMs?: number | null;
  /** now, UTC ms: the upload time the ingest would use (last-resort year bound, ages without a collection time) */
  nowMs: number;
}

export interface TPreviewFile {
  path: string;
  /** read | skipped | duplicate (as an upload lists it) */
  status: string;
  format: string;
  /** what the format is, in plain words */
  description: string;
  /** components the records came from, most records first (kubelet, containerd, ...) */
  components: string[];
  lines: number;
  blank: number;
  /** lines that are records, continuations or banners */
  linesRead: number;
  records: number;
  /** records that carry a time of their own */
  timed: number;
  /** records whose time was counted back from a relative age (`5m`) */
  aged: number;
  skippedByReason: Record<string, number>;
  /** at least 80% of the non-blank lines parsed */
  read: boolean;
  /** why the file is not read (or what was wrong with it), in words; null when read cleanly */
  explanation: string | null;
  node: string | null;
  /** the node was named after the upload: no log, path or option named it */
  nodeUnnamed: boolean;
  /** UTC ms of the first and last timed record */
  firstMs: number | null;
  lastMs: number | null;
  /** zone used for zone-less stamps and where it came from; where the year came from */
  timeZone: string;
  zoneSource: string;
  yearSource: string | null;
}

export interface TPreviewWindow {
  severity: string;
  title: string;
  attempts: number;
  pods: number;
  errorClass: string | null;
  /** first and last failure, UTC ms */
  firstMs: number;
  lastMs: number;
  /** when the window closed (its last failure), UTC ms; null: still open when the data ends */
  endMs: number | null;
  /** reasons the window's numbers or times are approximate (empty: exact) */
  approximate: string[];
}

export interface TPreviewBoot {
  bootKey: string;
  /** T+0, UTC ms */
  startMs: number;
  endMs: number | null;
  detectedBy: string;
  /** T+0 is the boot's earliest event, not a boot marker */
  approximate: boolean;
  events: number;
  /** failed sandbox attempts at or after T+0 */
  attempts: number;
  windows: TPreviewWindow[];
  /** the other detectors' findings */
  findings: Array<{ detector: string; severity: string; title: string }>;
}

export interface TPreviewNode {
  name: string;
  /** named after the upload: no log, path or option named it */
  unnamed: boolean;
  boots: TPreviewBoot[];
  /** failed sandbox attempts whose lines have no time (lib/detect/untimed-attempts.ts): in no window */
  untimedAttempts: number;
  /** their commonest error class */
  untimedErrorClass: string | null;
}

export interface TPreview {
  /** the file name the preview used */
  name: string;
  bytes: number;
  files: TPreviewFile[];
  nodes: TPreviewNode[];
  /** records that no node boot holds (no time, before every boot) */
  unplaced: number;
  /** detectors that failed, `detector: message` */
  detectorErrors: string[];
}

/** Plain descriptions of the registry's formats (lib/parse/registry.ts names). */
const FORMAT_DESCRIPTIONS: Record<string, string> = {
  "journal-short": "journalctl default output (-o short) or a syslog file: month, day, time, host, program[pid]",
  "journal-short-iso": "journalctl -o short-iso (ISO time with zone, host, program[pid]) or an RFC 3339 syslog file",
  "journal-short-full": "journalctl -o short-full: weekday, date, time and zone, host, program[pid]",
  "journal-with-unit": "journalctl -o with-unit: like short-full, with the systemd unit",
  "journal-short-unix": "journalctl -o short-unix: seconds since 1970, host, program[pid]",
  "journal-short-monotonic": "journalctl -o short-monotonic: seconds since boot, host, program[pid]",
  "journal-json": "journalctl -o json: one journal entry per line as JSON",
  "journal-json-pretty": "journalctl -o json-pretty: journal entries as indented JSON",
  "journal-export": "journalctl -o export: journal entries as FIELD=value blocks",
  "journal-verbose": "journalctl -o verbose: a header line and indented fields per entry",
  "journal-list-boots": "journalctl --list-boots: one row per boot",
  dmesg: "kernel ring buffer (dmesg)",
  "last-reboot": "last reboot: one row per boot from wtmp",
  "cri-log": "container log file written by containerd or CRI-O (time, stream, P/F tag, text)",
  "docker-json": "Docker json-file container log (one JSON object per line)",
  "kubectl-timestamps": "pod log read with kubectl logs --timestamps",
  klog: "klog lines (kubelet and other Kubernetes components): severity letter, date, time, pid, file:line]",
  "klog-json": "Kubernetes component JSON log (--logging-format=json)",
  "containerd-logrus": "containerd log (logrus key=value: time=, level=, msg=)",
  "k3s-logrus": "k3s / rke2 supervisor log (logrus key=value, whole seconds)",
  "k0s-supervisor": "k0s supervisor log (logrus around each child's line, component=kubelet, kubelet.exe, …)",
  "crio-logrus": "CRI-O log (logrus key=value)",
  "logrus-text": "logrus terminal output (LEVEL[time] message key=value)",
  "calico-cni": "Calico CNI plugin / calico-node log",
  "istio-cni": "istio-cni agent or installer log (zap console)",
  "istio-cni-json": "istio-cni agent log as JSON",
  "zap-json": "zap JSON log (AWS VPC CNI and other Go programs)",
  "zap-console": "zap console log (time, level, logger, message)",
  "cilium-json": "Cilium agent JSON log",
  "cilium-logfmt": "Cilium agent log (logfmt key=value)",
  "aws-vpc-cni-seelog": "AWS VPC CNI log of the seelog era (ipamd.log, plugin.log)",
  multus: "Multus CNI log",
  weave: "Weave Net log",
  inotifywait: "inotifywait -m output (file changes in a watched folder)",
  "syslog-rfc5424": "RFC 5424 syslog file (time, host, app, procid)",
  "k8s-events-json": "Kubernetes events as JSON (kubectl get events -o json)",
  "k8s-events-yaml": "Kubernetes events as YAML (kubectl get events -o yaml)",
  "kubectl-events-table": "Kubernetes events as a kubectl table (kubectl get events / kubectl events)",
  "describe-events": "the Events section of kubectl describe",
  "jupyterhub-events": "JupyterHub spawn-page progress events (<time> [Warning] <message>) and hub log lines",
  "jenkins-pod-events": "Kubernetes pod events in a Jenkins build console ([Warning][ns/pod][Reason] message)",
  "go-panic": "a Go panic or goroutine dump",
  unknown: "no known log format",
};

/** A plain description of a format name; names not listed are described by their own name. */
export function describeFormat(format: string): string {
  return FORMAT_DESCRIPTIONS[format] ?? `${format.replace(/-/g, " ")} lines`;
}

/**
 * The stored reason of a file (lib/ingest/file-reason.ts): for a file not read it holds what its
 * lines look like and what would help (analyse-bundle.ts `unreadNote`), then the skipped lines by
 * reason; for a file that is read, problems worth knowing (a guessed year), or null.
 */
function explain(f: AnalysedFile, read: boolean): string | null {
  const reason = fileReason(f);
  if (read) return reason;
  const skipped = Object.entries(f.counts.skippedByReason)
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${r} ${n.toLocaleString("en-US")}`)
    .join(", ");
  const parts = [
    reason ?? `only ${f.counts.parsed.toLocaleString("en-US")} of ${(f.counts.lines - f.counts.blank).toLocaleString("en-US")} non-blank lines could be parsed`,
  ];
  if (skipped) parts.push(`Skipped lines by reason: ${skipped}.`);
  return parts.join(" ");
}

function topComponents(components: Iterable<string>, max = 4): string[] {
  const n = new Map<string, number>();
  for (const c of components) if (c && c !== "unknown") n.set(c, (n.get(c) ?? 0) + 1);
  return [...n]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([c]) => c);
}

/** A node's failed sandbox attempts without a time, for the preview. */
function untimedOf(events: BootEvent[]): Pick<TPreviewNode, "untimedAttempts" | "untimedErrorClass"> {
  const u = untimedAttempts(events);
  return { untimedAttempts: u.attempts, untimedErrorClass: u.errorClass };
}

/** A window finding's attempts: those failing at or after its start and not after its end. */
function windowAttempts(f: Finding, attempts: readonly Attempt[]): Attempt[] {
  return attempts.filter((a) => a.time >= f.start && (f.end === null || a.time <= f.end));
}

const num = (v: unknown, d = 0) => (typeof v === "number" && Number.isFinite(v) ? v : d);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/**
 * Analyses `input.text` as a one-file upload named `input.name` (default `pasted.log`) and
 * returns what it recognised (see the module comment). Throws `ApiError("payload_too_large")` over
 * `PREVIEW_MAX_BYTES`.
 */
export function previewText(input: PreviewInput): TPreview {
  const bytes = Buffer.byteLength(input.text, "utf8");
  if (bytes > PREVIEW_MAX_BYTES) {
    throw new ApiError(
      "payload_too_large",
      `the pasted text is ${(bytes / 1048576).toFixed(1)} MiB; the preview reads at most ${PREVIEW_MAX_BYTES / 1048576} MiB: save it as a file and upload that instead`,
    );
  }
  const name = (input.name ?? "").trim().split(/[\\/]/).pop() || DEFAULT_PASTE_NAME;
  const unpacked: UnpackedFile[] = [{ path: name, status: "read", data: Buffer.from(input.text, "utf8") }];
  const a = analyseBundle(unpacked, {
    node: input.node?.trim() || null,
    tz: input.tz?.trim() || null,
    year: input.year ?? null,
    collectedMs: input.collectedMs ?? null,
    uploadMs: input.nowMs,
    uploadName: name,
  });
  const unnamed = a.unnamed ?? new Set<string>();

  const files: TPreviewFile[] = a.files.map((f) => {
    const c = f.counts;
    const nonBlank = c.lines - c.blank;
    const read = f.status === "read" && f.format !== "unknown" && c.records > 0 && c.parsed >= READ_SHARE * nonBlank;
    return {
      path: f.path,
      status: f.status,
      format: f.format,
      description: describeFormat(f.format),
      components: topComponents(a.events.filter((e) => e.fileIdx === f.ord).map((e) => e.component)),
      lines: c.lines,
      blank: c.blank,
      linesRead: c.parsed,
      records: c.records,
      timed: c.records - c.noTimestamp - c.aged + c.sinceBoot,
      aged: c.aged,
      skippedByReason: { ...c.skippedByReason },
      read,
      explanation: explain(f, read),
      node: f.node,
      nodeUnnamed: f.node !== null && unnamed.has(f.node),
      firstMs: f.firstTs,
      lastMs: f.lastTs,
      timeZone: f.timeZone,
      zoneSource: f.zoneSource,
      yearSource: f.yearSource,
    };
  });

  // each event with its id (1-based index) and file id, as the store step hands them to the detectors
  const bootEvents = a.events.map((e, i) => ({ e, ev: toBootEvent(e, i + 1, e.fileIdx + 1) }));
  const detectorErrors: string[] = [];
  let placed = 0;
  const nodes: TPreviewNode[] = [...a.nodes].map(([node, boots]) => ({
    name: node,
    unnamed: unnamed.has(node),
    ...untimedOf(bootEvents.filter((x) => x.e.node === node).map((x) => x.ev)),
    boots: boots.map((b, bi) => {
      const mine = bootEvents.filter((x) => x.e.node === node && x.e.boot === bi);
      placed += mine.length;
      const signal: BootEvent[] = sortBootEvents(mine.filter((x) => reachesDetectors(x.e.kind)).map((x) => x.ev));
      const info: BootInfo = { node, bootKey: b.bootKey, start: b.start, end: b.end, startApprox: b.startApprox };
      const out = detectBoot(
        info,
        mine.map((x) => x.ev),
      );
      detectorErrors.push(...out.errors.map((x) => `${x.detector}: ${x.message}`));
      const attempts = attemptsOf(signal, windowDefaults).filter((x) => x.time >= b.start);
      const windows: TPreviewWindow[] = out.findings
        .filter((f) => f.detector === WINDOW_DETECTOR)
        .map((f) => {
          const mineA = windowAttempts(f, attempts);
          return {
            severity: f.severity,
            title: f.title,
            attempts: num(f.metrics.attempts, mineA.length),
            pods: num(f.metrics.pods),
            errorClass: typeof f.metrics.errorClass === "string" ? f.metrics.errorClass : null,
            firstMs: f.start,
            lastMs: mineA.reduce((m, x) => Math.max(m, x.lastTs), f.start),
            endMs: f.end,
            approximate: strings(f.metrics.approximate),
          };
        });
      return {
        bootKey: b.bootKey,
        startMs: b.start,
        endMs: b.end,
        detectedBy: b.detectedBy,
        approximate: b.startApprox,
        events: mine.length,
        attempts: attempts.length,
        windows,
        findings: out.findings.filter((f) => f.detector !== WINDOW_DETECTOR).map((f) => ({ detector: f.detector, severity: f.severity, title: f.title })),
      };
    }),
  }));
  return { name, bytes, files, nodes, unplaced: a.events.length - placed, detectorErrors };
}
