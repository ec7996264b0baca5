/**
 * Pager cut marks: `less -S` (and editors without wrapping) end a line cut at the screen's right
 * edge with `>` (some with `$`); every cut line then has the same length, the screen width.
 * `cat -A` / `cat -e` end every line with `$`. The mark goes before anything reads the lines.
 */
import type { LineTransform } from "./types";

/** The right-edge mark a pager left on cut lines, and the screen width it cut at. */
export interface PagerCut {
  mark: string;
  /** length (UTF-16 units) of the cut lines, mark included (longer lines with the mark are cut too); 0 = every line carries the mark (`cat -A`) */
  width: number;
}

/**
 * A pager's right-edge cut mark in `lines`, or null: the length most lines ending with `>` (or
 * `$`) share is the screen's width when two or more lines end there and no line is longer, or
 * three or more do and every longer line ends with the mark too (a line holding wide characters
 * or tabs is cut at another length); or every non-blank line ends with `$` (`cat -A`). Looks at
 * the first `max` lines.
 */
export function detectPagerCut(lines: readonly string[], max = 400): PagerCut | null {
  const n = Math.min(lines.length, max);
  let nonBlank = 0;
  let dollars = 0;
  const byLen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const l = lines[i];
    if (l.length === 0) continue;
    nonBlank++;
    const last = l.charCodeAt(l.length - 1);
    if (last === 36) dollars++;
    if ((last === 62 || last === 36) && l.length >= 40) {
      const key = `${l[l.length - 1]}${l.length}`;
      byLen.set(key, (byLen.get(key) ?? 0) + 1);
    }
  }
  if (nonBlank >= 2 && dollars === nonBlank) return { mark: "$", width: 0 };
  let best: string | null = null;
  let bestCount = 1;
  for (const [key, count] of byLen) {
    if (count > bestCount || (count === bestCount && best !== null && Number(key.slice(1)) > Number(best.slice(1)))) {
      best = key;
      bestCount = count;
    }
  }
  if (best === null) return null;
  const mark = best[0];
  const width = Number(best.slice(1));
  let longer = 0;
  for (let i = 0; i < n; i++) {
    const l = lines[i];
    if (l.length <= width) continue;
    if (!l.endsWith(mark)) return null;
    longer++;
  }
  if (longer > 0 && bestCount < 3) return null;
  return { mark, width };
}

/** `line` without the pager's mark when it is a cut line. */
export function stripPagerCut(line: string, cut: PagerCut): string {
  if (cut.width === 0) return line.endsWith("$") ? line.slice(0, -1) : line;
  return line.length >= cut.width && line.endsWith(cut.mark) ? line.slice(0, -1) : line;
}

/** The pager-cut transform (see the module comment). */
export const pagerCutTransform: LineTransform = {
  name: "pager-cut",
  apply(lines) {
    const cut = lines.length > 1 ? detectPagerCut(lines) : null;
    return cut ? { lines: lines.map((l) => stripPagerCut(l, cut)), pagerMark: cut.mark } : null;
  },
  samples: [
    {
      // `less -S` at 107 columns: the two long lines end in `>` at the screen's edge
      lines: [
        'I0607 10:00:01.000000    1234 kubelet.go:2100] "SyncLoop ADD" source="api" pods=[kube-system/calico-node-x>',
        'E0607 10:00:02.000000    1234 remote_runtime.go:193] "RunPodSandbox from runtime service failed" err="rpc:>',
        "I0607 10:00:03.000000    1234 kubelet.go:2200] short line",
      ],
      expect: [
        'I0607 10:00:01.000000    1234 kubelet.go:2100] "SyncLoop ADD" source="api" pods=[kube-system/calico-node-x',
        'E0607 10:00:02.000000    1234 remote_runtime.go:193] "RunPodSandbox from runtime service failed" err="rpc:',
        "I0607 10:00:03.000000    1234 kubelet.go:2200] short line",
      ],
    },
    {
      lines: ["Jun 07 10:00:01 node-1 kubelet[1234]: started$", "Jun 07 10:00:02 node-1 kubelet[1234]: ready$"],
      expect: ["Jun 07 10:00:01 node-1 kubelet[1234]: started", "Jun 07 10:00:02 node-1 kubelet[1234]: ready"],
    },
  ],
  notMine: [["Jun 07 10:00:01 node-1 kubelet[1234]: a -> b", "Jun 07 10:00:02 node-1 kubelet[1234]: ready"]],
};
