/**
 * Property test: whatever the text (lines of every registered format mixed with noise, cut at
 * random places), `parseFile` never throws, every physical line is accounted for exactly once,
 * and the per-record invariants hold.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFile, splitLines } from "./parse-file";
import { FORMAT_REGISTRY } from "./registry";

const sampleLines = FORMAT_REGISTRY.flatMap((s) => [...s.samples.flatMap((x) => [...(x.context ?? []), x.line]), ...s.notMine]);

const lineArb = fc.oneof(
  fc.constantFrom(...sampleLines),
  fc.constantFrom(...sampleLines).chain((l) => fc.nat({ max: l.length }).map((n) => l.slice(0, n))),
  fc.constantFrom("", "   ", "\t", "  continued", "-- Reboot --", "{", "}", "]", "\u0000bin", "Events:"),
  fc.string({ maxLength: 80 }),
);

describe("parseFile on arbitrary input", () => {
  it("never throws and accounts for every line", () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 40 }),
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        fc.constantFrom("x.log", "rke2/agent-logs/kubelet.log", "var/log/pods/ns_p_u/calico-node/0.log", "events.json"),
        fc.option(fc.integer({ min: 2000, max: 2030 }), { nil: undefined }),
        (lines, eol, finalNewline, path, year) => {
          const text = lines.join(eol) + (finalNewline && lines.length ? eol : "");
          const f = parseFile(path, text, { year, collectedMs: Date.UTC(2025, 4, 19, 4, 31) });
          const c = f.counts;
          expect(c.lines).toBe(splitLines(text).length);
          expect(c.parsed + c.blank + c.skipped).toBe(c.lines);
          expect(c.records + c.continuation + c.banner).toBe(c.parsed);
          expect(Object.values(c.skippedByReason).reduce((a, b) => a + b, 0)).toBe(c.skipped);
          expect(f.records.filter((r) => r.outOfOrder).length).toBe(c.outOfOrder);
          expect(f.records.filter((r) => r.ts === null).length).toBe(c.noTimestamp);
          for (const r of f.records) {
            expect(r.line).toBeGreaterThanOrEqual(1);
            expect(r.endLine).toBeGreaterThanOrEqual(r.line);
            expect(r.endLine).toBeLessThanOrEqual(c.lines);
            if (r.ts !== null) expect(Number.isInteger(r.ts)).toBe(true);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
