/**
 * Prefixes that tools put before every log line, detected once per file from its sniff lines and
 * stripped before the format's own sniff and parse (parse-file.ts). What a prefix says is kept on
 * the record (`applyPrefixFacts`). The layers that stamp a time (kubectl's `--timestamps`, the CI
 * consoles' print times) are declared in prefix-stamps.ts.
 *
 * Layers (outermost first; a file may stack up to three, e.g. `[pod/…/…] 2025-…Z <line>`):
 *
 * - `kubectl-prefix`: `kubectl logs --prefix` (kubectl >= 1.17): `[pod/<pod>/<container>] <line>`
 *   (`[<kind>/<name>/<container>]`). → fields.prefixPod, fields.prefixContainer.
 * - `kail`: `<namespace>/<pod>[<container>]: <line>`. → fields.prefixNamespace/Pod/Container.
 * - `kubetail`: `[<pod>] <line>` or `[<pod> <container>] <line>`. → fields.prefixPod/Container.
 * - `pod-container`: stern and other multi-pod tools: `<pod> <container> <line>`, or with
 *   namespaces `<namespace> <pod> <container> <line>` (stern's default template; colours gone
 *   once pasted). Accepted only when what follows is a known format. → fields.prefix*.
 * - `loki`: Grafana Loki's `logcli query` default output, `<RFC3339 stamp> {label="v", …} <line>`
 *   (prefix-loki.ts): the stamp as `timestamps` takes it, the labels' node, pod, container and
 *   namespace as facts.
 * - `timestamps`: `kubectl logs --timestamps` / `docker logs -t` / stern `--timestamps`:
 *   RFC3339 (up to 9 fraction digits) and one space. The record's own stamp wins; records
 *   without one take this stamp. → fields.prefixTime (as printed).
 * - CI consoles' print times (when the job printed the line, not when the component logged it:
 *   never a record's time). With no collection time given, kubectl ages count back from each
 *   row's own print time (`ParseContext.agesFromPrintTime`), and the last stamp of the file is the
 *   collection time of rows without one (`printStampMs`). → fields.prefixTime (as printed;
 *   Buildkite's epoch ms as ISO 8601).
 *   - `ci-stamp`: `[2020-04-22T16:16:19.063Z] `, ISO 8601 in brackets: Jenkins Pipeline with the
 *     Timestamper plugin, buildkite-agent `--timestamp-lines` (`[2017-03-23T23:19:48Z] `);
 *   - `gitlab-stamp`: GitLab Runner 17+ with `FF_TIMESTAMPS`: `2024-05-30T12:52:17.123456Z 00O `
 *     (RFC 3339 UTC, µs, then the stream number in two hex digits, `O` stdout / `E` stderr, and
 *     `+` on the pieces of a line the runner split);
 *   - `buildkite-stamp`: a Buildkite raw log's APC `ESC _bk;t=1672628645678 BEL` (epoch ms), the
 *     control characters often lost in a paste;
 *   - `ci-clock`: Jenkins Timestamper's freestyle default `21:51:15  ` (time of day, two blanks): no
 *     date, so never an anchor for ages;
 *   - `timestamps` (below) before a kubectl table: GitHub Actions' raw log `2023-01-02T03:04:05.6789012Z `
 *     (7 fraction digits) and `docker logs -t` of a job container have that shape; before kubectl
 *     output it can only be a print time.
 * - `host`: `<address>: <line>` (`talosctl -n <ip> logs|dmesg`, pdsh/clush: `<host>: `) and
 *   `<host> | <line>` (multi-node tools, compose-style, name padded with spaces). IPv4, IPv6 or
 *   a host name holding a digit, `-` or `.`. → record.host (the node) unless the record names
 *   its own host.
 * - `grep`: `grep -Hn` `<file>:<n>:`, `grep -n` `<n>:`, `grep -H` `<file>:` (context lines use
 *   `-` instead of `:`). → fields.prefixFile, fields.prefixLine. The file name never decides the
 *   format.
 * - `line-number`: a line number and a tab, `cat -n` and `nl` output (right-aligned in six columns,
 *   `     1\t<line>`; the padding is trimmed like any other). → fields.prefixLine.
 * - `chat`: the message time a chat client puts before each copied line: `[10:02 AM] `,
 *   `[10:02] `, `[10:02:33] ` (Teams, Discord compact mode, IRC clients), `10:02 AM ` (no
 *   brackets only with AM/PM), optionally an IRC `<nick> ` after it. Says nothing kept.
 * - `diff`: the first column of a unified diff (`+` added, `-` removed, one blank for context;
 *   GitHub ```` ```diff ```` blocks). Context lines (` `) are not stripped of their blank by the
 *   usual padding rule: the column is one character. → nothing kept.
 * - `tag`: an upper-case container tag with a colon (`K3S: `, `STDOUT: `, testcontainers'
 *   log consumers): the writer's label, never a node. → fields.prefixTag.
 * - `node-journal`: `oc adm node-logs --role=<role>` (and `-l`): `<node> <journal line>`, the node
 *   name (a DNS name with a digit, `-` or `.`) before a journal stamp (`Mar 05 08:01:12`,
 *   `2024-03-05T…`). → record.host (the node) unless the record names its own host.
 * - `container`: one container name before the line (` aws-node {json}`, often with a leading
 *   blank), as log tools print for a single pod's containers; accepted only when what follows is a
 *   known format. → fields.prefixContainer. Its `<container> stream closed` trailer is paste
 *   furniture (paste.ts).
 *
 * A layer is accepted when it matches the first sniff line or at least half of them, and the
 * lines without it (or the next layer) sniff as a registered format.
 */
