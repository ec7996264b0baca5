/**
 * Contracts of the pure parsing layer (`lib/parse`): text in, values out.
 *
 * A log file is read line by line by `parseFile` (lib/parse/parse-file.ts). The file's
 * format spec (one module per format, registered in lib/parse/registry.ts) turns each
 * physical line into a `LineResult`: a record, a banner, a continuation of the record
 * before it, or "not mine". Records carry the component's own stamp as a `WallTime`
 * (year and zone may be missing); the file level then resolves year and zone (DESIGN.md
 * "Definitions": Year, Zone) into UTC milliseconds.
 */

/** Precision of a stamp as printed: seconds, ms, µs, ns, or a relative age (kubectl). */
export type Precision = "s" | "ms" | "us" | "ns" | "age";

/** 0 debug, 1 info, 2 warn, 3 error, 4 fatal. */
export type Severity = 0 | 1 | 2 | 3 | 4;

/**
 * A stamp as printed, before year and zone inference.
 * `year` null: the stamp has no year (journal short, klog, dmesg, syslog).
 * `offsetMin` null: the stamp has no zone (local time of the writer); else minutes east of UTC.
 * `ms` is the sub-second part cut (floored) to milliseconds.
 */
export interface WallTime {
  year: number | null;
  month: number; // 1..12
  day: number; // 1..31
  hour: number;
  minute: number;
  second: number;
  ms: number;
  offsetMin: number | null;
  precision: Precision;
}

/** One log record as understood by a format spec (before file-level time resolution). */
export interface ParsedRecord {
  /** The component's own stamp when the line carries two (envelope + component), else the envelope's; null when none. */
  time: WallTime | null;
  /** An already absolute time in UTC ms (epoch stamps, or resolved relative ages); wins over `time`. */
  epochMs?: number | null;
  /** Precision when `epochMs` is set. */
  epochPrecision?: Precision;
  /** Host name from the envelope (journal/syslog hostname column). */
  host?: string;
  /** Syslog identifier / unit (`kubelet`, `containerd`, `systemd`, `kernel`, ...). */
  ident?: string;
  pid?: number;
  /** Component that wrote the line: kubelet, containerd, crio, cni-calico, istio-cni, cilium, flannel, k8s-events, systemd, kernel, unknown. */
  component: string;
  severity: Severity;
  /** The component's message text (klog message with its key=value pairs, logrus msg, ...). */
  message: string;
  /** Structured fields the format exposes (logrus/logfmt keys, klog key=value pairs, event fields). Values unescaped. */
  fields?: Record<string, string>;
  /** Journal boot id (32 lowercase hex) when the record carries one (`_BOOT_ID`). */
  bootId?: string;
  /** Kubernetes event specifics (k8s-events formats): reason, count, involved object, node, first/last seen (UTC ms). */
  k8sEvent?: K8sEventInfo;
}

export interface K8sEventInfo {
  reason: string;
  type: string; // Normal | Warning
  count: number;
  namespace: string | null;
  objectKind: string | null;
  objectName: string | null;
  /** node that reported it (source.host / `kubelet, <node>`), when known */
  node: string | null;
  firstMs: number | null;
  lastMs: number | null;
}

/** Banner lines: journal separators and headers. Not records; they count as `banner`. */
export interface Banner {
  /** `-- Boot <id> --` (id), `-- Reboot --` (id null), `-- Logs begin at ... --` (bound), klog file header, table header. */
  type: "boot" | "reboot" | "logs-begin" | "no-entries" | "klog-header" | "header";
  bootId?: string | null;
  /** Absolute time the banner states (logs-begin: the lower bound; klog-header: file creation), when it has one. */
  time?: WallTime | null;
  /** Zone the banner states, minutes east of UTC (e.g. PDT = -420). */
  offsetMin?: number | null;
}

export type LineResult =
  | { type: "record"; record: ParsedRecord }
  | { type: "banner"; banner: Banner }
  | { type: "continuation"; text: string }
  | null; // not mine

/** Context a format spec may need that the line itself does not hold. */
export interface ParseContext {
  /** Collection time of the bundle (UTC ms), to resolve relative ages; null when unknown. */
  collectedMs: number | null;
}

/** A sample line and exactly what the spec must produce for it (checked by the shared registry test). */
export interface FormatSample {
  line: string;
  /** Subset of the expected ParsedRecord (deep-equal on the keys given), or the banner. */
  expect: Partial<ParsedRecord> | { banner: Partial<Banner> };
}

/**
 * One log format (STYLE.md "Log formats as data with their own samples", after lnav).
 * `sniff` is cheap and strict; `createParser` returns a per-file parser (some formats keep
 * state across lines: multi-line records, table headers, JSON documents).
 */
export interface FormatSpec {
  /** registry name, e.g. `journal-short`, `klog`, `containerd-logrus`, `calico-cni`. */
  name: string;
  /** Source kind this format implies when the file's component cannot be told otherwise. */
  kind: string;
  /** true when the first non-banner lines of a file (and its path) are this format. */
  sniff(path: string, firstLines: string[]): boolean;
  createParser(ctx: ParseContext): LineParser;
  samples: FormatSample[];
  /** Lines of neighbouring formats this spec must refuse (parseLine returns null). */
  notMine: string[];
}

export interface LineParser {
  parseLine(line: string): LineResult;
  /** Whole-document formats (JSON event lists, YAML) may emit their records at the end. */
  end?(): Array<{ line: number; record: ParsedRecord }>;
}
