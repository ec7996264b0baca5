import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REDACTION_KINDS, redact, redactionMarker } from "./redact";
import { SECRET_SAMPLES, secretSamplesTable } from "./secret-samples";

describe("secret samples", () => {
  it("every sample is redacted: its secret gone, its kind's marker in its place", () => {
    for (const x of SECRET_SAMPLES) {
      expect(x.line, x.kind).toContain(x.secret);
      const r = redact(`Mar 14 02:10:07 node-a kubelet[1234]: ${x.line}`);
      expect([x.kind, r.text.includes(x.secret)]).toEqual([x.kind, false]);
      expect([x.kind, r.text]).toEqual([x.kind, expect.stringContaining(redactionMarker(x.kind))]);
      expect([x.kind, r.counts[x.kind]]).toEqual([x.kind, 1]);
    }
  });

  it("covers every kind", () => {
    expect([...new Set(SECRET_SAMPLES.map((x) => x.kind))].sort()).toEqual([...REDACTION_KINDS].sort());
  });

  it("docs/hostile-input.md holds the table of the samples, row for row", () => {
    const doc = readFileSync(path.join(import.meta.dirname, "../../docs/hostile-input.md"), "utf8");
    expect(doc).toContain(`\n${secretSamplesTable()}\n`);
  });
});
