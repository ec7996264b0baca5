/**
 * Escaping for exports of log text: a log line is data, never markup or a formula. Use these
 * whenever log text, pod names, file paths or messages go into a Markdown summary or a CSV file.
 * Pure.
 */

/** ASCII punctuation: a backslash before one of these is an escape in CommonMark (spec 2.4). */
const ASCII_PUNCT = /[!-/:-@[-`{-~]/;

/**
 * Log text as literal Markdown inline text that still reads cleanly as plain text: only what a
 * CommonMark/GFM reader would take as markup is backslash-escaped. Always: backticks (code
 * spans), `*` and `~` (emphasis, strikethrough), a backslash before punctuation (an escape), `]`
 * before `(`, `[` or `:` (a link), `<` before a letter, `/`, `!` or `?` (HTML, autolinks), `&`
 * before an entity name (`&amp;`), `_` at a word's edge (GFM ignores it inside a word). At the
 * start only: a block marker (`# `, `>`, `- `, `--`, `+ `, `1. `, `1) `). Dots, hyphens, plus
 * signs and parentheses in the middle of text stay as they are (`ip-10-20-30-40.ec2.internal`,
 * `T+12.103`). Line breaks become spaces (one line stays one line). `pipes` also escapes `|`
 * (a table cell).
 */
export function escapeMarkdown(text: string, opts: { pipes?: boolean } = {}): string {
  const s = text.replace(/\r\n|\r|\n/g, " ");
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    const next = s[i + 1] ?? "";
    const prev = s[i - 1] ?? "";
    let esc = false;
    switch (c) {
      case "`":
      case "*":
      case "~":
        esc = true;
        break;
      case "\\":
        esc = next === "" || ASCII_PUNCT.test(next);
        break;
      case "]":
        esc = next === "(" || next === "[" || next === ":";
        break;
      case "<":
        esc = /[A-Za-z/!?]/.test(next);
        break;
      case "&":
        esc = /^&#?[A-Za-z0-9]+;/.test(s.slice(i, i + 34));
        break;
      case "_":
        esc = !/[\p{L}\p{N}]/u.test(prev) || !/[\p{L}\p{N}]/u.test(next);
        break;
      case "|":
        esc = opts.pipes === true;
        break;
    }
    out += esc ? `\\${c}` : c;
  }
  // block markers only mean something at the start of a line
  return out.replace(/^(\s{0,3})(#{1,6}(?=\s|$)|>|[+-](?=\s|$)|-(?=-)|\d{1,9}(?=[.)](?:\s|$)))/, (_m, sp: string, mark: string) =>
    /^\d/.test(mark) ? `${sp}${mark}\\` : `${sp}\\${mark}`,
  );
}

/** Log text as one Markdown code span: a backtick fence longer than any run of backticks inside. */
export function markdownCode(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, " ");
  let longest = 0;
  for (const m of flat.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") || flat.startsWith(" ") ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A cell of a GFM table: escaped inline text, pipes included. */
export function markdownTableCell(text: string): string {
  return escapeMarkdown(text, { pipes: true });
}

/**
 * A Markdown link whose text is escaped and whose target is only an http(s) URL or a path on
 * this site (anything else, `javascript:` included, becomes plain text).
 */
export function markdownLink(text: string, url: string): string {
  const label = escapeMarkdown(text);
  if (!/^(https?:\/\/|\/(?!\/))/i.test(url)) return label;
  const target = url.replace(/[\s()<>\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
  return `[${label}](${target})`;
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF, quotes doubled; a
 * value that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR)
 * is prefixed with `'` (OWASP "CSV injection"). Numbers and null pass as they are.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  let s = value;
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV record with CRLF (RFC 4180). */
export function csvRow(values: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
