/**
 * klog's multi-line values (`key=<`, each line led by a tab, then ` >`: `k8s.io/klog/v2`
 * `textlogger`) put on their records as fields, after a file's records are settled; also in
 * newest-first journals (`journalctl -r`), where each line of the block is an entry of its own
 * that comes before its record. Pure.
 */
import type { FileRecord } from "./file-types";
import { scanPairs } from "./helpers/text-scan";

/** The key of a klog multi-line value the message opens at its end (`… err=<`), or null. */
function openBlockKey(msg: string): string | null {
  const n = msg.length;
  if (n < 3 || msg.charCodeAt(n - 1) !== 60 || msg.charCodeAt(n - 2) !== 61) return null;
  let i = n - 2;
  while (i > 0 && /[\w.\-/]/.test(msg[i - 1])) i--;
  return i < n - 2 ? msg.slice(i, n - 2) : null;
}

/** A record that is only a line of a klog block (journald wrote each line as an entry): starts with a blank or is klog's ` >` close. */
function isBlockLine(msg: string): boolean {
  const c = msg.charCodeAt(0);
  return (c === 32 || c === 9 || (c === 62 && (msg.length === 1 || msg.charCodeAt(1) === 32))) && openBlockKey(msg) === null;
}

/** `text` (continuation text: each line led by a newline) as lines. */
function extraLines(text: string | undefined): string[] {
  return text === undefined || text.length === 0 ? [] : text.slice(1).split("\n");
}

/** `lines` without the tab klog puts before each line of a block (or the blanks all of them share). */
function dedent(lines: string[]): string[] {
  let tabs = true;
  let min = Number.POSITIVE_INFINITY;
  for (const l of lines) {
    if (l.trim().length === 0) continue;
    if (l.charCodeAt(0) !== 9) tabs = false;
    const m = l.length - l.trimStart().length;
    if (m < min) min = m;
  }
  if (min === Number.POSITIVE_INFINITY) return lines.map(() => "");
  return lines.map((l) => (l.trim().length === 0 ? "" : tabs ? l.slice(1) : l.slice(min)));
}

/** `r`'s message without its continuation text `ex`. */
function baseMessage(r: FileRecord, ex: string | undefined): string {
  return ex !== undefined && r.message.endsWith(ex) ? r.message.slice(0, r.message.length - ex.length) : r.message;
}

/**
 * Do klog blocks come before their records (a newest-first journal, `journalctl -r`)? A record
 * opening a block (`err=<`) followed at once by the block's close ` >`, or with no continuation
 * right after a record that has some, says so; one followed by the block's first line says not.
 */
export function klogBlocksReversed(recs: FileRecord[], extra: Map<number, string>): boolean {
  let rev = 0;
  let fwd = 0;
  for (const [k, own] of extra) {
    if (openBlockKey(baseMessage(recs[k], own)) !== null) {
      const first = extraLines(own)[0].trimStart();
      if (first.charCodeAt(0) === 62 && (first.length === 1 || first.charCodeAt(1) === 32)) rev++;
      else fwd++;
    }
    const next = recs[k + 1];
    if (next !== undefined && !extra.has(k + 1) && openBlockKey(next.message) !== null) rev++;
  }
  return rev > fwd;
}

/**
 * Set `key` (and any later open value) of `rec` from a klog block's lines in time order: the lines
 * up to the closing ` >` (klog's text logger, `k8s.io/klog/v2` `textlogger`: `key=<`, each line
 * led by a tab, then ` >`), dedented and joined by newlines; pairs after the close (` > pod="x"`)
 * are read too. An unclosed block (cut paste) gives the lines there are.
 */
function fillBlock(rec: FileRecord, key: string, lines: string[]): void {
  const fields = (rec.fields ??= {});
  let open: string | null = key;
  let body: string[] = [];
  for (const l of lines) {
    const t = l.trimStart();
    if (t.charCodeAt(0) === 62 && (t.length === 1 || t.charCodeAt(1) === 32)) {
      if (open !== null) fields[open] = dedent(body).join("\n");
      const rest = t.slice(1).trim();
      open = null;
      body = [];
      if (rest.length > 0) {
        scanPairs(rest, 0, fields, true);
        open = openBlockKey(rest);
      }
      if (open === null) return;
      continue;
    }
    body.push(l);
  }
  if (open !== null && body.length > 0) fields[open] = dedent(body).join("\n");
}

/**
 * Values of klog's multi-line blocks put on their records (after `Entries.settle`; `extra`: the
 * continuation text by record index). In file order a block follows its record. In a newest-first
 * journal (each block line its own entry) the block's lines come before their record, last line
 * first: the lines between the record before it and it (that record's continuations, or records
 * that are only block lines, at the file's start) move to it, in time order. Returns the records
 * that were block lines (to drop), or null.
 */
export function klogBlocks(recs: FileRecord[], extra: Map<number, string>, reversed: boolean): Set<FileRecord> | null {
  if (!reversed) {
    for (const [k, text] of extra) {
      const r = recs[k];
      if (!r.message.endsWith(text)) continue;
      const key = openBlockKey(r.message.slice(0, r.message.length - text.length));
      if (key !== null) fillBlock(r, key, extraLines(text));
    }
    return null;
  }
  let dropped: Set<FileRecord> | null = null;
  // last record first: a record's continuations move to the record after it before it is read
  for (let k = recs.length - 1; k >= 0; k--) {
    const r = recs[k];
    const own = extra.get(k);
    const base = own !== undefined && r.message.endsWith(own) ? r.message.slice(0, r.message.length - own.length) : r.message;
    const key = openBlockKey(base);
    if (key === null) continue;
    let lines: string[] = [];
    for (let j = k - 1; j >= 0; j--) {
      const p = recs[j];
      if (dropped?.has(p)) break;
      const ex = extra.get(j);
      const pBase = ex !== undefined && p.message.endsWith(ex) ? p.message.slice(0, p.message.length - ex.length) : p.message;
      if (isBlockLine(pBase)) {
        lines = [pBase, ...extraLines(ex), ...lines];
        (dropped ??= new Set()).add(p);
        continue;
      }
      if (ex !== undefined && p.message.endsWith(ex)) {
        lines = [...extraLines(ex), ...lines];
        p.message = pBase;
        const nl = p.raw.indexOf("\n");
        if (nl >= 0) p.raw = p.raw.slice(0, nl);
        p.endLine = p.line;
        extra.delete(j);
      }
      break;
    }
    if (lines.length === 0) continue;
    lines.reverse();
    // the record's own continuation text (the next record's block, in a newest-first file) went above
    r.message = `${extra.has(k) ? base : r.message}\n${lines.join("\n")}`;
    fillBlock(r, key, lines);
  }
  return dropped;
}
