/**
 * The `reason` stored for each file of a bundle (SourceFile.reason, the report's
 * `files[].reason`): the machine-readable code first (`binary`, `encrypted`, `ratio-limit`,
 * `unknown-format`, ...), then what a person needs to know, e.g.
 * `encrypted: an encrypted (password-protected) zip entry: bootline cannot read it; ...` or,
 * for a file that was read with problems, those problems with their line numbers
 * (`line 12: line longer than 65536 bytes: 1,024 bytes cut`). Null for a file read cleanly.
 */

/** What a code means when nothing more specific was said. */
const EXPLAIN: Record<string, string> = {
  binary: "not a text log (NUL bytes in its first 8 KiB); not parsed",
  symlink: "a symbolic link; links are not followed",
  hardlink: "a hard link; links are not followed",
  device: "a device or FIFO, not a regular file",
  "path-escape": "an absolute path or one that climbs out with `..`: not read",
  encrypted: "an encrypted (password-protected) entry: bootline cannot read it; upload it unencrypted",
  "corrupt-archive": "the archive is damaged and nothing in it could be read",
  "unknown-format": "no line matched a known log format; its lines are kept (source view) and counted as skipped",
  unreadable: "could not be read",
};

export interface DescribedFile {
  status: string;
  reason: string | null;
  byteSize: number;
  errors: ReadonlyArray<{ line: number; message: string }>;
  counts?: { lines: number; records: number; blank?: number };
  format?: string;
}

const MAX_REASON = 2000;

/** The stored reason of a file (see module comment). */
export function fileReason(f: DescribedFile): string | null {
  const problems = f.errors.map((e) => (e.line ? `line ${e.line}: ${e.message}` : e.message));
  let text: string | null;
  if (f.status === "read" && f.byteSize === 0) text = "empty: the file has no bytes, nothing to parse";
  else if (f.reason) {
    const code = f.reason;
    let detail = problems.length ? problems.join("; ") : (EXPLAIN[code] ?? "");
    // what the lines look like (analyse-bundle.ts `unreadNote`) says more than the code's generic text
    if (code === "unknown-format" && f.counts && f.counts.lines > 0 && !problems.length) {
      detail = `no line matched a known log format (${f.counts.lines.toLocaleString("en-US")} line${f.counts.lines === 1 ? "" : "s"} kept and counted as skipped)`;
    }
    text = detail && !detail.startsWith(code) ? `${code}: ${detail}` : detail || code;
  } else if (f.status === "read" && f.counts && f.counts.records === 0 && f.counts.lines > (f.counts.blank ?? 0)) {
    const why = `no-records: none of its ${f.counts.lines.toLocaleString("en-US")} lines could be parsed${f.format && f.format !== "unknown" ? ` as ${f.format}` : ""}`;
    text = problems.length ? `${why}; ${problems.join("; ")}` : why;
  } else text = problems.length ? problems.join("; ") : null;
  return text && text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
}

/** `path: reason` for the first files of a bundle nothing could be read from (the failed bundle's message). */
export function unreadableSummary(files: ReadonlyArray<DescribedFile & { path: string }>, max = 20): string {
  const parts = files.slice(0, max).map((f) => `${f.path}: ${fileReason(f) ?? (f.counts?.records ? "" : "no parseable line")}`);
  if (files.length > max) parts.push(`and ${(files.length - max).toLocaleString("en-US")} more files`);
  return parts.join("; ");
}

/** The error of a bundle with no readable record: what each file was (`unreadableSummary`), or "empty upload". */
export function nothingReadable(files: ReadonlyArray<DescribedFile & { path: string }>): string {
  return `nothing in this bundle could be read (${unreadableSummary(files) || "empty upload"})`;
}

/**
 * Input bootline refuses for a reason the user can act on (nothing readable: an empty archive,
 * a binary file, archives nested too deep): its message is the whole story, so logs and the
 * command line print it as one line, without a stack.
 */
export class RefusedInput extends Error {
  override name = "RefusedInput";
}

/** Throws `RefusedInput` with `nothingReadable` unless some file was read with at least one record. */
export function requireReadable(files: ReadonlyArray<DescribedFile & { path: string }>): void {
  if (!files.some((f) => f.status === "read" && (f.counts?.records ?? 0) > 0)) throw new RefusedInput(nothingReadable(files));
}
