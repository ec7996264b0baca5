/**
 * Redaction on ingest (issue 7): secrets in log text are replaced before anything is stored,
 * with a marker that keeps their kind (`[REDACTED:jwt]`), and counted per kind.
 *
 * Pure: text in, text and counts out. Applied to a file's whole decoded text before parsing,
 * so the stored messages, fields and raw source blocks are all redacted. The replacement never
 * adds or removes a newline (a private key block spread over lines becomes one marker per
 * line), so line numbers and line accounting stay those of the original file.
 *
 * Speed: one cheap substring check per rule over the text (`includes`, memchr-fast) picks the
 * rules that can match; a file holding none of their trigger strings is returned as is. The
 * rules that can match run as one combined regular expression in a single pass. Values that a
 * rule's pattern catches but that do not look like secrets (`token: none`, `Bearer realm`) are
 * left alone and not counted.
 */

export const REDACTION_KINDS = [
  "private-key",
  "jwt",
  "bearer",
  "token",
  "client-key-data",
  "client-certificate-data",
  "url-password",
  "aws-access-key",
  "aws-secret-key",
] as const;

export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** Counts per kind; a kind appears only when non-zero. */
export type RedactionCounts = Partial<Record<RedactionKind, number>>;

export interface RedactResult {
  text: string;
  counts: RedactionCounts;
  /** sum of `counts` */
  total: number;
}

/** The marker that replaces a secret of `kind`. */
export function redactionMarker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

const MARKER_PREFIX = "[REDACTED:";

interface Rule {
  /**
   * substrings of which at least one must occur for the rule to be able to match (looked for in
   * one pass for all rules: `rulesTriggered`)
   */
  triggers: string[];
  /**
   * pattern source; named groups are written `<@k>` (kept prefix), `<@v>` (the secret value)
   * and `<@n>` (a name that chooses the kind), renamed per rule when the rules are combined
   */
  source: string;
  /** the kind of a match (from the `n` group when the rule has one) */
  kind: (name: string | undefined) => RedactionKind;
  /** whether the matched value is a secret (default: yes) */
  accept?: (value: string) => boolean;
  /** replace the whole match (true) or only the value group (false) */
  whole: boolean;
}

/** A value that looks like a credential rather than a word: long enough and not plain prose. */
function tokenLike(v: string): boolean {
  if (v.startsWith(MARKER_PREFIX)) return false;
  if (/^[a-z0-9]{6}\.[a-z0-9]{16}$/.test(v)) return true; // kubeadm bootstrap token
  if (v.length < 16) return false;
  return /[0-9]/.test(v) || (v.length >= 24 && /[A-Z]/.test(v) && /[a-z]/.test(v));
}

const B64 = "A-Za-z0-9+/=";

/** Rule order is priority at one position (the first branch that matches there wins). */
const RULES: Rule[] = [
  {
    // PEM private keys: the block up to its END line, or (cut or END missing) the BEGIN line and
    // the lines after it that start with base64
    triggers: ["BEGIN"],
    source: `-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----(?:[\\s\\S]{0,20000}?-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|[^\\n]*(?:\\n[ \\t]*[${B64}]{16,}[^\\n]*)*)`,
    kind: () => "private-key",
    whole: true,
  },
  {
    // the value after `Bearer` (Authorization headers, curl -H dumps)
    triggers: ["Bearer", "bearer", "BEARER"],
    source: `(?<@k>\\b[Bb](?:earer|EARER)[ \\t]+)(?<@v>[A-Za-z0-9._~+/-]{8,}=*)`,
    kind: () => "bearer",
    accept: (v) => tokenLike(v) || /^eyJ/.test(v),
    whole: false,
  },
  {
    // kubeconfig `token:` (also `id-token`, `bearerToken`, `access_token=`, JSON `"token": "..."`)
    triggers: ["ken"],
    source: `(?<@k>[Tt]oken["']?[ \\t]*[:=][ \\t]*["']?)(?<@v>[A-Za-z0-9._~+/=-]{6,})`,
    kind: () => "token",
    accept: (v) => tokenLike(v) || /^eyJ/.test(v),
    whole: false,
  },
  {
    // JSON Web Tokens anywhere: base64url header and payload (both JSON objects, `eyJ`), signature
    triggers: ["yJ"],
    source: `eyJ[A-Za-z0-9_-]{4,}\\.eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*`,
    kind: () => "jwt",
    whole: true,
  },
  {
    // kubeconfig embedded client credentials
    triggers: ["-data"],
    source: `(?<@k>(?<@n>client-key-data|client-certificate-data)["']?[ \\t]*:[ \\t]*["']?)(?<@v>[${B64}]{8,})`,
    kind: (n) => (n === "client-key-data" ? "client-key-data" : "client-certificate-data"),
    whole: false,
  },
  {
    // a password in a URL: scheme://user:password@host
    triggers: ["//"],
    source: `(?<@k>://[^\\s/@:?#"'<>]{0,200}:)(?<@v>[^\\s/@?#"'<>]{1,200})(?=@)`,
    kind: () => "url-password",
    accept: (v) => !v.startsWith(MARKER_PREFIX),
    whole: false,
  },
  {
    // AWS access key ids (long-term AKIA, temporary ASIA)
    triggers: ["AKIA", "ASIA"],
    source: `(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}`,
    kind: () => "aws-access-key",
    whole: true,
  },
  {
    // AWS secret access keys after their name (credentials files, env dumps, STS JSON)
    triggers: ["_access_key", "_ACCESS_KEY", "AccessKey"],
    source: `(?<@k>(?:[Aa][Ww][Ss]_)?[Ss][Ee][Cc][Rr][Ee][Tt]_?[Aa][Cc][Cc][Ee][Ss][Ss]_?[Kk][Ee][Yy]["']?[ \\t]*[:=][ \\t]*["']?)(?<@v>[A-Za-z0-9/+=]{16,})`,
    kind: () => "aws-secret-key",
    whole: false,
  },
];