import type { PrefixFacts, PrefixLayer } from "./prefix-types";
import { LOKI } from "./prefix-loki";
import { BUILDKITE_STAMP, CI_CLOCK, CI_STAMP, GITLAB_STAMP, TIMESTAMPS } from "./prefix-stamps";
import type { FormatSpec, ParsedRecord, WallTime } from "./types";

export type { PrefixFacts, PrefixLayer } from "./prefix-types";

const DNS = "[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?";
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";

export const KUBECTL_PREFIX: PrefixLayer = {
  name: "kubectl-prefix",
  re: /^\[([a-z]+)\/([a-z0-9][a-z0-9.-]*)\/([a-z0-9][a-z0-9-]*)\] /,
  facts(m, out) {
    out.pod = m[2];
    out.container = m[3];
  },
};

export const KAIL: PrefixLayer = {
  name: "kail",
  re: new RegExp(`^(${LABEL})/(${DNS})\\[(${LABEL})\\]: `),
  facts(m, out) {
    out.namespace = m[1];
    out.pod = m[2];
    out.container = m[3];
  },
};

export const KUBETAIL: PrefixLayer = {
  name: "kubetail",
  re: new RegExp(`^\\[(${DNS})(?: (${LABEL}))?\\] `),
  facts(m, out) {
    out.pod = m[1];
    if (m[2] !== undefined) out.container = m[2];
  },
};

/** a container name is never the date of the line's own stamp (`<pod> <container> 2024-04-12 09:15:07.100 …`) */
const NOT_DATE = "(?!\\d{4}-\\d{2}-\\d{2}[ T])";

export const POD_CONTAINER: PrefixLayer = {
  name: "pod-container",
  re: new RegExp(`^(?:(${LABEL}) (?=${DNS} ${NOT_DATE}${LABEL} ))?(${DNS}) ${NOT_DATE}(${LABEL}) `),
  facts(m, out) {
    if (m[1] !== undefined) out.namespace = m[1];
    out.pod = m[2];
    out.container = m[3];
  },
};

const IPV4 = "(?:\\d{1,3}\\.){3}\\d{1,3}";
const IPV6 = "[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4}){2,7}";
const HOSTNAME = "[A-Za-z0-9][A-Za-z0-9-]*(?:\\.[A-Za-z0-9-]+)*";

export const HOST: PrefixLayer = {
  name: "host",
  re: new RegExp(`^(${IPV4}|${IPV6}|${HOSTNAME}): `),
  facts(m, out) {
    out.host = m[1];
  },
};

export const HOST_PIPE: PrefixLayer = {
  name: "host-pipe",
  re: new RegExp(`^(${IPV4}|${HOSTNAME}|[A-Za-z0-9][\\w.-]*) *\\| `),
  facts(m, out) {
    out.host = m[1];
  },
};

export const GREP: PrefixLayer = {
  name: "grep",
  re: /^(?:([^\s:]*[/.][^\s:]*)[:-](\d+)[:-]|(\d+)[:-](?=\s*\S)|([^\s:]*\/[^\s:]*|[\w.-]+\.(?:log|txt|out|json|gz))[:-](?=\S))/,
  facts(m, out) {
    const file = m[1] ?? m[4];
    const n = m[2] ?? m[3];
    if (file !== undefined) out.file = file;
    if (n !== undefined) out.fileLine = n;
  },
};

export const LINE_NUMBER: PrefixLayer = {
  name: "line-number",
  re: /^(\d{1,7})\t/,
  facts(m, out) {
    out.fileLine = m[1];
  },
};

