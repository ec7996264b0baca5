/**
 * Small readers for the Go-formatted text that Kubernetes node components print
 * (FORMATS.md Part 3): Go-quoted strings (klog structured messages, logrus values,
 * `%q` inside error chains) and `key=value` tails (klog structured pairs, logrus and
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
 * passes); then escaped newlines and tabs (`\n`, `\t`) become spaces.
 * `a \\\"b\\\"` (three levels) becomes `a "b"`.
 */
export function unescapeNested(text: string, maxDepth = 8): string {
  let s = text;
  for (let d = 0; d < maxDepth; d++) {
    const next = s.replace(/\\(["\\])/g, "$1");
    if (next === s) break;
    s = next;
  }
  return s.replace(/\\[ntr]/g, " ").replace(/[\r\n\t]+/g, " ");
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
      value = s.slice(j + 1, end - 1).replace(/^(\\n|\n)/, "").trim();
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
  if (/^(?:time="?[^"\s]*"? )?level=\w+ msg=/.test(m)) {
    const fields = parseKeyValues(m);
    return { headline: fields.msg ?? m, fields };
  }
  return { headline: message, fields: {} };
}
