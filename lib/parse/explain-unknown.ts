/**
 * Why a file (or paste) was not read, in one or two short sentences for the user: what its lines
 * look like and what would help. Pure: looks only at the lines given.
 *
 *     explainUnknown(lines)                                   a file of unknown format
 *     explainUnknown(lines, { format: "klog", parsedPercent: 42, skippedLines })   read < 80 %
 *
 * Shapes recognised, first match wins (over the non-blank lines, paste banners left out):
 * a tool's line prefix (`[pod/…/…] `, `<ns>/<pod>[<ctr>]: `, an RFC 3339 stamp, `<host>: `,
 * `<host> | `, `file:line:`), month names in another language (French, German, Spanish,
 * Italian, Portuguese, Dutch, Russian, Chinese/Japanese `N月`), JSON objects (with or without a time
 * key; their keys named), a table (a header of upper-case column names), a time at the line start
 * in an unknown layout, only prompts/comments, else the first line quoted.
 */
import { GREP, HOST, HOST_PIPE, KAIL, KUBECTL_PREFIX, KUBETAIL, type PrefixLayer } from "./line-prefix";
import { TIMESTAMPS } from "./prefix-stamps";
import { isPasteBanner } from "./paste";

/** What the file was read as, when it was read in part. */
export interface PartialRead {
  format: string;
  /** parsed lines / non-blank lines, 0..100 */
  parsedPercent: number;
  /** the lines that were skipped (their shape is what is explained) */
  skippedLines?: readonly string[];
}

const PREFIX_WORDS: Array<[PrefixLayer, string]> = [
  [KUBECTL_PREFIX, "lines start with `[pod/…/…]`: a `kubectl logs --prefix` output"],
  [KAIL, "lines start with `<namespace>/<pod>[<container>]:`: a multi-pod log tool's output"],
  [KUBETAIL, "lines start with `[<pod>]`: a multi-pod log tool's output"],
  [TIMESTAMPS, "lines start with an RFC 3339 stamp: a `kubectl logs --timestamps` (or `docker logs -t`) output"],
  [HOST, "lines start with a host or address (`<node>: `): a multi-node tool's output"],
  [HOST_PIPE, "lines start with a name and `|`: a multi-node or compose-style tool's output"],
  [GREP, "lines start with `file:line:` or `line:`: a grep output"],
];

/** Month names by language (abbreviations as `date`/journalctl print them in that locale). */
const MONTHS: Array<[string, RegExp]> = [
  ["French", /^(?:janv\.?|févr\.?|mars|avr\.?|mai|juin|juil\.?|août|sept\.?|oct\.?|nov\.?|déc\.?)$/],
  ["German", /^(?:Jän|Mär|Mai|Okt|Dez)\.?$/],
  ["Spanish", /^(?:ene|abr|ago|dic)\.?$/],
  ["Italian", /^(?:gen|mag|giu|lug|set|ott)\.?$/],
  ["Portuguese", /^(?:fev|out|dez)\.?$/],
  ["Dutch", /^(?:mrt|mei)\.?$/],
  ["Russian", /^(?:янв|фев|мар|апр|мая|май|июн|июл|авг|сен|окт|ноя|дек)\.?$/i],
];
const CJK_MONTH = /^\s*(?:\d{4}[年-])?\d{1,2}月/;

const TIME_AT_START = /^\S{0,40}?(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}[ T]?)?\d{1,2}:\d{2}:\d{2}/;
const TABLE_HEADER = /^\s*[A-Z][A-Z_()%-]*(?: [A-Z][A-Z_()%-]*)?(?: {2,}[A-Z][A-Z_()%-]*(?: [A-Z][A-Z_()%-]*)?){2,}\s*$/;
const TIME_KEYS = new Set([
  "ts",
  "time",
  "timestamp",
  "@timestamp",
  "Timestamp",
  "datetime",
  "date",
  "eventTime",
  "t",
  "_t",
  "__REALTIME_TIMESTAMP",
  "receiveTimestamp",
  "lastTimestamp",
  "firstTimestamp",
]);

function quote(s: string, max = 60): string {
  const t = s.trim();
  return `\`${t.length > max ? `${t.slice(0, max)}…` : t}\``;
}

/** Share of `lines` for which `test` holds, over lines it is asked about. */
function share(lines: readonly string[], test: (l: string) => boolean): number {
  if (lines.length === 0) return 0;
  let n = 0;
  for (const l of lines) if (test(l)) n++;
  return n / lines.length;
}

