/**
 * The registry check (as lnav checks its format definitions' samples when it loads them): every
 * spec's samples parse to exactly their expected output, every notMine line is refused, and no
 * record sample is claimed by the sniff of another spec; where a spec says it must come before
 * another (`before`), its witness is accepted by both sniffs and the registry puts it first.
 */
import { describe, expect, it } from "vitest";
import { sniffFormat, sniffLines } from "./parse-file";
import { FORMAT_REGISTRY, formatByName } from "./registry";
import type { FormatSample, FormatSpec, LineResult, ParsedRecord } from "./types";

/** Run one sample through a fresh parser: context lines, the line, finish(), end() for documents. */
function runSample(spec: FormatSpec, s: FormatSample): LineResult {
  const parser = spec.createParser({ collectedMs: s.collectedMs ?? null, path: s.path ?? "" });
  const ctx = s.context ?? [];
  ctx.forEach((l, i) => parser.parseLine(l, i + 1));
  const res = parser.parseLine(s.line, ctx.length + 1);
  (s.after ?? []).forEach((l, i) => parser.parseLine(l, ctx.length + 2 + i));
  parser.finish?.();
  if (parser.deferred) {
    const recs = parser.end?.() ?? [];
    const mine = recs.find((r) => r.line === ctx.length + 1) ?? recs[0];
    return mine ? { type: "record", record: mine.record } : res;
  }
  return res;
}

function isBannerExpect(e: FormatSample["expect"]): e is { banner: Record<string, unknown> } {
  return Object.hasOwn(e, "banner");
}

describe("format registry", () => {
  it("has unique names, a kind, samples with at least one record, and notMine lines", () => {
    const names = new Set<string>();
    for (const spec of FORMAT_REGISTRY) {
      expect(names.has(spec.name), spec.name).toBe(false);
      names.add(spec.name);
      expect(spec.kind, spec.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(
        spec.samples.some((s) => !isBannerExpect(s.expect)),
        `${spec.name} has a record sample`,
      ).toBe(true);
      expect(spec.notMine.length, `${spec.name} notMine`).toBeGreaterThan(0);
      expect(formatByName(spec.name)).toBe(spec);
    }
  });

  for (const spec of FORMAT_REGISTRY) {
    describe(spec.name, () => {
      spec.samples.forEach((s, i) => {
        it(`sample ${i + 1} parses exactly`, () => {
          const res = runSample(spec, s);
          if (isBannerExpect(s.expect)) {
            expect(res?.type, s.line).toBe("banner");
            const banner = (res as unknown as { banner: Record<string, unknown> }).banner;
            for (const [k, v] of Object.entries(s.expect.banner)) expect(banner[k], `${s.line} → banner.${k}`).toEqual(v);
            return;
          }
          expect(res?.type, s.line).toBe("record");
          const rec = (res as { record: ParsedRecord }).record as unknown as Record<string, unknown>;
          for (const [k, v] of Object.entries(s.expect)) expect(rec[k], `${s.line} → ${k}`).toStrictEqual(v);
        });
      });

      spec.notMine.forEach((line, i) => {
        it(`refuses notMine ${i + 1}`, () => {
          const parser = spec.createParser({ collectedMs: null, path: "" });
          const res = parser.parseLine(line, 1);
          parser.finish?.();
          if (parser.deferred) expect(parser.end?.() ?? [], line).toEqual([]);
          else expect(res, line).toBeNull();
        });
      });

      it("is the only spec whose sniff claims its record samples", () => {
        for (const s of spec.samples) {
          if (isBannerExpect(s.expect)) continue;
          const lines = sniffLines([...(s.context ?? []), s.line, ...(s.after ?? [])]);
          const claimed = FORMAT_REGISTRY.filter((o) => o.sniff(s.path ?? "", lines)).map((o) => o.name);
          expect(claimed, s.line).toEqual([spec.name]);
        }
      });

      for (const [other, witness] of Object.entries(spec.before ?? {})) {
        it(`comes before ${other}, whose sniff also accepts its witness`, () => {
          const later = formatByName(other);
          expect(later, `${spec.name}.before names a registered spec`).toBeDefined();
          expect(FORMAT_REGISTRY.indexOf(spec)).toBeLessThan(FORMAT_REGISTRY.indexOf(later as FormatSpec));
          const lines = sniffLines([...witness]);
          expect(spec.sniff("", lines), `${spec.name} accepts its witness`).toBe(true);
          expect(later?.sniff("", lines), `${other} accepts the witness (else the order is not needed)`).toBe(true);
          expect(sniffFormat("", lines)?.name).toBe(spec.name);
        });
      }
    });
  }
});
