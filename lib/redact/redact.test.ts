import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NOT_SECRET_SAMPLES, redact, REDACTION_RULES, redactionMarker, REDACTION_KINDS } from "./redact";

const JWT =
  "eyJhbGciOiJSUzI1NiIsImtpZCI6IkRIZ2MifQ.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50Iiwic3ViIjoic3lzdGVtIn0.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtMDEyMzQ1Njc4OQ";
const KEY = [
  "-----BEGIN RSA PRIVATE KEY-----",
  "MIIEowIBAAKCAQEA1x3Yp9qg3R9kYV1eT0sJ8m3dC2K0f8mAq2yQv6rV2yOe7bq4",
  "nQhK9GxL0gk8D2mZ4pVq1QeGm3sJmKZcQw0yq9s8ZyJw3Y0Fv2pQH2Wm5ZlKq9sT",
  "-----END RSA PRIVATE KEY-----",
].join("\n");

describe("redact", () => {
  it("redacts every rule's samples and keeps its near misses", () => {
    const kindsCovered = new Set<string>();
    for (const rule of REDACTION_RULES) {
      expect(rule.samples.length, rule.name).toBeGreaterThan(0);
      for (const [line, expected] of rule.samples) {
        const r = redact(line);
        expect([rule.name, r.text]).toEqual([rule.name, expected]);
        // each sample holds one secret, of the kind its expected marker names (a rule with `kindOf` gives several)
        const kind = /\[REDACTED:([a-z0-9-]+)\]/.exec(expected)?.[1] as string;
        expect([rule.name, kind && r.counts[kind as keyof typeof r.counts]]).toEqual([rule.name, 1]);
        kindsCovered.add(kind);
        // a second pass finds nothing more
        expect(redact(r.text).total).toBe(0);
      }
      for (const line of rule.kept) expect([rule.name, redact(line).text]).toEqual([rule.name, line]);
    }
    // every kind has a rule with a sample
    expect([...kindsCovered].sort()).toEqual([...REDACTION_KINDS].sort());
  });

  it("keeps lines that hold no secret", () => {
    for (const line of NOT_SECRET_SAMPLES) expect(redact(line)).toEqual({ text: line, counts: {}, total: 0 });
  });

  it.each([
    [
      "bearer",
      'I0314 02:10:07.123456 1234 round_trippers.go:466] curl -v -XGET -H "Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0" https://10.0.0.1:6443/api',
      'Authorization: Bearer [REDACTED:bearer]" https://10.0.0.1:6443/api',
    ],
    ["jwt", `msg="token review" token=${JWT} user=system`, "token=[REDACTED:token] user=system"],
    ["jwt", `audit: {"user":"x","jwt":"${JWT}"}`, 'audit: {"user":"x","jwt":"[REDACTED:jwt]"}'],
    ["token", "    token: 0123456789abcdef0123456789abcdef", "    token: [REDACTED:token]"],
    ["token", "    token: abcdef.0123456789abcdef", "    token: [REDACTED:token]"],
    ["token", '{"bearerToken":"Zx9kQ2mP7vL4sR8tW1yB3nC6dF0gH5jK"}', '{"bearerToken":"[REDACTED:token]"}'],
    ["client-key-data", "    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=", "    client-key-data: [REDACTED:client-key-data]"],
    [
      "client-certificate-data",
      "    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==",
      "    client-certificate-data: [REDACTED:client-certificate-data]",
    ],
    [
      "url-password",
      "dial postgres://bootline:s3cr3t-pw@db.internal:5432/app failed",
      "dial postgres://bootline:[REDACTED:url-password]@db.internal:5432/app failed",
    ],
    ["url-password", "proxy=http://:hunter2@proxy:3128", "proxy=http://:[REDACTED:url-password]@proxy:3128"],
    ["aws-access-key", "using access key AKIAIOSFODNN7EXAMPLE for s3", "using access key [REDACTED:aws-access-key] for s3"],
    ["aws-secret-key", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [REDACTED:aws-secret-key]"],
    ["aws-secret-key", '"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",', '"SecretAccessKey": "[REDACTED:aws-secret-key]",'],
  ] as const)("%s: %s", (kind, line, expected) => {
    const r = redact(line);
    expect(r.text).toContain(expected);
    expect(r.total).toBeGreaterThanOrEqual(1);
    if (!expected.includes(`[REDACTED:${kind}]`)) return;
    expect(r.counts[kind]).toBeGreaterThanOrEqual(1);
  });

  it("replaces a private key block line for line, so line numbers stay", () => {
    const text = `before\n${KEY}\nafter\n`;
    const r = redact(text);
    expect(r.counts).toEqual({ "private-key": 1 });
    expect(r.text.split("\n")).toHaveLength(text.split("\n").length);
    expect(r.text).toBe(`before\n${Array(4).fill("[REDACTED:private-key]").join("\n")}\nafter\n`);
    // CRLF stays CRLF
    const crlf = redact(`a\r\n${KEY.replace(/\n/g, "\r\n")}\r\nb\r\n`);
    expect(crlf.text).toBe(`a\r\n${Array(4).fill("[REDACTED:private-key]").join("\r\n")}\r\nb\r\n`);
  });

  it("redacts a key cut before its END line, and one inside a JSON string", () => {
    const cut = redact(`x\n${KEY.split("\n").slice(0, 3).join("\n")}\nnext line of log\n`);
    expect(cut.text).toBe("x\n[REDACTED:private-key]\n[REDACTED:private-key]\n[REDACTED:private-key]\nnext line of log\n");
    const json = redact(`{"key":"${KEY.replace(/\n/g, "\\n")}","ok":true}`);
    expect(json.text).toBe('{"key":"[REDACTED:private-key]","ok":true}');
  });

  it("leaves prose and non-secrets alone", () => {
    const lines = [
      'E0314 02:10:07.1 1 server.go:1] "failed to get token: context deadline exceeded"',
      "token: none",
      "Bearer realm=kubernetes",
      "see https://kubernetes.io/docs/concepts/ for details",
      "connecting to http://10.0.0.1:8080/healthz",
      "the pod was broken: 12345",
      "eyJ is how base64 JSON starts",
      "AKIA is a prefix",
    ];
    for (const l of lines) expect(redact(l)).toEqual({ text: l, counts: {}, total: 0 });
  });

  it("counts per kind over a whole text", () => {
    const text = [`Authorization: Bearer ${JWT}`, `x ${JWT}`, `y ${JWT}`, "AKIAIOSFODNN7EXAMPLE ASIAIOSFODNN7EXAMPL2"].join("\n");
    expect(redact(text).counts).toEqual({ bearer: 1, jwt: 2, "aws-access-key": 2 });
  });

  it("is idempotent and never changes the number of lines (property)", () => {
    const secret = fc.constantFrom(
      `Bearer ${JWT}`,
      JWT,
      "token: 0123456789abcdef0123456789abcdef",
      "client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=",
      "https://u:p4ss@h",
      "AKIAIOSFODNN7EXAMPLE",
      "aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      KEY,
      KEY.split("\n").slice(0, 2).join("\n"),
    );
    const piece = fc.oneof(secret, fc.string({ maxLength: 40 }), fc.constantFrom("\n", "\r\n", " ", ":", "@", "token:", "Bearer ", "eyJ"));
    fc.assert(
      // secrets stand apart from their neighbours (a space, a newline), as in real logs
      fc.property(fc.array(piece, { maxLength: 30 }), fc.constantFrom(" ", "\n", "\r\n", "\t", ", "), (parts, sep) => {
        const text = parts.join(sep);
        const once = redact(text);
        expect(once.text.split("\n").length).toBe(text.split("\n").length);
        const twice = redact(once.text);
        expect(twice.text).toBe(once.text);
        expect(twice.total).toBe(0);
        expect(once.text).not.toContain("p4ss@");
        expect(once.text).not.toContain("AKIAIOSFODNN7EXAMPLE");
        expect(once.text).not.toContain("EXAMPLEKEY");
        expect(once.text).not.toContain("MIIEowIBAAKCAQEA");
        expect(Object.values(once.counts).reduce((a, b) => a + b, 0)).toBe(once.total);
      }),
      { numRuns: 300 },
    );
  });

  it("marks keep the kind", () => {
    for (const k of REDACTION_KINDS) expect(redactionMarker(k)).toBe(`[REDACTED:${k}]`);
  });

  it("finds a secret after 20 MB of lines that trigger rules without holding a secret", () => {
    // `token=n/a` and a URL without a password trigger two rules on every line; the Bearer rule's
    // trigger comes only at the end (the speed is the bench's to measure, not this test's)
    const line =
      'Mar 14 02:10:07 node-a kubelet[1234]: I0314 02:10:07.123456 1234 kubelet.go:2321] "SyncLoop (PLEG): event for pod" pod="kube-system/calico-node-x2" token=n/a url=https://10.96.0.1:443/api\n';
    const text = line.repeat(Math.ceil(20e6 / line.length)) + `Authorization: Bearer ${JWT}\n`;
    const r = redact(text);
    expect(r.counts).toEqual({ bearer: 1 });
    expect(r.text.endsWith("Authorization: Bearer [REDACTED:bearer]\n")).toBe(true);
    expect(r.text.length).toBe(text.length - JWT.length + "[REDACTED:bearer]".length);
  });
});
