/** The detector inputs of this folder (README.md) by file name. */
import { readFileSync } from "node:fs";
import path from "node:path";

export const DETECTOR_INPUTS_DIR = path.dirname(new URL(import.meta.url).pathname);

/** The text of `name` in this folder. */
export const detectorInput = (name: string): string => readFileSync(path.join(DETECTOR_INPUTS_DIR, name), "utf8");

/** Every input's file name. */
export const DETECTOR_INPUTS = ["image-pull-storm-journal.log"];
