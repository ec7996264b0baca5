/**
 * The paste transforms taken off a file's lines before the sniff, in the order they run: colour
 * codes first (they change a line's length), then a pager's cut marks (the screen width), a
 * frame's bars, inline-code backticks and Markdown emphasis. Adding one = one module in this
 * folder + one line here; its samples and notMine files are checked by transforms.test.ts.
 */
import { ansiTransform } from "./ansi";
import { backticksTransform } from "./backticks";
import { emphasisTransform } from "./emphasis";
import { frameTransform } from "./frame";
import { pagerCutTransform } from "./pager-cut";
import type { LineTransform } from "./types";

export const PRE_SNIFF_TRANSFORMS: readonly LineTransform[] = [ansiTransform, pagerCutTransform, frameTransform, backticksTransform, emphasisTransform];

/** What the transforms did to a file: its lines, the names of those that applied, their facts. */
export interface Transformed {
  lines: readonly string[];
  /** names of the transforms that changed the file, in the order they ran (pager cuts not included) */
  applied: string[];
  wrapped: Set<number> | null;
  pagerMark: string | null;
}

/** Run every pre-sniff transform over `lines` (see the module comment). */
export function applyPreSniff(lines: readonly string[]): Transformed {
  const out: Transformed = { lines, applied: [], wrapped: null, pagerMark: null };
  for (const t of PRE_SNIFF_TRANSFORMS) {
    const r = t.apply(out.lines);
    if (r === null) continue;
    out.lines = r.lines;
    if (r.pagerMark !== undefined) out.pagerMark = r.pagerMark;
    else out.applied.push(t.name);
    if (r.wrapped) out.wrapped = r.wrapped;
  }
  return out;
}
