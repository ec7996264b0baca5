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

/**
 * The masked tokens of `message` joined with single spaces (see the module comment): what
 * `maskedTokens` returns, as one string. One pass over the characters: per token, whether its
 * value holds a digit or a `/` and where its first `=` is; the runs of tokens kept as they are
 * are taken from the message whole (its separators are the single spaces the join puts back), so
 * a message costs a few substrings, not one per token (the same result as `maskToken` on each
 * token of the line split on spaces, joined).
 */
export function maskedKey(message: string): string {
  let end = message.indexOf("\n");
  if (end === -1) end = message.length;
  const cut = end > MAX_CHARS;
  if (cut) end = MAX_CHARS;
  let key = "";
  // message[pending..] is not yet in `key`
  let pending = 0;
  let tokens = 0;
  let start = 0;
  let eq = -1;
  let keyVar = false;
  let valVar = false;
  for (let i = 0; i <= end; i++) {
    const c = i < end ? message.charCodeAt(i) : 32;
    if (c === 32) {
      // the token the cut went through is not whole; past `MAX_TOKENS - 1` tokens, the rest is one wildcard
      if ((i === end && cut) || (tokens === MAX_TOKENS - 1 && i < end)) return `${key}${message.slice(pending, start)}${WILDCARD}`;
      if (eq > start && eq < i - 1) {
        if (valVar) {
          key += keyVar ? `${message.slice(pending, start)}${WILDCARD}` : `${message.slice(pending, eq + 1)}${WILDCARD}`;
          pending = i;
        }
      } else if (keyVar || valVar) {
        key += `${message.slice(pending, start)}${WILDCARD}`;
        pending = i;
      }
      tokens++;
      start = i + 1;
      eq = -1;
      keyVar = valVar = false;
    } else if ((c >= 48 && c <= 57) || c === 47) {
      if (eq === -1) keyVar = true;
      else valVar = true;
    } else if (c === 61 && eq === -1) eq = i;
  }
  return pending === 0 ? message.slice(0, end) : `${key}${message.slice(pending, end)}`;
}

/** The masked tokens of `message` (see the module comment; `maskedKey` split on its spaces); an empty message gives `[""]`. */
export function maskedTokens(message: string): string[] {
  return maskedKey(message).split(" ");
}
