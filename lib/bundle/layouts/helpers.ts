/**
 * What collector layouts share: journal hostnames, collection dates as `date` and Go print them,
 * container logs copied twice, unit dumps repeated by the whole-journal dump, and the blank
 * layout of a group. Pure.
 */
import type { CollectorGroup, FileLayout } from "./types";

const JOURNAL_HOST_RES: RegExp[] = [
  /^[A-Z][a-z]{2} [ 0-3]\d \d\d:\d\d:\d\d(?:\.\d{6})? (\S+) [^\s[:]+(?:\[\d+\])?: /, // short, short-precise
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?[+-]\d\d:\d\d (\S+) [^\s[:]+(?:\[\d+\])?: /, // short-iso
  /^[A-Z][a-z]{2} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ (\S+) [^\s[:]+(?:\[\d+\])?: /, // short-full, with-unit
  /^\d{10}\.\d{6} (\S+) [^\s[:]+(?:\[\d+\])?: /, // short-unix
];

/** The most common journal hostname in `lines`, or null. */
export function journalHostOf(lines: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const l of lines) {
    for (const re of JOURNAL_HOST_RES) {
      const m = re.exec(l);
      if (m) {
        counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
        break;
      }
    }
  }
  let best: string | null = null;
  let n = 0;
  for (const [h, c] of counts) if (c > n) [best, n] = [h, c];
  return best;
}

/** Does a file start like journalctl text output (any short variant, json, export)? */
export function looksLikeJournal(lines: readonly string[]): boolean {
  let hits = 0;
  for (const l of lines.slice(0, 20)) {
    if (/^-- (?:Boot [0-9a-f]{32}|Reboot|No entries|Logs begin at .*|Journal begins at .*) --$/.test(l)) return true;
    if (/^__CURSOR=s=/.test(l) || /^\{.*"__REALTIME_TIMESTAMP"\s*:\s*"\d+"/.test(l)) return true;
    if (JOURNAL_HOST_RES.some((re) => re.test(l)) || /^\[\s*\d+\.\d{6}\] \S+ [^\s[:]+(?:\[\d+\])?: /.test(l)) hits++;
  }
  return hits > 0;
}

/** The first hostname the given files' journal lines name. */
export function hostFromFiles(g: CollectorGroup, ks: number[]): string | null {
  for (const k of ks) {
    if (k < 0) continue;
    const h = journalHostOf(g.head(k));
    if (h) return h;
  }
  return null;
}

/** First line of a small file, trimmed ("" when none). */
export function firstLine(g: CollectorGroup, k: number): string {
  if (k < 0 || g.size(k) > 65_536) return "";
  return (
    g
      .text(k)
      .split("\n")
      .find((l) => l.trim() !== "") ?? ""
  ).trim();
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A collection time written by `date` (`Mon May 19 04:31:02 UTC 2025`, C locale), `date -u
 * --rfc-3339`, or Go's `time.Time.String()` (`2025-05-19 04:31:02.123 +0000 UTC m=+0.1`): UTC ms,
 * or null. A zone abbreviation other than UTC/GMT is read as UTC (a bound for year inference has a
 * day of slack).
 */
export function parseCollectionDate(text: string): number | null {
  const t = text.trim();
  let m = /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) +(\d{1,2}) (\d\d):(\d\d):(\d\d) (?:([A-Z]{2,5}|[+-]\d{2,4}) )?(\d{4})\b/.exec(t);
  if (m) {
    const mon = MONTHS.indexOf(m[2]);
    if (mon < 0) return null;
    let off = 0;
    if (m[7] && /^[+-]\d{2,4}$/.test(m[7])) off = (m[7][0] === "-" ? -1 : 1) * (Number(m[7].slice(1, 3)) * 60 + Number(m[7].slice(3, 5) || 0));
    return Date.UTC(Number(m[8]), mon, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) - off * 60_000;
  }
  m = /\b(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:[.,]\d+)?\s*(Z|[+-]\d\d:?\d\d)?/.exec(t);
  if (m) {
    let off = 0;
    if (m[7] && m[7] !== "Z") {
      const d = m[7].replace(":", "");
      off = (d[0] === "-" ? -1 : 1) * (Number(d.slice(1, 3)) * 60 + Number(d.slice(3, 5)));
    }
    return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) - off * 60_000;
  }
  return null;
}

/** `<pod>_<ns>_<ctr>-<64hex>.log` (the /var/log/containers name) → its parts. */
const CONTAINERS_NAME = /^([^/_]+)_([^/_]+)_(.+)-([0-9a-f]{64})\.log$/;
/** `<ns>_<pod>_<uid>/<ctr>/<n>.log` (the /var/log/pods layout) → its parts. */
const PODS_PATH = /(?:^|\/)([^/_]+)_([^/_]+)_([^/]+)\/([^/]+)\/(\d+)\.log$/;

/**
 * Container logs copied twice (EKS, kind: `/var/log/containers/*.log` are symlinks to
 * `/var/log/pods/…/<n>.log`, and the collectors dereference them): for each `containers/` name
 * whose pod, namespace and container match a `pods/` copy under `podsDir` (the highest restart
 * number, the one the symlink points at), the smaller copy is the duplicate (ties: the `containers/`
 * copy), since a copy taken later holds more lines.
 */
export function pairContainerCopies(
  g: CollectorGroup,
  out: FileLayout[],
  inDir: (rel: string) => string | null,
  podsDir: (rel: string) => string | null,
): void {
  const pods = new Map<string, { k: number; n: number }>();
  g.rel.forEach((rel, k) => {
    const dir = podsDir(rel);
    if (dir === null) return;
    const m = PODS_PATH.exec(rel.slice(dir.length));
    if (!m) return;
    const key = `${dir}|${m[1]}|${m[2]}|${m[4]}`;
    const n = Number(m[5]);
    const prev = pods.get(key);
    if (!prev || n > prev.n) pods.set(key, { k, n });
  });
  g.rel.forEach((rel, k) => {
    const dir = inDir(rel);
    if (dir === null) return;
    const base = rel.slice(dir.length);
    const m = CONTAINERS_NAME.exec(base);
    if (!m) return;
    for (const [key, p] of pods) {
      const [pdir, ns, pod, ctr] = key.split("|");
      if (pod !== m[1] || ns !== m[2] || ctr !== m[3] || !pdirMatches(pdir, dir)) continue;
      if (g.size(k) > g.size(p.k)) out[p.k].duplicateOf = g.paths[k];
      else out[k].duplicateOf = g.paths[p.k];
      break;
    }
  });
}

/** The `pods/` folder and the `containers/` folder sit in the same parent. */
function pdirMatches(podsDir: string, containersDir: string): boolean {
  return podsDir.replace(/pods\/$/, "") === containersDir.replace(/containers\/$/, "");
}

/** First `Mon DD hh:mm:ss` stamp of a journal file as a sortable number (month*1e8+…), or null. */
function firstJournalStamp(lines: readonly string[]): number | null {
  for (const l of lines) {
    const m = /^([A-Z][a-z]{2}) ([ 0-3]\d) (\d\d):(\d\d):(\d\d)/.exec(l);
    if (!m) continue;
    const mon = MONTHS.indexOf(m[1]);
    if (mon < 0) continue;
    return (((mon + 1) * 100 + Number(m[2].trim())) * 100 + Number(m[3])) * 10_000 + Number(m[4]) * 100 + Number(m[5]);
  }
  return null;
}

/**
 * A unit or per-boot journal dump is a duplicate of the whole-journal dump of the same node when
 * the whole dump is there, readable, and starts no later than it (so it holds every entry of it;
 * a size-capped whole dump that starts later does not).
 */
export function dupOfWholeJournal(g: CollectorGroup, out: FileLayout[], whole: number, parts: number[]): void {
  if (whole < 0 || g.size(whole) === 0) return;
  const w = firstJournalStamp(g.head(whole));
  if (w === null) return;
  for (const k of parts) {
    if (k < 0 || k === whole || g.size(k) === 0) continue;
    const p = firstJournalStamp(g.head(k));
    if (p !== null && p >= w) out[k].duplicateOf = g.paths[whole];
  }
}

/** One blank layout per file of the group, all on `node`. */
export function base(g: CollectorGroup, node: string | null = null): FileLayout[] {
  return g.idx.map(() => ({ node }));
}

/** Add noise rules (lib/parse/noise.ts) to a file's layout. */
export function withNoise(l: FileLayout, ...rules: string[]): void {
  l.noise = [...(l.noise ?? []), ...rules];
}
