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

/** Byte-level and character-level damage a log line meets in the wild. */
const mutatedLineArb = fc
  .tuple(
    fc.constantFrom(...sampleLines),
    fc.array(
      fc.oneof(
        // a character replaced: control characters, NUL, CR, lone surrogates, U+FFFD, quotes, brackets
        fc.record({
          at: fc.nat(),
          kind: fc.constant("set" as const),
          ch: fc.constantFrom("\u0000", "\r", "\t", "\u001b", "\ud800", "\udfff", "\uFFFD", '"', "{", "}", "[", "]", "=", ":", " ", "é", "𝄞"),
        }),
        // cut here
        fc.record({ at: fc.nat(), kind: fc.constant("cut" as const), ch: fc.constant("") }),
        // a run of junk inserted (long runs test the line length limit)
        fc.record({
          at: fc.nat(),
          kind: fc.constant("insert" as const),
          ch: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("x".repeat(70_000), "é".repeat(30_000), "[".repeat(5000), '"'.repeat(5000))),
        }),
      ),
      { maxLength: 4 },
    ),
  )
  .map(([line, muts]) => {
    let s = line;
    for (const m of muts) {
      const at = s.length ? m.at % (s.length + 1) : 0;
      if (m.kind === "set") s = s.slice(0, at) + m.ch + s.slice(at + 1);
      else if (m.kind === "cut") s = s.slice(0, at);
      else s = s.slice(0, at) + m.ch + s.slice(at);
    }
    return s;
  });

describe("every parser on mutated lines", () => {
  it("no registered parser throws on damaged lines of its own and its neighbours' formats", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMAT_REGISTRY), fc.array(mutatedLineArb, { minLength: 1, maxLength: 12 }), (spec, lines) => {
        const parser = spec.createParser({ collectedMs: Date.UTC(2025, 4, 19), path: "x.log" });
        lines.forEach((l, i) => parser.parseLine(l, i + 1));
        parser.finish?.();
        parser.end?.();
      }),
      { numRuns: 600 },
    );
  });

  it("parseFile accounts for every line of damaged files, in bounded time", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(mutatedLineArb, lineArb), { maxLength: 30 }), fc.constantFrom("\n", "\r\n"), (lines, eol) => {
        const text = lines.join(eol);
        const t0 = performance.now();
        const f = parseFile("fuzz.log", text, { collectedMs: Date.UTC(2025, 4, 19) });
        expect(performance.now() - t0).toBeLessThan(5_000);
        const c = f.counts;
        expect(c.lines).toBe(splitLines(text).length);
        expect(c.parsed + c.blank + c.skipped).toBe(c.lines);
      }),
      { numRuns: 300 },
    );
  });
});
