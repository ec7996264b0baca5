/**
 * Which format a file is in: the registry's sniffs over the first `SNIFF_LINES` lines that are
 * neither blank, banners, collector noise nor paste furniture (paste.ts); when nothing takes them,
 * the same without lines that look like a terminal's wrapped tails, then without prose typed
 * around the paste; then a tool-prefix stack (line-prefix.ts). Pure.
 */
import { isBlank } from "./file-lines";
import { parseComponentMessage } from "./helpers/component";
import { isJournalBanner } from "./helpers/journal-banner";
import { parseKlogHeader } from "./klog";
import { planPrefix, type PrefixPlan } from "./line-prefix";
import { detectWrapWidth, Furniture, isProse, isWrapTail } from "./paste";
import { FORMAT_REGISTRY } from "./registry";
import type { FormatSpec } from "./types";

/** Lines handed to `sniff`. */
export const SNIFF_LINES = 20;

/** Banner lines left out of the sniff input: journal separators/headers and the klog file header. */
export function isSniffBanner(line: string): boolean {
  const c = line.charCodeAt(0);
  if (c === 45) return isJournalBanner(line);
  if (c === 76 || c === 82 || c === 66 || c === 80) return parseKlogHeader(line) !== null;
  return false;
}

/**
 * The first `max` non-empty, non-banner lines (the sniff input); lines marked as noise and paste
 * banners (prompts, comments, fences: paste.ts) are left out.
 */
export function sniffLines(lines: readonly string[], max = SNIFF_LINES, noise?: ReadonlyArray<string | undefined> | null): string[] {
  return sniffWindow(lines, max, noise).first;
}

/**
 * `sniffLines`, and how many paste banners (furniture: paste.ts) the window held. With a wrap
 * width `wrap` (> 0), lines that look like the wrapped tail of the line before them are left out
 * too: the sniff looks at lines that start records. With `prose`, sentences typed around the
 * paste (paste.ts `isProse`) are left out.
 */
function sniffWindow(
  lines: readonly string[],
  max: number,
  noise?: ReadonlyArray<string | undefined> | null,
  wrap = 0,
  prose = false,
): { first: string[]; pasteBanners: number } {
  const out: string[] = [];
  let pasteBanners = 0;
  const furniture = new Furniture();
  for (let i = 0; i < lines.length && out.length < max; i++) {
    const l = lines[i];
    if (isBlank(l) || isSniffBanner(l) || (noise && noise[i] !== undefined)) continue;
    if (furniture.test(l, i)) {
      pasteBanners++;
      continue;
    }
    if (wrap > 0 && i > 0 && isWrapTail(l, lines[i - 1], wrap)) continue;
    if (prose && isProse(l)) continue;
    out.push(l.length > 4096 ? l.slice(0, 4096) : l);
  }
  return { first: out, pasteBanners };
}

/** What the sniff of a file found: its format, prefix stack, and the paste banners in its window. */
export interface SniffResult {
  spec: FormatSpec | null;
  plan: PrefixPlan | null;
  pasteBanners: number;
  first: string[];
}

/**
 * Sniff `lines`: the registry on the sniff window; when nothing takes it, the window without
 * wrapped tails (a table whose rows a terminal wrapped), then without prose lines; then a prefix
 * stack (line-prefix.ts).
 */
export function sniffLinesOf(path: string, lines: readonly string[], noise: ReadonlyArray<string | undefined> | null): SniffResult {
  let win = sniffWindow(lines, SNIFF_LINES, noise);
  let spec = sniffFormat(path, win.first);
  if (spec === null && win.first.length > 1) {
    const w = detectWrapWidth(lines);
    if (w > 0) {
      const win2 = sniffWindow(lines, SNIFF_LINES, noise, w);
      const spec2 = win2.first.length < win.first.length ? sniffFormat(path, win2.first) : null;
      if (spec2) {
        win = win2;
        spec = spec2;
      }
    }
  }
  if (spec === null && win.first.length > 1) {
    // sentences a reviewer typed around a short paste can outnumber its records
    const win3 = sniffWindow(lines, SNIFF_LINES, noise, 0, true);
    const spec3 = win3.first.length > 0 && win3.first.length < win.first.length ? sniffFormat(path, win3.first) : null;
    if (spec3) {
      win = win3;
      spec = spec3;
    }
  }
  let plan: PrefixPlan | null = null;
  const first = win.first;
  if (first.length > 0 && (spec === null || (spec.name === "kubectl-timestamps" && !timestampPayloadsAreComponentLines(first)))) {
    plan = planPrefix(path, first, sniffFormat);
    if (plan) spec = plan.spec;
  }
  return { spec, plan, pasteBanners: win.pasteBanners, first };
}

/** First registry spec whose `sniff` accepts the file (`firstLines`: see `sniffLines`), or null. */
export function sniffFormat(path: string, firstLines: string[]): FormatSpec | null {
  for (const spec of FORMAT_REGISTRY) if (spec.sniff(path, firstLines)) return spec;
  return null;
}

/** Payloads after a `--timestamps` stamp that are component lines (kubectl-timestamps reads them). */
function timestampPayloadsAreComponentLines(first: readonly string[]): boolean {
  let n = 0;
  let ok = 0;
  for (const l of first) {
    const sp = l.indexOf(" ");
    if (sp < 0) continue;
    n++;
    if (parseComponentMessage(l.slice(sp + 1)) !== null) ok++;
  }
  return n > 0 && ok * 2 >= n;
}
