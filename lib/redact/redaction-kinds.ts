/**
 * The kinds of secret redaction knows, the marker that replaces each (`[REDACTED:<kind>]`), the
 * counts per kind, and the shape of a redaction rule (the rules: redaction-rules.ts).
 */

export const REDACTION_KINDS = [
  "private-key",
  "jwt",
  "bearer",
  "basic-auth",
  "token",
  "password",
  "secret",
  "api-key",
  "client-key-data",
  "client-certificate-data",
  "url-password",
  "aws-access-key",
  "aws-secret-key",
  "github-token",
  "slack-token",
  "gitlab-token",
  "google-api-key",
  "stripe-key",
  "azure-storage-key",
  "azure-shared-access-key",
  "sas-signature",
  "docker-auth",
  "sendgrid-key",
  "openai-key",
  "anthropic-key",
  "npm-token",
  "vault-token",
  "slack-webhook",
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

export const MARKER_PREFIX = "[REDACTED:";

/** One redaction rule: how to find a secret, and samples that prove it (redact.test.ts). */
export interface RedactionRule {
  /** short name of the rule (several rules may give one kind) */
  name: string;
  kind: RedactionKind;
  /**
   * pattern source (no capturing groups) of what must occur on the line where the rule's match
   * starts; the pre-check looks for all rules' triggers in one pass (`redact`). Case variants are
   * written as classes (`[Oo][Kk]`), one alternative per rule, which keeps that pass fast; a
   * trigger that also asks for what follows the name (`token` then `=` or `:`) spares the lines
   * that only mention it (`broken`, `token-cleaner`) the rules' pass. A trigger starts with a
   * character another trigger already starts with where it can (`://hooks…`, `entitytoken"`, `sig=`):
   * each new first character costs the pre-check on every line (one more, such as `"` or `h`,
   * took the bench's plain lines from 727 to 285 MB/s).
   */
  trigger: string;
  /**
   * pattern source; named groups are written `<@k>` (kept prefix), `<@v>` (the secret value),
   * `<@n>` (a name that chooses the kind), `<@s>` (the separator) and `<@q>` (an opening quote,
   * also `\k<@q>`), renamed per rule when the rules are combined
   */
  source: string;
  /** the kind of a match from its `n` group, when it has one (else `kind`) */
  kindOf?: (name: string | undefined) => RedactionKind;
  /** whether the matched value is a secret, given the separator and the text right after it (default: yes) */
  accept?: (value: string, sep: string, after: string) => boolean;
  /** replace the whole match (true) or only the value group (false) */
  whole: boolean;
  /** lines holding a secret of this rule, each with the line as it must come out */
  samples: ReadonlyArray<readonly [line: string, redacted: string]>;
  /** lines this rule's pattern comes close to that must be kept as they are */
  kept: readonly string[];
}