const CLOCK = "\\d{1,2}:\\d{2}(?::\\d{2})?";
const AMPM = "\\s?(?:[AaPp]\\.?[Mm]\\.?)";

export const CHAT: PrefixLayer = {
  name: "chat",
  re: new RegExp(`^(?:\\[${CLOCK}(?:${AMPM})?\\] ?|${CLOCK}${AMPM} )(?:<[^>\\s]{1,32}> )?(?=\\S)`),
  facts() {},
};

export const DIFF: PrefixLayer = {
  name: "diff",
  re: /^[+ -](?=\S)/,
  facts() {},
};

export const TAG: PrefixLayer = {
  name: "tag",
  re: /^([A-Z][A-Z0-9_]{1,15}): /,
  facts(m, out) {
    out.tag = m[1];
  },
};

/** The journal stamps that follow an `oc adm node-logs --role` node name. */
const JOURNAL_AHEAD = "(?=[A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d|\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:)";

export const NODE_JOURNAL: PrefixLayer = {
  name: "node-journal",
  re: new RegExp(`^(${IPV4}|${HOSTNAME}) ${JOURNAL_AHEAD}`),
  facts(m, out) {
    out.host = m[1];
  },
};

export const CONTAINER: PrefixLayer = {
  name: "container",
  re: new RegExp(`^(${LABEL}) (?=\\S)`),
  facts(m, out) {
    out.container = m[1];
  },
};

/** Candidate layers in the order they are tried. */
export const PREFIX_LAYERS: readonly PrefixLayer[] = [
  KUBECTL_PREFIX,
  KAIL,
  KUBETAIL,
  CI_STAMP,
  GITLAB_STAMP,
  BUILDKITE_STAMP,
  LOKI,
  TIMESTAMPS,
  CI_CLOCK,
  CHAT,
  TAG,
  HOST,
  HOST_PIPE,
  NODE_JOURNAL,
  GREP,
  LINE_NUMBER,
  POD_CONTAINER,
  CONTAINER,
  DIFF,
];

/**
 * A host name token is only taken for a node when it holds a digit, `-` or `.` (not `Warning:`),
 * and a lower-case letter unless it is an address with `.` or `:` (`K3S` is a container tag; a
 * bare number is `grep -n`'s line number).
 */
function plausibleHost(h: string): boolean {
  return /[\d.:-]/.test(h) && (/[a-z]/.test(h) || (/^[\d.:A-F]+$/.test(h) && /[.:]/.test(h)));
}

/** Layers that name a node (checked with `plausibleHost`). */
function namesHost(L: PrefixLayer): boolean {
  return L === HOST || L === HOST_PIPE || L === NODE_JOURNAL;
}

/** A file's prefix stack and the format of what follows it. */
export interface PrefixPlan {
  layers: PrefixLayer[];
  spec: FormatSpec;
}

/** Result of stripping one line's prefixes. */
export interface Stripped {
  /** the line after the prefixes (leading padding dropped) */
  rest: string;
  /** the outermost prefix as printed (glued records repeat it) */
  lead: string;
  facts: PrefixFacts;
}

/**
 * Strip `layers` from `line` (leading spaces first when the line is padded); null when the
 * outermost layer does not match (a line without the prefix: a wrapped piece, another tool's line).
 * Inner layers that do not match are left in `rest`.
 */
export function stripPrefix(line: string, layers: readonly PrefixLayer[]): Stripped | null {
  let s = line;
  if (s.charCodeAt(0) === 32 && layers[0] !== DIFF) s = s.trimStart();
  const facts: PrefixFacts = {};
  let lead = "";
  for (let k = 0; k < layers.length; k++) {
    const L = layers[k];
    const m = L.re.exec(s);
    if (!m) {
      if (k === 0) return null;
      break;
    }
    if (namesHost(L) && !plausibleHost(m[1])) {
      if (k === 0) return null;
      break;
    }
    if (k === 0) lead = m[0];
    L.facts(m, facts);
    s = s.slice(m[0].length);
  }
  return { rest: s, lead, facts };
}

/**
 * Cut `rest` where the same outermost prefix `lead` starts again (records glued on one line);
 * `starts(piece)` says whether a candidate piece begins a record. Returns the pieces after the
 * first (each still led by `lead`), and the first piece's end in `rest`.
 */
export function splitGlued(rest: string, lead: string, starts: (piece: string) => boolean): { firstEnd: number; more: string[] } | null {
  if (lead.length < 4) return null;
  let at = rest.indexOf(lead);
  if (at < 0) return null;
  const cuts: number[] = [];
  while (at >= 0) {
    if (starts(rest.slice(at + lead.length, at + lead.length + 4096))) cuts.push(at);
    at = rest.indexOf(lead, at + lead.length);
  }
  if (cuts.length === 0) return null;
  const more: string[] = [];
  for (let k = 0; k < cuts.length; k++) more.push(rest.slice(cuts[k], k + 1 < cuts.length ? cuts[k + 1] : rest.length).trimEnd());
  return { firstEnd: cuts[0], more };
}

