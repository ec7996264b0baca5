/**
 * Tokens of a message for pattern mining, with the variable ones masked: a message's first line
 * split on single spaces (so a template joined with spaces reads as the line did), cut to
 * `MAX_TOKENS`. A token is variable (`WILDCARD`) when it holds a digit (numbers, durations,
 * addresses, ids, hashes, timestamps, pod names with their generated suffix) or a `/` (paths,
 * `namespace/name`); a `key=value` token keeps its key and masks only its value. Drain (He et
 * al. 2017, "Drain: An Online Log Parsing Approach with Fixed Depth Tree", section III-A)
 * preprocesses with such domain masks before the tree. Char-code checks, no regular expression:
 * this runs once per stored event.
 */

/** The wildcard token of a template. */
export const WILDCARD = "<*>";
/** Tokens kept per message; a longer message ends in one `WILDCARD` standing for the rest. */
export const MAX_TOKENS = 40;
/** Characters of a message's first line mined (the rest is matched by the last token). */
const MAX_CHARS = 600;

/** True when `s[from..]` holds a digit or a `/` (a variable value). */
function variable(s: string, from: number): boolean {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 48 && c <= 57) || c === 47) return true;
  }
  return false;
}

/** One token masked: itself, `key=<*>`, or `<*>`. */
export function maskToken(t: string): string {
  if (t === WILDCARD) return t;
  const eq = t.indexOf("=");
  if (eq > 0 && eq < t.length - 1) {
    if (!variable(t, eq + 1)) return t;
    return variable(t.slice(0, eq), 0) ? WILDCARD : `${t.slice(0, eq + 1)}${WILDCARD}`;
  }
  return variable(t, 0) ? WILDCARD : t;
}

/** The masked tokens of `message` (see the module comment); an empty message gives `[""]`. */
export function maskedTokens(message: string): string[] {
  let end = message.indexOf("\n");
  if (end === -1) end = message.length;
  let cut = end > MAX_CHARS;
  const line = message.slice(0, cut ? MAX_CHARS : end);
  const raw = line.split(" ");
  if (raw.length > MAX_TOKENS) {
    raw.length = MAX_TOKENS - 1;
    cut = true;
  } else if (cut) raw.pop(); // the token the cut went through is not whole
  const out = raw.map(maskToken);
  if (cut) out.push(WILDCARD);
  return out;
}
