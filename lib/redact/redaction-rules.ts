/**
 * The redaction rules, one table (`REDACTION_RULES`), data with the helpers that build it: each
 * rule's trigger, pattern, kind and the samples it must redact and keep (checked by
 * redact.test.ts). Patterns follow the providers' documented token formats and the usual
 * `name=value` / `name: value` / JSON `"name": "value"` shapes of credentials; values that do not
 * look like secrets (`token: none`, a placeholder, prose) are refused by `accept`.
 */
import { MARKER_PREFIX, type RedactionKind, type RedactionRule } from "./redaction-kinds";

/** A value that looks like a credential rather than a word: long enough and not plain prose. */
function tokenLike(v: string): boolean {
  if (v.startsWith(MARKER_PREFIX)) return false;
  if (/^[a-z0-9]{6}\.[a-z0-9]{16}$/.test(v)) return true; // kubeadm bootstrap token
  if (v.length < 16) return false;
  return /[0-9]/.test(v) || (v.length >= 24 && /[A-Z]/.test(v) && /[a-z]/.test(v));
}

/** Values that stand for no secret: empty words, placeholders, templates, masks, earlier markers. */
const PLACEHOLDER =
  /^(?:none|null|nil|undefined|true|false|yes|no|n\/a|na|empty|unset|not[-_ ]?set|redacted|hidden|masked|omitted|secret|password|token|\*+|x{3,}|\.{3}|<[^>]*>|\$\{[^}]*\}|\$\(?[A-Za-z_][A-Za-z0-9_]*\)?|%[a-z]|\{\{.*\}\})$/i;

const isPlaceholder = (v: string) => v.startsWith(MARKER_PREFIX) || PLACEHOLDER.test(v);

