/**
 * A decoded file's physical lines: split on LF (CRLF's CR dropped; a leading BOM dropped; a last
 * line without newline counts, the empty string after a final newline does not), blank lines, and
 * lines over `MAX_LINE_BYTES` (UTF-8) cut with a marker `…[truncated N bytes]` (as Loki does).
 * Pure.
 */
import { LIMITS } from "../bundle/limits";

/** Longest line kept whole, in UTF-8 bytes (64 KiB; BOOTLINE_MAX_LINE_BYTES, lib/bundle/limits.ts). */
export const MAX_LINE_BYTES = LIMITS.maxLineBytes;

/** Split decoded text into physical lines (LF or CRLF; see module comment). */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  let t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (t.length === 0) return [];
  if (t.charCodeAt(t.length - 1) === 10) t = t.slice(0, -1);
  const lines = t.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.length > 0 && l.charCodeAt(l.length - 1) === 13) lines[i] = l.slice(0, -1);
  }
  return lines;
}

/** Whitespace-only (or empty) line. */
export function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const c = line.charCodeAt(0);
  if (c !== 32 && c !== 9 && c !== 13 && c !== 12 && c !== 11) return false;
  return line.trim().length === 0;
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Cut a line to `MAX_LINE_BYTES` UTF-8 bytes: the kept text and the bytes cut, or null when it fits. */
export function truncateLine(line: string, maxBytes = MAX_LINE_BYTES): { text: string; cut: number } | null {
  if (line.length * 3 <= maxBytes) return null;
  const total = utf8Length(line);
  if (total <= maxBytes) return null;
  let b = 0;
  let i = 0;
  while (i < line.length) {
    const c = line.charCodeAt(i);
    const w = c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : 3;
    if (b + w > maxBytes) break;
    b += w;
    i += w === 4 ? 2 : 1;
  }
  return { text: line.slice(0, i), cut: total - b };
}

/** Marker appended to a cut line. */
export function truncationMarker(cut: number): string {
  return `…[truncated ${cut} bytes]`;
}
