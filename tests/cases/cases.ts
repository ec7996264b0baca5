/**
 * Test support: the real-format cases of this folder (excerpts of real node logs from public bug
 * reports, each with its expected values in `expect/<name>.json`; README.md describes them). A
 * missing case fails with a message that names the folder.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Folder of the case files: this one. */
export const CASES_DIR = __dirname;

/** Bytes of one case file (`name` relative to this folder); throws when it is not there. */
export function caseBytes(name: string): Buffer {
  const file = path.join(CASES_DIR, name);
  if (!existsSync(file)) throw new Error(`real-format case ${name} not found in ${CASES_DIR}`);
  return readFileSync(file);
}

/** Text of one case file (UTF-8). */
export function caseText(name: string): string {
  return caseBytes(name).toString("utf8");
}
