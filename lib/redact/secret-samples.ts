/**
 * One sample per secret kind, as it shows up in node logs: the table of docs/hostile-input.md
 * ("Redaction") mirrors this list row for row (checked by secret-samples.test.ts), and
 * tests/redaction-read-paths.test.ts ingests every `line` inside a log line and asserts that its
 * `secret` never comes back from a read path nor is stored. Every value is made up, in the real
 * shape of its provider's format (lengths, prefixes, alphabets), so the rules meet what they
 * would meet in a real log.
 */
import type { RedactionKind } from "./redaction-kinds";

export interface SecretSample {
  kind: RedactionKind;
  /** what the secret is, for the doc's table (Markdown inline text, no `|`) */
  what: string;
  /** a log message holding the secret (one line, no `|` or backtick) */
  line: string;
  /** the part of `line` that must never be read back nor stored */
  secret: string;
}

const JWT =
  "eyJhbGciOiJSUzI1NiIsImtpZCI6ImJvb3RsaW5lIn0.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50Iiwic3ViIjoic3lzdGVtOmJvb3RsaW5lIn0.Ym9vdGxpbmUtZmFrZS1zaWduYXR1cmUtMDEyMzQ1Njc4OWFiY2RlZg";

/** Fills `secret` into `line` where `{}` stands. */
const s = (kind: RedactionKind, what: string, line: string, secret: string): SecretSample => ({ kind, what, line: line.replace("{}", secret), secret });

