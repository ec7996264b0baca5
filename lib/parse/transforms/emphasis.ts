/**
 * Markdown emphasis in or around log lines pasted outside a code block (a line partly set in
 * bold, or a whole line in `**…**`, `__…__`, `*…*`). The marks go before the sniff.
 */
import type { LineTransform } from "./types";

/** Markdown strong emphasis inside a line: `**text**` after a blank, quote or bracket, before a blank, quote or punctuation. */
const STRONG = /(^|[\s"'(])\*\*(?=[^\s*])([^*]*?[^\s*])\*\*(?=$|[\s"'.,:;!?)])/g;
/** Markdown emphasis around a whole line: `**…**`, `__…__`, `*…*` (blanks around it kept). */
const WHOLE_EMPHASIS = /^(\s*)(\*\*|__|\*)(?=[^\s*_])(.*?[^\s*_])\2(\s*)$/;

/** `line` without Markdown emphasis marks (see `stripEmphasis`). */
function unemphasise(line: string): string {
  let l = line;
  const w = WHOLE_EMPHASIS.exec(l);
  if (w) l = w[1] + w[3] + w[4];
  return l.indexOf("**") >= 0 ? l.replace(STRONG, "$1$2") : l;
}

/**
 * `lines` without Markdown emphasis (a log line pasted outside a code block and partly set in
 * bold: `E0607 … **remote_runtime**.go:116] "**RunPodSandbox from runtime service failed**"`,
 * or a whole line in `**…**`, `__…__`, `*…*`), or null when none of the first `max` lines holds
 * any. `**` inside a word or next to a slash (a path glob), and `__` inside a line
 * (`__init__`), are not emphasis and stay.
 */
export function stripEmphasis(lines: readonly string[], max = 400): string[] | null {
  const n = Math.min(lines.length, max);
  let found = false;
  for (let i = 0; i < n && !found; i++) {
    const l = lines[i];
    if (l.indexOf("**") >= 0) {
      STRONG.lastIndex = 0;
      found = STRONG.test(l) || WHOLE_EMPHASIS.test(l);
    } else if (l.length > 2) {
      const t = l.trimStart().charCodeAt(0);
      found = (t === 42 || t === 95) && WHOLE_EMPHASIS.test(l);
    }
  }
  STRONG.lastIndex = 0;
  if (!found) return null;
  return lines.map(unemphasise);
}

/** The emphasis transform (see the module comment). */
export const emphasisTransform: LineTransform = {
  name: "emphasis",
  apply(lines) {
    const out = lines.length > 0 ? stripEmphasis(lines) : null;
    return out ? { lines: out } : null;
  },
  samples: [
    {
      lines: ["**kubelet:**", "__Sep 02 09:41:07 n k[1]: x__", "*Here it is*"],
      expect: ["kubelet:", "Sep 02 09:41:07 n k[1]: x", "Here it is"],
    },
  ],
  notMine: [["copy /etc/cni/**/*.conflist", "loading __init__.py", "a**b**c"]],
};