/** The shape of `lines` as one clause, or null when none of the known shapes fits. */
function shapeOf(lines: readonly string[]): string | null {
  for (const [layer, words] of PREFIX_WORDS) {
    if (share(lines, (l) => layer.re.test(l)) >= 0.5) return words;
  }
  // month names in another language
  for (const [lang, re] of MONTHS) {
    const hit = lines.find((l) => {
      const toks = l.split(/\s+/, 4);
      return toks.some((t, i) => i < 3 && re.test(t)) && /\d{1,2}:\d{2}:\d{2}/.test(l);
    });
    if (hit && share(lines, (l) => /\d{1,2}:\d{2}:\d{2}/.test(l)) >= 0.5) return `month names in ${lang} (${quote(hit, 30)})`;
  }
  if (share(lines, (l) => CJK_MONTH.test(l)) >= 0.5) return "month names in Chinese or Japanese (`N月`)";
  // a pretty-printed JSON document: a lone `{` / `[` opens it
  if (/^\s*[[{]\s*$/.test(lines[0])) return "lines start with `{` but are not one JSON object each (a pretty-printed or cut document)";
  // JSON objects
  const json = lines.filter((l) => l.trimStart().startsWith("{"));
  if (json.length * 2 >= lines.length && json.length > 0) {
    const keys = new Set<string>();
    let parsed = 0;
    let timed = 0;
    for (const l of json.slice(0, 50)) {
      try {
        const o = JSON.parse(l) as Record<string, unknown>;
        if (o && typeof o === "object" && !Array.isArray(o)) {
          parsed++;
          const ks = Object.keys(o);
          for (const k of ks) if (keys.size < 6) keys.add(k);
          if (ks.some((k) => TIME_KEYS.has(k))) timed++;
        }
      } catch {
        // not one object per line
      }
    }
    if (parsed === 0) return "lines start with `{` but are not one JSON object each (a pretty-printed or cut document)";
    const named = [...keys].slice(0, 5).join(", ");
    if (timed === 0) return `lines are JSON objects without a time key (keys: ${named}, …)`;
    return `lines are JSON objects (keys: ${named}, …) in a layout bootline does not know`;
  }
  // a table
  const header = lines.find((l) => TABLE_HEADER.test(l));
  if (header) {
    const cols = header.trim().split(/ {2,}/);
    return `a table with columns ${cols.slice(0, 4).join(", ")}${cols.length > 4 ? ` and ${cols.length - 4} more` : ""}`;
  }
  if (share(lines, (l) => TIME_AT_START.test(l)) >= 0.5) {
    const first = lines.find((l) => TIME_AT_START.test(l)) as string;
    return `lines start with a time (${quote(first, 40)}) in a layout bootline does not know`;
  }
  return null;
}

/**
 * One or two sentences on why `lines` were not read and what would help (see the module comment).
 * `partial`: the file was read as `partial.format` but under 80 %.
 */
export function explainUnknown(lines: readonly string[], partial?: PartialRead): string {
  const all = (lines.length === 0 && partial?.skippedLines ? partial.skippedLines : lines).filter((l) => l.trim().length > 0);
  if (all.length === 0) return "The file is empty (only blank lines).";
  const logLines = all.filter((l) => !isPasteBanner(l));
  if (logLines.length === 0) return "The paste holds only shell prompts, commands and comments, no log lines: paste the command's output too.";
  const sample = (partial?.skippedLines ?? logLines).filter((l) => l.trim().length > 0 && !isPasteBanner(l)).slice(0, 200);
  // a table's header is paste furniture for the sniff, and just what tells a table here
  const shape = (sample.length ? shapeOf(sample) : null) ?? shapeOf(all.slice(0, 200));
  if (partial) {
    const head = `Only ${Math.round(partial.parsedPercent)}% of the lines were read as ${partial.format}`;
    if (shape) return `${head}; the others: ${shape}.${helpFor(shape)}`;
    // only the skipped lines are quoted (a line that was read is no example of what was not)
    if (sample.length === 0) return `${head}; the others are shell prompts, commands or comments.`;
    return `${head}; the others look like ${quote(sample[0], 60)}, a layout bootline does not know.`;
  }
  if (shape) {
    const known = shape.startsWith("lines start with `") && shape.includes("output") ? `${shape} of a format bootline does not know` : shape;
    return `${cap(known)}.${helpFor(shape)}`;
  }
  return `No line looks like a log record bootline knows (first line: ${quote(logLines[0], 60)}).`;
}

/** A second sentence: what the user can do about `shape`. */
function helpFor(shape: string): string {
  if (shape.startsWith("month names")) return " Export with `LC_ALL=C` (English month names), or give the year and zone at upload.";
  if (shape.includes("without a time key")) return " Records can only be placed in time with a stamp: export with timestamps.";
  if (shape.startsWith("a table")) return " Use `-o json` or `-o yaml` for full times.";
  if (shape.startsWith("lines start with a time")) return " Say which tool wrote it.";
  if (shape.includes("pretty-printed")) return " Paste the whole document, or one object per line.";
  return "";
}

function cap(s: string): string {
  return s.length ? s[0].toUpperCase() + s.slice(1) : s;
}
