/**
 * Contracts of the pure parsing layer (`lib/parse`): text in, values out.
 *
 * A log file is read line by line by `parseFile` (lib/parse/parse-file.ts). The file's
 * format spec (one module per format, registered in lib/parse/registry.ts) turns each
 * physical line into a `LineResult`: a record, a banner, a continuation of the record
 * before it, or "not mine". Records carry the component's own stamp as a `WallTime`
 * (year and zone may be missing); the file level then resolves year and zone
 * (docs/definitions.md "Year", "Zone") into UTC milliseconds.
 */

/** Precision of a stamp as printed: minutes (`last reboot`), seconds, ms, µs, ns, or a relative age (kubectl). */
export type Precision = "min" | "s" | "ms" | "us" | "ns" | "age";

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
  /** A boot the record states (a `journalctl --list-boots` row, a `last reboot` row): boot detection input. */
  bootDecl?: BootDeclaration;
}

/**
 * A boot stated by a list of boots (lib/normalise/boots.ts input): the record's own time is the
 * boot's first entry (list-boots FIRST ENTRY, `last reboot` time).
 */
export interface BootDeclaration {
  /** journal boot id (32 hex) when the list names it */
  id: string | null;
  /** the boot's last entry, UTC ms, when the list gives it */
  lastMs: number | null;
  source: "list-boots" | "last-reboot";
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
  /**
   * Relative ages only (describe / kubectl tables): how far before `firstMs` / `lastMs` the true
   * time may lie (ms). The true time is in `(ms - uncertainty, ms]`; 1000 for kubectl's long form
   * below 10 minutes, 60000 for a short-form `Nm`, and so on. Absent for absolute stamps.
   */
  firstUncertaintyMs?: number;
  lastUncertaintyMs?: number;
  /**
   * Relative ages only: true when they were resolved against the upload's own time because nothing
   * gave the collection time (a guess the pages flag: "ages anchored at the upload time").
   */
  agesFromUpload?: boolean;
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
  /** The zone as the banner printed it (`PDT`, `UTC`, `+09`), when it printed one. */
  zoneName?: string | null;
}

/**
 * One line's result. A continuation's `glue` joins its text to the record's message: a newline
 * when absent (a line of its own), `" "` for a message a page wrapped at a blank (the blank the
 * break took).
 */
export type LineResult =
  | { type: "record"; record: ParsedRecord }
  | { type: "banner"; banner: Banner }
  | { type: "continuation"; text: string; glue?: string }
  | null; // not mine

/** Context a format spec may need that the line itself does not hold. */
export interface ParseContext {
  /** Collection time of the bundle (UTC ms), to resolve relative ages; null when unknown. */
  collectedMs: number | null;
  /**
   * Relative ages count back from each record's `fields.prefixTime` (when a CI console printed its
   * line: line-prefix.ts) where it has one, from `collectedMs` for the others. Set when no
   * collection time was given and the file's prefix is a print time with a date.
   */
  agesFromPrintTime?: boolean;
  /** Path of the file inside the bundle (klog / CRI files name their component only in the path). */
  path?: string;
}

/** A sample line and exactly what the spec must produce for it (checked by the shared registry test). */
export interface FormatSample {
  line: string;
  /** Subset of the expected ParsedRecord (deep-equal on the keys given), or the banner. */
  expect: Partial<ParsedRecord> | { banner: Partial<Banner> };
  /** Lines fed to the same parser before `line` (table headers, a record a continuation belongs to); also part of the sniff input. */
  context?: string[];
  /** Lines fed after `line` (before `finish`): the rest of a record that starts at `line` (journal export fields); also sniffed. */
  after?: string[];
  /** Path given to `sniff` and to the parser (`ParseContext.path`); default `""`. */
  path?: string;
  /** `ParseContext.collectedMs` for the sample (relative ages); default null. */
  collectedMs?: number;
}

/**
 * One log format, as data with its own samples (after lnav's format definitions).
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
  /** The format always lists newest first (`last`): parseFile reverses it without waiting for falling times to show it. */
  newestFirst?: boolean;
  /**
   * Specs whose `sniff` also accepts some files of this format, so this spec must come before
   * them in the registry: spec name → the first lines of one such file (the witness). The
   * registry test checks the order and that both sniffs accept the witness.
   */
  before?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Per-file parser. `parseFile` feeds every physical line (CR/LF stripped, over-long lines cut) in
 * order and reads the contents of the records it got only after the last line and `finish()`, so a
 * parser may complete a record it returned earlier (CRI `P` fragments joined, relative ages settled
 * once the whole table is seen); a parser that never does says so with `settled`.
 */
export interface LineParser {
  /** `lineNo`: the 1-based physical line number (given by `parseFile`; formats that number their records use it). */
  parseLine(line: string, lineNo?: number): LineResult;
  /**
   * Whole-document formats (JSON event lists, YAML) may emit their records at the end. `line` is the
   * 1-based physical line where the record starts, `endLine` (optional) its last line.
   */
  end?(): Array<{ line: number; record: ParsedRecord; endLine?: number }>;
  /**
   * true for whole-document formats: `parseLine` only claims lines (`continuation`) or refuses them
   * (null); records come from `end()`. Claimed lines before the first record are the document's
   * head (banner `header`), the others continuations of the record before them.
   */
  deferred?: boolean;
  /** Called after the last line (before `end()`): settle records returned earlier, in place. */
  finish?(): void;
  /**
   * Told of each paste banner `parseFile` takes before the parser would see it (a prompt with its
   * command, a bare command line): a format whose rows depend on the command (`kubectl get events
   * -n <ns>`) reads it there.
   */
  pasteBanner?(line: string): void;
  /**
   * Set by the parser once the file is read (after `end()`): its records are newest first, as a
   * format may tell from what the file holds (a log export whose entries' times never rise); the
   * file is then reversed as for `FormatSpec.newestFirst`.
   */
  newestFirst?: boolean;
  /**
   * true when every record is complete as returned (the parser never changes a record after
   * returning it): `parseFile` may then build its output record at once instead of after `finish()`.
   */
  settled?: boolean;
}