/** The value ends its line or field: what follows is the end, a quote, a delimiter or another `name=` pair. */
function endsField(after: string): boolean {
  return /^(?:[ \t]*(?:$|[\r\n"'`,;&})\]])|[ \t]+[A-Za-z_][\w.-]*=)/.test(after);
}

/**
 * A value after `name=` is a secret unless it is a placeholder; after `name:` (also prose, as in
 * `failed to get token: context deadline exceeded`) it must look like a credential, or be at
 * least 8 characters that end the field (a kubeconfig `token:` of letters and dashes).
 */
function pairValue(v: string, sep: string, after: string): boolean {
  if (isPlaceholder(v)) return false;
  if (sep.includes("=")) return true;
  return tokenLike(v) || /^eyJ[A-Za-z0-9_-]{8,}/.test(v) || (v.length >= 8 && endsField(after));
}

/** Basic credentials: base64 of `user:password`. */
function basicCredentials(v: string): boolean {
  try {
    return atob(v).includes(":");
  } catch {
    return false;
  }
}

const B64 = "A-Za-z0-9+/=";
/** characters of an unquoted value: up to white space, a quote or a delimiter */
const BARE = `[^\\s"'\`,;&<>(){}\\[\\]\\\\]{1,256}`;
/** a quoted value (JSON, YAML, Go `%q`), possibly with escaped quotes around it */
const QUOTED_VALUE = `[^"'\`\\r\\n\\\\]{1,256}`;

/** a value in a provider's own format is left to that provider's rule, so its kind says which */
const PROVIDER_AHEAD = "(?!gh[pousr]_|github_pat_|xox[abposr]-|xapp-|glpat-|AIza|[sr]k_(?:live|test)_|AKIA|ASIA|SG\\.|sk-|npm_|hv[sbr]\\.)";

/** `name=value`, `name: value`, `"name": "value"`, `name => 'value'` for the names in `names` (a pattern source). */
function pairRules(
  name: string,
  kind: RedactionKind,
  names: string,
  trigger: string,
  samples: { quoted: RedactionRule["samples"]; bare: RedactionRule["samples"] },
  kept: { quoted: string[]; bare: string[] },
): RedactionRule[] {
  const key = `(?:${names})(?:\\\\?["'])?[ \\t]*(?<@s>[:=]|=>)[ \\t]*`;
  return [
    {
      name: `${name}-quoted`,
      kind,
      trigger,
      source: `(?<@k>${key}(?<@q>\\\\?["']))${PROVIDER_AHEAD}(?<@v>${QUOTED_VALUE})(?=\\k<@q>)`,
      accept: (v) => !isPlaceholder(v.trim()) && v.trim().length > 0,
      whole: false,
      samples: samples.quoted,
      kept: kept.quoted,
    },
    {
      name,
      kind,
      trigger,
      source: `(?<@k>${key})${PROVIDER_AHEAD}(?<@v>${BARE})`,
      accept: pairValue,
      whole: false,
      samples: samples.bare,
      kept: kept.bare,
    },
  ];
}

const TOKEN_TRIGGER = `[Oo][Kk][Ee][Nn]\\\\?["']?[ \\t]*[:=]`;

const JWT_SAMPLE =
  "eyJhbGciOiJSUzI1NiIsImtpZCI6IkRIZ2MifQ.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50Iiwic3ViIjoic3lzdGVtIn0.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtMDEyMzQ1Njc4OQ";

/**
 * The rules, in priority order at one position (the first branch that matches there wins):
 * whole-structure rules first, then provider formats, then `name=value` pairs.
 */
export const REDACTION_RULES: readonly RedactionRule[] = [
  {
    // PEM private keys: the block up to its END line, or (cut or END missing) the BEGIN line and
    // the lines after it that start with base64
    name: "private-key",
    kind: "private-key",
    trigger: "BEGIN",
    source: `-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----(?:[\\s\\S]{0,20000}?-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|[^\\n]*(?:\\n[ \\t]*[${B64}]{16,}[^\\n]*)*)`,
    whole: true,
    samples: [
      [
        "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yUQWbSIVNsLx9u7Zc9zTfQ6+8QhoAoGCCqGSM49\n-----END EC PRIVATE KEY-----",
        "[REDACTED:private-key]\n[REDACTED:private-key]\n[REDACTED:private-key]",
      ],
    ],
    kept: ["-----BEGIN CERTIFICATE-----", "BEGIN transaction"],
  },
  {
    // the value after `Bearer` (Authorization headers, curl -H dumps)
    name: "bearer",
    kind: "bearer",
    trigger: "[Bb][Ee][Aa][Rr][Ee][Rr][ \\t]+[A-Za-z0-9._~+/-]{8}",
    source: `(?<@k>\\b[Bb](?:earer|EARER)[ \\t]+)(?<@v>[A-Za-z0-9._~+/-]{8,}=*)`,
    accept: (v, _s, after) => !isPlaceholder(v) && (tokenLike(v) || /^eyJ/.test(v) || endsField(after)),
    whole: false,
    samples: [
      [
        'curl -H "Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0" https://10.0.0.1:6443/api',
        'curl -H "Authorization: Bearer [REDACTED:bearer]" https://10.0.0.1:6443/api',
      ],
      ["Authorization: Bearer abcdefgh-ijklmnop-qrstuvwx", "Authorization: Bearer [REDACTED:bearer]"],
    ],
    kept: ["Bearer realm=kubernetes", "Bearer authentication failed for user", "Bearer token expired"],
  },
  {
    // HTTP Basic credentials: base64 of `user:password` after `Basic`
    name: "basic-auth",
    kind: "basic-auth",
    trigger: "[Bb][Aa][Ss][Ii][Cc][ \\t]+[A-Za-z0-9+/]{4}",
    source: `(?<@k>\\b(?:Basic|basic|BASIC)[ \\t]+)(?<@v>[A-Za-z0-9+/]{4,}={0,2})`,
    accept: basicCredentials,
    whole: false,
    samples: [
      ["Authorization: Basic YWRtaW46aHVudGVyMg==", "Authorization: Basic [REDACTED:basic-auth]"],
      [
        'proxy request headers="Proxy-Authorization: Basic cmVnaXN0cnk6czNjcjN0" status=407',
        'proxy request headers="Proxy-Authorization: Basic [REDACTED:basic-auth]" status=407',
      ],
    ],
    kept: ["Basic authentication failed", "basic auth disabled", 'WWW-Authenticate: Basic realm="registry"'],
  },
  {
    // kubeconfig `token:` (also `id-token`, `bearerToken`, `access_token=`, JSON `"token": "..."`)
    // when the value is a JSON Web Token or looks like a credential: kept before the JWT rule so
    // the kind says where it was
    name: "token-jwt",
    kind: "token",
    trigger: TOKEN_TRIGGER,
    source: `(?<@k>(?:[Tt]oken|TOKEN)["']?[ \\t]*[:=][ \\t]*["']?)(?<@v>eyJ[A-Za-z0-9._-]{8,})`,
    whole: false,
    samples: [[`msg="token review" token=${JWT_SAMPLE} user=system`, 'msg="token review" token=[REDACTED:token] user=system']],
    kept: ["token: eyJ is how base64 JSON starts"],
  },
  {
    // JSON Web Tokens anywhere: base64url header and payload (both JSON objects, `eyJ`), signature
    name: "jwt",
    kind: "jwt",
    trigger: "eyJ",
    source: `eyJ[A-Za-z0-9_-]{4,}\\.eyJ[A-Za-z0-9_-]{4,}\\.[A-Za-z0-9_-]*`,
    whole: true,
    samples: [[`audit: {"user":"x","jwt":"${JWT_SAMPLE}"}`, 'audit: {"user":"x","jwt":"[REDACTED:jwt]"}']],
    kept: ["eyJ is how base64 JSON starts"],
  },
  {
    // GitHub tokens: classic personal (ghp_), OAuth (gho_), user-to-server (ghu_), server-to-server
    // (ghs_), refresh (ghr_), fine-grained personal (github_pat_)
    name: "github-token",
    kind: "github-token",
    trigger: "g(?:h[pousr]_|ithub_pat_)",
    source: `(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})`,
    whole: true,
    samples: [
      ["git clone https://ghp_R2d2C3poBb8Ll0Yy5Ww1Qq4Zz6Xx9Vv7Nn3Mm on node", "git clone https://[REDACTED:github-token] on node"],
      ["GITHUB_TOKEN=ghs_16C7e42F292c6912E7710c838347Ae178B4a", "GITHUB_TOKEN=[REDACTED:github-token]"],
      ["token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV used", "token [REDACTED:github-token] used"],
    ],
    kept: ["ghp_ is the prefix of a classic token", "pod ghs_worker-1 ready"],
  },
  {
    // Slack tokens: bot (xoxb-), user (xoxp-), app-level (xapp-), legacy workspace/refresh
    name: "slack-token",
    kind: "slack-token",
    trigger: "x(?:ox[abposr]|app)-",
    source: `(?<![A-Za-z0-9_])(?:xox[abposr]-[A-Za-z0-9-]{10,250}|xapp-\\d-[A-Za-z0-9-]{10,250})`,
    whole: true,
    samples: [
      [
        "alertmanager: slack api_url ok, token xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "alertmanager: slack api_url ok, token [REDACTED:slack-token]",
      ],
      ['{"slack":"xoxp-2222222222-3333333333-4444444444-abcdef0123456789abcdef0123456789"}', '{"slack":"[REDACTED:slack-token]"}'],
    ],
    kept: ["xoxo from the team", "xoxb- is a bot token prefix"],
  },
  {
    // GitLab personal, project and group access tokens
    name: "gitlab-token",
    kind: "gitlab-token",
    trigger: "glpat-",
    source: `(?<![A-Za-z0-9_])glpat-[A-Za-z0-9_-]{20,}`,
    whole: true,
    samples: [["PRIVATE-TOKEN: glpat-xQ3vBz7kLmN9pR2sT4uW", "PRIVATE-TOKEN: [REDACTED:gitlab-token]"]],
    kept: ["glpat-short"],
  },
  {
    // Google API keys: `AIza` and 35 characters
    name: "google-api-key",
    kind: "google-api-key",
    trigger: "AIza",
    source: `(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`,
    whole: true,
    samples: [
      [
        "maps request https://maps.googleapis.com/maps/api/geocode/json?key=AIzaSyD3f6Vb9kQ2mP7vL4sR8tW1yB3nC6dF0gH",
        "maps request https://maps.googleapis.com/maps/api/geocode/json?key=[REDACTED:google-api-key]",
      ],
    ],
    kept: ["AIzawa is a family name"],
  },
  {
    // Stripe-style secret and restricted keys, live and test (`sk_live_…`, `rk_test_…`)
    name: "stripe-key",
    kind: "stripe-key",
    trigger: "[sr]k_(?:live|test)_",
    source: `(?<![A-Za-z0-9_])[sr]k_(?:live|test)_[0-9A-Za-z]{16,247}`,
    whole: true,
    samples: [["billing: charge failed with key sk_live_51HqLyjWDarjtT1zdp7dcXyz", "billing: charge failed with key [REDACTED:stripe-key]"]],
    kept: ["sk_live_ keys are secret"],
  },
  {
    // SendGrid API keys: `SG.`, a 22-character key id, `.`, a 43-character secret
    name: "sendgrid-key",
    kind: "sendgrid-key",
    trigger: "SG\\.",
    source: `(?<![A-Za-z0-9_-])SG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{32,64}(?![A-Za-z0-9_-])`,
    whole: true,
    samples: [
      [
        "mail: POST /v3/mail/send key SG.aBcDeFgHiJkLmNoPqRsTuV.wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ012 401",
        "mail: POST /v3/mail/send key [REDACTED:sendgrid-key] 401",
      ],
    ],
    kept: ["SG.primary is the security group", "pod SG.x.y started"],
  },
  {
    // OpenAI secret keys (`sk-…`, project `sk-proj-…`, service account `sk-svcacct-…`, admin
    // `sk-admin-…`) and Anthropic keys (`sk-ant-…`): the whole key when what follows `sk-` looks
    // like a credential
    name: "sk-key",
    kind: "openai-key",
    trigger: "\\bsk-",
    source: `(?<![A-Za-z0-9_-])(?<@v>sk-(?<@n>ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,256})`,
    kindOf: (n) => (n === "ant-" ? "anthropic-key" : "openai-key"),
    accept: (v) => tokenLike(v.slice(3)),
    whole: false,
    samples: [
      ["openai: client ready key=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk6lMn9oPq", "openai: client ready key=[REDACTED:openai-key]"],
      ["OPENAI_API_KEY is 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", "OPENAI_API_KEY is [REDACTED:openai-key]"],
      ["anthropic key sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk6lMn9oPq-AA", "anthropic key [REDACTED:anthropic-key]"],
    ],
    kept: ["disk-pressure sk-learn-preprocessing-pipeline step", "mounted /dev/sk-a"],
  },
  {
    // npm access tokens (`npm_` and 36 characters) and HashiCorp Vault tokens (service `hvs.`,
    // batch `hvb.`, recovery `hvr.`)
    name: "prefixed-token",
    kind: "npm-token",
    trigger: "(?:pm_|[sbr]\\.)[A-Za-z0-9_-]{24}",
    source: `(?<![A-Za-z0-9_.-])(?<@n>npm_|hv[sbr]\\.)[A-Za-z0-9_-]{24,256}`,
    kindOf: (n) => (n === "npm_" ? "npm-token" : "vault-token"),
    whole: true,
    samples: [
      ["npm ERR! 403 using token npm_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c", "npm ERR! 403 using token [REDACTED:npm-token]"],
      ["vault: login ok X-Vault-Token=hvs.CAESIAb3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zGh3iJk", "vault: login ok X-Vault-Token=[REDACTED:vault-token]"],
    ],
    kept: ["npm_config_cache=/tmp", "hvs.short"],
  },
  {
    // Slack incoming webhook URLs: the path after `/services/` is the credential
    name: "slack-webhook",
    kind: "slack-webhook",
    trigger: "://hooks\\.slack\\.com/",
    source: `(?<@k>hooks\\.slack\\.com/(?:services|workflows|triggers)/)(?<@v>[A-Za-z0-9/_-]{20,256})`,
    whole: false,
    samples: [
      [
        "alertmanager: notify slack url=https://hooks.slack.com/services/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 status=200",
        "alertmanager: notify slack url=https://hooks.slack.com/services/[REDACTED:slack-webhook] status=200",
      ],
    ],
    kept: ["see https://hooks.slack.com/ for setup"],
  },
  {
    // AWS access key ids (long-term AKIA, temporary ASIA)
    name: "aws-access-key",
    kind: "aws-access-key",
    trigger: "A[KS]IA",
    source: `(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}`,
    whole: true,
    samples: [["using access key AKIAIOSFODNN7EXAMPLE for s3", "using access key [REDACTED:aws-access-key] for s3"]],
    kept: ["AKIA is a prefix", "ASIAN market"],
  },
  {
    // AWS secret access keys after their name (credentials files, env dumps, STS JSON)
    name: "aws-secret-key",
    kind: "aws-secret-key",
    trigger: `[Aa][Cc][Cc][Ee][Ss][Ss]_?[Kk][Ee][Yy]\\\\?["']?[ \\t]*[:=]`,
    source: `(?<@k>(?:[Aa][Ww][Ss]_)?[Ss][Ee][Cc][Rr][Ee][Tt]_?[Aa][Cc][Cc][Ee][Ss][Ss]_?[Kk][Ee][Yy]["']?[ \\t]*[:=][ \\t]*["']?)(?<@v>[A-Za-z0-9/+=]{16,})`,
    whole: false,
    samples: [
      ["aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [REDACTED:aws-secret-key]"],
      ['"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",', '"SecretAccessKey": "[REDACTED:aws-secret-key]",'],
    ],
    kept: ["aws_secret_access_key = short"],
  },
  {
    // kubeconfig embedded client credentials
    name: "client-data",
    kind: "client-key-data",
    trigger: `-data["']?[ \\t]*:`,
    source: `(?<@k>(?<@n>client-key-data|client-certificate-data)["']?[ \\t]*:[ \\t]*["']?)(?<@v>[${B64}]{8,})`,
    kindOf: (n) => (n === "client-certificate-data" ? "client-certificate-data" : "client-key-data"),
    whole: false,
    samples: [
      ["    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=", "    client-key-data: [REDACTED:client-key-data]"],
      ["    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==", "    client-certificate-data: [REDACTED:client-certificate-data]"],
    ],
    kept: ["    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg=="],
  },
  {
    // Azure connection strings: a storage account's `AccountKey=…`, a Service Bus / Event Hubs /
    // IoT Hub `SharedAccessKey=…` (base64)
    name: "azure-key",
    kind: "azure-storage-key",
    trigger: "(?:Account|SharedAccess)Key=",
    source: `(?<@k>(?<@n>AccountKey|SharedAccessKey)=)(?<@v>[A-Za-z0-9+/]{16,256}={0,2})`,
    kindOf: (n) => (n === "AccountKey" ? "azure-storage-key" : "azure-shared-access-key"),
    accept: (v) => !isPlaceholder(v),
    whole: false,
    samples: [
      [
        "DefaultEndpointsProtocol=https;AccountName=bootlinelogs;AccountKey=q8Vf3kR2mN7pL1xZ9cB4dH6jT0wY5sA8eU3iO2gK7nM1vC9bX4zQ6rP0tL5yW8hJ2fD7sG3aE1uI9oK4mN6pR==;EndpointSuffix=core.windows.net",
        "DefaultEndpointsProtocol=https;AccountName=bootlinelogs;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net",
      ],
      [
        "Endpoint=sb://bootline-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo=",
        "Endpoint=sb://bootline-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=[REDACTED:azure-shared-access-key]",
      ],
    ],
    kept: ["AccountKey=<key>;EndpointSuffix=core.windows.net", "SharedAccessKeyName=RootManageSharedAccessKey"],
  },
  {
    // the signature of an Azure shared access signature (SAS) URL or token: `sig=…` in a query
    name: "sas-signature",
    kind: "sas-signature",
    trigger: "sig=",
    source: `(?<@k>[?&;]sig=)(?<@v>[A-Za-z0-9%+/=_-]{16,512})`,
    accept: (v) => !isPlaceholder(v),
    whole: false,
    samples: [
      [
        "GET https://bootlinelogs.blob.core.windows.net/logs/node-a.tgz?sv=2022-11-02&sp=r&se=2026-12-31T00:00:00Z&spr=https&sig=Qm9vdGxpbmUlMkJmYWtlJTJGc2lnbmF0dXJlJTNE 403",
        "GET https://bootlinelogs.blob.core.windows.net/logs/node-a.tgz?sv=2022-11-02&sp=r&se=2026-12-31T00:00:00Z&spr=https&sig=[REDACTED:sas-signature] 403",
      ],
    ],
    kept: ["signal sig=15 sent to pid 1234", "?sig=short"],
  },
  {
    // a docker / containerd registry config (`~/.docker/config.json`, `.dockerconfigjson`):
    // `"auth"` (base64 of user:password), `"identitytoken"`, `"registrytoken"`; also in JSON
    // quoted inside a log line
    name: "docker-auth",
    kind: "docker-auth",
    trigger: `(?:auth|entitytoken|egistrytoken)\\\\?"[ \\t]*:`,
    source: `(?<@k>"(?:auth|identitytoken|registrytoken)\\\\?"[ \\t]*:[ \\t]*(?<@q>\\\\?"))(?<@v>[A-Za-z0-9+/=._-]{4,4096})(?=\\k<@q>)`,
    accept: (v) => !isPlaceholder(v),
    whole: false,
    samples: [
      [
        '{"auths":{"registry.example.com":{"auth":"Ym9vdGxpbmU6czNjcjN0LXJlZ2lzdHJ5LXB3"}}}',
        '{"auths":{"registry.example.com":{"auth":"[REDACTED:docker-auth]"}}}',
      ],
      [
        '{"auths":{"bootline.azurecr.io":{"identitytoken":"f3a9c2e1-7b4d-4e8a-9c1f-2d3e4f5a6b7c"}}}',
        '{"auths":{"bootline.azurecr.io":{"identitytoken":"[REDACTED:docker-auth]"}}}',
      ],
      ['msg="pull config" config="{\\"auth\\":\\"dXNlcjpodW50ZXIy\\"}"', 'msg="pull config" config="{\\"auth\\":\\"[REDACTED:docker-auth]\\"}"'],
    ],
    kept: ['{"auth": ""}', '{"auth":"none"}', '{"auth":{"type":"oidc"}}'],
  },
  {
    // a password in a URL: scheme://user:password@host
    name: "url-password",
    kind: "url-password",
    trigger: `://[^\\s/@:?#"'<>]{0,200}:[^\\s/@?#"'<>]{1,200}@`,
    source: `(?<@k>://[^\\s/@:?#"'<>]{0,200}:)(?<@v>[^\\s/@?#"'<>]{1,200})(?=@)`,
    accept: (v) => !v.startsWith(MARKER_PREFIX),
    whole: false,
    samples: [
      ["dial postgres://bootline:s3cr3t-pw@db.internal:5432/app failed", "dial postgres://bootline:[REDACTED:url-password]@db.internal:5432/app failed"],
      ["proxy=http://:hunter2@proxy:3128", "proxy=http://:[REDACTED:url-password]@proxy:3128"],
    ],
    kept: ["connecting to http://10.0.0.1:8080/healthz", "see https://kubernetes.io/docs/concepts/ for details"],
  },
  ...pairRules(
    "token",
    "token",
    // token, Token, TOKEN, and names ending in them (id-token, bearerToken, access_token, AUTH_TOKEN)
    "[Tt]oken|TOKEN",
    TOKEN_TRIGGER,
    {
      quoted: [['{"bearerToken":"Zx9kQ2mP7vL4sR8tW1yB3nC6dF0gH5jK"}', '{"bearerToken":"[REDACTED:token]"}']],
      bare: [
        ["    token: 0123456789abcdef0123456789abcdef", "    token: [REDACTED:token]"],
        ["    token: abcdef.0123456789abcdef", "    token: [REDACTED:token]"],
        ["    token: kubeconfig-user-access-token-value", "    token: [REDACTED:token]"],
        ["refresh access_token=abcdefghij&expires=3600", "refresh access_token=[REDACTED:token]&expires=3600"],
      ],
    },
    {
      quoted: ['{"token": ""}', '{"token": "<none>"}'],
      bare: [
        'E0314 02:10:07.1 1 server.go:1] "failed to get token: context deadline exceeded"',
        "token: none",
        "token=n/a url=https://10.96.0.1:443/api",
        'pod="kube-system/token-cleaner-5f8d9c7b6-x2k4q" status=Running',
        "serviceaccount token-controller started",
      ],
    },
  ),
  ...pairRules(
    "password",
    "password",
    "[Pp]ass(?:word|wd)|PASS(?:WORD|WD)",
    `[Pp][Aa][Ss][Ss][Ww](?:[Oo][Rr])?[Dd]\\\\?["']?[ \\t]*[:=]`,
    {
      quoted: [
        ['{"user":"admin","password":"correct horse battery"}', '{"user":"admin","password":"[REDACTED:password]"}'],
        ['msg="login" body="{\\"password\\":\\"hunter2\\"}"', 'msg="login" body="{\\"password\\":\\"[REDACTED:password]\\"}"'],
      ],
      bare: [
        ["mysql connect user=root password=hunter2 host=db", "mysql connect user=root password=[REDACTED:password] host=db"],
        ["DB_PASSWORD=s3cr3t!", "DB_PASSWORD=[REDACTED:password]"],
        ["  password: Tr0ub4dor&3", "  password: [REDACTED:password]&3"],
      ],
    },
    {
      quoted: ['{"password":"${DB_PASSWORD}"}'],
      bare: [
        "password policy updated",
        "password: ********",
        "reset password for user admin",
        "failed to read password: permission denied",
        "password=$DB_PASSWORD",
      ],
    },
  ),
  ...pairRules(
    "secret",
    "secret",
    // secret, client_secret, SECRET_KEY, secret-key (not aws_secret_access_key: a rule of its own)
    "(?:[Ss]ecret|SECRET)(?:[_-]?(?:[Kk]ey|KEY))?",
    `[Ss][Ee][Cc][Rr][Ee][Tt](?:[_-]?[Kk][Ee][Yy])?\\\\?["']?[ \\t]*[:=]`,
    {
      quoted: [['{"client_id":"bootline","client_secret":"9Xk2-pQ7z-Lm4w"}', '{"client_id":"bootline","client_secret":"[REDACTED:secret]"}']],
      bare: [
        ["oauth2 client_secret=abcdefghijkl scope=openid", "oauth2 client_secret=[REDACTED:secret] scope=openid"],
        ["JWT_SECRET_KEY=0f1e2d3c4b5a", "JWT_SECRET_KEY=[REDACTED:secret]"],
        ["webhook secret=mysharedsecretvalue", "webhook secret=[REDACTED:secret]"],
      ],
    },
    {
      quoted: ['{"secret": "<redacted>"}'],
      bare: ['secret "calico-node-token" not found', "Secret synced successfully", "mounting secret: default"],
    },
  ),
  ...pairRules(
    "api-key",
    "api-key",
    "[Aa](?:pi|PI)[_-]?[Kk](?:ey|EY)",
    `[Aa][Pp][Ii][_-]?[Kk][Ee][Yy]\\\\?["']?[ \\t]*[:=]`,
    {
      quoted: [['{"apiKey": "d41d8cd98f00b204e9800998ecf8427e"}', '{"apiKey": "[REDACTED:api-key]"}']],
      bare: [
        ["X-API-Key: 5ebe2294ecd0e0f08eab7690d2a6ee69", "X-API-Key: [REDACTED:api-key]"],
        ["datadog agent api_key=abcdefabcdefabcdefab site=datadoghq.com", "datadog agent api_key=[REDACTED:api-key] site=datadoghq.com"],
      ],
    },
    { quoted: ['{"api_key": ""}'], bare: ["api_key: missing from config", "apikey rotation done"] },
  ),
];

/** Lines that hold no secret, whatever rule comes close: each must come out unchanged. */
export const NOT_SECRET_SAMPLES: readonly string[] = [
  "password policy updated",
  'I0314 02:10:07.123456 1234 kubelet.go:2321] "SyncLoop ADD" pods=["kube-system/token-refresher-7d9f8c6b5-abcde"]',
  'pod="monitoring/secret-sync-6b7c9d-ql2x8" container=token-exchanger restarts=3',
  "the pod was broken: 12345",
  "Mar 14 02:10:07 node-a systemd[1]: Started Basic System.",
  "kubelet: using bootstrap kubeconfig to generate TLS client cert, key and kubeconfig file",
];
