/** The shapes of the line-prefix layers (line-prefix.ts): what a prefix says, and a layer. */
import type { WallTime } from "./types";

/** What the prefixes of one line say. */
export interface PrefixFacts {
  host?: string;
  /** a container tag (`K3S`), not a node */
  tag?: string;
  pod?: string;
  container?: string;
  namespace?: string;
  /** the timestamps layer's stamp */
  time?: WallTime | null;
  timeText?: string;
  file?: string;
  fileLine?: string;
  /** the ci-stamp layer's stamp (as printed): when a CI job printed the line */
  printedText?: string;
}

/** One prefix layer (line-prefix.ts module comment lists them). */
export interface PrefixLayer {
  name: string;
  /** anchored at the line start; match[0] is the whole prefix */
  re: RegExp;
  facts(m: RegExpExecArray, out: PrefixFacts): void;
  /**
   * A line above the entries that states what all of them share (logcli's `Common labels: {…}`):
   * its facts fill in what each line's own prefix leaves unsaid, until another such line.
   */
  shared?: { re: RegExp; facts(m: RegExpExecArray, out: PrefixFacts): void };
}
