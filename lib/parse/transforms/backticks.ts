/**
 * Inline-code backticks of Markdown: around a line, or opened on a paste's first line and closed
 * on its last, and a fence glued to the text of a paste's first or last lines
 * (```` ```Events: ````). They go before the sniff.
 */
import type { LineTransform } from "./types";

/** How many lines at each end of a paste are looked at for inline-code backticks. */
const BACKTICK_LINES = 5;

/** A fence glued to text: ```` ```Events: ```` (text with a colon or blank after the fence), or text then ```` ``` ````. */
const GLUED_FENCE_OPEN = /^```(?=[^`\s]*[:\s]\S)|^```(?=\S*:$)/;
const GLUED_FENCE_CLOSE = /(?<=\S)```\s*$/;

function unglueFence(l: string): string {
  return l.replace(GLUED_FENCE_OPEN, "").replace(GLUED_FENCE_CLOSE, "");
}

/** Indexes of the first and last few non-blank lines that hold a glued fence. */
function fenceEnds(lines: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0, seen = 0; i < lines.length && seen < BACKTICK_LINES; i++) {
    if (lines[i].length === 0) continue;
    seen++;
    if (lines[i].charCodeAt(0) === 96 && GLUED_FENCE_OPEN.test(lines[i])) out.push(i);
  }
  for (let i = lines.length - 1, seen = 0; i >= 0 && seen < BACKTICK_LINES; i--) {
    if (lines[i].length === 0) continue;
    seen++;
    if (GLUED_FENCE_CLOSE.test(lines[i]) && !out.includes(i)) out.push(i);
  }
  return out;
}

function isTick(l: string, at: number): boolean {
  return l.charCodeAt(at) === 96 && l.charCodeAt(at + 1) !== 96 && (at === 0 || l.charCodeAt(at - 1) !== 96);
}

/**
 * `lines` without inline-code backticks (`` `…` `` around lines, or one opened on a paste's first
 * line and closed on its last), or null when the first and last few non-blank lines hold none.
 * A line's leading backtick goes; a trailing one goes when a backtick was opened (on this line or
 * an earlier one) and not closed. Fences (` ``` `) are not touched.
 */
export function stripBackticks(lines: readonly string[]): string[] | null {
  const n = lines.length;
  let found = false;
  for (let i = 0, seen = 0; i < n && seen < BACKTICK_LINES && !found; i++) {
    const l = lines[i];
    if (l.length === 0) continue;
    seen++;
    found = isTick(l, 0);
  }
  for (let i = n - 1, seen = 0; i >= 0 && seen < BACKTICK_LINES && !found; i--) {
    const l = lines[i].trimEnd();
    if (l.length === 0) continue;
    seen++;
    found = isTick(l, l.length - 1) && l.length > 1;
  }
  const fences = fenceEnds(lines);
  if (!found && fences.length === 0) return null;
  const out = lines.slice();
  for (const i of fences) out[i] = unglueFence(out[i]);
  let changed = fences.length > 0;
  if (!found) return out;
  let open = false;
  for (let i = 0; i < n; i++) {
    let l = out[i];
    if (isTick(l, 0)) {
      l = l.slice(1);
      open = true;
    }
    const t = l.trimEnd();
    if (open && t.length > 0 && isTick(t, t.length - 1)) {
      l = t.slice(0, -1);
      open = false;
    }
    if (l !== out[i]) {
      out[i] = l;
      changed = true;
    }
  }
  return changed ? out : null;
}

/** The backticks transform (see the module comment). */
export const backticksTransform: LineTransform = {
  name: "backticks",
  apply(lines) {
    const out = lines.length > 0 ? stripBackticks(lines) : null;
    return out ? { lines: out } : null;
  },
  samples: [
    { lines: ["`a", "b", "c`"], expect: ["a", "b", "c"] },
    {
      lines: ["```Events:", "  Warning  FailedCreatePodSandBox  3m  kubelet  Failed```"],
      expect: ["Events:", "  Warning  FailedCreatePodSandBox  3m  kubelet  Failed"],
    },
  ],
  notMine: [
    ["a", "b"],
    ["```", "a", "```"],
  ],
};
