/**
 * Scanners for the key/value syntaxes inside log lines, written with charCode loops (no per-line
 * regex backtracking, no closures):
 *
 * - Go-quoted strings (`strconv.Quote`, used by logrus `%q`, klog structured values, Calico fields);
 * - logfmt / logrus `key=value key="quoted \"value\""` sequences (containerd, CRI-O, Calico, Cilium);
 * - klog structured values, which may also be `{...}` / `[...]` objects.
 *
 * Field values are unescaped; nested Go-quoted strings inside a value (an error wrapped by
 * kubelet around containerd around the CNI plugin: `\"`, `\\\"`) are unescaped level by level so the
 * text reads as written by its author. The raw line always keeps the exact bytes.
 */

const BS = 92; // backslash
const DQ = 34; // "

/**
 * Index of the closing `"` of a Go-quoted string whose opening quote is at `open`, or -1 when the
 * line ends first (a cut line: case 070).
 */
export function findQuoteEnd(s: string, open: number): number {
  let i = open + 1;
  for (;;) {
    const q = s.indexOf('"', i);
    if (q < 0) return -1;
    // an even run of backslashes before the quote leaves it unescaped
    let b = q - 1;
    while (b > open && s.charCodeAt(b) === BS) b--;
    if (((q - 1 - b) & 1) === 0) return q;
    i = q + 1;
  }
}

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/**
 * Unescape the body of a Go-quoted string, s[start..end) (without the quotes): `\"` `\\` `\n` `\t`
 * `\r` `\a` `\b` `\f` `\v` `\xNN` `\uNNNN` `\UNNNNNNNN` and octal `\NNN`. Unknown escapes are kept
 * as written. Fast path: no backslash → plain slice.
 */
export function unquoteGo(s: string, start: number, end: number): string {
  const first = s.indexOf("\\", start);
  if (first < 0 || first >= end) return s.slice(start, end);
  // the pieces joined once, into one flat string
  const out: string[] = [s.slice(start, first)];
  let i = first;
  while (i < end) {
    const c = s.charCodeAt(i);
    if (c !== BS || i + 1 >= end) {
      // copy a run of plain characters
      let j = s.indexOf("\\", i + 1);
      if (j < 0 || j > end) j = end;
      out.push(s.slice(i, j));
      i = j;
      continue;
    }
    const e = s.charCodeAt(i + 1);
    switch (e) {
      case 110:
        out.push("\n");
        i += 2;
        break; // n
      case 116:
        out.push("\t");
        i += 2;
        break; // t
      case 114:
        out.push("\r");
        i += 2;
        break; // r
      case 97:
        out.push("\x07");
        i += 2;
        break; // a
      case 98:
        out.push("\b");
        i += 2;
        break; // b
      case 102:
        out.push("\f");
        i += 2;
        break; // f
      case 118:
        out.push("\v");
        i += 2;
        break; // v
      case 120:
      case 117:
      case 85: {
        // x u U
        const len = e === 120 ? 2 : e === 117 ? 4 : 8;
        let v = 0;
        let ok = i + 2 + len <= end;
        for (let k = 0; ok && k < len; k++) {
          const h = hexVal(s.charCodeAt(i + 2 + k));
          if (h < 0) ok = false;
          else v = v * 16 + h;
        }
        if (ok && v <= 0x10ffff) {
          out.push(String.fromCodePoint(v));
          i += 2 + len;
        } else {
          out.push(s.slice(i, i + 2));
          i += 2;
        }
        break;
      }
      default:
        if (e >= 48 && e <= 55 && i + 3 < end) {
          const o1 = s.charCodeAt(i + 2) - 48;
          const o2 = s.charCodeAt(i + 3) - 48;
          if (o1 >= 0 && o1 <= 7 && o2 >= 0 && o2 <= 7) {
            out.push(String.fromCharCode((e - 48) * 64 + o1 * 8 + o2));
            i += 4;
            break;
          }
        }
        out.push(s[i + 1]); // \" \\ \' and anything else: the character itself
        i += 2;
    }
  }
  return out.join("");
}

/**
 * Unescape nested Go-quoted levels left inside an already unquoted value: while the text still holds
 * `\"`, one level of `\\` and `\"` escapes is removed (at most 4 levels). Other escapes such as `\n`
 * are kept literally.
 */
