/**
 * The shape of the lines no format read: a file's lines that are neither a record (nor one of its
 * continuation lines), a banner, blank, nor a collector's noise, mined with the same Drain tree as
 * the events (drain.ts), so a file no format claims (or the part of one that was not read) shows
 * its templates instead of nothing. Kept per file (`SourceFile.unreadPatterns`): such lines have
 * no time, hence no boot.
 */
import { markNoise } from "../parse/noise";
import { Drain, templateText } from "./drain";

/** One template of a file's unread lines. */
export interface UnreadPattern {
  template: string;
  count: number;
  /** 1-based line of its first line in the file */
  firstLine: number;
}

/** Unread lines mined per file at most (a file of millions of unknown lines: its head's shape). */
export const MAX_UNREAD_LINES = 200_000;
/** Templates kept per file, most frequent first. */
export const MAX_UNREAD_TEMPLATES = 30;

/**
 * The templates of the unread lines of `lines` (a file's lines, in order): `taken` lists the
 * 1-based line ranges records and banners took; `noise` the collector's noise rules
 * (lib/parse/noise.ts) whose lines are known for what they are and left out.
 */
export function unreadPatterns(lines: readonly string[], taken: Iterable<{ line: number; endLine?: number }>, noise: readonly string[] = []): UnreadPattern[] {
  const used = new Uint8Array(lines.length + 2);
  for (const t of taken) for (let l = Math.max(1, t.line); l <= Math.min(lines.length, t.endLine ?? t.line); l++) used[l] = 1;
  const noisy = noise.length ? markNoise(lines, noise) : null;
  const d = new Drain<{ count: number; firstLine: number } | null>(() => null);
  let mined = 0;
  for (let i = 0; i < lines.length && mined < MAX_UNREAD_LINES; i++) {
    const l = lines[i];
    if (used[i + 1] || noisy?.[i] || l.trim() === "") continue;
    mined++;
    const c = d.addMessage(l.trim());
    if (!c.stats) c.stats = { count: 0, firstLine: i + 1 };
    c.stats.count++;
  }
  return d.clusters
    .filter((c) => c.stats)
    .map((c) => ({ template: templateText(c.tokens), count: c.stats!.count, firstLine: c.stats!.firstLine }))
    .sort((a, b) => b.count - a.count || a.firstLine - b.firstLine)
    .slice(0, MAX_UNREAD_TEMPLATES);
}
