/**
 * Redaction on ingest: secrets in log text are replaced before anything is stored, with a
 * marker that keeps their kind (`[REDACTED:jwt]`), and counted per kind.
 *
 * Pure: text in, text and counts out. Applied to a file's decoded text before parsing, so the
 * stored messages, fields and raw source blocks are all redacted. The replacement never adds or
 * removes a newline (a private key block spread over lines becomes one marker per line), so line
 * numbers and line accounting stay those of the original file.
 *
 * The rules are one table (`REDACTION_RULES`, redaction-rules.ts), each with samples that must be redacted and
 * lines that must be kept (checked by redact.test.ts). Their patterns follow the providers'
 * documented token formats (GitHub, Slack, GitLab, Google API keys, Stripe, AWS key ids) and
 * the usual `name=value` / `name: value` / JSON `"name": "value"` shapes of credentials.
 *
 * Speed: one regular-expression pass over the text for the rules' trigger substrings picks the
 * rules that can match; a text holding none of them is returned as is. The rules that can
 * match run as one combined regular expression in a single pass. Values that a rule's pattern
 * catches but that do not look like secrets (`token: none`, `Bearer realm`, a placeholder such
 * as `${DB_PASSWORD}`, a word followed by more prose) are left alone and not counted.
 */
import { type RedactionCounts, type RedactionKind, type RedactionRule, type RedactResult, redactionMarker } from "./redaction-kinds";
import { REDACTION_RULES } from "./redaction-rules";

export {
  REDACTION_KINDS,
  type RedactionCounts,
  type RedactionKind,
  type RedactionRule,
  type RedactResult,
  redactionMarker,
} from "./redaction-kinds";
export { NOT_SECRET_SAMPLES, REDACTION_RULES } from "./redaction-rules";

const RULES = REDACTION_RULES;

interface Combined {
  re: RegExp;
  rules: RedactionRule[];
  /** per rule, the names of its groups in `re` */
  names: Array<{ g: string; k: string; v: string; n: string; s: string }>;
}

const combinedCache = new Map<number, Combined>();

/** One regular expression for the rules whose bit is set in `mask` (cached). */
function combined(mask: number): Combined {
  let c = combinedCache.get(mask);
  if (c) return c;
  const rules: RedactionRule[] = [];
  const parts: string[] = [];
  RULES.forEach((r, i) => {
    if (!(mask & (1 << i))) return;
    const idx = rules.length;
    rules.push(r);
    parts.push(`(?<r${idx}>${r.source.replace(/<@(\w)>/g, `<r${idx}$1>`)})`);
  });
  const names = rules.map((_, i) => ({ g: `r${i}`, k: `r${i}k`, v: `r${i}v`, n: `r${i}n`, s: `r${i}s` }));
  c = { re: new RegExp(parts.join("|"), "g"), rules, names };
  combinedCache.set(mask, c);
  return c;
}

/** Same number of lines as `match`: the marker on each of its lines. */
function markerLines(match: string, marker: string): string {
  let n = 0;
  for (let i = match.indexOf("\n"); i !== -1; i = match.indexOf("\n", i + 1)) n++;
  if (n === 0) return marker;
  // keep a CR before each LF, so CRLF files stay CRLF
  const parts = match.split("\n");
  return parts.map((p) => (p.endsWith("\r") ? `${marker}\r` : marker)).join("\n");
}

/** The distinct triggers, and for each the bits of the rules it enables (rules may share one). */
// a rule is one bit of a 32-bit mask
if (RULES.length > 31) throw new Error(`redaction: ${RULES.length} rules, at most 31 fit the trigger masks`);
const TRIGGER_SOURCES: string[] = [];
const TRIGGER_BITS: number[] = [];
RULES.forEach((r, i) => {
  let t = TRIGGER_SOURCES.indexOf(r.trigger);
  if (t < 0) t = TRIGGER_SOURCES.push(r.trigger) - 1;
  TRIGGER_BITS[t] = (TRIGGER_BITS[t] ?? 0) | (1 << i);
});
/** Every trigger, one capturing alternative each (the pre-check: the only work spent on a line without one). */
const TRIGGERS = new RegExp(TRIGGER_SOURCES.map((t) => `(${t})`).join("|"), "g");
const PRIVATE_KEY_BIT = 1 << RULES.findIndex((r) => r.kind === "private-key");
/** How far past its first line a private key block may reach, characters. */
const PRIVATE_KEY_SPAN = 20_200;

