/**
 * A paste transform: what a terminal, pager, chat client or Markdown renderer put around or
 * inside log lines, taken off before the sniff. Each is decided once per file (`apply` looks at
 * the file's lines and returns null when it shows none of it, so clean files pay one look), and
 * each carries samples the transforms test runs.
 */
export interface LineTransform {
  /** name shown in the file's paste facts (`decoration`), e.g. `frame`, `ansi` */
  name: string;
  /** the lines without the decoration, or null when the file holds none of it */
  apply(lines: readonly string[]): TransformOut | null;
  /** files the transform changes, with the lines it must give */
  samples: Array<{ lines: string[]; expect: string[] }>;
  /** files it must leave alone (`apply` returns null) */
  notMine: string[][];
}

/** What a transform gives: the new lines (as many as it was given, in the same order) and its facts. */
export interface TransformOut {
  lines: string[];
  /** 1-based numbers of lines that continue the line above (a frame's wrapped pieces) */
  wrapped?: Set<number>;
  /** a pager's right-edge mark that was taken off */
  pagerMark?: string;
}
