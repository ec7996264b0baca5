/**
 * The line logic the journal and syslog text envelopes share (journal-short, journal-short-iso,
 * -full, -unix, -monotonic, with-unit, syslog-rfc3164 and -rfc5424): banners, continuations and
 * records read by a format's own record reader (`JournalEnvelopeParser`). Pure.
 */
import { lastEnvelopeWasKlog } from "./helpers/component";
import { isDumpLine, isDumpStart } from "./go-panic";
import { parseJournalBanner } from "./helpers/journal-banner";
import type { LineParser, LineResult } from "./types";

/** ` 1月 05 …` / ` 3월 09 …`: a ja/ko/zh_TW month 1-9 that glibc pads with a blank (a record, not a continuation). */
export function isPaddedCjkMonth(line: string): boolean {
  const d = line.charCodeAt(1);
  if (d < 49 || d > 57) return false;
  const m = line.charCodeAt(2);
  return m === 0x6708 || m === 0xc6d4;
}

/**
 * Line logic shared by the journal/syslog text envelopes (journal-short, journal-short-iso,
 * syslog-rfc5424): banner; continuation (a line indented with blanks: a multi-line MESSAGE); record.
 * A record whose MESSAGE itself starts with a blank (or is klog's closing ` >`), written under the
 * same identifier and pid right after a klog record, is a continuation too: journald splits a
 * multi-line klog value (`key=<\n\t…\n >`) into entries that each carry the prefix.
 * Likewise a Go panic or goroutine dump (go-panic.ts) written to stderr arrives one entry per line:
 * the entries after its first line, under the same identifier and pid, that are dump lines
 * (frames, `file:line +0x…`, `goroutine N [state]:`, blanks) continue it: one multi-line event.
 * And a klog message that leaves a quote open (the CNI error it quotes held a newline, as
 * dockershim and openshift-sdn print `CNI request failed with status 400: 'failed …` then `'`)
 * goes on in the entries after it under the same identifier and pid, up to the one holding the
 * closing quote, unless one starts a klog header.
 */
export class JournalEnvelopeParser implements LineParser {
  readonly settled = true;
  private lastIdent: string | undefined = undefined;
  private lastPid: number | undefined = undefined;
  private lastWasKlog = false;
  private inDump = false;
  /**
   * the quote a klog record's message left open (its error went on in the next entry), or null;
   * undefined: not read yet from `quotedMessage` (read only when an entry after it may continue it)
   */
  private openQuote: string | null | undefined = null;
  /** the message `openQuote` is read from */
  private quotedMessage = "";

  constructor(private readonly parseRecord: (line: string) => LineResult) {}

  parseLine(line: string): LineResult {
    const c = line.charCodeAt(0);
    if (c === 45) {
      const b = parseJournalBanner(line);
      if (!b) return null;
      this.lastWasKlog = false;
      this.inDump = false;
      return { type: "banner", banner: b };
    }
    if (c === 32 || c === 9) {
      if (!isPaddedCjkMonth(line)) return { type: "continuation", text: line.trimStart() };
    } else if (c === 35) {
      // `# …` / `##` notes a user put above a pasted excerpt (no journal line starts with `#`)
      return { type: "banner", banner: { type: "header" } };
    }
    const res = this.parseRecord(line);
    if (res === null || res.type !== "record") return res;
    const r = res.record;
    // whether this entry's MESSAGE is a klog line (its header is already read off `r.message`)
    const klog = lastEnvelopeWasKlog();
    const same = r.ident === this.lastIdent && r.pid === this.lastPid;
    if (this.lastWasKlog && same && r.time !== null) {
      const m = r.message;
      const m0 = m.charCodeAt(0);
      if (m0 === 9 || m0 === 32 || m === ">") return { type: "continuation", text: m };
      // the rest of a message whose quoted error held a newline (`… status 400: 'failed …` / `'`)
      if (!klog) {
        if (this.openQuote === undefined) this.openQuote = openQuoteOf(this.quotedMessage);
        if (this.openQuote !== null && !KLOG_HEAD_RE.test(m)) {
          if (m.indexOf(this.openQuote) >= 0) this.openQuote = null;
          return { type: "continuation", text: m };
        }
      }
    }
    if (this.inDump && same && isDumpLine(r.message)) return { type: "continuation", text: r.message };
    this.inDump = isDumpStart(r.message);
    if (this.inDump) r.severity = 4;
    this.lastIdent = r.ident;
    this.lastPid = r.pid;
    this.lastWasKlog = klog;
    this.openQuote = this.lastWasKlog ? undefined : null;
    this.quotedMessage = this.lastWasKlog ? r.message : "";
    return res;
  }
}

/** A klog header at a message's start (`E0305 08:01:20.441190 `). */
const KLOG_HEAD_RE = /^[IWEF]\d{4} \d\d:\d\d:\d\d/;

/**
 * The quote (`'` or `"`) a message leaves open: an odd count of it, one of them opening after a
 * blank (`: 'failed …`); escaped double quotes do not count. null when none is open.
 */
function openQuoteOf(m: string): string | null {
  // each count only where its opening blank is there; indexOf jumps from quote to quote
  if (m.indexOf(" '") >= 0) {
    let single = 0;
    for (let i = m.indexOf("'"); i >= 0; i = m.indexOf("'", i + 1)) single++;
    if (single % 2 === 1) return "'";
  }
  if (m.indexOf(' "') >= 0) {
    let double = 0;
    for (let i = m.indexOf('"'); i >= 0; i = m.indexOf('"', i + 1)) if (m.charCodeAt(i - 1) !== 92) double++;
    if (double % 2 === 1) return '"';
  }
  return null;
}
