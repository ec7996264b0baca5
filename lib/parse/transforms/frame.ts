/**
 * Frames: a k9s view copies each line as `│ text   │` (U+2502, one blank each side, padded to the
 * view's width), and text that does not fit goes on inside the frame on the next line
 * (`│ rest … │`), cut at the width mid-word or not; a Markdown table or a quote bar puts `| `
 * before lines. The bars (and the one blank next to each) go before the sniff; a piece that
 * continues the line above inside the frame (that line's text reached the right bar, this one
 * starts at the left bar's first column) is marked to be joined to it.
 */
import type { LineTransform } from "./types";

/** A frame around a paste's lines: k9s box bars (`│`) or ASCII bars (`| `). */
export interface Frame {
  bar: "│" | "|";
}

const BOX_BAR = 0x2502;

/** The box bar at the start (after blanks) of `l`, or -1. */
function leftBar(l: string, bar: number): number {
  let i = 0;
  if (bar === BOX_BAR) while (i < l.length && l.charCodeAt(i) === 32) i++;
  return l.charCodeAt(i) === bar ? i : -1;
}

/** Does `l` end with the bar (after padding)? */
function rightBar(l: string, bar: number): boolean {
  let e = l.length;
  while (e > 0 && l.charCodeAt(e - 1) === 32) e--;
  return e > 1 && l.charCodeAt(e - 1) === bar;
}

/**
 * The frame around the lines of a paste, or null: k9s box bars when two or more of the first `max`
 * non-blank lines start or end with `│` and one at least ends with it; ASCII bars when the first
 * non-blank line and 4 in 5 of them start with `| ` (a Markdown table or quote bar).
 */
export function detectFrame(lines: readonly string[], max = 400): Frame | null {
  const n = Math.min(lines.length, max);
  let nonBlank = 0;
  let box = 0;
  let closed = 0;
  let ascii = 0;
  let firstAscii: boolean | null = null;
  for (let i = 0; i < n; i++) {
    const l = lines[i];
    if (l.length === 0 || l.trim().length === 0) continue;
    nonBlank++;
    const a = l.charCodeAt(0) === 124 && (l.length === 1 || l.charCodeAt(1) === 32);
    if (firstAscii === null) firstAscii = a;
    if (a) ascii++;
    const r = rightBar(l, BOX_BAR);
    if (r) closed++;
    if (r || leftBar(l, BOX_BAR) >= 0) box++;
  }
  if (box >= 2 && closed >= 1) return { bar: "│" };
  if (firstAscii && ascii * 5 >= nonBlank * 4) return { bar: "|" };
  return null;
}

/**
 * `lines` without the frame's bars (and the one blank next to each; the padding before a right bar
 * stays, so framed lines keep the view's width), and the 1-based numbers of the lines that continue
 * the line above inside the frame (see the module comment).
 */
export function stripFrame(lines: readonly string[], frame: Frame): { lines: string[]; wrapped: Set<number> } {
  const bar = frame.bar === "│" ? BOX_BAR : 124;
  const out: string[] = new Array(lines.length);
  const wrapped = new Set<number>();
  let prevFull = false;
  for (let i = 0; i < lines.length; i++) {
    let l = lines[i];
    const at = leftBar(l, bar);
    const right = bar === BOX_BAR && rightBar(l, bar);
    let full = false;
    if (right) {
      let e = l.length;
      while (e > 0 && l.charCodeAt(e - 1) === 32) e--;
      e--; // the bar
      // one blank between the text and the bar: the text reached the frame's edge
      full = e >= 2 && l.charCodeAt(e - 1) === 32 && l.charCodeAt(e - 2) !== 32;
      l = l.slice(0, e > 0 && l.charCodeAt(e - 1) === 32 ? e - 1 : e);
    }
    if (at >= 0) {
      l = l.slice(at + (l.charCodeAt(at + 1) === 32 ? 2 : 1));
      if (prevFull && l.length > 0 && l.charCodeAt(0) !== 32) wrapped.add(i + 1);
    }
    out[i] = at >= 0 || right ? l : lines[i];
    prevFull = full;
  }
  return { lines: out, wrapped };
}

/** The frame transform (see the module comment). */
export const frameTransform: LineTransform = {
  name: "frame",
  apply(lines) {
    const frame = lines.length > 1 ? detectFrame(lines) : null;
    if (!frame) return null;
    const fr = stripFrame(lines, frame);
    return fr.wrapped.size > 0 ? { lines: fr.lines, wrapped: fr.wrapped } : { lines: fr.lines };
  },
  samples: [
    {
      lines: ["│ 2024-05-06T07:08:19Z INFO cni: ADD pod=web-0   │", "│ 2024-05-06T07:08:20Z INFO cni: DEL pod=web-0   │"],
      expect: ["2024-05-06T07:08:19Z INFO cni: ADD pod=web-0  ", "2024-05-06T07:08:20Z INFO cni: DEL pod=web-0  "],
    },
    {
      lines: ["| Jun 07 10:00:01 node-1 kubelet[1234]: started", "| Jun 07 10:00:02 node-1 kubelet[1234]: ready"],
      expect: ["Jun 07 10:00:01 node-1 kubelet[1234]: started", "Jun 07 10:00:02 node-1 kubelet[1234]: ready"],
    },
  ],
  notMine: [["Jun 07 10:00:01 node-1 kubelet[1234]: a | b", "Jun 07 10:00:02 node-1 kubelet[1234]: ready"]],
};
