/**
 * Test support for the parse tests of the real-format cases (tests/cases/cases.ts): a case parsed
 * as uploaded alone, a record's time as ISO, and the line accounting check. Kept apart from
 * cases.ts, which tests that set limits through the environment import before they set them.
 */
import { expect } from "vitest";
import type { FileRecord, ParsedFile } from "../parse/file-types";
import { parseFile, type ParseFileOptions } from "../parse/parse-file";
import { caseText } from "../../tests/cases/cases";

/** A case file parsed as a reviewer would upload it alone (`opts`: the upload values). */
export function parseCase(name: string, opts: ParseFileOptions = {}): ParsedFile {
  return parseFile(name, caseText(name), opts);
}

/** A record's stored time as ISO 8601 UTC, null when it has none. */
export const recordIso = (r: FileRecord): string | null => (r.ts === null ? null : new Date(r.ts).toISOString());

/**
 * Line accounting adds up: every physical line is parsed, blank or skipped; parsed lines are
 * records, continuations or banners (records glued onto another record's line share it); the
 * skipped lines add up by reason.
 */
export function expectAccounting(f: ParsedFile): void {
  const c = f.counts;
  expect(c.parsed + c.blank + c.skipped).toBe(c.lines);
  expect(c.records + c.continuation + c.banner - (c.glued ?? 0)).toBe(c.parsed);
  expect(Object.values(c.skippedByReason).reduce((a, b) => a + b, 0)).toBe(c.skipped);
}