export const SECRET_SAMPLES: readonly SecretSample[] = [
  s(
    "azure-storage-key",
    "Azure storage account key in a connection string (`AccountKey=`)",
    "blob upload failed: DefaultEndpointsProtocol=https;AccountName=bootlinelogs;AccountKey={};EndpointSuffix=core.windows.net",
    "Kx7vR2mN9pL4qZ1cB8dH3jT6wY0sA5eU2iO7gK4nM9vC1bX6zQ3rP8tL0yW5hJ7fD2sG9aE4uI6oK1mN3pR5wQ==",
  ),
  s(
    "azure-shared-access-key",
    "Service Bus / Event Hubs `SharedAccessKey=` in a connection string",
    "eventhub: connecting Endpoint=sb://bootline-ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={};EntityPath=node-logs",
    "Yj3kW8pQ2mZ7xV4cN9bL1hT6fR0sD5gA3eU8iO2=",
  ),
  s(
    "sas-signature",
    "the signature of a shared access signature URL (`sig=`)",
    "GET https://bootlinelogs.blob.core.windows.net/bundles/node-a.tgz?sv=2022-11-02&sp=r&se=2026-12-31T00:00:00Z&sig={} status=403",
    "dGhpcy1pcy1hLWZha2Utc2FzLXNpZ25hdHVyZQ%3D%3D",
  ),
  s(
    "docker-auth",
    'a registry credential in a docker config (`"auth"`, `"identitytoken"`)',
    'load registry config {"auths":{"registry.bootline.example":{"auth":"{}"}}}',
    "Ym9vdGxpbmUtcHVsbDpzM2NyM3QtcmVnaXN0cnktcGFzcw==",
  ),
  s(
    "docker-auth",
    'a registry credential in a docker config (`"auth"`, `"identitytoken"`)',
    'acr login {"auths":{"bootline.azurecr.io":{"identitytoken":"{}"}}}',
    "9c1f2d3e-4f5a-4b7c-8e9a-0b1c2d3e4f5a",
  ),
  s(
    "sendgrid-key",
    "SendGrid API key (`SG.` id `.` secret)",
    "mail: POST /v3/mail/send with {} answered 401",
    "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",
  ),
  s(
    "openai-key",
    "OpenAI API key (`sk-`, `sk-proj-`, `sk-svcacct-`)",
    "llm-gateway: upstream auth with {} refused",
    "sk-proj-Zx8cV6bN4mQ2wE0rT8yU6iO4pA2sD0fG8hJ6kL4zX2cV0bN8mQ6wE4rT2yU0iO8p",
  ),
  s(
    "anthropic-key",
    "Anthropic API key (`sk-ant-`)",
    "llm-gateway: fallback key {} loaded",
    "sk-ant-api03-Pq7wE5rT3yU1iO9pA7sD5fG3hJ1kL9zX7cV5bN3mQ1wE9rT7yU5iO3pA1sD9fG7hJ-ZZ",
  ),
  s(
    "github-token",
    "GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`)",
    "flux: cloning https://{}@github.com/bootline/fleet.git",
    "ghp_Lm3Nb5Vc7Xz9Qa1Ws3Ed5Rf7Tg9Yh1Uj3Ik5",
  ),
  s("gitlab-token", "GitLab access token (`glpat-`)", "runner: PRIVATE-TOKEN {} rejected", "glpat-Rt5Yu7Io9Pa1Sd3Fg5Hj"),
  s(
    "slack-token",
    "Slack tokens (`xoxb-`, `xoxp-`, `xapp-` …)",
    "alertmanager: slack token {} invalid_auth",
    "xoxb-4815162342-1234567890123-Qw3eRt5yUi7oPa9sDf1gHj2k",
  ),
  s(
    "slack-webhook",
    "Slack incoming webhook URL (the path after `/services/`)",
    "alertmanager: notify https://hooks.slack.com/services/{} status=404",
    "T0BOOT1234/B0LINE5678/Zx9cV7bN5mQ3wE1rT9yU7iO5",
  ),
  s(
    "google-api-key",
    "Google API key (`AIza`)",
    "geocode: GET https://maps.googleapis.com/maps/api/geocode/json?key={} 403",
    "AIzaSyBq7Wd9Ef1Gh3Ij5Kl7Mn9Op1Qr3St5Uv7",
  ),
  s(
    "private-key",
    'PEM private key, also inside a GCP service account\'s JSON (`"private_key"`)',
    'gcp creds {"type":"service_account","client_email":"bootline@proj.iam.gserviceaccount.com","private_key":"{}"}',
    "-----BEGIN PRIVATE KEY-----\\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDbootlinefake01\\n-----END PRIVATE KEY-----\\n",
  ),
  s("aws-access-key", "AWS access key id (`AKIA`, `ASIA`)", "s3: signing with {} for bucket node-logs", "AKIAQ3BOOTLINE7FAKE2"),
  s("aws-secret-key", "AWS secret access key after its name", "credentials: aws_secret_access_key={}", "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"),
  s("stripe-key", "Stripe secret and restricted keys (`sk_live_`, `rk_test_` …)", "billing: charge failed with {}", "sk_live_51BootLineFakeKeyQw3eRt5yUi7oPa9"),
  s("npm-token", "npm access token (`npm_`)", "npm ERR! 401 token {} expired", "npm_Qw3eRt5yUi7oPa9sDf1gHj2kLz4xCv6bNm8q"),
  s(
    "vault-token",
    "HashiCorp Vault token (`hvs.`, `hvb.`, `hvr.`)",
    "vault-agent: renewed X-Vault-Token={}",
    "hvs.CAESIBootLineFakeVaultToken0123456789abcdef",
  ),
  s("jwt", "JSON Web Token anywhere", 'audit: {"user":"system:bootline","jwt":"{}"}', JWT),
  s("bearer", "the value after `Bearer`", 'curl -H "Authorization: Bearer {}" https://10.0.0.1:6443/api', "Zq8Xw6Vu4Ts2Rq0Po8Nm6Lk4Ji2Hg0Fe"),
  s("basic-auth", "HTTP Basic credentials (base64 of `user:password`)", "proxy: Proxy-Authorization: Basic {} status=407", "Ym9vdGxpbmU6cHJveHktcGFzcy0wNDI="),
  s("url-password", "the password in `scheme://user:password@host`", "dial postgres://bootline:{}@db.internal:5432/app failed", "Pg-fake-Passw0rd-42"),
  s("token", "`token`, `bearerToken`, `access_token` … pairs", "kubeconfig user token: {}", "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv"),
  s("password", "`password` / `passwd` pairs", "mysql connect user=root password={} host=db", "Hunter2-fake-pass"),
  s("secret", "`secret`, `client_secret`, `SECRET_KEY` pairs", "oauth2 client_secret={} scope=openid", "cs-Fake9Secret8Value7"),
  s("api-key", "`api_key`, `apiKey`, `X-API-Key` pairs", "datadog agent api_key={} site=datadoghq.com", "0f1e2d3c4b5a69788796a5b4c3d2e1f0"),
  s("client-key-data", "kubeconfig embedded client key", "kubeconfig: client-key-data: {}", "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCmJvb3RsaW5l"),
  s(
    "client-certificate-data",
    "kubeconfig embedded client certificate",
    "kubeconfig: client-certificate-data: {}",
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCmJvb3RsaW5l",
  ),
];

/** The Markdown table of the samples, as docs/hostile-input.md holds it (header, then one row per sample). */
export function secretSamplesTable(samples: readonly SecretSample[] = SECRET_SAMPLES): string {
  const rows = samples.map((x) => `| \`${x.kind}\` | ${x.what} | \`${x.line}\` |`);
  return ["| kind | what | sample (made up, in the real shape) |", "| --- | --- | --- |", ...rows].join("\n");
}
