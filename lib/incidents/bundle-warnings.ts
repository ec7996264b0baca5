/**
 * What a reviewer must know about a bundle that was stored, before trusting its timelines: files
 * not read, files read only in part, lines skipped, and events that name no node (stored, but on
 * no node's timeline). The per-file table holds the details; these lines are its summary, shown
 * at the top of the bundle and of its incident page ("Bad input ... what was skipped is counted
 * and shown": a truncated archive used to show only "ready").
 *
 * Pure: a bundle view in (lib/incidents/get-incident.ts `TBundleView`), lines out.
 */
import { fmtCount } from "../timeline/format";

/** One warning: `kind` for tests and styling, `text` for people. */
export interface BundleWarning {
  kind: "not-read" | "read-in-part" | "lines-skipped" | "no-node";
  text: string;
}

type FileLike = { path: string; status: string; reason: string | null; skipped: number };
type BundleLike = { status: string; counts: Record<string, unknown>; files: FileLike[] };

/** Files named in a warning before "and N more". */
const NAMED = 3;

const files = (n: number) => `${fmtCount(n)} file${n === 1 ? "" : "s"}`;
const lines = (n: number) => `${fmtCount(n)} line${n === 1 ? "" : "s"}`;

/** `path (reason)` for the first files, then "and N more". */
function named(list: FileLike[]): string {
  const shown = list.slice(0, NAMED).map((f) => (f.reason ? `${f.path} (${f.reason})` : f.path));
  if (list.length > NAMED) shown.push(`and ${fmtCount(list.length - NAMED)} more`);
  return shown.join("; ");
}

/**
 * The warnings of a stored bundle (status `ready`), most serious first; none for a bundle read
 * cleanly, or not stored (queued, parsing, failed: its error says what happened). Duplicate
 * files are no warning: their content is stored once.
 */
export function bundleWarnings(b: BundleLike): BundleWarning[] {
  if (b.status !== "ready") return [];
  const out: BundleWarning[] = [];
  const notRead = b.files.filter((f) => f.status === "skipped");
  if (notRead.length) out.push({ kind: "not-read", text: `${files(notRead.length)} not read: ${named(notRead)}` });
  // a file read with a stated problem (cut short, lines cut, ...): its reason says what
  const inPart = b.files.filter((f) => f.status === "read" && f.reason);
  if (inPart.length) out.push({ kind: "read-in-part", text: `${files(inPart.length)} read with problems: ${named(inPart)}` });
  const skipped = b.files.filter((f) => f.status === "read").reduce((n, f) => n + f.skipped, 0);
  if (skipped > 0) out.push({ kind: "lines-skipped", text: `${lines(skipped)} of files read could not be parsed (kept in the source view; counted by reason in the table below)` });
  const noNode = Number(b.counts.eventsOnNoNode) || 0;
  if (noNode > 0) {
    out.push({
      kind: "no-node",
      text:
        `${fmtCount(noNode)} ${noNode === 1 ? "event names" : "events name"} no node (no path, option or record said which): stored, but on no node's timeline. ` +
        `Upload those files again with the "Node name" field set to place them`,
    });
  }
  return out;
}
