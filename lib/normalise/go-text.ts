/**
 * Small readers for the Go-formatted text that Kubernetes node components print
 * (quoting as Go's `strconv.Quote` writes it): Go-quoted strings (klog structured messages,
 * logrus values, `%q` inside error chains) and `key=value` tails (klog structured pairs, logrus and
 * logfmt fields).
 *
 * The parsers in `lib/parse` already split records into a message and unescaped
 * fields; these helpers let the classifier work on records whose fields were not
 * split (a component line the parser only partly understood) and unescape error
 * chains that nest quoting several levels deep (case 001: klog quotes the `err`
 * value, whose text quotes the kubelet's `%q` of containerd's error, which quotes the
 * sandbox id and the plugin type: three levels of `\"`).
 *
 * Pure, no I/O.
 */

/**
 * Read one Go-quoted string starting at `start` (which must be a `"`).
 * Handles `\"`, `\\`, `\n`, `\t`, `\r`, `\xNN`, `\uNNNN`, `\UNNNNNNNN`, octal `\NNN`.
 * An unterminated string (a line cut by the collector, case 070) runs to the end.
 * @returns the unquoted value and the index just after the closing quote; null when
 *   `s[start]` is not a quote.
 */
export function readGoQuoted(s: string, start: number): { value: string; end: number; terminated: boolean } | null {
  if (s[start] !== '"') return null;
  let out = "";
  let i = start + 1;
  while (i < s.length) {
    const c = s[i];
    if (c === '"') return { value: out, end: i + 1, terminated: true };
    if (c !== "\\" || i + 1 >= s.length) {
      out += c;
      i++;
      continue;
    }
    const n = s[i + 1];
    switch (n) {
      case "n":
        out += "\n";
        i += 2;
        break;
      case "t":
        out += "\t";
        i += 2;
        break;
      case "r":
        out += "\r";
        i += 2;
        break;
      case '"':
      case "\\":
      case "'":
        out += n;
        i += 2;
        break;
      case "x": {
        const hex = s.slice(i + 2, i + 4);
        if (/^[0-9a-fA-F]{2}$/.test(hex)) {
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
        } else {
          out += "\\x";
          i += 2;
        }
        break;
      }
      case "u":
      case "U": {
        const len = n === "u" ? 4 : 8;
        const hex = s.slice(i + 2, i + 2 + len);
        if (new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) {
          const cp = parseInt(hex, 16);
          out += cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
          i += 2 + len;
        } else {
          out += "\\" + n;
          i += 2;
        }
        break;
      }
      default:
        if (/[0-7]/.test(n) && /^[0-7]{3}$/.test(s.slice(i + 1, i + 4))) {
          out += String.fromCharCode(parseInt(s.slice(i + 1, i + 4), 8));
          i += 4;
        } else {
          out += "\\" + n;
          i += 2;
        }
    }
  }
  return { value: out, end: s.length, terminated: false };
}

/**
 * Remove every level of Go quoting from a text: each pass turns `\\` into `\` and
 * `\"` into `"` (one level of `%q`), until nothing changes (at most `maxDepth`
 * passes); then escaped newlines and tabs (`\n`, `\t`, `\r`) become spaces and each
 * run of real CR/LF/TAB characters one space.
 * `a \\\"b\\\"` (three levels) becomes `a "b"`.
 *
 * Built in one walk from backslash run to backslash run (no replace passes): a pass only
 * shortens each run of k backslashes (to floor(k/2) before a `"`, where the last one
 * escapes the quote, else to ceil(k/2)) and runs never merge, so the number of passes
 * that run (`passesNeeded`) and what each run becomes after them follow from the runs.
 */
export function unescapeNested(text: string, maxDepth = 8): string {
  let bs = text.indexOf("\\");
  const lf = text.indexOf("\n");
  const tab = text.indexOf("\t");
  const cr = text.indexOf("\r");
  if (bs < 0 && lf < 0 && tab < 0 && cr < 0) return text;
  const controls = new Controls(text, lf, tab, cr);
  const n = text.length;
  const allowed = maxDepth > 0 ? Math.ceil(maxDepth) : 0;
  const depth = bs < 0 ? 0 : Math.min(allowed, passesNeeded(text, bs));
  const scale = 2 ** depth;
  let out = "";
  let plain = 0; // start of the text not yet copied
  let ctl = controls.next;
  while (bs >= 0 || ctl >= 0) {
    if (bs >= 0 && (ctl < 0 || bs < ctl)) {
      // a run of backslashes and the character after it
      let j = bs + 1;
      while (j < n && text.charCodeAt(j) === BS) j++;
      const k = j - bs;
      const next = j < n ? text.charCodeAt(j) : -1;
      out += text.slice(plain, bs);
      if (next === DQ) {
        out += "\\".repeat(Math.floor(k / scale)) + '"';
        plain = j + 1;
      } else {
        const left = Math.ceil(k / scale);
        if (next === 110 || next === 116 || next === 114) {
          // n t r: the last backslash and its letter become a space
          out += "\\".repeat(left - 1) + " ";
          plain = j + 1;
        } else {
          out += "\\".repeat(left);
          plain = j;
        }
      }
      bs = text.indexOf("\\", plain);
      if (ctl >= 0 && ctl < plain) ctl = controls.from(plain);
    } else {
      // a run of CR/LF/TAB: one space
      let j = ctl + 1;
      while (j < n && isControl(text.charCodeAt(j))) j++;
      out += text.slice(plain, ctl) + " ";
      plain = j;
      ctl = controls.from(j);
    }
  }
  return out + text.slice(plain);
}