/**
 * The prefix stack of a file whose sniff lines no format accepts as they are (or that
 * `kubectl-timestamps` accepts while its payloads are another format), or null. `sniff` is the
 * registry's sniff. Prefers a stack whose innermost lines sniff as a format other than
 * `kubectl-timestamps` (that one reads any `<stamp> <text>`).
 */
export function planPrefix(path: string, first: readonly string[], sniff: (path: string, lines: string[]) => FormatSpec | null, depth = 0): PrefixPlan | null {
  for (const L of PREFIX_LAYERS) {
    let total = 0;
    let hits = 0;
    let firstHit = false;
    const rest: string[] = [];
    for (const raw of first) {
      const c0 = raw.charCodeAt(0);
      // an indented line counts only when it is a padded prefixed line (else: a continuation)
      const indented = (c0 === 32 && L !== DIFF) || c0 === 9;
      const l = indented ? raw.trimStart() : raw;
      if (l.length === 0) continue;
      const m = L.re.exec(l);
      const ok = m !== null && !(namesHost(L) && !plausibleHost(m[1]));
      if (indented && !ok) continue;
      total++;
      if (!m || !ok) continue;
      if (total === 1) firstHit = true;
      hits++;
      let r = l.slice(m[0].length);
      const again = r.indexOf(m[0]);
      // records glued on one line: the prefix starts again (a host repeated inside the line is no prefix)
      if (again > 0 && m[0].length >= 4 && L.re.test(r.slice(again))) r = r.slice(0, again).trimEnd();
      rest.push(r);
    }
    if (hits === 0 || !(firstHit || hits * 2 >= total)) continue;
    const spec = sniff(path, rest);
    if (spec && spec.name !== "kubectl-timestamps") return { layers: [L], spec };
    // nothing (or only the loose `<stamp> <text>` format) reads the rest: look for a layer below
    if (depth < 2) {
      const sub = planPrefix(path, rest, sniff, depth + 1);
      if (sub) return { layers: [L, ...sub.layers], spec: sub.spec };
    }
    if (spec) return { layers: [L], spec };
  }
  return null;
}

/**
 * `t` (a stamp without a year: klog, journal short) with the year of `prefix`, the full stamp a
 * tool printed before the same line: the year in which `t`'s month and day lie nearest the
 * prefix's (a line logged on 31 December and shipped on 1 January takes the year before).
 */
function withYearOf(t: WallTime, prefix: WallTime): WallTime {
  const y = prefix.year as number;
  const year = t.month === 12 && prefix.month === 1 ? y - 1 : t.month === 1 && prefix.month === 12 ? y + 1 : y;
  return { ...t, year };
}

/**
 * Put what the prefixes said on a record: host (unless the record names its own), the pod prefix
 * and grep origin as fields, the timestamps layer's stamp when the record has no time, and its
 * year when the record's own stamp has none.
 */
export function applyPrefixFacts(rec: ParsedRecord, f: PrefixFacts): void {
  if (f.host !== undefined && rec.host === undefined) rec.host = f.host;
  // a Kubernetes event's time is its age (or stamps) counted from the print time, never the print time itself
  if (f.time && rec.time === null && (rec.epochMs === undefined || rec.epochMs === null) && rec.k8sEvent === undefined) rec.time = f.time;
  else if (f.time && rec.time !== null && rec.time.year === null && f.time.year !== null) rec.time = withYearOf(rec.time, f.time);
  if (
    f.pod === undefined &&
    f.container === undefined &&
    f.tag === undefined &&
    f.file === undefined &&
    f.fileLine === undefined &&
    f.timeText === undefined &&
    f.printedText === undefined
  )
    return;
  const fields = rec.fields ?? (rec.fields = {});
  if (f.tag !== undefined) fields.prefixTag = f.tag;
  if (f.namespace !== undefined) fields.prefixNamespace = f.namespace;
  if (f.pod !== undefined) fields.prefixPod = f.pod;
  if (f.container !== undefined) fields.prefixContainer = f.container;
  if (f.timeText !== undefined) fields.prefixTime = f.timeText;
  else if (f.printedText !== undefined) fields.prefixTime = f.printedText;
  if (f.file !== undefined) fields.prefixFile = f.file;
  if (f.fileLine !== undefined) fields.prefixLine = f.fileLine;
}