interface Combined {
  re: RegExp;
  rules: Rule[];
}

const combinedCache = new Map<number, Combined>();

/** One regular expression for the rules whose bit is set in `mask` (cached). */
function combined(mask: number): Combined {
  let c = combinedCache.get(mask);
  if (c) return c;
  const rules: Rule[] = [];
  const parts: string[] = [];
  RULES.forEach((r, i) => {
    if (!(mask & (1 << i))) return;
    const idx = rules.length;
    rules.push(r);
    parts.push(`(?<r${idx}>${r.source.replace(/<@(\w)>/g, `<r${idx}$1>`)})`);
  });
  c = { re: new RegExp(parts.join("|"), "g"), rules };
  combinedCache.set(mask, c);
  return c;
}

/** Same number of lines as `match`: the marker on each of its lines. */
function markerLines(match: string, marker: string): string {
  let n = 0;
  for (let i = match.indexOf("\n"); i !== -1; i = match.indexOf("\n", i + 1)) n++;
  if (n === 0) return marker;
  // keep a CR before each LF, so CRLF files stay CRLF
  const parts = match.split("\n");
  return parts.map((p) => (p.endsWith("\r") ? `${marker}\r` : marker)).join("\n");
}

const escapeRe = (t: string) => t.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const triggerCache = new Map<number, RegExp | null>();

/** One regular expression for the triggers of the rules whose bit is not set in `found` (cached); null when none is left. */
function triggersLeft(found: number): RegExp | null {
  let re = triggerCache.get(found);
  if (re !== undefined) return re;
  const alts = RULES.flatMap((r, i) => (found & (1 << i) ? [] : r.triggers.map(escapeRe)));
  re = alts.length ? new RegExp(alts.join("|"), "g") : null;
  triggerCache.set(found, re);
  return re;
}

/**
 * Bit i set when a trigger of rule i occurs in `text`. One regex pass over the text, restarted
 * without a rule's triggers once one of them is found (13 `includes` scans of a log with no trigger
 * cost twice as much: a fifth of the ingest's parse step went to them).
 */
function rulesTriggered(text: string): number {
  let found = 0;
  for (let at = 0; ; ) {
    const re = triggersLeft(found);
    if (!re) return found;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return found;
    // a rule not found yet (were a trigger ever shared, the one found would match again forever)
    found |= 1 << RULES.findIndex((r, i) => !(found & (1 << i)) && r.triggers.includes(m[0]));
    // from the same position: another rule's trigger may start there too
    at = m.index;
  }
}

/** Replaces every secret in `text`; returns the redacted text and the counts per kind. */
export function redact(text: string): RedactResult {
  const mask = rulesTriggered(text);
  const counts: RedactionCounts = {};
  if (mask === 0) return { text, counts, total: 0 };
  const { re, rules } = combined(mask);
  let total = 0;
  let out = "";
  let last = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const groups = m.groups ?? {};
    let rep: string | null = null;
    for (let i = 0; i < rules.length; i++) {
      if (groups[`r${i}`] === undefined) continue;
      const r = rules[i];
      const kind = r.kind(groups[`r${i}n`]);
      const marker = redactionMarker(kind);
      if (r.whole) rep = markerLines(m[0], marker);
      else {
        const keep = groups[`r${i}k`] ?? "";
        const value = groups[`r${i}v`] ?? "";
        if (!r.accept || r.accept(value)) rep = keep + marker + m[0].slice(keep.length + value.length);
      }
      if (rep !== null) {
        counts[kind] = (counts[kind] ?? 0) + 1;
        total++;
      }
      break;
    }
    if (rep === null) {
      // not a secret after all: look again from the next character, so that a secret the
      // rejected match overlapped is still found
      re.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(last, m.index) + rep;
    last = m.index + m[0].length;
  }
  if (last === 0) return { text, counts, total };
  out += text.slice(last);
  return { text: out, counts, total };
}

/** Adds `b` into `a` (per kind). */
export function addRedactionCounts(a: RedactionCounts, b: RedactionCounts): RedactionCounts {
  for (const [k, n] of Object.entries(b) as Array<[RedactionKind, number]>) if (n) a[k] = (a[k] ?? 0) + n;
  return a;
}
