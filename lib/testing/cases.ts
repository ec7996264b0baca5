/**
 * Test support: where the real-format cases live (`../shared/cases` beside the repository,
 * as CI places it; README.md there gives each file's expected values). Override with
 * BOOTLINE_CASES_DIR. Reading a case from a checkout without them fails with a message
 * that says so, rather than a bare ENOENT.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Folder of the case files. */
export const CASES_DIR = path.resolve(process.env.BOOTLINE_CASES_DIR ?? path.join(__dirname, "..", "..", "..", "shared", "cases"));

/** Bytes of one case file; throws when the cases are not there. */
export function caseBytes(name: string): Buffer {
  const file = path.join(CASES_DIR, name);
  if (!existsSync(file)) {
    throw new Error(`real-format case ${name} not found in ${CASES_DIR}: clone bootline next to ../shared or set BOOTLINE_CASES_DIR`);
  }
  return readFileSync(file);
}

/** Text of one case file (UTF-8). */
export function caseText(name: string): string {
  return caseBytes(name).toString("utf8");
}
