/**
 * Escaping for exports of log text (issue 7, output safety): a log line is data, never markup
 * or a formula. Use these whenever log text, pod names, file paths or messages go into a
 * Markdown summary or a CSV file. Pure.
 */

/** Characters that mean something in CommonMark/GFM inline text. */
const MD_SPECIAL = /[\\`*_{}[\]()#+\-.!|~>]/g;

/**
 * Log text as literal Markdown inline text: every Markdown punctuation character is
 * backslash-escaped, `<`, `>` and `&` become entities (no raw HTML gets through), and line
 * breaks become spaces (one line stays one line).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n|\r|\n/g, " ")
    .replace(MD_SPECIAL, (c) => (c === ">" ? "&gt;" : `\\${c}`))
    .replace(/&(?!gt;)/g, "&amp;")
    .replace(/</g, "&lt;");
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

/** A cell of a GFM table: escaped inline text (pipes included). */
export function markdownTableCell(text: string): string {
  return escapeMarkdown(text);
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
