/**
 * The prefix layers that stamp each line with a time (line-prefix.ts lists them among the
 * others): `kubectl logs --timestamps` (`timestamps`: the record's own time when the line has
 * none) and the CI consoles' print times (Jenkins Timestamper `ci-stamp` and `ci-clock`,
 * GitLab's job log `gitlab-stamp`, buildkite-agent `buildkite-stamp`), with what a print time
 * with a date gives: the collection time of a CI console paste (`printStampMs`), an anchor for
 * kubectl's ages.
 */
import { parseIsoStamp } from "./helpers/time-util";
import type { PrefixFacts, PrefixLayer } from "./prefix-types";

const STAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})) /;

export const TIMESTAMPS: PrefixLayer = {
  name: "timestamps",
  re: STAMP,
  facts(m, out) {
    out.timeText = m[1];
    out.time = parseIsoStamp(m[1]);
  },
};

const CI_STAMP_RE = /^\[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:?\d{2}))\] /;

export const CI_STAMP: PrefixLayer = {
  name: "ci-stamp",
  re: CI_STAMP_RE,
  facts(m, out) {
    out.printedText = m[1];
  },
};

export const GITLAB_STAMP: PrefixLayer = {
  name: "gitlab-stamp",
  re: /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z) [0-9a-f]{2}[OE]\+? /,
  facts(m, out) {
    out.printedText = m[1];
  },
};

export const BUILDKITE_STAMP: PrefixLayer = {
  name: "buildkite-stamp",
  re: /^\x1b?_bk;t=(\d{10,13})\x07?/,
  facts(m, out) {
    const ms = Number(m[1]);
    out.printedText = new Date(m[1].length <= 10 ? ms * 1000 : ms).toISOString();
  },
};

export const CI_CLOCK: PrefixLayer = {
  name: "ci-clock",
  re: /^(\d{2}:\d{2}:\d{2}(?:\.\d{3})?) {2}/,
  facts(m, out) {
    out.printedText = m[1];
  },
};

/** Layers whose stamp is when a CI job printed the line, with a date (an anchor for kubectl ages). */
const PRINT_LAYERS: ReadonlySet<PrefixLayer> = new Set([CI_STAMP, GITLAB_STAMP, BUILDKITE_STAMP, TIMESTAMPS]);

/** Is `layer` a print time with a date (see the module comment)? `TIMESTAMPS` only before kubectl tables: the caller says. */
export function isPrintTimeLayer(layer: PrefixLayer): boolean {
  return PRINT_LAYERS.has(layer);
}

/** UTC ms (floored) of an ISO 8601 print stamp, or null. */
export function printedMs(text: string | undefined): number | null {
  if (text === undefined) return null;
  const w = parseIsoStamp(text);
  if (!w || w.year === null) return null;
  const ms = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, Math.floor(w.ms));
  return ms - (w.offsetMin ?? 0) * 60_000;
}

/** UTC ms of the last print stamp of `layer` among `lines` (the collection time of a CI console paste), or null. */
export function printStampMs(lines: readonly string[], layer: PrefixLayer): number | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i].charCodeAt(0) === 32 ? lines[i].trimStart() : lines[i];
    const m = layer.re.exec(l);
    if (!m) continue;
    const facts: PrefixFacts = {};
    layer.facts(m, facts);
    return printedMs(facts.printedText ?? facts.timeText);
  }
  return null;
}

/** `printStampMs` of the Jenkins `[<ISO>] ` layer. */
export function ciStampMs(lines: readonly string[]): number | null {
  return printStampMs(lines, CI_STAMP);
}