function isControl(c: number): boolean {
  return c === 10 || c === 13 || c === 9;
}

/**
 * The CR, LF and TAB characters of a text, found in order with `indexOf` (a search for one
 * character is much cheaper than a character-class regex scan): `next` is the index of the first
 * one at or after the last `from` (-1 when none), each kind searched again only once passed, so
 * `from` must be called with non-decreasing positions.
 */
class Controls {
  next: number;
  /** `lf`, `tab`, `cr`: the first index of each in `text` (-1 when none) */
  constructor(
    private readonly text: string,
    private lf: number,
    private tab: number,
    private cr: number,
  ) {
    this.next = this.least();
  }
  /** Index of the first CR, LF or TAB at or after `pos`, -1 when none. */
  from(pos: number): number {
    if (this.lf >= 0 && this.lf < pos) this.lf = this.text.indexOf("\n", pos);
    if (this.tab >= 0 && this.tab < pos) this.tab = this.text.indexOf("\t", pos);
    if (this.cr >= 0 && this.cr < pos) this.cr = this.text.indexOf("\r", pos);
    this.next = this.least();
    return this.next;
  }
  private least(): number {
    let m = this.lf;
    if (this.tab >= 0 && (m < 0 || this.tab < m)) m = this.tab;
    if (this.cr >= 0 && (m < 0 || this.cr < m)) m = this.cr;
    return m;
  }
}

const BS = 92; // backslash
const DQ = 34; // "

/** Bit length of a positive integer (1 → 1, 2..3 → 2, 4..7 → 3). */
function bitLength(k: number): number {
  let b = 0;
  while (k > 0) {
    b++;
    k = Math.floor(k / 2);
  }
  return b;
}

/**
 * Passes of `\\` → `\`, `\"` → `"` that change `text`: the most any backslash run needs, a run of k needing bitLength(k)
 * halvings to vanish before a quote, bitLength(k - 1) to come down to one elsewhere. `first` is the
 * index of the text's first backslash.
 */
function passesNeeded(text: string, first: number): number {
  const n = text.length;
  let need = 0;
  let i = first;
  while (i >= 0) {
    let j = i + 1;
    while (j < n && text.charCodeAt(j) === BS) j++;
    const k = j - i;
    const p = j < n && text.charCodeAt(j) === DQ ? bitLength(k) : bitLength(k - 1);
    if (p > need) need = p;
    i = j < n ? text.indexOf("\\", j + 1) : -1;
  }
  return need;
}

const KEY_RE = /[A-Za-z_][\w.\-/]*/y;

/**
 * Parse `key=value` pairs as klog (structured), logrus and logfmt print them:
 * values are Go-quoted strings, `{...}` JSON-ish objects (klog prints
 * `podSandboxID={"Type":"containerd","ID":"..."}`), klog multi-line `<\n...\n >`
 * blocks, or bare tokens. Text that is not a pair is skipped.
 * Values are returned unescaped (one level).
 */
export function parseKeyValues(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < s.length) {
    while (i < s.length && /\s/.test(s[i])) i++;
    if (i >= s.length) break;
    KEY_RE.lastIndex = i;
    const m = KEY_RE.exec(s);
    if (!m || s[i + m[0].length] !== "=") {
      // not a pair: skip this token (a quoted token whole)
      if (s[i] === '"') {
        const q = readGoQuoted(s, i);
        i = q ? q.end : i + 1;
      } else {
        while (i < s.length && !/\s/.test(s[i])) i++;
      }
      continue;
    }
    const key = m[0];
    let j = i + key.length + 1;
    let value = "";
    if (s[j] === '"') {
      const q = readGoQuoted(s, j)!;
      value = q.value;
      j = q.end;
    } else if (s[j] === "{" || s[j] === "[") {
      const end = balancedEnd(s, j);
      value = s.slice(j, end);
      j = end;
    } else if (s[j] === "<" && (s[j + 1] === "\n" || s.startsWith("<\\n", j))) {
      const close = s.indexOf(">", j);
      const end = close < 0 ? s.length : close + 1;
      value = s
        .slice(j + 1, end - 1)
        .replace(/^(\\n|\n)/, "")
        .trim();
      j = end;
    } else {
      let k = j;
      while (k < s.length && !/\s/.test(s[k])) k++;
      value = s.slice(j, k);
      j = k;
    }
    out[key] = value;
    i = j;
  }
  return out;
}

/** Index just after the bracket that closes the one at `start`, honouring quoted strings. */
function balancedEnd(s: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < s.length) {
    const c = s[i];
    if (c === '"') {
      const q = readGoQuoted(s, i);
      i = q ? q.end : i + 1;
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return s.length;
}

/** A logrus / logfmt line's start: `[time=… ]level=… msg=` */
const LOGRUS_HEAD_RE = /^(?:time="?[^"\s]*"? )?level=\w+ msg=/;

/**
 * Split a component message into its headline and fields:
 * - klog structured `"<msg>" k="v" ...` -> msg, pairs;
 * - logrus / logfmt `time="..." level=... msg="..." k=v` -> msg, pairs;
 * - anything else -> the message itself, no pairs.
 */
export function splitStructured(message: string): { headline: string; fields: Record<string, string> } {
  const m = message.trimStart();
  if (m.startsWith('"')) {
    const q = readGoQuoted(m, 0)!;
    return { headline: q.value, fields: parseKeyValues(m.slice(q.end)) };
  }
  if (LOGRUS_HEAD_RE.test(m)) {
    const fields = parseKeyValues(m);
    return { headline: fields.msg ?? m, fields };
  }
  return { headline: message, fields: {} };
}
