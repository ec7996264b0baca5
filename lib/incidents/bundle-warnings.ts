/**
 * What a reviewer must know about a bundle that was stored, before trusting its timelines: log
 * data it lost (files refused by a limit or damaged, files read only in part, lines of logs that
 * could not be parsed) and events that name no node (stored, but on no node's timeline). The
 * per-file table holds the details; these lines are its summary, shown at the top of the bundle
 * and of its incident page: what was skipped is counted and shown, so a truncated archive never
 * shows as a plain "ready".
 *
 * What a collector's bundle holds on purpose is no warning, or every EKS bundle would carry one:
 * files the layout skips (`collector-stack-dump`), noise lines (lib/parse/noise.ts rules), files
 * in no log format (`system/instance-id.txt`, `ps.txt`: `unknown-format`), binary files, links,
 * devices, empty files, duplicates, and notes that change no record (`NOTES_ONLY`: a newest-first
 * `last` listing put in time order, a `.gz` name without gzip data). They stay listed in the
 * table with their reasons.
 *
 * Pure: a bundle view in (lib/incidents/get-incident.ts `TBundleView`), lines out.
 */
import { plural } from "../detect/numbers";
import { NOISE_RULES } from "../parse/noise";
import { fmtCount } from "../view/format";

/** One warning: `kind` for tests and styling, `text` for people. */
export interface BundleWarning {
  kind: "not-read" | "read-in-part" | "lines-skipped" | "no-node";
  text: string;
}

type FileLike = { path: string; status: string; reason: string | null; format: string; skippedByReason: Record<string, number> };
type BundleLike = { status: string; counts: Record<string, unknown>; files: FileLike[] };

/**
 * Reason codes of files not read that lose log data (lib/bundle/unpack.ts, limits.ts,
 * analyse-bundle.ts): a limit refused them, or they could not be opened or parsed.
 */
const LOST = new Set([
  "corrupt-archive",
  "encrypted",
  "nesting-too-deep",
  "ratio-limit",
  "too-large",
  "too-many-files",
  "total-size-limit",
  "unsupported-compression",
  "unreadable",
  "parser-error",
]);
/** Reason codes of files read that are no problem: not a log, or nothing in it. */
const HARMLESS_READ = new Set(["unknown-format", "empty"]);
/**
 * Notes a file's reason may carry that change nothing in its records (lib/parse/parse-file.ts,
 * lib/bundle/unpack.ts `note`); a reason is `; `-joined notes and problems (file-reason.ts).
 */
const NOTES_ONLY = [
  /^newest-first file: records reversed into time order$/,
  /^empty file \(0 bytes\)$/,
  /^named \.\S+ but holds no \S+ data: read as a plain file$/,
  /^(gzip|xz)-compressed although not named \.\w+: decompressed$/,
];
/** A read file's stored reason states a problem: more than harmless codes and notes. */
const statesProblem = (reason: string | null): boolean =>
  !!reason && !HARMLESS_READ.has(codeOf(reason)) && reason.split("; ").some((part) => !NOTES_ONLY.some((re) => re.test(part)));
/** Line skip reasons that are noise by design. */
const NOISE_REASONS = new Set(Object.values(NOISE_RULES).map((r) => r.reason));

/** Files named in a warning before "and N more". */
const NAMED = 3;

/** The reason's code: what comes before its first colon (file-reason.ts writes `code: detail`). */
const codeOf = (reason: string | null) => (reason ?? "").split(":")[0].trim();

/** `path (reason)` for the first files, then "and N more". */
function named(list: FileLike[]): string {
  const shown = list.slice(0, NAMED).map((f) => (f.reason ? `${f.path} (${f.reason})` : f.path));
  if (list.length > NAMED) shown.push(`and ${fmtCount(list.length - NAMED)} more`);
  return shown.join("; ");
}

/**
 * The warnings of a stored bundle (status `ready`), most serious first; none for a bundle whose
 * logs were all read, or one not stored (queued, parsing, failed: its error says what happened).
 */
export function bundleWarnings(b: BundleLike): BundleWarning[] {
  if (b.status !== "ready") return [];
  const out: BundleWarning[] = [];
  const notRead = b.files.filter((f) => f.status === "skipped" && LOST.has(codeOf(f.reason)));
  if (notRead.length) out.push({ kind: "not-read", text: `${plural(notRead.length, "file", "files", fmtCount)} not read: ${named(notRead)}` });
  // a log read with a stated problem (cut short, lines cut, no line parsed): its reason says what
  const inPart = b.files.filter((f) => f.status === "read" && statesProblem(f.reason));
  if (inPart.length) out.push({ kind: "read-in-part", text: `${plural(inPart.length, "file", "files", fmtCount)} read with problems: ${named(inPart)}` });
  // lines of files in a known log format that match it nowhere (noise rules apart)
  let skipped = 0;
  for (const f of b.files) {
    if (f.status !== "read" || f.format === "unknown") continue;
    for (const [reason, n] of Object.entries(f.skippedByReason)) if (!NOISE_REASONS.has(reason)) skipped += n;
  }
  if (skipped > 0) {
    out.push({
      kind: "lines-skipped",
      text: `${plural(skipped, "line", "lines", fmtCount)} of logs could not be parsed (kept as text; counted by reason in the bundle's files table)`,
    });
  }
  const noNode = Number(b.counts.eventsOnNoNode) || 0;
  if (noNode > 0) {
    out.push({
      kind: "no-node",
      text:
        `${plural(noNode, "event names", "events name", fmtCount)} no node (no path, option or record said which): stored, but on no node's timeline. ` +
        `To place them, upload those files to a new incident with the "Node name" field set (here the same bytes count as the same upload)`,
    });
  }
  return out;
}