export function unnestQuotes(v: string): string {
  let out = v;
  for (let level = 0; level < 4 && out.includes('\\"'); level++) {
    out = out.replace(/\\(["\\])/g, "$1");
  }
  return out;
}

/** Unquote a Go-quoted value whose opening quote is at `open` (closing at `close`, or -1 = to end of line), nested levels included. */
export function quotedValue(s: string, open: number, close: number): string {
  const start = open + 1;
  const end = close < 0 ? s.length : close;
  const first = s.indexOf("\\", start);
  if (first < 0 || first >= end) return s.slice(start, end);
  const passes = nestedQuotePasses(s, first, end);
  if (passes < 0) {
    const body = unquoteGo(s, start, end);
    return body.includes('\\"') ? unnestQuotes(body) : body;
  }
  // one walk from backslash run to backslash run (see `nestedQuotePasses`); the pieces joined
  // once, into one flat string (not a tree of concatenations that every later read flattens)
  const parts: string[] = [];
  let plain = start;
  for (let i = first; i >= 0 && i < end; ) {
    let j = i + 1;
    while (s.charCodeAt(j) === BS) j++;
    const m = (j - i) >> 1; // backslashes left after `unquoteGo`
    parts.push(s.slice(plain, i));
    if (s.charCodeAt(j) === DQ) {
      parts.push("\\".repeat(m >> passes), '"');
      plain = j + 1;
    } else {
      parts.push("\\".repeat((m + (1 << passes) - 1) >> passes));
      plain = j;
    }
    i = s.indexOf("\\", plain);
  }
  parts.push(s.slice(plain, end));
  return parts.join("");
}

/**
 * The `unnestQuotes` passes `quotedValue` runs on `unquoteGo(s[first..end))`, when the body's only
 * escapes are `\\` and `\"` (each run of backslashes followed by a quote, or of even length, none
 * at the end); else -1. `unquoteGo` halves each run of k backslashes (k >> 1 left, the quote kept);
 * a pass halves a run before a quote (rounding down: the last one escaped the quote) and any
 * other run (rounding up), and runs never merge; passes go on while a run before a quote is left
 * (at most 4), so their count is the bit length of the longest such run, and what each run
 * becomes follows from its length.
 */
function nestedQuotePasses(s: string, first: number, end: number): number {
  let passes = 0;
  for (let i = first; i >= 0 && i < end; ) {
    let j = i + 1;
    while (j < end && s.charCodeAt(j) === BS) j++;
    if (j >= end) return -1;
    const k = j - i;
    if (s.charCodeAt(j) === DQ) {
      const p = 32 - Math.clz32(k >> 1);
      if (p > passes) passes = p;
    } else if (k & 1) return -1;
    i = s.indexOf("\\", j + 1);
  }
  return Math.min(passes, 4);
}

/** Whether a UTF-16 code unit is JS `\s` (Unicode white space and line terminators), for `\S+` tokens. */
export function isJsSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

function isKeyChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || // a-z
    (c >= 65 && c <= 90) || // A-Z
    (c >= 48 && c <= 57) || // 0-9
    c === 95 || // _
    c === 46 || // .
    c === 45 || // -
    c === 47 // /
  );
}

/** End (exclusive) of a balanced `{...}` or `[...]` starting at `i`, honouring quoted strings; s.length when unbalanced. */
export function balancedEnd(s: string, i: number): number {
  const n = s.length;
  let depth = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === DQ) {
      const q = findQuoteEnd(s, i);
      if (q < 0) return n;
      i = q + 1;
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return n;
}

/**
 * Scan `key=value` pairs from `start` to the end of `s` into `out`. Values: Go-quoted (unescaped,
 * nested levels too; an unclosed quote runs to the end of the line), `{...}`/`[...]` kept raw when
 * `objects` is set (klog), else a bare token up to the next space.
 * With `special`, the keys `time`, `level` and `msg` go there instead of `out` (logrus lines; no
 * `delete` on `out` afterwards, which would turn it into a slow dictionary object).
 * Returns the index where scanning stopped: `s.length` when the whole rest was pairs, else the
 * position of the first token that is not `key=…` (the pairs before it are in `out`).
 */
export function scanPairs(s: string, start: number, out: Record<string, string>, objects = false, special?: SpecialKeys): number {
  const n = s.length;
  let i = start;
  for (;;) {
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c !== 32 && c !== 9) break;
      i++;
    }
    if (i >= n) return n;
    const keyStart = i;
    while (i < n && isKeyChar(s.charCodeAt(i))) i++;
    if (i === keyStart || i >= n || s.charCodeAt(i) !== 61) return keyStart;
    const key = s.slice(keyStart, i);
    i++; // '='
    if (i >= n) {
      store(out, special, key, "");
      return n;
    }
    const c = s.charCodeAt(i);
    if (c === DQ) {
      let close = findQuoteEnd(s, i);
      // a writer that did not escape the quotes inside a value (`msg="loading plugin "x"..." k=v`): the
      // value goes on to the first quote followed by a blank or the end of the line
      while (close >= 0 && close + 1 < n && s.charCodeAt(close + 1) !== 32 && s.charCodeAt(close + 1) !== 9) {
        const next = findQuoteEnd(s, close);
        if (next < 0) break;
        close = next;
      }
      store(out, special, key, quotedValue(s, i, close));
      i = close < 0 ? n : close + 1;
    } else if (objects && (c === 123 || c === 91)) {
      const e = balancedEnd(s, i);
      store(out, special, key, s.slice(i, e));
      i = e;
    } else {
      let j = s.indexOf(" ", i);
      if (j < 0) j = n;
      store(out, special, key, s.slice(i, j));
      i = j;
    }
  }
}

/** Receiver of the logrus keys `time`, `level`, `msg` (see `scanPairs`). */
export interface SpecialKeys {
  time: string | undefined;
  level: string | undefined;
  msg: string | undefined;
}

function store(out: Record<string, string>, special: SpecialKeys | undefined, key: string, value: string): void {
  if (special !== undefined) {
    if (key === "time") {
      special.time = value;
      return;
    }
    if (key === "level") {
      special.level = value;
      return;
    }
    if (key === "msg") {
      special.msg = value;
      return;
    }
  }
  out[key] = value;
}

/**
 * Find where a run of trailing `key=value` pairs begins in a free-text message (Calico: `msg k=v k="v"`),
 * trying each ` key=` candidate from the left; fills `out` from the first candidate whose rest parses
 * completely. Returns that index (the space before the first key), or -1 when there are none.
 */
export function splitTrailingPairs(s: string, start: number, out: Record<string, string>): number {
  let i = s.indexOf("=", start);
  while (i > start) {
    // walk back to the key's start
    let k = i;
    while (k > start && isKeyChar(s.charCodeAt(k - 1))) k--;
    if (k < i && k > start && s.charCodeAt(k - 1) === 32) {
      const tmp: Record<string, string> = {};
      if (scanPairs(s, k, tmp) === s.length) {
        Object.assign(out, tmp);
        return k - 1;
      }
    }
    i = s.indexOf("=", i + 1);
    if (i < 0) break;
  }
  return -1;
}
