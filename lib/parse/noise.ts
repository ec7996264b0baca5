/**
 * Collector-induced noise: lines a collector put
 * into a log file that are not part of the incident. `parseFile` (option `noise`) counts each such
 * line as `skipped` with the rule's reason, so line accounting still adds up (docs/definitions.md
 * "Line accounting"). Which rules apply to which file is the collector's call
 * (lib/bundle/collectors.ts); the rules themselves are pure line matchers.
 *
 * - `journalctl-warnings` (reason `journalctl-warning`): journalctl's own stderr, mixed into the
 *   file by `2>&1` (EKS `containerd-log.txt`, kind's `*.log`): `Warning: …`, `Hint: …`,
 *   `Journal file … is truncated, ignoring file.`, `No journal files were found.`, `Failed to …`.
 * - `collector-stack-dump` (reason `collector-stack-dump`): the goroutine dump that the EKS
 *   collector itself triggers by sending SIGUSR1 to containerd just before it copies the journal:
 *   the last `goroutine stack dump` block of the file (containerd's `=== BEGIN goroutine stack
 *   dump ===` … `=== END goroutine stack dump ===`, or `goroutine stack dump written to …` with
 *   the raw dump lines after it), whether written as one escaped logrus line or as one journal
 *   entry per dump line.
 * - `kubectl-log-markers` (reason `collector-marker`): the lines `kubectl cluster-info dump` writes
 *   around and instead of each container's log in `<namespace>/<pod>/logs.txt` (kubernetes
 *   `staging/src/k8s.io/kubectl/pkg/cmd/clusterinfo/clusterinfo_dump.go`): `==== START logs for
 *   container <c> of pod <ns>/<pod> ====`, the matching `==== END …`, and its own `Create log
 *   request error: …` / `Request log error: …` when a container's log could not be read.
 */

/** One noise rule: marks the lines it claims (`out[i] = reason`), leaving the others untouched. */
export interface NoiseRule {
  name: string;
  reason: string;
  mark(lines: readonly string[], out: Array<string | undefined>): void;
}

const JOURNALCTL_WARNING =
  /^(?:Warning: |Hint: |Journal file \S.* (?:is truncated|corrupted|has unknown incompatible flags|uses an unsupported feature|has been deleted)|No journal files were (?:found|opened)|Failed to (?:get journal fields|determine timestamp|iterate through journal|get cursor|open journal|seek to|get realtime timestamp|read journal)|Specifying boot ID or boot offset has no effect|Error was encountered while opening journal files)/;

/** journalctl's own warnings and hints (see the module comment). */
export const journalctlWarnings: NoiseRule = {
  name: "journalctl-warnings",
  reason: "journalctl-warning",
  mark(lines, out) {
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      const c = l.charCodeAt(0);
      // W H J N F S E: a cheap first-character filter before the regex
      if (c !== 87 && c !== 72 && c !== 74 && c !== 78 && c !== 70 && c !== 83 && c !== 69) continue;
      if (JOURNALCTL_WARNING.test(l)) out[i] ??= this.reason;
    }
  },
};

/** The message of a journal short line (`Mon DD hh:mm:ss[.us] host ident[pid]: msg`), else the line. */
function messageOf(line: string): string {
  const m = /^[A-Z][a-z]{2} [ 0-3]\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ [^\s[:]+(?:\[\d+\])?: ?/.exec(line);
  return m ? line.slice(m[0].length) : line;
}

/** A line of a Go goroutine dump (message part). */
const DUMP_LINE = /^(?:$|\s|goroutine \d+ \[|created by |[\w./*()~-]+\(.*\)$|\[signal |runtime[./]|PC=|SIGUSR1|SIGQUIT|rax |rbx |=== (?:BEGIN|END) goroutine)/;

/** How far from the end of a file the collector's dump is looked for (a containerd dump is a few thousand lines). */
export const TAIL_LINES = 50_000;

/** The collector's goroutine dump at the end of EKS `containerd-log.txt` (see the module comment). */
export const collectorStackDump: NoiseRule = {
  name: "collector-stack-dump",
  reason: "collector-stack-dump",
  mark(lines, out) {
    let start = -1;
    // the dump sits at the end: look back at most TAIL_LINES lines
    for (let i = lines.length - 1; i >= Math.max(0, lines.length - TAIL_LINES); i--) {
      const l = lines[i];
      // both markers hold `goroutine stack dump`: one scan of a line without it
      if (l.includes("goroutine stack dump") && (l.includes("BEGIN goroutine stack dump") || l.includes("goroutine stack dump written to"))) {
        start = i;
        break;
      }
    }
    if (start < 0) return;
    const first = lines[start];
    out[start] ??= this.reason;
    if (first.includes("END goroutine stack dump")) return; // the whole dump on one (escaped logrus) line
    for (let i = start + 1; i < lines.length; i++) {
      const msg = messageOf(lines[i]);
      if (msg.includes("END goroutine stack dump")) {
        out[i] ??= this.reason;
        return;
      }
      if (!DUMP_LINE.test(msg)) return;
      out[i] ??= this.reason;
    }
  },
};

const KUBECTL_LOG_MARKER = /^(?:==== (?:START|END) logs for container \S+ of pod \S+\/\S+ ====$|(?:Create log request|Request log) error: )/;

/** kubectl cluster-info dump's markers in a pod's logs.txt (see the module comment). */
export const kubectlLogMarkers: NoiseRule = {
  name: "kubectl-log-markers",
  reason: "collector-marker",
  mark(lines, out) {
    for (let i = 0; i < lines.length; i++) {
      const c = lines[i].charCodeAt(0);
      // `=`, `C`, `R`: a cheap first-character filter before the regex
      if ((c === 61 || c === 67 || c === 82) && KUBECTL_LOG_MARKER.test(lines[i])) out[i] ??= this.reason;
    }
  },
};

/** All noise rules by name (collectors refer to them by name). */
export const NOISE_RULES: Readonly<Record<string, NoiseRule>> = {
  [journalctlWarnings.name]: journalctlWarnings,
  [collectorStackDump.name]: collectorStackDump,
  [kubectlLogMarkers.name]: kubectlLogMarkers,
};

/**
 * The reason each line is noise under `names` (undefined for lines no rule claims), or null when no
 * rule claims any line. Throws RangeError for an unknown rule name.
 */
export function markNoise(lines: readonly string[], names: readonly string[]): Array<string | undefined> | null {
  if (names.length === 0) return null;
  const out: Array<string | undefined> = new Array(lines.length);
  for (const n of names) {
    const rule = NOISE_RULES[n];
    if (!rule) throw new RangeError(`unknown noise rule: ${n}`);
    rule.mark(lines, out);
  }
  for (let i = 0; i < out.length; i++) if (out[i] !== undefined) return out;
  return null;
}