/** The next trigger at or after `from`, or null. */
function nextTrigger(text: string, from: number): RegExpExecArray | null {
  TRIGGERS.lastIndex = from;
  return TRIGGERS.exec(text);
}

/** The rules a trigger match enables. */
function triggerBits(m: RegExpExecArray): number {
  for (let g = 1; g < m.length; g++) if (m[g] !== undefined) return TRIGGER_BITS[g - 1];
  return 0;
}

/**
 * Replaces every secret in `text`; returns the redacted text and the counts per kind.
 *
 * The pre-check looks for the rules' triggers in one pass over the text; only a line holding a
 * trigger is searched with the rules that trigger enables (every pattern holds its trigger on
 * the line where its match starts, and only a private key reaches past that line).
 */
export function redact(text: string): RedactResult {
  const counts: RedactionCounts = {};
  let total = 0;
  const out: string[] = [];
  let last = 0;
  let hit = nextTrigger(text, 0);
  while (hit) {
    const lineStart = Math.max(text.lastIndexOf("\n", hit.index) + 1, last);
    let lineEnd = text.indexOf("\n", hit.index);
    if (lineEnd < 0) lineEnd = text.length;
    let mask = 0;
    while (hit && hit.index < lineEnd) {
      mask |= triggerBits(hit);
      hit = nextTrigger(text, hit.index + 1);
    }
    const { re, rules, names } = combined(mask);
    const sliceEnd = mask & PRIVATE_KEY_BIT ? Math.min(text.length, lineEnd + PRIVATE_KEY_SPAN) : lineEnd;
    const line = text.slice(lineStart, sliceEnd);
    const lineLen = lineEnd - lineStart;
    re.lastIndex = 0;
    for (let m = re.exec(line); m !== null && m.index < lineLen; m = re.exec(line)) {
      const groups = m.groups ?? {};
      let rep: string | null = null;
      for (let i = 0; i < rules.length; i++) {
        const nm = names[i];
        if (groups[nm.g] === undefined) continue;
        const r = rules[i];
        const kind = r.kindOf ? r.kindOf(groups[nm.n]) : r.kind;
        const marker = redactionMarker(kind);
        if (r.whole) rep = markerLines(m[0], marker);
        else {
          const keep = groups[nm.k] ?? "";
          const value = groups[nm.v] ?? "";
          const end = lineStart + m.index + keep.length + value.length;
          if (!r.accept || r.accept(value, groups[nm.s] ?? "", text.slice(end, end + 64))) rep = keep + marker + m[0].slice(keep.length + value.length);
        }
        if (rep !== null) {
          counts[kind] = (counts[kind] ?? 0) + 1;
          total++;
        }
        break;
      }
      if (rep === null) {
        // not a secret after all: look again from the next character, so that a secret the
        // rejected match overlapped is still found
        re.lastIndex = m.index + 1;
        continue;
      }
      out.push(text.slice(last, lineStart + m.index), rep);
      last = lineStart + m.index + m[0].length;
    }
    // a private key may have taken lines past this one: go on after it
    if (hit && hit.index < last) hit = nextTrigger(text, last);
  }
  if (out.length === 0) return { text, counts, total };
  out.push(text.slice(last));
  return { text: out.join(""), counts, total };
}

/** Adds `b` into `a` (per kind). */
export function addRedactionCounts(a: RedactionCounts, b: RedactionCounts): RedactionCounts {
  for (const [k, n] of Object.entries(b) as Array<[RedactionKind, number]>) if (n) a[k] = (a[k] ?? 0) + n;
  return a;
}
