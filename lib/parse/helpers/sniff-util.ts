/** Helpers for the cheap, strict `sniff` of each format spec (it sees a file's first 20 non-empty, non-banner lines). */

/**
 * Shared sniff rule: at least one of the first lines matches, and either the first line does or at
 * least half of them do (files may start with a stray warning, or hold multi-line records).
 * Indented lines (continuations of multi-line records) are left out of the count.
 */
export function sniffRatio(lines: string[], re: RegExp, test?: (l: string) => boolean): boolean {
  let hits = 0;
  let total = 0;
  let first = false;
  for (const l of lines) {
    const c = l.charCodeAt(0);
    if (c === 32 || c === 9) continue;
    const ok = test ? test(l) : re.test(l);
    if (ok) {
      hits++;
      if (total === 0) first = true;
    }
    total++;
  }
  return hits > 0 && (first || hits * 2 >= total);
}
