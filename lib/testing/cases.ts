/**
 * Test support: where the real-format cases live (`tests/cases/` in this repository: excerpts
 * of real node logs from public bug reports, each with its expected values in
 * `tests/cases/expect/<name>.json` and described in tests/cases/README.md). Override with
 * BOOTLINE_CASES_DIR. Reading a missing case fails with a message that names the folder.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Folder of the case files. */
export const CASES_DIR = path.resolve(process.env.BOOTLINE_CASES_DIR ?? path.join(__dirname, "..", "..", "tests", "cases"));

/** Bytes of one case file; throws when the cases are not there. */
export function caseBytes(name: string): Buffer {
  const file = path.join(CASES_DIR, name);
  if (!existsSync(file)) {
    throw new Error(`real-format case ${name} not found in ${CASES_DIR}: set BOOTLINE_CASES_DIR to a folder that has it`);
  }
  return readFileSync(file);
}

/** Text of one case file (UTF-8). */
export function caseText(name: string): string {
  return caseBytes(name).toString("utf8");
}
