/**
 * A SQL page result as CSV (RFC 4180): a header of the column names, CRLF line ends, a field
 * quoted when it holds a comma, a quote, CR or LF (quotes doubled). NULL is an empty field; an
 * empty string is `""`, so the two stay apart.
 */
import type { AskResult } from "./run-ask";

function field(v: string | null): string {
  if (v === null) return "";
  if (v === "" || /[",\r\n]/.test(v)) return `"${v.replaceAll('"', '""')}"`;
  return v;
}

export function toCsv(r: Pick<AskResult, "columns" | "rows">): string {
  const lines = [r.columns.map((c) => field(c.name)).join(",")];
  for (const row of r.rows) lines.push(row.map(field).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
